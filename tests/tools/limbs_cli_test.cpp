// SPDX-License-Identifier: MIT
// `--limbs` with `--motion` and `--timeline` on `pose` and `render`, on Minetest Game's
// character.b3d (Debian's minetest-data, installed by scripts/deps.sh).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "critter/io/image/image_decoder.h"
#include "support/cli_runner.h"

namespace critter {
namespace {

using test_support::CliTest;
using test_support::contains;
using test_support::RunResult;

const char* const kCharacter =
    "/usr/share/games/minetest/games/minetest_game/mods/player_api/models/character.b3d";

class LimbsCliTest : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    ASSERT_TRUE(std::filesystem::exists(kCharacter)) << "scripts/deps.sh installs minetest-data";
  }
  nlohmann::json pose(const std::vector<std::string>& extra) const {
    std::vector<std::string> args = {
        "pose",        kCharacter, "--clips", "stand:0-79,walk:168-187",
        "--clips-fps", "30",       "--limbs", "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    if (r.exit_code != 0) return nlohmann::json::object();
    return nlohmann::json::parse(r.out);
  }
  // A config whose controller plays the --clips walk forever.
  static void write_walk_config(const std::filesystem::path& path) {
    std::ofstream f(path);
    f << R"({"template": "Simple", "animations": {"walk": {"source": "walk"}},
             "states": {"gait": {"layer": "Base",
                                 "rules": [{"condition": "true", "animation": "walk"}]}}})";
  }
  static const nlohmann::json& limb(const nlohmann::json& time, const std::string& name) {
    for (const auto& l : time["limbs"]) {
      if (l["name"] == name) return l;
    }
    static const nlohmann::json none;
    return none;
  }
};

TEST_F(LimbsCliTest, WalkBendsKneesAndElbows) {
  std::vector<std::string> times = {"--anim", "walk"};
  for (int i = 30; i < 90; ++i) {
    times.push_back("--time");
    times.push_back(std::to_string(static_cast<double>(i) / 60.0));
  }
  const nlohmann::json doc = pose(times);
  ASSERT_EQ(doc["times"].size(), 60u);
  EXPECT_EQ(doc["limbs"], true);
  for (const char* name : {"Arm_Right", "Arm_Left", "Leg_Right", "Leg_Left"}) {
    float lo = 1e9f, hi = -1e9f;
    for (const auto& t : doc["times"]) {
      const auto& l = limb(t, name);
      ASSERT_TRUE(l.is_object()) << name;
      lo = std::min(lo, l["bend"].get<float>());
      hi = std::max(hi, l["bend"].get<float>());
    }
    EXPECT_GT(hi - lo, 8.0f) << name;
    EXPECT_LT(hi, 80.0f) << name;
    EXPECT_GE(lo, 0.0f) << name;
  }
  const auto& first = doc["times"][0];
  EXPECT_EQ(limb(first, "Leg_Left")["kind"], "leg");
  EXPECT_EQ(limb(first, "Arm_Right")["side"], "right");
  EXPECT_EQ(first["water_pose"], "none");
  EXPECT_EQ(first["limbs"][0]["end"].size(), 3u);
}

TEST_F(LimbsCliTest, TimelineFallThenLanding) {
  const std::string timeline =
      write_text("fall.json",
                 R"({"keys": [{"t": 0, "state": {"grounded": false, "vy": -4}},
                   {"t": 0.3, "state": {"vy": -11}},
                   {"t": 1.2, "state": {"grounded": true, "vy": 0}}]})");
  const nlohmann::json doc = pose({"--anim", "stand", "--timeline", timeline, "--time", "1.1",
                                   "--time", "1.3", "--time", "2.5"});
  ASSERT_EQ(doc["times"].size(), 3u);
  const auto& falling = doc["times"][0];
  const auto& landed = doc["times"][1];
  const auto& later = doc["times"][2];
  // Falling: the arms flail outward.
  EXPECT_GT(limb(falling, "Arm_Left")["spread"].get<float>(), 20.0f);
  // Landed hard: knees bent, the body lowered, the feet on the ground.
  EXPECT_GT(limb(landed, "Leg_Left")["bend"].get<float>(), 45.0f);
  EXPECT_GT(landed["drop"].get<float>(), 0.5f);
  EXPECT_LT(later["drop"].get<float>(), 0.1f);
  EXPECT_EQ(doc["timeline"], timeline);
}

