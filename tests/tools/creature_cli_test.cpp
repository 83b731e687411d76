// SPDX-License-Identifier: MIT
// `critter pose|render --creature KIND` on the built-in legacy creatures (builtin:NAME): the rigs
// run, gaits change with the timeline's speed, events are reported, death rolls the body, and bad
// species or settings are usage errors.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "support/pose_json.h"

namespace critter {
namespace {

using nlohmann::json;
using test_support::PoseJsonTest;
using test_support::RunResult;

using CreatureCliTest = PoseJsonTest;

TEST_F(CreatureCliTest, GaitFollowsTheTimelineSpeedAndFootstepsAreReported) {
  const std::string timeline = write_text("t.json", R"({"keys": [{"t": 0, "state": {"speed": 1}},
      {"t": 1, "state": {"speed": 2.4}}, {"t": 2, "state": {"speed": 3.5}}]})");
  const json out = pose_json({"builtin:four-legged", "--creature", "four-legged", "--species",
                              "horse", "--rig-param", "CanTrot=true", "--timeline", timeline,
                              "--time", "0.9", "--time", "1.9", "--time", "2.9"});
  ASSERT_EQ(out["times"].size(), 3u);
  EXPECT_EQ(out["times"][0]["creature"]["gait"], "walk");
  EXPECT_EQ(out["times"][1]["creature"]["gait"], "trot");    // 2.4 > 0.5·4
  EXPECT_EQ(out["times"][2]["creature"]["gait"], "canter");  // 3.5 > 0.7·4
  EXPECT_EQ(out["times"][0]["creature"]["kind"], "four-legged");
  const json& events = out["times"][2]["creature"]["events"];
  ASSERT_FALSE(events.empty());
  int footsteps = 0;  // footsteps, and the canter's own sound in their place
  double last = 0.0;
  for (const json& e : events) {
    EXPECT_GE(e["t"].get<double>(), last);
    last = e["t"].get<double>();
    if (e["name"] == "Footstep" || e["name"] == "CanterSound") ++footsteps;
  }
  EXPECT_GE(footsteps, 3);
  EXPECT_EQ(events.back()["name"], "CanterSound");
  EXPECT_TRUE(all_finite(out));
}

TEST_F(CreatureCliTest, WithoutTrotTheHorseGoesFromWalkStraightToCanter) {
  const json out = pose_json(
      {"builtin:four-legged", "--creature", "four-legged", "--state", "speed=2.4", "--time", "1"});
  EXPECT_EQ(out["times"][0]["creature"]["gait"], "walk");
}

TEST_F(CreatureCliTest, DeathEndsWithTheBodyRolledAndStill) {
  const std::string timeline = write_text("t.json", R"({"keys": [{"t": 0, "state": {"speed": 1}},
      {"t": 0.5, "state": {"health": 0, "death_cause": [3, 0, 0]}}]})");
  const json out = pose_json({"builtin:four-legged", "--creature", "four-legged", "--timeline",
                              timeline, "--time", "0.4", "--time", "3", "--time", "4"});
  const json& alive = out["times"][0]["creature"];
  const json& dead = out["times"][2]["creature"];
  EXPECT_EQ(alive["death_phase"], 0.0);
  EXPECT_EQ(dead["death_phase"], 1.0);
  EXPECT_EQ(dead["gait"], "dead");
  // No footstep once dead: the last two times report the same events.
  EXPECT_EQ(out["times"][1]["creature"]["events"], dead["events"]);
  // The body's up axis (the world Y column of the root's Z-up bone space) lies on its side.
  const json& world = out["times"][2]["nodes"][0]["world"];
  const double up_y = world[9].get<double>();  // column 2 (bone +Z), row 1
  EXPECT_LT(std::abs(up_y), 0.1) << world;
  EXPECT_TRUE(all_finite(out));
}

TEST_F(CreatureCliTest, EveryKindRunsOnItsBuiltInCreatureAndRenders) {
  for (const char* kind : {"four-legged", "human", "bird", "flightless-bird", "fish"}) {
    const std::string model = std::string("builtin:") + kind;
    const json out = pose_json({model, "--creature", kind, "--state", "speed=1", "--state",
                                "flying=true", "--state", "immersion=1", "--time", "1"});
    ASSERT_EQ(out["times"].size(), 1u) << kind;
    EXPECT_EQ(out["times"][0]["creature"]["kind"], kind);
    EXPECT_TRUE(all_finite(out)) << kind;
  }
  const std::string png = (dir_ / "bird.png").string();
  const RunResult r = run({"render", "builtin:bird", "--creature", "bird", "--state", "flying=true",
                           "--state", "speed=3", "--time", "0.5", "-o", png});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(png));
}

TEST_F(CreatureCliTest, RenderedGifStepsTheCreatureThroughTheTimeline) {
  // 45 frames at 15 fps: 0..2.93 s. The wolf walks, trots from 1 s and canters from 2 s; the GIF
  // path simulates every frame's time, so the canter's sound comes only after 2 s and footsteps
  // only before it.
  const std::string timeline = write_text("t.json", R"({"keys": [{"t": 0, "state": {"speed": 1}},
      {"t": 1, "state": {"speed": 2.4}}, {"t": 2, "state": {"speed": 3.5}}]})");
  const std::string gif = (dir_ / "walk.gif").string();
  const RunResult r =
      run({"render", "builtin:four-legged", "--creature", "four-legged", "--species", "wolf",
           "--timeline", timeline, "--frames", "45", "-o", gif, "--size", "64x48"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "wrote " + gif + " (64x48, 45 frames)\n");
  int canters = 0;
  int footsteps = 0;
  std::size_t at = 0;
  while ((at = r.err.find("event at ", at)) != std::string::npos) {
    at += 9;
    const double t = std::stod(r.err.substr(at));
    const std::size_t colon = r.err.find(": ", at);
    const std::string name = r.err.substr(colon + 2, r.err.find('\n', colon) - colon - 2);
    if (name == "CanterSound") {
      ++canters;
      EXPECT_GE(t, 2.0) << r.err;
    } else if (name == "Footstep") {
      ++footsteps;
      EXPECT_LT(t, 2.0 + 1e-6) << r.err;
    }
  }
  EXPECT_GE(canters, 1) << r.err;
  EXPECT_GE(footsteps, 2) << r.err;
  EXPECT_EQ(test_support::slurp(gif).substr(0, 6), "GIF89a");
}

TEST_F(CreatureCliTest, UnknownSpeciesAndSettingsAreUsageErrorsWithSuggestions) {
  RunResult r = run({"pose", "builtin:four-legged", "--creature", "four-legged", "--species",
                     "wolfy", "--time", "1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "critter: builtin:four-legged:--species: unknown four-legged species 'wolfy' (known: "
            "default, "
            "wolf, horse, cow, camel)\n");
  r = run({"pose", "builtin:four-legged", "--creature", "four-legged", "--rig-param", "CanTrott=1",
           "--time", "1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "critter: builtin:four-legged:--rig-param: the four-legged rig has no setting "
            "'CanTrott' (did "
            "you mean 'CanTrot'?)\n");
  r = run({"pose", "builtin:nope", "--time", "1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no built-in model of that name"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace critter
