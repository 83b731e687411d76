// SPDX-License-Identifier: MIT
// `--timeline FILE.json`: values that change over the simulated time. With --config the keys set
// the controller's parameters; the model is the demo quadruped (asset/demo_creature.h), whose
// clips are known in closed form.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "critter/asset/demo_creature.h"
#include "critter/io/gltf/gltf_writer.h"
#include "support/cli_runner.h"
#include "support/demo_files.h"
#include "support/glb_builder.h"

namespace critter {
namespace {

using test_support::CliTest;
using test_support::RunResult;

// Walk on the ground when fast enough, idle otherwise.
constexpr const char* kConfig = R"({
  "template": "Simple",
  "animations": {
    "idle": { "source": "idle" },
    "walk": { "source": "walk" }
  },
  "states": {
    "gait": { "layer": "Base", "rules": [
      { "condition": "[IsOnGround] and [SpeedXZ] > 0.2", "animation": "walk" },
      { "condition": "true", "animation": "idle" } ] }
  }
})";

class TimelineTest : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    model_ = testing::write_demo_quadruped(dir_);
    ASSERT_FALSE(model_.empty());
    config_ = write_text("gait.json", kConfig);
  }

  // `pose --config --json` for the extra arguments; fails the test on a non-zero exit.
  nlohmann::json pose(const std::vector<std::string>& extra) const {
    std::vector<std::string> args = {"pose", model_, "--config", config_, "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    if (r.exit_code != 0) return nlohmann::json::object();
    return nlohmann::json::parse(r.out);
  }

  // Runs `pose MODEL --config C --timeline T` for a timeline holding `text` and expects exit
  // `code` with "T" + `message` on stderr.
  void expect_timeline_error(const std::string& text, int code, const std::string& message) const {
    const std::string path = write_text("t.json", text);
    const RunResult r = run({"pose", model_, "--config", config_, "--timeline", path});
    EXPECT_EQ(r.exit_code, code) << text;
    EXPECT_EQ(r.err, "critter: " + path + message + "\n") << text;
    EXPECT_EQ(r.out, "");
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

TEST_F(TimelineTest, ConfigParametersChangeAtTheKeyTimes) {
  // Idle until 1 s, walking from 1 s, standing still again from 4 s.
  const std::string timeline = write_text("walk.json", R"({"keys": [
    {"t": 0, "params": {"IsOnGround": true}},
    {"t": 1, "params": {"SpeedXZ": 1}},
    {"t": 4, "params": {"SpeedXZ": 0}}]})");
  const auto doc = pose(
      {"--timeline", timeline, "--time", "0.75", "--time", "3.25", "--time", "5.5", "--time", "1"});
  EXPECT_EQ(doc["timeline"], timeline);
  const auto& times = doc["times"];
  ASSERT_EQ(times.size(), 4u);
  // Before the key: the idle, 0.75 s in.
  EXPECT_EQ(times[0]["layers"][0]["clip"], "idle");
  EXPECT_NEAR(times[0]["layers"][0]["clip_time"].get<double>(), 0.75, 1e-4);
  // After it: the walk, started by the key at 1 s, 2.25 s in: at 0.25 s of its 1 s loop the body
  // bobs 0.015 m up, as with --param SpeedXZ=1 at 1.25 s.
  EXPECT_EQ(times[1]["layers"][0]["clip"], "walk");
  EXPECT_NEAR(times[1]["layers"][0]["clip_time"].get<double>(), 0.25, 1e-4);
  EXPECT_NEAR(node(times[1], "body")["local"]["t"][1].get<double>(), 0.55 + 0.015, 1e-5);
  const auto steady =
      pose({"--param", "SpeedXZ=1", "--param", "IsOnGround=true", "--time", "1.25"});
  const auto& a = times[1]["nodes"];
  const auto& b = steady["times"][0]["nodes"];
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t n = 0; n < a.size(); ++n) {
    for (int k = 0; k < 16; ++k)
      EXPECT_NEAR(a[n]["world"][k].get<double>(), b[n]["world"][k].get<double>(), 1e-4)
          << a[n]["name"] << " world[" << k << "]";
  }
  // The later key stops it: idle again.
  EXPECT_EQ(times[2]["layers"][0]["clip"], "idle");
  // At the key's own time the key has not acted yet (it acts on the steps from its time on).
  EXPECT_EQ(times[3]["layers"][0]["clip"], "idle");
  EXPECT_NEAR(times[3]["layers"][0]["clip_time"].get<double>(), 1.0, 1e-4);

  // Without the timeline the same times stay idle: the key made the difference.
  const auto idle = pose({"--param", "IsOnGround=true", "--time", "3.25"});
  EXPECT_EQ(idle["times"][0]["layers"][0]["clip"], "idle");
  EXPECT_GT(std::abs(node(idle["times"][0], "body")["local"]["t"][1].get<double>() -
                     node(times[1], "body")["local"]["t"][1].get<double>()),
            1e-3);
}