TEST_F(LimbsCliTest, SwimStrokesAndEvents) {
  const nlohmann::json doc =
      pose({"--anim", "stand", "--motion", "water=tread", "--motion", "in_water=true", "--motion",
            "water_level=11", "--time", "1", "--time", "3"});
  ASSERT_EQ(doc["times"].size(), 2u);
  EXPECT_EQ(doc["times"][1]["water_pose"], "tread");
  std::size_t events = 0;
  for (const auto& t : doc["times"]) {
    for (const auto& e : t["events"]) {
      ++events;
      EXPECT_EQ(e["limb"], "hand");
      EXPECT_TRUE(e["into"].is_boolean());
      EXPECT_GT(e["speed"].get<float>(), 0.0f);
    }
  }
  EXPECT_GT(events, 0u);
  // Chosen, not forced: in water, not grounded and moving is the breaststroke.
  const nlohmann::json chosen = pose({"--motion", "in_water=true", "--motion", "grounded=false",
                                      "--motion", "speed=1.5", "--time", "1"});
  EXPECT_EQ(chosen["times"][0]["water_pose"], "paddle");
}

TEST_F(LimbsCliTest, BadMotionIsAUsageError) {
  RunResult r = run({"pose", kCharacter, "--limbs", "--motion", "vy=nan"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "--motion: vy takes a finite number, not 'nan'")) << r.err;
  r = run({"pose", kCharacter, "--limbs", "--motion", "vz=1"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "unknown motion 'vz' (did you mean vy")) << r.err;
  r = run({"pose", kCharacter, "--limbs", "--motion", "water=dive"});
  EXPECT_TRUE(contains(r.err, "water takes none, swim, tread, paddle or climb")) << r.err;
  r = run({"pose", kCharacter, "--motion", "vy=1"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err,
                       "--motion: --motion sets the body motion of the limb animator; add "
                       "--limbs"))
      << r.err;
  const std::string timeline =
      write_text("bad.json", R"({"keys": [{"t": 0, "state": {"grounded": 3}}]})");
  r = run({"pose", kCharacter, "--limbs", "--timeline", timeline});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(contains(r.err, "/keys/0/state/grounded: grounded takes true or false")) << r.err;
}

