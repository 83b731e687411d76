// SPDX-License-Identifier: MIT
// The loader flags every model-reading command shares (--look, --lod, --game, --clips).
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "critter/asset/demo_creature.h"
#include "support/cli_runner.h"
#include "support/insomniac_writer.h"

namespace {

using critter::test_support::CliTest;
using critter::test_support::RunResult;
using critter::test_support::shared_model;

// An Insomniac .model with two looks: look 0 shows subset 0, look 1 shows subset 1.
std::string write_two_look_model(const std::filesystem::path& dir) {
  critter::RawModel src = critter::make_demo_quadruped();
  src.meshes.push_back(src.meshes[0]);
  critter::testing::InsomniacWriteOptions wo;
  wo.looks = {{{0, 1}}, {{1, 1}}};
  const auto file = critter::testing::write_insomniac_model(src, wo);
  const std::string path = (dir / "creature.model").string();
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(file.bytes.data()),
             static_cast<std::streamsize>(file.bytes.size()));
  return path;
}

TEST_F(CliTest, LookFlagPicksTheInsomniacLook) {
  const std::string path = write_two_look_model(dir_);
  for (const char* cmd : {"info", "pose"}) {
    RunResult r = run({cmd, path, "--look", "5", "--json"});
    EXPECT_EQ(r.exit_code, 1) << cmd;
    EXPECT_NE(r.err.find("look 5 does not exist (2 looks)"), std::string::npos) << r.err;
  }
  RunResult look0 = run({"info", path, "--json"});
  RunResult look1 = run({"info", path, "--look", "1", "--lod", "0", "--json"});
  ASSERT_EQ(look0.exit_code, 0) << look0.err;
  ASSERT_EQ(look1.exit_code, 0) << look1.err;
  const auto m0 = nlohmann::json::parse(look0.out)["meshes"];
  const auto m1 = nlohmann::json::parse(look1.out)["meshes"];
  ASSERT_EQ(m0.size(), 1u);
  ASSERT_EQ(m1.size(), 1u);
  EXPECT_NE(m0[0]["name"], m1[0]["name"]);
  RunResult lod = run({"info", path, "--lod", "3"});
  EXPECT_EQ(lod.exit_code, 1) << lod.err;
  // A negative look or LOD means nothing, whatever the file: a usage error naming the flag.
  for (const char* flag : {"--look", "--lod"}) {
    for (const char* cmd : {"info", "pose", "convert"}) {
      std::vector<std::string> args = {cmd, shared_model("SimpleSkin/SimpleSkin.gltf"), flag, "-1"};
      if (std::string(cmd) == "convert") args.insert(args.end(), {"-o", (dir_ / "x.glb").string()});
      const RunResult r = run(args);
      EXPECT_EQ(r.exit_code, 2) << cmd << " " << flag << ": " << r.err;
      EXPECT_NE(r.err.find(flag), std::string::npos) << r.err;
    }
  }
}

TEST_F(CliTest, GameFlagIsCheckedForInsomniacFiles) {
  const std::string path = write_two_look_model(dir_);
  const RunResult r = run({"info", path, "--game", "halo"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("halo"), std::string::npos) << r.err;
}

TEST_F(CliTest, MalformedClipsIsAUsageErrorOnEveryCommand) {
  const std::string model = shared_model("minetest_cart_b3d/carts_cart.b3d");
  const std::string png = (dir_ / "x.png").string();
  const std::vector<std::vector<std::string>> calls = {
      {"info", model, "--clips", "walk:168-"},
      {"pose", model, "--clips", "walk:168-"},
      {"render", model, "--clips", "walk:168-", "-o", png},
      {"convert", model, "--clips", "walk:168-", "-o", (dir_ / "x.glb").string()}};
  for (const auto& args : calls) {
    const RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.err;
    EXPECT_NE(r.err.find("entry 1 'walk:168-': missing end frame"), std::string::npos)
        << args[0] << ": " << r.err;
  }
}

TEST_F(CliTest, ClipsFlagSplitsTheTrackForInfo) {
  const std::string model = shared_model("minetest_cart_b3d/carts_cart.b3d");
  const RunResult r = run({"info", model, "--clips", "a:0-1,b:1-2", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto anims = nlohmann::json::parse(r.out)["animations"];
  ASSERT_EQ(anims.size(), 2u);
  EXPECT_EQ(anims[0]["name"], "a");
  EXPECT_EQ(anims[1]["name"], "b");
}

// --clips-fps counts the ranges at the given rate: 10 frames at 5 fps last 2 seconds, whatever
// the file declares.
TEST_F(CliTest, ClipsFpsSetsTheRateOfTheRanges) {
  const std::string model = shared_model("minetest_cart_b3d/carts_cart.b3d");
  const RunResult r = run({"info", model, "--clips", "a:0-10", "--clips-fps", "5", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto anims = nlohmann::json::parse(r.out)["animations"];
  ASSERT_EQ(anims.size(), 1u);
  EXPECT_NEAR(anims[0]["duration"].get<double>(), 2.0, 1e-4) << r.out;
  const RunResult fast = run({"info", model, "--clips", "a:0-10", "--clips-fps", "20", "--json"});
  ASSERT_EQ(fast.exit_code, 0) << fast.err;
  EXPECT_NEAR(nlohmann::json::parse(fast.out)["animations"][0]["duration"].get<double>(), 0.5,
              1e-4);
}

TEST_F(CliTest, BadClipsFpsIsAUsageErrorOnEveryCommand) {
  const std::string model = shared_model("minetest_cart_b3d/carts_cart.b3d");
  for (const char* fps : {"0", "-30", "nan", "inf"}) {
    const std::vector<std::vector<std::string>> calls = {
        {"info", model, "--clips", "a:0-1", "--clips-fps", fps},
        {"pose", model, "--clips", "a:0-1", "--clips-fps", fps},
        {"render", model, "--clips", "a:0-1", "--clips-fps", fps, "-o", (dir_ / "x.png").string()},
        {"convert", model, "--clips", "a:0-1", "--clips-fps", fps, "-o",
         (dir_ / "x.glb").string()}};
    for (const auto& args : calls) {
      const RunResult r = run(args);
      EXPECT_EQ(r.exit_code, 2) << args[0] << " " << fps << ": " << r.err;
      EXPECT_NE(r.err.find("--clips-fps"), std::string::npos) << r.err;
    }
  }
  const RunResult alone = run({"info", model, "--clips-fps", "30"});
  EXPECT_EQ(alone.exit_code, 2) << alone.err;
  EXPECT_NE(alone.err.find("needs --clips"), std::string::npos) << alone.err;
}

}  // namespace
