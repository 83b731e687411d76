// SPDX-License-Identifier: MIT
// Runs the built `critter` binary as a user would and checks exit codes, stdout and stderr.
#include <gtest/gtest.h>

#include "support/cli_runner.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;

using critter::test_support::CliTest;
using critter::test_support::contains;
using critter::test_support::RunResult;
using critter::test_support::shared_model;
using critter::test_support::slurp;

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

void put_u32(std::string& b, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<char>((v >> (8 * i)) & 0xffu));
}

TEST_F(CliTest, HelpListsCommandsAndExitsZero) {
  const RunResult r = run({"--help"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "info")) << r.out;
  EXPECT_TRUE(contains(r.out, "demo")) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST_F(CliTest, CommandHelpExitsZero) {
  const RunResult r = run({"info", "--help"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "--json")) << r.out;
}

TEST_F(CliTest, VersionPrintsNameAndVersion) {
  const RunResult r = run({"--version"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(starts_with(r.out, "critter ")) << r.out;
}

TEST_F(CliTest, NoArgumentsIsAUsageError) {
  const RunResult r = run({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(r.err.empty());
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST_F(CliTest, UnknownCommandIsAUsageError) {
  const RunResult r = run({"frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "frobnicate")) << r.err;
}

TEST_F(CliTest, UnknownOptionIsAUsageError) {
  const RunResult r = run({"info", "--no-such-option", "x.glb"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "--no-such-option")) << r.err;
}

TEST_F(CliTest, InfoWithoutFileIsAUsageError) {
  const RunResult r = run({"info"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "FILE")) << r.err;
}

TEST_F(CliTest, InfoOnMissingFileNamesTheFile) {
  const std::string path = (dir_ / "no_such_model.glb").string();
  const RunResult r = run({"info", path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty()) << r.out;
  // Error::to_string() on one line: the file has no location inside it.
  EXPECT_EQ(r.err, "critter: " + path + ": cannot open '" + path + "'\n");
}

TEST_F(CliTest, InfoOnTruncatedGlbNamesAByteOffset) {
  // A GLB header announcing 100 bytes and a 64-byte JSON chunk, cut off after 24 bytes.
  std::string glb = "glTF";
  put_u32(glb, 2);
  put_u32(glb, 100);
  put_u32(glb, 64);
  glb += "JSON";
  glb += "{\"ass";
  const std::string path = (dir_ / "truncated.glb").string();
  std::ofstream(path, std::ios::binary) << glb;
  const RunResult r = run({"info", path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty()) << r.out;
  // The length field is at byte 8; the file is 4 + 12 + 4 + 5 = 25 bytes long.
  EXPECT_EQ(r.err, "critter: " + path +
                       ":byte 8: GLB header gives a length of 100 bytes, the file has 25\n");
}

TEST_F(CliTest, InfoOnTruncatedRealGlbNamesAByteOffset) {
  const std::string whole = slurp(shared_model("RiggedFigure/RiggedFigure.glb"));
  ASSERT_GT(whole.size(), 4000u);
  const std::string path = (dir_ / "half.glb").string();
  const std::size_t half = whole.size() / 2;
  std::ofstream(path, std::ios::binary) << whole.substr(0, half);
  const RunResult r = run({"info", path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "critter: " + path + ":byte 8: GLB header gives a length of " +
                       std::to_string(whole.size()) + " bytes, the file has " +
                       std::to_string(half) + "\n");
}

TEST_F(CliTest, InfoOnBadReferenceNamesTheJsonPointer) {
  const std::string path = (dir_ / "bad_mesh.gltf").string();
  std::ofstream(path) << R"({"asset":{"version":"2.0"},"nodes":[{"name":"a","mesh":3}]})";
  const RunResult r = run({"info", "--json", path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(r.err, "critter: " + path + ":/nodes/0/mesh: mesh 3 does not exist (0 in the file)\n");
}

TEST_F(CliTest, InfoReportsMissingImagesAsWarnings) {
  const std::string path = (dir_ / "lost_image.gltf").string();
  std::ofstream(path) << R"({"asset":{"version":"2.0"},"images":[{"uri":"gone.png"}],)"
                         R"("nodes":[{"name":"lone"}]})";
  const RunResult text = run({"info", path});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(contains(text.out, "\nbones (1):\n  [0] \"lone\"  (node 0)\n")) << text.out;
  EXPECT_TRUE(contains(text.out, "  [0] (unnamed): missing gone.png\n")) << text.out;
  EXPECT_TRUE(contains(text.out, "\nbounds: (empty)\n")) << text.out;
  EXPECT_TRUE(contains(text.out, "warnings (1):\n  " + path + ":/images/0/uri: warning: "))
      << text.out;

  const RunResult json = run({"info", "--json", path});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const nlohmann::json j = nlohmann::json::parse(json.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << json.out;
  ASSERT_EQ(j["images"].size(), 1u);
  EXPECT_EQ(j["images"][0]["storage"], "missing");
  EXPECT_EQ(j["images"][0]["uri"], "gone.png");
  ASSERT_EQ(j["warnings"].size(), 1u);
  const nlohmann::json& warning = j["warnings"][0];
  ASSERT_TRUE(warning.is_object()) << warning.dump();
  EXPECT_EQ(warning["code"], "warning");
  EXPECT_EQ(warning["file"], path);
  EXPECT_EQ(warning["location"], "/images/0/uri");
  EXPECT_TRUE(warning["message"].is_string());
  // The text form prints the same parts.
  EXPECT_TRUE(contains(
      text.out, path + ":/images/0/uri: warning: " + warning["message"].get<std::string>() + "\n"))
      << text.out;
  EXPECT_TRUE(j["bounds"]["min"].is_null());
  EXPECT_EQ(j["bones"], nlohmann::json::parse(R"([{"index":0,"name":"lone","parent":-1}])"));
}

TEST_F(CliTest, InfoJsonOnRiggedFigure) {
  const std::string path = shared_model("RiggedFigure/RiggedFigure.glb");
  const RunResult r = run({"info", "--json", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  for (const char* key :
       {"file", "format", "bones", "meshes", "skins", "animations", "bounds", "warnings"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["file"], path);
  EXPECT_EQ(j["format"], "glb");

  // Bones are parents-first; every one has a name, a file index and a parent position.
  ASSERT_TRUE(j["bones"].is_array());
  EXPECT_GE(j["bones"].size(), 19u);
  for (std::size_t i = 0; i < j["bones"].size(); ++i) {
    const auto& b = j["bones"][i];
    ASSERT_TRUE(b.contains("name") && b.contains("parent") && b.contains("index")) << b;
    EXPECT_LT(b["parent"].get<int>(), static_cast<int>(i));
    EXPECT_GE(b["parent"].get<int>(), -1);
  }

  // INDEX.md: 1 skin with 19 joints; 1 animation with 57 channels, LINEAR, 1.25 s.
  ASSERT_EQ(j["skins"].size(), 1u);
  EXPECT_EQ(j["skins"][0]["joints"], 19);
  EXPECT_TRUE(j["skins"][0].contains("name"));
  ASSERT_EQ(j["animations"].size(), 1u);
  EXPECT_EQ(j["animations"][0]["channels"], 57);
  EXPECT_NEAR(j["animations"][0]["duration"].get<double>(), 1.25, 0.01);
  EXPECT_EQ(j["animations"][0]["interpolations"], nlohmann::json::array({"LINEAR"}));

  ASSERT_GE(j["meshes"].size(), 1u);
  const auto& mesh = j["meshes"][0];
  EXPECT_TRUE(mesh.contains("name"));
  EXPECT_EQ(mesh["morph_targets"], 0);
  ASSERT_GE(mesh["parts"].size(), 1u);
  const auto& part = mesh["parts"][0];
  EXPECT_GT(part["vertices"].get<int>(), 0);
  EXPECT_GT(part["indices"].get<int>(), 0);
  EXPECT_TRUE(part.contains("material"));
  const auto& attrs = part["attributes"];
  for (const char* a : {"POSITION", "NORMAL", "JOINTS_0", "WEIGHTS_0"}) {
    EXPECT_NE(std::find(attrs.begin(), attrs.end(), a), attrs.end()) << a << " in " << attrs;
  }

  ASSERT_TRUE(j["bounds"]["min"].is_array());
  ASSERT_EQ(j["bounds"]["min"].size(), 3u);
  for (int k = 0; k < 3; ++k) {
    EXPECT_LT(j["bounds"]["min"][k].get<double>(), j["bounds"]["max"][k].get<double>());
  }
  EXPECT_TRUE(j["warnings"].is_array());
}

TEST_F(CliTest, InfoTextOnRiggedFigure) {
  const RunResult r = run({"info", shared_model("RiggedFigure/RiggedFigure.glb")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "format: glb")) << r.out;
  EXPECT_TRUE(contains(r.out, "19 joints")) << r.out;
  EXPECT_TRUE(contains(r.out, "57 channels, LINEAR")) << r.out;
  EXPECT_TRUE(contains(r.out, "animations (1):")) << r.out;
  // Depth-first tree: each leg chain sits under its own hip, not under the torso's next joint.
  EXPECT_TRUE(contains(r.out,
                       "        [4] \"leg_joint_R_1\"  (node 3)\n"
                       "          [7] \"leg_joint_R_2\"  (node 4)\n"))
      << r.out;
}

TEST_F(CliTest, InfoShowsMorphTargets) {
  const std::string path = shared_model("MorphStressTest/MorphStressTest.gltf");
  const RunResult text = run({"info", path});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(contains(text.out, "8 morph targets")) << text.out;
  // Three weight animations (INDEX.md).
  EXPECT_TRUE(contains(text.out, "animations (3):")) << text.out;

  const RunResult json = run({"info", "--json", path});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const nlohmann::json j = nlohmann::json::parse(json.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  ASSERT_EQ(j["meshes"].size(), 1u);
  EXPECT_EQ(j["meshes"][0]["morph_targets"], 8);
  EXPECT_EQ(j["meshes"][0]["parts"].size(), 2u);
  EXPECT_EQ(j["images"].size(), 3u);
}

TEST_F(CliTest, InfoReadsColladaAndB3d) {
  // INDEX.md: two <animation_clip>s "bend" and "turn"; the cart has one bone-driven animation and
  // a texture that is present beside it.
  const RunResult dae =
      run({"info", "--json",
           shared_model("library_animation_clips_collada/library_animation_clips.dae")});
  ASSERT_EQ(dae.exit_code, 0) << dae.err;
  const nlohmann::json d = nlohmann::json::parse(dae.out, nullptr, false);
  ASSERT_FALSE(d.is_discarded()) << dae.out;
  EXPECT_EQ(d["format"], "collada");
  ASSERT_EQ(d["animations"].size(), 2u);
  EXPECT_EQ(d["animations"][0]["name"], "bend");
  EXPECT_EQ(d["animations"][1]["name"], "turn");

  const RunResult b3d = run({"info", "--json", shared_model("minetest_cart_b3d/carts_cart.b3d")});
  ASSERT_EQ(b3d.exit_code, 0) << b3d.err;
  const nlohmann::json b = nlohmann::json::parse(b3d.out, nullptr, false);
  ASSERT_FALSE(b.is_discarded()) << b3d.out;
  EXPECT_EQ(b["format"], "b3d");
  EXPECT_EQ(b["animations"].size(), 1u);
  ASSERT_EQ(b["images"].size(), 1u);
  EXPECT_EQ(b["images"][0]["storage"], "external");
}

TEST_F(CliTest, InfoOnUnknownExtensionIsBadInput) {
  const std::string path = (dir_ / "notes.xyz").string();
  std::ofstream(path) << "not a model\n";
  const RunResult r = run({"info", path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(starts_with(r.err, "critter: " + path + ": no reader for '.xyz' files")) << r.err;
}

TEST_F(CliTest, JsonKeysComeInDocumentedOrder) {
  const RunResult r = run({"demo", "--info", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::size_t file = r.out.find("\"file\"");
  const std::size_t bones = r.out.find("\"bones\"");
  const std::size_t warnings = r.out.find("\"warnings\"");
  ASSERT_NE(warnings, std::string::npos);
  EXPECT_LT(file, bones);
  EXPECT_LT(bones, warnings);
}

TEST_F(CliTest, DemoDescribesTheQuadruped) {
  const RunResult r = run({"demo", "--info"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "\"walk\": 1 s, 11 channels, LINEAR")) << r.out;
  EXPECT_TRUE(contains(r.out, "\"idle\": 2 s, 4 channels, LINEAR")) << r.out;
  // The leg hangs from the body, two levels below the root: indented 2 + 2 * 2 spaces.
  EXPECT_TRUE(contains(r.out, "\n      [6] \"leg_front_left_upper\"\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "[0] \"demo_skin\": 18 joints")) << r.out;
  EXPECT_TRUE(contains(r.out, "bounds: min (-0.18, 0, -0.7), max (0.18, 0.86, 0.58)")) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST_F(CliTest, DemoListsTheZooAndWhatItsRigsShowed) {
  const RunResult r = run({"demo", "--info", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  const nlohmann::json& zoo = j["zoo"];
  ASSERT_TRUE(zoo.is_array()) << r.out;
  auto member = [&](const std::string& name) {
    for (const nlohmann::json& m : zoo) {
      if (m["name"] == name) return m;
    }
    ADD_FAILURE() << "no " << name << " in the zoo";
    return nlohmann::json::object();
  };
  auto has = [](const nlohmann::json& list, const std::string& name) {
    return std::find(list.begin(), list.end(), name) != list.end();
  };
  // Every rig kind is in the zoo.
  for (const char* kind : {"four-legged", "human", "bird", "flightless-bird", "fish"}) {
    bool found = false;
    for (const nlohmann::json& m : zoo) found = found || m["kind"] == kind;
    EXPECT_TRUE(found) << kind;
  }
  const nlohmann::json wolf = member("wolf");
  EXPECT_TRUE(has(wolf["gaits"], "walk") && has(wolf["gaits"], "trot") &&
              has(wolf["gaits"], "canter"))
      << wolf;
  const nlohmann::json horse = member("horse");
  EXPECT_TRUE(has(horse["gaits"], "canter")) << horse;
  EXPECT_FALSE(has(horse["gaits"], "trot")) << horse;
  const nlohmann::json cow = member("cow");
  EXPECT_TRUE(has(cow["gaits"], "dead")) << cow;
  EXPECT_EQ(cow["death_phase"], 1.0) << cow;
  EXPECT_TRUE(has(member("human")["events"], "AttackHit")) << member("human");
  EXPECT_TRUE(has(member("ostrich")["gaits"], "run")) << member("ostrich");
  EXPECT_TRUE(has(member("bird")["gaits"], "fly")) << member("bird");
  EXPECT_TRUE(has(member("fish")["gaits"], "swim")) << member("fish");
  EXPECT_EQ(member("camel")["death_phase"], 0.0);
  // The text form lists the same zoo.
  const RunResult text = run({"demo", "--info"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(contains(text.out,
                       "\n  wolf (four-legged, wolf): walks, trots, then canters as its "
                       "speed rises; gaits: idle walk trot canter\n"))
      << text.out;
}

TEST_F(CliTest, DemoJsonHasTheStableKeys) {
  const RunResult r = run({"demo", "--info", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_TRUE(j["file"].is_null());
  EXPECT_EQ(j["format"], "code");
  ASSERT_EQ(j["bones"].size(), 18u);
  EXPECT_EQ(j["bones"][0]["parent"], -1);
  EXPECT_EQ(j["skins"][0]["joints"], 18);
  ASSERT_EQ(j["animations"].size(), 2u);
  EXPECT_EQ(j["animations"][0]["name"], "walk");
  EXPECT_EQ(j["animations"][0]["duration"], 1.0);
  EXPECT_EQ(j["meshes"][0]["parts"][0]["vertices"], 17 * 24);
  EXPECT_EQ(j["meshes"][0]["parts"][0]["indices"], 17 * 36);
  EXPECT_EQ(j["meshes"][0]["parts"][0]["material_name"], "fur");
  const double max[3] = {0.18, 0.86, 0.58};
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(j["bounds"]["max"][k].get<double>(), max[k], 1e-6);
  EXPECT_EQ(j["warnings"], nlohmann::json::array());
}

}  // namespace

// A Collada file that makes Debian's Assimp abort (ai_assert on `<polygons count="2-">`): the
// command reads it in a child process by default, so it exits 1 with an error naming the file
// instead of dying with SIGABRT (134).
TEST_F(CliTest, AssimpAbortOnAHostileFileIsAnErrorNotACrash) {
  const std::string path = write_text(
      "hostile.dae",
      "<?xml version=\"1.0\"?><COLLADA><library_geometries><geometry><mesh><polygons "
      "count=\"2-\"><p>0</p></polygons></mesh></geometry></library_geometries></COLLADA>");
  const RunResult r = run({"info", path});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err, "critter: " + path +
                       ": Assimp aborted on this file (SIGABRT); the import ran in a child "
                       "process, which alone ended\n");
}
