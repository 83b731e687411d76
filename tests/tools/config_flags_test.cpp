// SPDX-License-Identifier: MIT
// `critter pose|render --config C.json --param NAME=VALUE`: a state of an animation config shown
// without a game. The model is the demo quadruped written to a .glb; its clips are known in closed
// form (asset/demo_creature.h), so expected values are computed from the clip definitions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>

#include <nlohmann/json.hpp>

#include "critter/asset/demo_creature.h"
#include "critter/io/gltf/gltf_writer.h"
#include "critter/io/image/image_writer.h"
#include "support/cli_runner.h"
#include "support/demo_files.h"
#include "support/glb_builder.h"

namespace critter {
namespace {

using test_support::CliTest;
using test_support::RunResult;

// Walk on the ground when fast enough, idle otherwise; Gait 'rest' (a host name, declared nowhere
// but read by the first condition) empties the Base layer, which shows the rest pose.
constexpr const char* kConfig = R"({
  "template": "Simple",
  "animations": {
    "idle": { "source": "idle" },
    "walk": { "source": "walk", "events": [ { "time": 0.5, "name": "Footstep", "data": "left" } ] }
  },
  "states": {
    "gait": { "layer": "Base", "rules": [
      { "condition": "[Gait] == 'rest'", "animation": null },
      { "condition": "[IsOnGround]", "rules": [
          { "condition": "[SpeedXZ] > 0.2", "animation": "walk" },
          { "condition": "true", "animation": "idle" } ] },
      { "condition": "true", "animation": "idle" } ] }
  }
})";

constexpr double kPi = std::numbers::pi;

double deg(double d) {
  return d * kPi / 180.0;
}

class ConfigFlagsTest : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    model_ = testing::write_demo_quadruped(dir_);
    ASSERT_FALSE(model_.empty());
    config_ = write_text("gait.json", kConfig);
  }

  // `pose --config` JSON for the given extra arguments; fails the test on a non-zero exit.
  nlohmann::json pose(const std::vector<std::string>& extra, const std::string& config = "") const {
    std::vector<std::string> args = {"pose", model_, "--config", config.empty() ? config_ : config,
                                     "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    if (r.exit_code != 0) return nlohmann::json::object();
    return nlohmann::json::parse(r.out);
  }

  std::string model_;
  std::string config_;
};

const nlohmann::json& node(const nlohmann::json& time, const std::string& name) {
  for (const auto& n : time["nodes"])
    if (n["name"] == name) return n;
  ADD_FAILURE() << "no node " << name;
  static const nlohmann::json none = nlohmann::json::object();
  return none;
}

// Expects the node's local rotation (x, y, z, w) to be `radians` about +Y.
void expect_yaw(const nlohmann::json& n, double radians) {
  const auto& r = n["local"]["r"];
  ASSERT_EQ(r.size(), 4u);
  EXPECT_NEAR(r[0].get<double>(), 0.0, 1e-5);
  EXPECT_NEAR(r[1].get<double>(), std::sin(radians / 2.0), 1e-5);
  EXPECT_NEAR(r[2].get<double>(), 0.0, 1e-5);
  EXPECT_NEAR(r[3].get<double>(), std::cos(radians / 2.0), 1e-5);
}

