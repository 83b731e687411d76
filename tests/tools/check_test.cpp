// SPDX-License-Identifier: MIT
// `critter check`: exit codes, located problems in text and JSON, on good and broken configs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>

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
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
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
  const std::string path = config("warn.json", R"({"colour": "red", "animation": {},
    "states": {"s": {"layer": "Base", "rules": [{"condition": "[SpeedXZ] > 1", "animation": "Run"}]}}})");
  const RunResult r = run({"check", path, shared_model(kWizard), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_TRUE(doc["errors"].empty());
  ASSERT_EQ(doc["warnings"].size(), 2u) << r.out;
  EXPECT_EQ(doc["warnings"][0]["file"], path);
  EXPECT_EQ(doc["warnings"][0]["location"], "/colour");
  EXPECT_EQ(doc["warnings"][0]["message"], "unknown property 'colour'");
  // A misspelt field names the field it is near.
  EXPECT_EQ(doc["warnings"][1]["location"], "/animation");
  EXPECT_EQ(doc["warnings"][1]["message"],
            "unknown property 'animation' (did you mean animations?)");
}

// check --json and info --json use the same keys for the same things: the file, and warnings
// (and check's errors) as {"code", "file", "location", "message"}.
TEST_F(CheckTest, JsonKeysMatchInfos) {
  const std::string path = config("keys.json", R"({"colour": "red", "states": {"s": {"layer":
    "Base", "rules": [{"condition": "[Nope] > 1", "animation": "Run"}]}}})");
  const RunResult r = run({"check", path, shared_model(kWizard), "--json"});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["file"], path);
  EXPECT_EQ(doc["model"], shared_model(kWizard));
  ASSERT_EQ(doc["warnings"].size(), 1u) << r.out;
  ASSERT_GE(doc["errors"].size(), 1u) << r.out;
  EXPECT_EQ(doc["warnings"][0]["code"], "warning");
  EXPECT_EQ(doc["errors"][0]["code"], "invalid") << r.out;
  EXPECT_EQ(doc["errors"][0]["location"], "/states/s/rules/0/condition") << r.out;

  const std::string gltf = config("lost.gltf", R"({"asset":{"version":"2.0"},)"
                                               R"("images":[{"uri":"gone.png"}]})");
  const RunResult info = run({"info", gltf, "--json"});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  const auto described = nlohmann::json::parse(info.out);
  EXPECT_EQ(described["file"], gltf);
  ASSERT_EQ(described["warnings"].size(), 1u) << info.out;
  auto keys = [](const nlohmann::json& object) {
    std::vector<std::string> names;
    for (auto it = object.begin(); it != object.end(); ++it) names.push_back(it.key());
    return names;
  };
  const std::vector<std::string> expected = {"code", "file", "location", "message"};
  EXPECT_EQ(keys(described["warnings"][0]), expected);
  EXPECT_EQ(keys(doc["warnings"][0]), expected);
  EXPECT_EQ(keys(doc["errors"][0]), expected);
}

