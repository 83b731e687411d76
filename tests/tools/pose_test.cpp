// SPDX-License-Identifier: MIT
// `critter pose`: exact poses at given times, in text and JSON, and its usage errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/cli_runner.h"

namespace {

using critter::test_support::CliTest;
using critter::test_support::RunResult;
using critter::test_support::shared_model;

const char* const kCubic = "assimp_interpolation_synthetic/animation_interpolation_cubic.gltf";
const char* const kStep = "assimp_interpolation_synthetic/animation_interpolation_step.gltf";

TEST_F(CliTest, PoseJsonGivesGltfInterpolationValues) {
  const RunResult r =
      run({"pose", shared_model(kCubic), "--time", "0.25", "--time", "0.5", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["mode"], "loop_forward");
  EXPECT_DOUBLE_EQ(doc["duration"].get<double>(), 1.0);
  ASSERT_EQ(doc["times"].size(), 2u);
  const auto& n0 = doc["times"][0]["nodes"][0];
  EXPECT_EQ(n0["index"], 0);
  EXPECT_EQ(n0["name"], "Mover");
  // CUBICSPLINE with zero tangents from 0 to 1: x(0.25) = 3(0.25)^2 - 2(0.25)^3 = 0.15625.
  EXPECT_NEAR(n0["local"]["t"][0].get<double>(), 0.15625, 1e-6);
  ASSERT_EQ(n0["world"].size(), 16u);
  EXPECT_NEAR(n0["world"][12].get<double>(), 0.15625, 1e-6);  // column-major translation x
  EXPECT_NEAR(n0["world"][15].get<double>(), 1.0, 1e-6);
  EXPECT_NEAR(doc["times"][1]["nodes"][0]["local"]["t"][0].get<double>(), 0.5, 1e-6);
}

TEST_F(CliTest, PoseTimesPastTheClipLoopUnlessAModeSaysOtherwise) {
  RunResult r = run({"pose", shared_model(kStep), "--time", "1.75", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // STEP at clip time 0.75 holds the first key (0).
  EXPECT_NEAR(nlohmann::json::parse(r.out)["times"][0]["nodes"][0]["local"]["t"][0].get<double>(),
              0.0, 1e-6);
  r = run({"pose", shared_model(kStep), "--time", "1.75", "--mode", "once_forward", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Once forward clamps at the end, where STEP takes the last key (1).
  EXPECT_NEAR(nlohmann::json::parse(r.out)["times"][0]["nodes"][0]["local"]["t"][0].get<double>(),
              1.0, 1e-6);
}

TEST_F(CliTest, PoseMorphWeightsFollowTheClip) {
  const RunResult r = run({"pose", shared_model("AnimatedMorphSphere/AnimatedMorphSphere.gltf"),
                           "--time", "0", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["times"][0]["morph"].size(), 1u);
  EXPECT_EQ(doc["times"][0]["morph"][0]["weights"].size(), 2u);
}

TEST_F(CliTest, PoseWorldMatricesChainParents) {
  const RunResult r =
      run({"pose", shared_model("RiggedFigure/RiggedFigure.glb"), "--time", "0.6", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  const auto& nodes = doc["times"][0]["nodes"];
  ASSERT_GT(nodes.size(), 19u);
  // Nodes come in glTF node order.
  for (std::size_t i = 1; i < nodes.size(); ++i)
    EXPECT_LT(nodes[i - 1]["index"].get<int>(), nodes[i]["index"].get<int>());
}

TEST_F(CliTest, PoseTextNamesNodesAndTimes) {
  const RunResult r = run({"pose", shared_model(kCubic), "--anim", "0", "--time", "0.25"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("t = 0.25 s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[0] Mover  t (0.15625, 0, 0)"), std::string::npos) << r.out;
}

// Every animated shared glTF poses at several times of each of its clips with finite matrices.
TEST_F(CliTest, PoseWorksOnEveryAnimatedSharedGltf) {
  const char* const models[] = {"RiggedFigure/RiggedFigure.glb",
                                "SimpleSkin/SimpleSkin.gltf",
                                "girl/girl.glb",
                                "greenman/greenman.glb",
                                "Wizard/Wizard.glb",
                                "ozz_cubicspline/cubicspline.gltf",
                                "ozz_multiple_roots/multiple_roots.gltf",
                                "MorphStressTest/MorphStressTest.gltf",
                                "AnimatedMorphSphere/AnimatedMorphSphere.gltf",
                                "AnimatedTriangle/AnimatedTriangle.gltf",
                                kCubic,
                                kStep};
  for (const char* m : models) {
    const RunResult info = run({"info", shared_model(m), "--json"});
    ASSERT_EQ(info.exit_code, 0) << m << ": " << info.err;
    const auto clips = nlohmann::json::parse(info.out)["animations"];
    ASSERT_FALSE(clips.empty()) << m;
    for (std::size_t c = 0; c < clips.size(); ++c) {
      const RunResult r = run({"pose", shared_model(m), "--anim", std::to_string(c), "--time", "0",
                               "--time", "0.37", "--time", "100.5", "--json"});
      ASSERT_EQ(r.exit_code, 0) << m << " clip " << c << ": " << r.err;
      const auto doc = nlohmann::json::parse(r.out);
      ASSERT_EQ(doc["times"].size(), 3u);
      for (const auto& t : doc["times"])
        for (const auto& n : t["nodes"])
          for (const auto& v : n["world"]) ASSERT_TRUE(v.is_number()) << m << " " << n["name"];
    }
  }
}

TEST_F(CliTest, PoseUsageErrors) {
  RunResult r = run({"pose", shared_model(kCubic), "--anim", "run"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(":--anim: no animation 'run'"), std::string::npos) << r.err;
  r = run({"pose", shared_model(kCubic), "--mode", "sideways"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown playback mode 'sideways'"), std::string::npos) << r.err;
  for (const char* time : {"-1", "nan", "inf", "1e39"}) {
    r = run({"pose", shared_model(kCubic), "--time", time});
    EXPECT_EQ(r.exit_code, 2) << time;
    EXPECT_NE(r.err.find("--time"), std::string::npos) << time << ": " << r.err;
    EXPECT_EQ(r.out, "") << time;
  }
  r = run({"pose", "/nonexistent/x.glb"});
  EXPECT_EQ(r.exit_code, 1);
}

}  // namespace