TEST_F(ConfigFlagsTest, SpeedPicksTheWalkOrTheIdleClipAtTheSimulatedTime) {
  // 75 steps of 1/60 s. The walk (1 s loop) is then at 0.25 s: key 2 of 8, phase pi/2, where the
  // tail is yawed 20 deg * sin(pi/2) and the body bobs 0.015 * (1 - cos(pi)) / 2 = 0.015 m up.
  const auto walk = pose({"--param", "SpeedXZ=1", "--param", "IsOnGround=true", "--time", "1.25"});
  ASSERT_EQ(walk["times"].size(), 1u);
  const auto& w = walk["times"][0];
  expect_yaw(node(w, "tail_base"), deg(20.0));
  EXPECT_NEAR(node(w, "body")["local"]["t"][1].get<double>(), 0.55 + 0.015, 1e-5);
  ASSERT_EQ(w["layers"].size(), 1u);
  EXPECT_EQ(w["layers"][0]["name"], "Base");
  EXPECT_EQ(w["layers"][0]["clip"], "walk");
  EXPECT_NEAR(w["layers"][0]["clip_time"].get<double>(), 0.25, 1e-4);
  EXPECT_NEAR(w["layers"][0]["weight"].get<double>(), 1.0, 1e-6);

  // The idle (2 s loop) at 1.25 s: key 5 of 8, phase 5pi/4: tail yaw 8 deg * sin(5pi/4), body
  // down by 0.008 * (1 - cos(5pi/4)) / 2 and x/y scale 1 + 0.03 * (1 - cos(5pi/4)) / 2.
  const auto idle = pose({"--param", "SpeedXZ=0", "--param", "IsOnGround=true", "--time", "1.25"});
  ASSERT_EQ(idle["times"].size(), 1u);
  const auto& i = idle["times"][0];
  const double c = 1.0 - std::cos(1.25 * kPi);
  expect_yaw(node(i, "tail_base"), deg(8.0) * std::sin(1.25 * kPi));
  EXPECT_NEAR(node(i, "body")["local"]["t"][1].get<double>(), 0.55 - 0.004 * c, 1e-5);
  EXPECT_NEAR(node(i, "body")["local"]["s"][0].get<double>(), 1.0 + 0.015 * c, 1e-5);
  EXPECT_EQ(i["layers"][0]["clip"], "idle");
  EXPECT_NEAR(i["layers"][0]["clip_time"].get<double>(), 1.25, 1e-4);

  // Off the ground the rules fall through to idle whatever the speed.
  const auto air = pose({"--param", "SpeedXZ=1", "--param", "IsOnGround=false", "--time", "1.25"});
  EXPECT_EQ(air["times"][0]["layers"][0]["clip"], "idle");
}

TEST_F(ConfigFlagsTest, ControllerPoseMatchesTheClipPoseOnceTheFadeIsOver) {
  const auto walk = pose({"--param", "SpeedXZ=1", "--param", "IsOnGround=true", "--time", "1.25"});
  const RunResult r = run({"pose", model_, "--anim", "walk", "--time", "0.25", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto clip = nlohmann::json::parse(r.out);
  const auto& a = walk["times"][0]["nodes"];
  const auto& b = clip["times"][0]["nodes"];
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t n = 0; n < a.size(); ++n) {
    ASSERT_EQ(a[n]["name"], b[n]["name"]);
    for (int k = 0; k < 16; ++k)
      EXPECT_NEAR(a[n]["world"][k].get<double>(), b[n]["world"][k].get<double>(), 1e-4)
          << a[n]["name"] << " world[" << k << "]";
  }
}

TEST_F(ConfigFlagsTest, EventsAreListedInJsonAndOnStderr) {
  // The walk starts at t = 0 and crosses its Footstep at clip time 0.5 once within 1.25 s.
  const auto doc = pose({"--param", "SpeedXZ=1", "--param", "IsOnGround=true", "--time", "1.25"});
  const auto& events = doc["times"][0]["events"];
  ASSERT_EQ(events.size(), 1u) << events.dump();
  EXPECT_EQ(events[0]["name"], "Footstep");
  EXPECT_EQ(events[0]["data"], "left");
  EXPECT_EQ(events[0]["layer"], "Base");
  EXPECT_EQ(events[0]["kind"], "event");
  EXPECT_GE(events[0]["t"].get<double>(), 0.5 - 1e-4);
  EXPECT_LE(events[0]["t"].get<double>(), 0.5 + 1.0 / 60.0 + 1e-4);

  const RunResult text = run({"pose", model_, "--config", config_, "--param", "SpeedXZ=1",
                              "--param", "IsOnGround=true", "--time", "1.25"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("t = 1.25 s (Base: walk at 0.25 s)"), std::string::npos) << text.out;
  EXPECT_NE(text.err.find("event at "), std::string::npos) << text.err;
  EXPECT_NE(text.err.find(" s: Base Footstep 'left'\n"), std::string::npos) << text.err;
}

TEST_F(ConfigFlagsTest, StringParameterTheConfigOnlyReadsIsAccepted) {
  // Gait is declared nowhere; the condition reading it puts it in the schema. 'rest' empties the
  // Base layer, so the pose is the rest pose: identity tail, body at its rest height.
  for (const char* value : {"Gait=rest", "Gait='rest'"}) {
    const auto doc = pose({"--param", value, "--param", "SpeedXZ=1", "--param", "IsOnGround=true"});
    ASSERT_EQ(doc["times"].size(), 1u) << value;
    const auto& t = doc["times"][0];
    EXPECT_NEAR(t["t"].get<double>(), 1.0, 1e-6);  // the default settle time
    expect_yaw(node(t, "tail_base"), 0.0);
    EXPECT_NEAR(node(t, "body")["local"]["t"][1].get<double>(), 0.55, 1e-6);
    EXPECT_FALSE(t["layers"][0]["active"].get<bool>());
  }
}

// A clip picked by a string parameter, and an idle whose speed reads the string Gait.
constexpr const char* kRuntimeConfig = R"({
  "template": "Simple",
  "parameters": { "Clip": "", "Gait": "trot" },
  "states": {
    "gait": { "layer": "Base", "rules": [
      { "condition": "[Clip] != ''", "animation": "[Clip]" },
      { "condition": "true", "animation": { "source": "idle", "speed": "[Gait] * 2" } } ] }
  }
})";

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