TEST_F(LimbsCliTest, ModelWithoutLimbsIsPosedAsItIsWithAWarning) {
  const RunResult r =
      run({"pose", "builtin:four-legged", "--limbs", "--motion", "vy=-4", "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "the model has no block limbs to split")) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_FALSE(doc["times"][0].contains("limbs"));
}

// After a config's controller the animator bends the limbs of the controller's walk as it does
// after the same clip played alone, and the frame keeps the controller's fields.
TEST_F(LimbsCliTest, ConfigControllerIsFollowedByTheLimbAnimator) {
  const std::filesystem::path config = dir_ / "walk.json";
  write_walk_config(config);
  std::vector<std::string> args = {"--config",      config.string(), "--motion",
                                   "in_water=true", "--motion",      "water_level=30"};
  std::vector<std::string> clip_args = {"--anim",        "walk",     "--motion",
                                        "in_water=true", "--motion", "water_level=30"};
  for (int i = 30; i < 90; i += 3) {
    for (auto* a : {&args, &clip_args}) {
      a->push_back("--time");
      a->push_back(std::to_string(static_cast<double>(i) / 60.0));
    }
  }
  const nlohmann::json doc = pose(args);
  const nlohmann::json clip = pose(clip_args);
  ASSERT_EQ(doc["times"].size(), 20u);
  ASSERT_EQ(clip["times"].size(), 20u);
  for (const char* name : {"Arm_Right", "Arm_Left", "Leg_Right", "Leg_Left"}) {
    float lo = 1e9f, hi = -1e9f;
    for (std::size_t i = 0; i < doc["times"].size(); ++i) {
      const auto& l = limb(doc["times"][i], name);
      ASSERT_TRUE(l.is_object()) << name;
      const float bend = l["bend"].get<float>();
      lo = std::min(lo, bend);
      hi = std::max(hi, bend);
      // The controller's Base layer fades the walk in over its first frames; afterwards the
      // two sources give the same pose to the animator.
      EXPECT_NEAR(bend, limb(clip["times"][i], name)["bend"].get<float>(), 2.0f)
          << name << " at " << doc["times"][i]["t"];
    }
    EXPECT_GT(hi - lo, 8.0f) << name;
  }
  const auto& frame = doc["times"][0];
  EXPECT_TRUE(frame.contains("layers"));
  EXPECT_TRUE(frame["events"].is_array());
  EXPECT_TRUE(frame["stroke_events"].is_array());
  EXPECT_TRUE(clip["times"][0]["events"].is_array());
  EXPECT_FALSE(clip["times"][0].contains("stroke_events"));
}

// Pixels whose channels differ by more than 8 between two pictures of the same size.
int differing_pixels(const std::string& a, const std::string& b) {
  const Result<RgbaImage> x = io::read_image(a);
  const Result<RgbaImage> y = io::read_image(b);
  EXPECT_TRUE(x && y);
  if (!x || !y || x->pixels.size() != y->pixels.size()) return -1;
  int count = 0;
  for (std::size_t i = 0; i < x->pixels.size(); i += 4) {
    for (std::size_t c = 0; c < 4; ++c) {
      if (std::abs(int{x->pixels[i + c]} - int{y->pixels[i + c]}) > 8) {
        ++count;
        break;
      }
    }
  }
  return count;
}

// After the config's walk has faded in, a render with --config --limbs shows the bent limbs of
// the same walk played as a clip with --limbs, not the straight ones of the clip without --limbs.
TEST_F(LimbsCliTest, RenderConfigWithLimbsBendsLikeTheClip) {
  const std::filesystem::path config = dir_ / "walk.json";
  write_walk_config(config);
  const auto render = [&](const std::string& name, std::vector<std::string> source) {
    const std::string out = (dir_ / name).string();
    std::vector<std::string> args = {"render",      kCharacter, "--clips", "walk:168-187",
                                     "--clips-fps", "30",       "--time",  "0.75",
                                     "--size",      "96x96",    "-o",      out};
    args.insert(args.end(), source.begin(), source.end());
    const RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return out;
  };
  const std::string followed = render("config.png", {"--config", config.string(), "--limbs"});
  const std::string bent = render("clip.png", {"--anim", "walk", "--limbs"});
  const std::string straight = render("straight.png", {"--anim", "walk"});
  const int to_bent = differing_pixels(followed, bent);
  const int to_straight = differing_pixels(followed, straight);
  EXPECT_GE(to_bent, 0);
  EXPECT_LT(to_bent * 4, to_straight) << to_bent << " vs " << to_straight;
}

TEST_F(LimbsCliTest, RenderWalkWithLimbs) {
  const std::string out = (dir_ / "walk.png").string();
  const RunResult r =
      run({"render", kCharacter, "--clips", "walk:168-187", "--clips-fps", "30", "--anim", "walk",
           "--limbs", "--time", "0.4", "--size", "64x64", "-o", out});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(out));
}

TEST_F(CliTest, DemoBlockCharacterBendsLandsClimbsAndSwims) {
  const RunResult r = run({"demo", "--info", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const nlohmann::json& b = j["block_character"];
  ASSERT_TRUE(b.is_object()) << r.out;
  for (const char* pose : {"none", "climb", "swim", "tread", "paddle"}) {
    EXPECT_NE(std::find(b["poses"].begin(), b["poses"].end(), pose), b["poses"].end()) << pose;
  }
  EXPECT_GT(b["max_knee"].get<float>(), 40.0f);
  EXPECT_GT(b["max_elbow"].get<float>(), 30.0f);
  EXPECT_GT(b["max_drop"].get<float>(), 0.3f);  // the landing crouch lowered the body
}

}  // namespace
}  // namespace critter