TEST_F(TimelineTest, KeysOverrideParamFromTheirTimeOn) {
  // --param walks from the start; the key at 2 s stops the walk.
  const std::string timeline =
      write_text("stop.json", R"({"keys": [{"t": 2, "params": {"SpeedXZ": 0}}]})");
  const auto doc = pose({"--param", "SpeedXZ=1", "--param", "IsOnGround=true", "--timeline",
                         timeline, "--time", "1.5", "--time", "3"});
  EXPECT_EQ(doc["times"][0]["layers"][0]["clip"], "walk");
  EXPECT_EQ(doc["times"][1]["layers"][0]["clip"], "idle");
}

TEST_F(TimelineTest, RenderTakesTheTimeline) {
  const std::string timeline = write_text("walk.json", R"({"keys": [
    {"t": 0, "params": {"IsOnGround": true}}, {"t": 0.1, "params": {"SpeedXZ": 2}}]})");
  const std::string gif = (dir_ / "walk.gif").string();
  const RunResult r = run({"render", model_, "--config", config_, "--timeline", timeline,
                           "--frames", "3", "--fps", "10", "--size", "32x24", "-o", gif});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "wrote " + gif + " (32x24, 3 frames)\n");
  EXPECT_TRUE(std::filesystem::exists(gif));

  const std::string bad =
      write_text("bad.json", R"({"keys": [{"t": 0, "params": {"SpeedX": 1}}]})");
  const std::string png = (dir_ / "out.png").string();
  const RunResult e = run({"render", model_, "--config", config_, "--timeline", bad, "-o", png});
  EXPECT_EQ(e.exit_code, 1);
  EXPECT_EQ(e.err, "critter: " + bad +
                       ":/keys/0/params/SpeedX: unknown parameter 'SpeedX': the config does not "
                       "declare it, it is not built in and no expression reads it (did you mean "
                       "Speed, SpeedXZ?)\n");
  EXPECT_FALSE(std::filesystem::exists(png));
}