// A mod's config reaching outside its folder: a located error and exit 1, unless the command
// line allows outside paths.
TEST_F(CheckTest, ConfigPathsOutsideTheFolderAreRefused) {
  config("secret/p.json", R"({"modelScale": 2})");
  const std::string path = config("mod/wolf.json", R"({"extends": "../secret/p.json"})");
  RunResult r = run({"check", path, shared_model(kWizard)});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err, "critter: " + path +
                       ":/extends: path '../secret/p.json' leaves the allowed folders (the "
                       "config's folder and the asset roots); refused unless the host allows "
                       "outside paths\n");
  r = run({"check", path, shared_model(kWizard), "--allow-outside-uris"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run({"check", path, shared_model(kWizard), "--asset-root", dir_.string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(CheckTest, StrictTurnsEveryWarningIntoAnError) {
  const std::string path = config("strict.json", R"({"colour": "red"})");
  RunResult r = run({"check", path, shared_model(kWizard), "--strict"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "critter: " + path + ":/colour: unknown property 'colour'\n");
  EXPECT_EQ(r.out, path + ": 1 error, 0 warnings\n");
  r = run({"check", path, shared_model(kWizard), "--strict", "--json"});
  EXPECT_EQ(r.exit_code, 1);
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["errors"].size(), 1u) << r.out;
  EXPECT_EQ(doc["errors"][0]["message"], "unknown property 'colour'");
  EXPECT_TRUE(doc["warnings"].empty());
  // Without warnings --strict changes nothing.
  const std::string clean = config("clean.json", R"({"animations": {"idle": {"source": "Idle"}}})");
  r = run({"check", clean, shared_model(kWizard), "--strict"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(CheckTest, UndeclaredParameterInAnExpressionIsAnErrorUnlessTheHostProvidesIt) {
  const std::string path = config("mood.json", R"({
    "states": {"s": {"layer": "Base", "rules": [
      {"condition": "[Mood] > 1", "animation": "Run"},
      {"condition": "[SpeedX] > 1", "animation": "Walk"}]}}})");
  RunResult r = run({"check", path, shared_model(kWizard), "--json"});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["errors"].size(), 2u) << r.out;
  EXPECT_EQ(doc["errors"][0]["location"], "/states/s/rules/0/condition");
  EXPECT_EQ(doc["errors"][0]["message"],
            "expression '[Mood] > 1': parameter 'Mood' is neither declared nor built in");
  EXPECT_EQ(doc["errors"][1]["location"], "/states/s/rules/1/condition");
  EXPECT_EQ(doc["errors"][1]["message"],
            "expression '[SpeedX] > 1': parameter 'SpeedX' is neither declared nor built in (did "
            "you mean Speed, SpeedXZ?)");
  // A parameter the game sets is named with --host-param; declaring it in the config works too.
  r = run({"check", path, shared_model(kWizard), "--json", "--host-param", "Mood", "--host-param",
           "SpeedX"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const std::string declared = config("declared.json", R"({"parameters": {"Mood": 0},
    "states": {"s": {"layer": "Base", "rules": [{"condition": "[Mood] > 1", "animation": "Run"}]}}})");
  r = run({"check", declared, shared_model(kWizard)});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(CheckTest, ParseErrorsDoNotHideBindAndExpressionErrors) {
  const std::string path = config("all.json", R"({
    "template": "Humn",
    "modelScale": "big",
    "layers": {"Base": {"bones": ["Haed"]}},
    "animations": {"walk": {"source": "Wlak", "speed": true, "loop": "[SpeedXZ] >"}},
    // Legs is a layer of Human: with the template unknown, layer names are not checked.
    "states": {"s": {"layer": "Legs", "rules": [{"condition": "true", "animation": "driver:LookAtt"}]}}})");
  const RunResult r = run({"check", path, shared_model(kWizard), "--json"});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  std::vector<std::string> lines;
  for (const auto& e : doc["errors"]) {
    lines.push_back(e["location"].get<std::string>() + ": " + e["message"].get<std::string>());
  }
  const std::vector<std::string> expected = {
      "/template: unknown template 'Humn' (neither built in nor a template file) (did you mean "
      "Human?)",
      "/modelScale: expected a number, got string 'big'",
      "/animations/walk/speed: expected a number, got a bool",
      "/layers/Base/bones/0: bone 'Haed' is not a bone of the model (did you mean Head?)",
      "/animations/walk/source: 'Wlak' is neither an animation alias nor a clip of the model (did "
      "you mean Walk?)",
      "/states/s/rules/0/animation: unknown driver type 'LookAtt' (did you mean LookAt?)",
      "/animations/walk/loop: expression '[SpeedXZ] >': expected an expression, found the end "
      "(column 12)",
  };
  EXPECT_EQ(lines, expected) << r.out;
}

TEST_F(CheckTest, SwappedArgumentsGetAHint) {
  const std::string path = config("good.json", R"({})");
  const RunResult r = run({"check", shared_model(kWizard), path});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "critter: check takes the config first, then the model: critter check " + path +
                       " " + shared_model(kWizard) + "\n");
  EXPECT_EQ(r.out, "");
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
  EXPECT_EQ(doc["errors"][0]["location"], "/layers/Base/bones/0");
  EXPECT_EQ(doc["errors"][0]["message"], "bone 'NoSuchBone' is not a bone of the model");
  EXPECT_EQ(doc["errors"][1]["location"], "/animations/fly/source");
  EXPECT_EQ(doc["errors"][1]["message"],
            "'Fly' is neither an animation alias nor a clip of the model");
  // NoSuchBone and Warp are near nothing: no suggestion.
  EXPECT_EQ(doc["errors"][2]["location"], "/states/s/rules/0/animation");
  EXPECT_EQ(doc["errors"][2]["message"], "unknown driver type 'Warp'");
  // Expressions are checked by the one compile, after the binding errors.
  EXPECT_EQ(doc["errors"][3]["location"], "/animations/run/speed");
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
  EXPECT_EQ(doc["errors"][0]["location"], "3:3");
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
