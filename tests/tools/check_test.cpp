// `critter check`: exit codes, located problems in text and JSON, on good and broken configs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/cli_runner.h"
#include "support/glb_builder.h"

namespace {

using critter::test_support::CliTest;
using critter::test_support::RunResult;
using critter::test_support::shared_model;

// Wizard.glb has clips Death, Idle, Run, Walk, ...
const char* const kWizard = "Wizard/Wizard.glb";

class CheckTest : public CliTest {
 protected:
  std::string config(const std::string& name, const std::string& text) const {
    const std::string path = (dir_ / name).string();
    critter::testing::write_file(path, text);
    return path;
  }
};

TEST_F(CheckTest, GoodConfigExitsZero) {
  const std::string path = config("good.json", R"({
    // comments and trailing commas are fine
    "animations": {"idle": {"source": "Idle"}, "walk": {"source": "walk", "speed": "[SpeedXZ] * 0.5"},},
    "states": {"gait": {"layer": "Base", "rules": [
      {"condition": "[SpeedXZ] > 0.2", "animation": "walk"},
      {"condition": "true", "animation": "idle"}]}},
  })");
  const RunResult r = run({"check", path, shared_model(kWizard)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, path + ": 0 errors, 0 warnings\n");
  EXPECT_EQ(r.err, "");
}

TEST_F(CheckTest, WarningsAreListedAndExitIsZero) {
  const std::string path = config("warn.json", R"({"colour": "red",
    "states": {"s": {"layer": "Base", "rules": [{"condition": "[Mood] > 1", "animation": "Run"}]}}})");
  const RunResult r = run({"check", path, shared_model(kWizard), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_TRUE(doc["errors"].empty());
  ASSERT_EQ(doc["warnings"].size(), 2u) << r.out;
  EXPECT_EQ(doc["warnings"][0]["file"], path);
  EXPECT_EQ(doc["warnings"][0]["pointer"], "/colour");
  EXPECT_EQ(doc["warnings"][0]["message"], "unknown property 'colour'");
  EXPECT_EQ(doc["warnings"][1]["pointer"], "/states/s/rules/0/condition");
  EXPECT_EQ(doc["warnings"][1]["message"], "parameter 'Mood' is neither declared nor built in");
}

TEST_F(CheckTest, BrokenConfigListsEveryErrorWithItsPointer) {
  const std::string path = config("broken.json", R"({
    "layers": {"Base": {"bones": ["NoSuchBone"]}},
    "animations": {"fly": {"source": "Fly"}, "run": {"source": "Run", "speed": "[Speed] *"}},
    "states": {"s": {"layer": "Base", "rules": [{"condition": "true", "animation": "driver:Warp"}]}}})");
  RunResult r = run({"check", path, shared_model(kWizard), "--json"});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["errors"].size(), 4u) << r.out;
  EXPECT_EQ(doc["errors"][0]["pointer"], "/layers/Base/bones/0");
  EXPECT_EQ(doc["errors"][0]["message"], "bone 'NoSuchBone' is not a bone of the model");
  EXPECT_EQ(doc["errors"][1]["pointer"], "/animations/fly/source");
  EXPECT_EQ(doc["errors"][1]["message"],
            "'Fly' is neither an animation alias nor a clip of the model");
  EXPECT_EQ(doc["errors"][2]["pointer"], "/states/s/rules/0/animation");
  EXPECT_EQ(doc["errors"][2]["message"], "unknown driver type 'Warp'");
  // Expressions are checked by the one compile, after the binding errors.
  EXPECT_EQ(doc["errors"][3]["pointer"], "/animations/run/speed");
  EXPECT_EQ(doc["errors"][0]["file"], path);

  r = run({"check", path, shared_model(kWizard)});
  ASSERT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(path + ":/animations/fly/source: 'Fly' is neither"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, path + ": 4 errors, 0 warnings\n");
}

TEST_F(CheckTest, SyntaxErrorGivesLineAndColumn) {
  const std::string path = config("syntax.json", "{\n  \"template\": \"Simple\"\n  \"x\": 1\n}");
  const RunResult r = run({"check", path, shared_model(kWizard), "--json"});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["errors"].size(), 1u);
  EXPECT_EQ(doc["errors"][0]["pointer"], "3:3");
}

TEST_F(CheckTest, MissingFilesAndUsage) {
  RunResult r = run({"check", (dir_ / "none.json").string(), shared_model(kWizard)});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cannot open"), std::string::npos) << r.err;
  r = run({"check", (dir_ / "none.json").string()});
  EXPECT_EQ(r.exit_code, 2);
}

// The example config the README shows on the Wizard stays valid and plays what it promises.
TEST_F(CheckTest, DocumentedWizardExampleChecksCleanAndPlaysItsStates) {
  const std::string example = std::string(CRITTER_SOURCE_DIR) + "/docs/examples/Wizard.json";
  const RunResult r = run({"check", example, shared_model(kWizard)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, example + ": 0 errors, 0 warnings\n");

  auto base_clip = [&](std::vector<std::string> params) {
    std::vector<std::string> args = {
        "pose", shared_model(kWizard), "--config", example, "--json", "--param", "IsOnGround=true"};
    for (const std::string& p : params) {
      if (!p.starts_with("--")) args.push_back("--param");
      args.push_back(p);
    }
    const RunResult pose = run(args);
    EXPECT_EQ(pose.exit_code, 0) << pose.err;
    if (pose.exit_code != 0) return std::string();
    const auto doc = nlohmann::json::parse(pose.out);
    const auto& layer = doc["times"][0]["layers"][0];
    return layer["clip"].is_string() ? layer["clip"].get<std::string>() : std::string("(none)");
  };
  EXPECT_EQ(base_clip({"SpeedXZ=0"}), "Idle");
  EXPECT_EQ(base_clip({"SpeedXZ=1.5"}), "Walk");
  EXPECT_EQ(base_clip({"SpeedXZ=3"}), "Run");
  // The punch plays once (about 0.8 s) and fades out; the rule does not restart it while held.
  EXPECT_EQ(base_clip({"IsAttacking=true", "--time=0.3"}), "Punch");
  EXPECT_EQ(base_clip({"IsAttacking=true", "--time=2"}), "(none)");
  EXPECT_EQ(base_clip({"IsDead=true", "SpeedXZ=3"}), "Death");
}

}  // namespace