TEST_F(TimelineTest, ConfigTimelineErrorsAreLocated) {
  expect_timeline_error(R"({"keys": [{"t": 0, "params": {"SpedXZ": 1}}]})", 1,
                        ":/keys/0/params/SpedXZ: unknown parameter 'SpedXZ': the config does not "
                        "declare it, it is not built in and no expression reads it (did you mean "
                        "SpeedXZ?)");
  expect_timeline_error(R"({"keys": [{"t": 0, "state": {"speed": 1}}]})", 1,
                        ":/keys/0/state: \"state\" sets the state of --creature; a --config "
                        "timeline sets \"params\"");
  const RunResult r =
      run({"pose", model_, "--config", config_, "--timeline", (dir_ / "none.json").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "critter: " + (dir_ / "none.json").string() + ": cannot open the timeline\n");
}

TEST_F(TimelineTest, MalformedFilesAreLocatedAndNeverCrash) {
  // Malformed JSON: the byte where the parser stopped.
  expect_timeline_error(R"({"keys": [{"t": 0,}]})", 1,
                        ":byte 18: malformed JSON: parse error at line 1, column 19: syntax error "
                        "while parsing object key - unexpected '}'; expected string literal");
  expect_timeline_error("", 1,
                        ":byte 0: malformed JSON: parse error at line 1, column 1: syntax error "
                        "while parsing value - unexpected end of input; expected '[', '{', or a "
                        "literal");
  expect_timeline_error(R"({"keys": [{"t": 1e999}]})", 1,
                        ":byte 16: malformed JSON: number overflow parsing '1e999'");
  // Shape: JSON pointers.
  expect_timeline_error("[]", 1, R"(: expected an object {"keys": [...]})");
  expect_timeline_error(R"({"keys": [], "speed": 1})", 1,
                        ":/speed: unknown member 'speed' (a timeline holds \"keys\")");
  expect_timeline_error(R"({"keys": {}})", 1,
                        R"(:/keys: expected an array of keys {"t": T, "state": {...}})");
  expect_timeline_error(R"({"keys": [1]})", 1,
                        R"(:/keys/0: expected a key {"t": T, "state": {...}} or {"t": T, )"
                        R"("params": {...}})");
  expect_timeline_error(R"({"keys": [{"params": {}}]})", 1, ":/keys/0: the key has no time \"t\"");
  expect_timeline_error(R"({"keys": [{"t": 0, "time": 1}]})", 1,
                        ":/keys/0/time: unknown member 'time' (a key holds t, state and params)");
  expect_timeline_error(R"({"keys": [{"t": -1}]})", 1,
                        ":/keys/0/t: t must be a finite number >= 0, in seconds");
  expect_timeline_error(R"({"keys": [{"t": "1"}]})", 1,
                        ":/keys/0/t: t must be a finite number >= 0, in seconds");
  expect_timeline_error(R"({"keys": [{"t": 2}, {"t": 1}]})", 1,
                        ":/keys/1/t: keys must be in time order: t 1 does not come after the "
                        "previous key's t 2");
  expect_timeline_error(R"({"keys": [{"t": 0.5}, {"t": 0.5}]})", 1,
                        ":/keys/1/t: keys must be in time order: t 0.5 does not come after the "
                        "previous key's t 0.5");
  expect_timeline_error(R"({"keys": [{"t": 0, "params": [1]}]})", 1,
                        ":/keys/0/params: expected an object of NAME: VALUE");
  for (const char* value : {"null", "{}", "[1]", "[1, 2, 3, 4]", "[1, \"a\"]", "[1e38, 1e39]"}) {
    expect_timeline_error(std::string(R"({"keys": [{"t": 0, "params": {"a/b": )") + value + "}}]}",
                          1,
                          ":/keys/0/params/a~1b: expected a finite number, true/false, [x,y], "
                          "[x,y,z] of finite numbers or a string");
  }
}

TEST_F(TimelineTest, ATriggerKeyFiresOnceAtItsTime) {
  // While Jump reads true the walk plays, and its Start event fires as it starts. A fired
  // trigger reads true for one update, so the walk plays one step and the idle comes back.
  const std::string config = write_text("jump.json", R"({
    "template": "Simple",
    "parameters": { "Jump": { "type": "trigger" } },
    "animations": { "idle": { "source": "idle" }, "walk": { "source": "walk", "events": [
      { "time": 0.0, "name": "Start" } ] } },
    "states": { "gait": { "layer": "Base", "rules": [
      { "condition": "[Jump]", "animation": "walk" },
      { "condition": "true", "animation": "idle" } ] } }
  })");
  const std::string timeline =
      write_text("jump_tl.json", R"({"keys": [{"t": 0.5, "params": {"Jump": true}}]})");
  const RunResult r = run({"pose", model_, "--config", config, "--timeline", timeline, "--time",
                           "0.4", "--time", "0.6", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  const auto& before = doc["times"][0];
  EXPECT_EQ(before["layers"][0]["clip"], "idle");
  EXPECT_NEAR(before["layers"][0]["clip_time"].get<double>(), 0.4, 1e-4);
  EXPECT_TRUE(before["events"].empty()) << before["events"].dump();
  // Fired by the step from 0.5 s (the walk starts: one Start at the end of that step), then the
  // idle again from 0.5 + 1/60 s: fired once, not every step.
  const auto& after = doc["times"][1];
  ASSERT_EQ(after["events"].size(), 1u) << after["events"].dump();
  EXPECT_EQ(after["events"][0]["name"], "Start");
  EXPECT_NEAR(after["events"][0]["t"].get<double>(), 0.5 + 1.0 / 60.0, 1e-4);
  EXPECT_EQ(after["layers"][0]["clip"], "idle");
  EXPECT_NEAR(after["layers"][0]["clip_time"].get<double>(), 0.6 - (0.5 + 1.0 / 60.0), 1e-4);
}

}  // namespace
}  // namespace critter
