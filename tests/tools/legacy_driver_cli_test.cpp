// SPDX-License-Identifier: MIT
// `critter pose|check` with a config whose rules pick the legacy creature drivers
// (driver:FourLeggedWalk, ...) on the built-in creatures: the drivers run in the CLI's 60 Hz
// simulation from --param, the pose moves with Speed, a live creature by default, and `check`
// knows them as implemented.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "support/pose_json.h"

namespace critter {
namespace {

using nlohmann::json;
using test_support::PoseJsonTest;
using test_support::RunResult;

constexpr const char* kWalkConfig = R"({
  "states": { "body": { "layer": "Base", "rules": [
    { "condition": "IsDead", "animation": { "source": "driver:FourLeggedDeath", "blendDuration": 0 } },
    { "condition": "true", "animation": { "source": "driver:FourLeggedWalk", "blendDuration": 0,
                                         "driverArgs": { "Species": "wolf" } } } ] } }
})";

class LegacyDriverCliTest : public PoseJsonTest {
 protected:
  // The local rotations of every node at time `i` of a pose --json.
  static std::vector<json> rotations(const json& out, std::size_t i) {
    std::vector<json> r;
    for (const json& n : out["times"][i]["nodes"]) r.push_back(n["local"]["r"]);
    return r;
  }

  // The largest absolute difference between two lists of [x, y, z, w].
  static double difference(const std::vector<json>& a, const std::vector<json>& b) {
    double d = 0.0;
    for (std::size_t n = 0; n < a.size() && n < b.size(); ++n) {
      for (std::size_t k = 0; k < 4; ++k) {
        d = std::max(d, std::fabs(a[n][k].get<double>() - b[n][k].get<double>()));
      }
    }
    return d;
  }
};

TEST_F(LegacyDriverCliTest, FourLeggedWalkRunsFromParamAndMovesWithSpeed) {
  const std::string config = write_text("walk.json", kWalkConfig);
  const std::vector<std::string> times = {"--time", "0.5", "--time", "0.6", "--time", "0.7"};
  std::vector<std::string> walking = {
      "builtin:four-legged", "--config", config, "--param", "Speed=2", "--param",
      "IsOnGround=true"};
  walking.insert(walking.end(), times.begin(), times.end());
  const json walk = pose_json(walking);
  ASSERT_EQ(walk["times"].size(), 3u) << walk.dump();
  EXPECT_TRUE(all_finite(walk));
  const json& layer = walk["times"][0]["layers"][0];
  EXPECT_EQ(layer["driver"], "FourLeggedWalk") << walk["times"][0]["layers"].dump();
  // The legs swing: the pose changes from one time to the next.
  EXPECT_GT(difference(rotations(walk, 0), rotations(walk, 1)), 0.01);
  EXPECT_GT(difference(rotations(walk, 1), rotations(walk, 2)), 0.01);

  std::vector<std::string> standing = {
      "builtin:four-legged", "--config", config, "--param", "Speed=0", "--param",
      "IsOnGround=true"};
  standing.insert(standing.end(), times.begin(), times.end());
  const json stand = pose_json(standing);
  ASSERT_EQ(stand["times"].size(), 3u);
  EXPECT_TRUE(all_finite(stand));
  // Standing still, the creature is alive (Health defaults to 1) and holds one pose.
  EXPECT_EQ(stand["times"][0]["layers"][0]["driver"], "FourLeggedWalk");
  EXPECT_LT(difference(rotations(stand, 1), rotations(stand, 2)), 1e-6);
  EXPECT_GT(difference(rotations(walk, 2), rotations(stand, 2)), 0.01);
}

TEST_F(LegacyDriverCliTest, FasterSpeedCantersAndIsDeadRollsOver) {
  const std::string config = write_text("walk.json", kWalkConfig);
  const json walk = pose_json({"builtin:four-legged", "--config", config, "--param", "Speed=1",
                               "--param", "IsOnGround=true", "--time", "1"});
  const json canter = pose_json({"builtin:four-legged", "--config", config, "--param", "Speed=6",
                                 "--param", "IsOnGround=true", "--time", "1"});
  EXPECT_GT(difference(rotations(walk, 0), rotations(canter, 0)), 0.01);
  const json dead = pose_json(
      {"builtin:four-legged", "--config", config, "--param", "IsDead=true", "--time", "2"});
  EXPECT_EQ(dead["times"][0]["layers"][0]["driver"], "FourLeggedDeath");
  EXPECT_TRUE(all_finite(dead));
  // The body (bone 0 of the built-in creature) rolls onto its side, and lies as the rig of
  // --creature lays it: the CLI gives the driver the same body height and life.
  EXPECT_GT(difference(rotations(dead, 0), rotations(walk, 0)), 0.2);
  const json rig = pose_json({"builtin:four-legged", "--creature", "four-legged", "--species",
                              "wolf", "--state", "health=0", "--time", "2"});
  const json& body = dead["times"][0]["nodes"][0]["local"];
  const json& rig_body = rig["times"][0]["nodes"][0]["local"];
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_NEAR(body["r"][k].get<double>(), rig_body["r"][k].get<double>(), 1e-5) << k;
  }
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_NEAR(body["t"][k].get<double>(), rig_body["t"][k].get<double>(), 1e-5) << k;
  }
}

TEST_F(LegacyDriverCliTest, NonFiniteParamsNeverReachThePose) {
  const std::string config = write_text("walk.json", kWalkConfig);
  const json out =
      pose_json({"builtin:four-legged", "--config", config, "--param", "Speed=1e300", "--param",
                 "IsOnGround=true", "--param", "LookAngleX=-1e300", "--time", "0.5"});
  EXPECT_TRUE(all_finite(out));
}

TEST_F(LegacyDriverCliTest, CheckKnowsTheImplementedDrivers) {
  const std::string config = write_text("walk.json", kWalkConfig);
  const RunResult ok = run({"check", config, "builtin:four-legged"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.err.find("not implemented"), std::string::npos) << ok.err;
  EXPECT_NE(ok.out.find("0 errors, 0 warnings"), std::string::npos) << ok.out;

  const std::string turn = write_text("turn.json", R"({"states": {"body": {"layer": "Base",
      "rules": [{"condition": "true", "animation": "driver:GltfBodyTurn"}]}}})");
  const RunResult declared = run({"check", turn, "builtin:four-legged"});
  EXPECT_EQ(declared.exit_code, 0) << declared.err;
  EXPECT_NE(declared.err.find("driver 'GltfBodyTurn' is not implemented yet"), std::string::npos)
      << declared.err;

  // A property the driver does not list is an error at its pointer.
  const std::string typo = write_text("typo.json", R"({"states": {"body": {"layer": "Base",
      "rules": [{"condition": "true", "animation": {"source": "driver:FourLeggedWalk",
                 "driverArgs": {"Specie": "wolf"}}}]}}})");
  const RunResult bad = run({"check", typo, "builtin:four-legged"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("unknown driver property 'Specie' for driver 'FourLeggedWalk'"),
            std::string::npos)
      << bad.err;
}

}  // namespace
}  // namespace critter