TEST_F(ConfigFlagsTest, RuntimeWarningsArePrintedOnceLikeLoadWarnings) {
  const std::string config = write_text("runtime.json", kRuntimeConfig);
  // Three times are three simulations from 0; the source fails in each, the warning shows once.
  RunResult r = run({"pose", model_, "--config", config, "--param", "Clip=Nope", "--time", "0.5",
                     "--time", "1", "--time", "1.5"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "critter: " + config +
                       ":/states/gait/rules/0/animation: warning: [Clip] names no clip 'Nope': the "
                       "layer keeps its animation\n");
  // The layer was never given a clip: the rest pose.
  EXPECT_NE(r.out.find("(no active layer: rest pose)"), std::string::npos) << r.out;

  // The idle's speed reads a string: once, with the field's pointer, in JSON mode too.
  r = run({"pose", model_, "--config", config, "--param", "Gait=walk", "--time", "0.5", "--time",
           "1", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "critter: " + config +
                       ":/states/gait/rules/1/animation/speed: warning: fails with a type "
                       "mismatch: used the default 1\n");

  // A clip that exists and a number speed: nothing to say.
  r = run({"pose", model_, "--config", config, "--param", "Clip=walk", "--time", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  r = run({"pose", model_, "--config", config, "--param", "Gait=2", "--time", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");

  // render simulates twice (framing, then drawing): still one line.
  const std::string png = (dir_ / "nope.png").string();
  r = run(
      {"render", model_, "--config", config, "--param", "Clip=Nope", "-o", png, "--size", "32x24"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(occurrences(r.err, "warning: [Clip] names no clip 'Nope'"), 1u) << r.err;
  EXPECT_EQ(occurrences(r.err, "warning: "), 1u) << r.err;
}

TEST_F(ConfigFlagsTest, RootBoneRotationAndModelScalePlaceThePose) {
  const std::string config = write_text("turned.json", R"({
    "rootBoneRotation": 90, "modelScale": 2,
    "states": { "gait": { "layer": "Base", "rules": [ { "condition": "true", "animation": "idle" } ] } }
  })");
  // No --time: 1 s, the idle's key 4 (phase pi), body down 0.008 m. The root joint's model matrix
  // is S(2) * rootLocal(identity) * R_Y(90 deg): x -> (0, 0, -2), y -> (0, 2, 0), z -> (2, 0, 0).
  const auto doc = pose({}, config);
  ASSERT_EQ(doc["times"].size(), 1u);
  const auto& root = node(doc["times"][0], "root")["world"];
  const double expected[16] = {0, 0, -2, 0, 0, 2, 0, 0, 2, 0, 0, 0, 0, 0, 0, 1};
  for (int k = 0; k < 16; ++k) EXPECT_NEAR(root[k].get<double>(), expected[k], 1e-5) << k;
  // The body sits 0.542 m above the root along the turned, doubled y axis.
  const auto& body = node(doc["times"][0], "body")["world"];
  EXPECT_NEAR(body[12].get<double>(), 0.0, 1e-5);
  EXPECT_NEAR(body[13].get<double>(), 2.0 * (0.55 - 0.008), 1e-5);
  EXPECT_NEAR(body[14].get<double>(), 0.0, 1e-5);
}

TEST_F(ConfigFlagsTest, AssetRootFindsFileClips) {
  // The walk comes from another file in a library folder that only --asset-root names.
  std::filesystem::create_directories(dir_ / "lib");
  std::filesystem::copy_file(model_, dir_ / "lib" / "moves.glb");
  const std::string config = write_text("from_file.json", R"({
    "states": { "gait": { "layer": "Base", "rules": [
      { "condition": "true", "animation": "file:moves.glb#walk" } ] } }
  })");
  RunResult r = run({"pose", model_, "--config", config});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("moves.glb"), std::string::npos) << r.err;
  r = run({"pose", model_, "--config", config, "--asset-root", (dir_ / "lib").string(), "--time",
           "1.25", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  const auto& t = doc["times"][0];
  EXPECT_NE(t["layers"][0]["clip"].get<std::string>().find("walk"), std::string::npos);
  expect_yaw(node(t, "tail_base"), deg(20.0));  // the walk at 0.25 s, as above
}

TEST_F(ConfigFlagsTest, MalformedParamIsAUsageErrorNamingTheFlag) {
  const std::pair<const char*, const char*> cases[] = {
      {"SpeedXZ", "'SpeedXZ': expected NAME=VALUE"},
      {"=1", "'=1': the parameter name is empty"},
      {" =1", "' =1': the parameter name is empty"},
      {"SpeedXZ=inf", "'SpeedXZ=inf': a number must be finite"},
      {"FootTarget=[1,x]",
       "'FootTarget=[1,x]': expected a vector [x,y] or [x,y,z] of finite numbers"},
      {"FootTarget=[1,2,3,4]",
       "'FootTarget=[1,2,3,4]': expected a vector [x,y] or [x,y,z] of finite numbers"},
  };
  for (const auto& [arg, message] : cases) {
    const RunResult r = run({"pose", model_, "--config", config_, "--param", arg});
    EXPECT_EQ(r.exit_code, 2) << arg;
    EXPECT_EQ(r.err, "critter: " + config_ + ":--param: " + message + "\n") << arg;
    EXPECT_TRUE(r.out.empty()) << arg;
  }
}

TEST_F(ConfigFlagsTest, UnknownParameterIsAnErrorSuggestingCloseNames) {
  RunResult r = run({"pose", model_, "--config", config_, "--param", "SpedXZ=1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("critter: " + config_ + ":--param: unknown parameter 'SpedXZ': ", 0), 0u)
      << r.err;
  EXPECT_NE(r.err.find("(did you mean SpeedXZ"), std::string::npos) << r.err;
  // Case does not matter for a known name.
  r = run({"pose", model_, "--config", config_, "--param", "speedxz=1", "--param",
           "isonground=TRUE", "--time", "1.25", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["times"][0]["layers"][0]["clip"], "walk");
  // Nothing close: no suggestion.
  r = run({"pose", model_, "--config", config_, "--param", "Zzzzzzzzzzzz=1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "critter: " + config_ +
                       ":--param: unknown parameter 'Zzzzzzzzzzzz': the config does not declare "
                       "it, it is not built in and no expression reads it\n");
}

TEST_F(ConfigFlagsTest, BrokenConfigFailsWithItsLocation) {
  const std::string broken = write_text("broken.json", R"({
    "states": { "gait": { "layer": "Base", "rules": [ { "condition": "[SpeedXZ] >", "animation": "walk" } ] } }
  })");
  RunResult r = run({"pose", model_, "--config", broken});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("/states/gait/rules/0/condition"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());

  const std::string missing = write_text("missing.json", R"({
    "states": { "gait": { "layer": "Base", "rules": [ { "condition": "true", "animation": "gallop" } ] } }
  })");
  const std::string png = (dir_ / "out.png").string();
  r = run({"render", model_, "--config", missing, "-o", png, "--size", "32x24"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("/states/gait/rules/0/animation"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(png));

  r = run({"pose", model_, "--config", (dir_ / "none.json").string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
}

// Rotation angle between the local rotations of two nodes' JSON.
double local_angle(const nlohmann::json& a, const nlohmann::json& b) {
  double dot = 0.0;
  for (int k = 0; k < 4; ++k)
    dot += a["local"]["r"][k].get<double>() * b["local"]["r"][k].get<double>();
  return 2.0 * std::acos(std::min(1.0, std::abs(dot)));
}

TEST_F(ConfigFlagsTest, RotationBlendNlerpChangesOnlyTheFadesALittle) {
  const std::vector<std::string> walking = {"--param", "SpeedXZ=1", "--param", "IsOnGround=true"};
  const auto with = [&](const std::string& blend, const std::string& time) {
    std::vector<std::string> args = walking;
    args.insert(args.end(), {"--time", time});
    if (!blend.empty()) args.insert(args.end(), {"--rotation-blend", blend});
    return pose(args);
  };
  // Mid fade-in the layer blends the walk over rest at a weight below one: the blends differ,
  // by no more than nlerp strays from slerp for the walk's small angles.
  const auto slerp = with("", "0.1"), nlerp = with("nlerp", "0.1"), named = with("slerp", "0.1");
  ASSERT_EQ(slerp["times"].size(), 1u);
  ASSERT_EQ(nlerp["times"].size(), 1u);
  const double w = slerp["times"][0]["layers"][0]["weight"].get<double>();
  EXPECT_GT(w, 0.05);
  EXPECT_LT(w, 0.45);
  EXPECT_EQ(named, slerp);
  const auto& a = slerp["times"][0]["nodes"];
  const auto& b = nlerp["times"][0]["nodes"];
  ASSERT_EQ(a.size(), b.size());
  double most = 0.0;
  for (std::size_t n = 0; n < a.size(); ++n) most = std::max(most, local_angle(a[n], b[n]));
  EXPECT_GT(most, 1e-6);
  EXPECT_LT(most, 1e-3);
  // Once the fade is over nothing blends: the same pose.
  EXPECT_EQ(with("nlerp", "1.25")["times"][0]["nodes"], with("", "1.25")["times"][0]["nodes"]);
  // lerp: on the one layer fading in over rest, nlerp's pose exactly.
  EXPECT_EQ(with("lerp", "0.1")["times"][0]["nodes"], b);

  RunResult r = run({"pose", model_, "--rotation-blend", "nlerp"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(":--rotation-blend: --rotation-blend sets how the controller of --config "
                       "blends"),
            std::string::npos)
      << r.err;
  r = run({"render", model_, "--rotation-blend", "slerp", "-o", (dir_ / "x.png").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--rotation-blend"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "x.png"));
  r = run({"pose", model_, "--config", config_, "--rotation-blend", "sum"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--rotation-blend"), std::string::npos) << r.err;
}

TEST_F(ConfigFlagsTest, ConfigConflictsWithClipFlags) {
  RunResult r = run({"pose", model_, "--config", config_, "--anim", "walk"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(":--anim: --anim plays one clip; with --config"), std::string::npos)
      << r.err;
  r = run({"pose", model_, "--config", config_, "--mode", "once_forward"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(":--mode: "), std::string::npos) << r.err;
  r = run({"pose", model_, "--param", "SpeedXZ=1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(":--param: --param sets a parameter of --config"), std::string::npos)
      << r.err;
  r = run({"pose", model_, "--config", config_, "--time", "4000"});
  EXPECT_EQ(r.exit_code, 2);

  const std::string png = (dir_ / "x.png").string();
  r = run({"render", model_, "--config", config_, "--anim", "walk", "-o", png});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "critter: --anim: --anim plays one clip; with --config the "
            "controller's rules pick the animations\n");
  r = run({"render", model_, "--config", config_, "--crowd", "4", "-o", png});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "critter: --crowd: a crowd cannot take --config\n");
  r = run({"render", model_, "--config", config_, "--sheet", "4", "-o", png});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("critter: --sheet: "), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(png));
}

// Fraction of pixels whose colour differs by more than `tolerance` in some channel.
double changed_fraction(const io::RgbaImage& a, const io::RgbaImage& b, int tolerance) {
  std::size_t n = 0;
  for (std::size_t i = 0; i + 3 < a.pixels.size(); i += 4) {
    for (std::size_t k = 0; k < 3; ++k) {
      if (std::abs(int{a.pixels[i + k]} - int{b.pixels[i + k]}) > tolerance) {
        ++n;
        break;
      }
    }
  }
  return static_cast<double>(n) / static_cast<double>(a.pixels.size() / 4);
}

TEST_F(ConfigFlagsTest, RenderConfigDrawsTheControllerPose) {
  auto render = [&](const std::string& name, std::vector<std::string> extra) {
    const std::string png = (dir_ / name).string();
    std::vector<std::string> args = {"render", model_, "-o", png, "--size", "96x72"};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "wrote " + png + " (96x72, 1 frame)\n");
    Result<io::RgbaImage> image = io::read_image(png);
    EXPECT_TRUE(image) << name;
    return image ? *image : io::RgbaImage{};
  };
  const io::RgbaImage rest = render("rest.png", {"--config", config_, "--param", "Gait=rest"});
  const io::RgbaImage walk = render("walk.png", {"--config", config_, "--param", "SpeedXZ=1",
                                                 "--param", "IsOnGround=true", "--time", "1.25"});
  const io::RgbaImage clip = render("clip.png", {"--anim", "walk", "--time", "0.25"});
  ASSERT_EQ(rest.pixels.size(), walk.pixels.size());
  ASSERT_EQ(clip.pixels.size(), walk.pixels.size());
  // Legs swung 25 degrees and a yawed tail move many pixels; the same pose drawn from the clip
  // differs at most by rounding at a few edges.
  EXPECT_GT(changed_fraction(rest, walk, 24), 0.01);
  EXPECT_LT(changed_fraction(clip, walk, 24), 0.002);
}

}  // namespace
}  // namespace critter
