// SPDX-License-Identifier: MIT
// Hostile-input robustness of the whole animation-config chain: parse -> bind (to the runtime
// description) -> compile -> Controller (and load_controller, CreatureModel). Seeds are mutated
// (truncations, byte flips/inserts/deletes, token swaps, hostile numbers, deep nesting, long
// names, case-variant duplicate keys, extends cycles) and every mutant is driven for 60 frames
// with hostile dt and parameter values. Properties checked: no crash, every error names its file
// and location, every pose transform and morph weight is finite, records and warnings stay
// bounded. Deterministic: fixed seeds; CRITTER_FUZZ_ITERATIONS scales the random mutants per seed
// (default small, for CI; sanitizer runs use more).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "critter/anim/controller.h"
#include "critter/anim/parameters.h"
#include "critter/config/animation_config.h"
#include "critter/config/bind.h"
#include "critter/io/controller_loader.h"
#include "critter/io/load.h"
#include "support/config_fuzz.h"
#include "support/glb_builder.h"
#include "support/hostile_drive.h"
#include "support/spec_example.h"

namespace {

using namespace critter;
using critter::testing::ScratchDir;
using critter::testing::write_file;

// ---- the pipeline and its properties ----------------------------------------------------------

void expect_located(const Error& e, std::string_view stage, std::string_view text) {
  EXPECT_FALSE(e.path.empty()) << stage << ": " << e.to_string() << "\n--- input:\n" << text;
  EXPECT_FALSE(e.location.empty()) << stage << ": " << e.to_string() << "\n--- input:\n" << text;
  EXPECT_FALSE(e.message.empty()) << stage << ": " << e.to_string();
}

// 60 frames of hostile dt and parameter values (support/hostile_drive.h); fails the test with
// what broke and the input.
void drive(const std::shared_ptr<const anim::ControllerProgram>& program, std::mt19937& rng,
           std::string_view text) {
  const std::string broken = test_support::drive_hostile_frames(program, rng);
  ASSERT_EQ(broken, "") << "--- input:\n" << text;
}

struct Outcome {
  int parse_failed = 0, bind_failed = 0, compile_failed = 0, driven = 0;
};

// parse -> bind -> desc -> compile -> drive. `path` names the document (the base of `extends`).
void run_pipeline(const std::string& text, const std::string& path, const Model& model,
                  std::mt19937& rng, Outcome& outcome) {
  // CRITTER_FUZZ_DUMP=<file>: each mutant is written there before it runs, so a crash or a
  // runaway leaves its input behind.
  if (const char* dump = std::getenv("CRITTER_FUZZ_DUMP")) write_file(dump, std::string_view(text));
  Diagnostics diag;
  std::vector<Error> errors;
  auto config = critter::config::parse_animation_config(text, path, {}, &diag, &errors);
  // Bounded: warnings and errors grow with the input, not beyond it.
  ASSERT_LE(diag.size(), text.size() + 64) << text;
  ASSERT_LE(errors.size(), text.size() + 64) << text;
  for (const Error& e : errors) expect_located(e, "parse (all)", text);
  for (const Warning& w : diag.items()) ASSERT_FALSE(w.path.empty()) << w.to_string();
  if (!config) {
    expect_located(config.error(), "parse", text);
    EXPECT_FALSE(errors.empty());
    ++outcome.parse_failed;
    return;
  }
  errors.clear();
  auto desc = critter::config::bind(*config, model, {}, &diag, &errors);
  for (const Error& e : errors) expect_located(e, "bind (all)", text);
  if (!desc) {
    expect_located(desc.error(), "bind", text);
    ++outcome.bind_failed;
    return;
  }
  errors.clear();
  auto program = anim::ControllerProgram::compile(model, std::move(*desc), nullptr, &diag, &errors);
  for (const Error& e : errors) expect_located(e, "compile (all)", text);
  if (!program) {
    expect_located(program.error(), "compile", text);
    ++outcome.compile_failed;
    return;
  }
  drive(*program, rng, text);
  ++outcome.driven;
}

class AnimationConfigFuzzTest : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(folder_.file("fuzz_base.json"), std::string_view(test_support::kFuzzBaseConfig));
    write_file(folder_.file("fuzz_quad.template.json"),
               std::string_view(test_support::kFuzzTemplate));
  }

  // Every truncation at a stride giving about `cuts` of them, then `count` random mutants.
  Outcome fuzz(const std::string& seed, const Model& model, std::uint32_t rng_seed, int count,
               int cuts = 200) {
    std::mt19937 rng(rng_seed);
    Outcome outcome;
    const std::string path = folder_.file("mutant.json");
    const std::size_t stride =
        std::max<std::size_t>(1, seed.size() / static_cast<std::size_t>(cuts));
    for (std::size_t n = 0; n < seed.size(); n += stride) {
      run_pipeline(seed.substr(0, n), path, model, rng, outcome);
      if (HasFatalFailure() || HasFailure()) return outcome;
    }
    for (int i = 0; i < count; ++i) {
      run_pipeline(test_support::mutate_config(seed, rng), path, model, rng, outcome);
      if (HasFatalFailure() || HasFailure()) return outcome;
    }
    return outcome;
  }

  ScratchDir folder_;
};

TEST_F(AnimationConfigFuzzTest, SeedsRunCleanly) {
  // The seeds themselves go the whole way (so mutants start from a working chain).
  const Model quadruped = test_support::spec_example_quadruped();
  for (const char* seed : {test_support::kSpecExampleConfig, test_support::kFeatureConfig}) {
    Diagnostics diag;
    auto c = critter::config::parse_animation_config(seed, folder_.file("seed.json"), {}, &diag);
    ASSERT_TRUE(c) << c.error().to_string();
    auto d = critter::config::bind(*c, quadruped, {}, &diag);
    ASSERT_TRUE(d) << d.error().to_string();
    auto p = anim::ControllerProgram::compile(quadruped, std::move(*d));
    ASSERT_TRUE(p) << p.error().to_string();
  }
}

TEST_F(AnimationConfigFuzzTest, SpecExampleMutants) {
  const Model model = test_support::spec_example_quadruped();
  const Outcome o =
      fuzz(test_support::kSpecExampleConfig, model, 20261130u, test_support::fuzz_iterations() * 4);
  // The mutants reach every phase (otherwise the fuzzing only exercises the tokenizer).
  EXPECT_GT(o.parse_failed, 0);
  EXPECT_GT(o.driven, 0);
}

TEST_F(AnimationConfigFuzzTest, FeatureConfigMutants) {
  const Model model = test_support::spec_example_quadruped();
  const Outcome o =
      fuzz(test_support::kFeatureConfig, model, 7u, test_support::fuzz_iterations() * 4);
  EXPECT_GT(o.parse_failed, 0);
  EXPECT_GT(o.bind_failed + o.compile_failed, 0);
  EXPECT_GT(o.driven, 0);
}

TEST_F(AnimationConfigFuzzTest, WizardMutants) {
  auto wizard = io::load(CRITTER_SHARED_MODELS "/Wizard/Wizard.glb");
  ASSERT_TRUE(wizard) << wizard.error().to_string();
  auto text = [] {
    std::string s;
    FILE* f = std::fopen(CRITTER_SOURCE_DIR "/docs/examples/Wizard.json", "rb");
    if (f == nullptr) return s;
    char buf[4096];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
    std::fclose(f);
    return s;
  }();
  ASSERT_FALSE(text.empty());
  const Outcome o = fuzz(text, *wizard, 42u, test_support::fuzz_iterations() * 2, 100);
  EXPECT_GT(o.driven, 0);
}

// Targeted hostile values in the feature config (one substitution each).
TEST_F(AnimationConfigFuzzTest, TargetedHostileFields) {
  const Model model = test_support::spec_example_quadruped();
  struct Case {
    const char* from;
    const char* to;
  };
  const Case cases[] = {
      {"\"maxChainLength\": 3", "\"maxChainLength\": 1000000000"},
      {"\"maxChainLength\": 3", "\"maxChainLength\": -2147483648"},
      {"\"maxChainLength\": 3", "\"maxChainLength\": 2.5"},
      {"\"iterations\": 8", "\"iterations\": 1000000000"},
      {"\"iterations\": 8", "\"iterations\": 1e999"},
      {"\"time\": 0.9", "\"time\": 5"},
      {"\"time\": 0.9", "\"time\": -1"},
      {"\"time\": 0.9", "\"time\": \"NaN\""},
      {"\"time\": 0.9", "\"time\": 1e999"},
      {"\"startPhase\": 0.1", "\"startPhase\": \"NaN\""},
      {"\"startPhase\": 0.1", "\"startPhase\": \"[Boost] / 0\""},
      {"\"endPhase\": 0.9", "\"endPhase\": 1e999"},
      {"\"endPhase\": 0.9", "\"endPhase\": \"0 / 0\""},
      {"\"startPhase\": 0.8", "\"startPhase\": \"[Boost] * 1e38 * 1e38\""},
      {"\"blendDuration\": 0", "\"blendDuration\": -5"},
      {"\"blendDuration\": 0", "\"blendDuration\": \"-[Boost] * 1e38 * 1e38\""},
      {"\"speed\": 2", "\"speed\": 1e38"},
      {"\"speed\": 2", "\"speed\": \"-1e38 * [Boost]\""},
      {"\"modelScale\": 1.5", "\"modelScale\": 1e38"},
      {"\"modelScale\": 1.5", "\"modelScale\": -1"},
      {"\"modelScale\": 1.5", "\"modelScale\": 1e-45"},
      {"\"rootBoneRotation\": [10, 20, 30]", "\"rootBoneRotation\": [1e38, -1e38, 1e38]"},
      {"\"rootBoneTranslation\": [0, 0.5, 0]", "\"rootBoneTranslation\": [1e38, 1e38, 1e38]"},
      {"\"value\": 2", "\"value\": 1e38"},
      {"\"value\": 2", "\"value\": 0"},
      {"\"minScale\": 0.5", "\"minScale\": -1e38"},
      {"\"maxSpeed\": 10", "\"maxSpeed\": 1e38"},
      {"\"maxSpeed\": 10", "\"maxSpeed\": -1"},
      {"\"impulseOverride\": [0, 5, 0]", "\"impulseOverride\": [1e38, 1e38, 1e38]"},
      {"\"impulsePhase\": 0.18", "\"impulsePhase\": 7"},
      {"\"smoothTime\": 0.2", "\"smoothTime\": 0"},
      {"\"smoothTime\": 0.2", "\"smoothTime\": -1"},
      {"\"smoothTime\": 0.1 }", "\"smoothTime\": 1e38 }"},
      {"\"shares\": [0.4, 0.6]", "\"shares\": [1e38, -1e38]"},
      {"\"maxYawDegrees\": 65", "\"maxYawDegrees\": 1e38"},
      {"\"weight\": 0.8", "\"weight\": 1e38"},
      {"\"aimWeight\": 1", "\"aimWeight\": 1, \"aimAxis\": [0, 0, 0]"},
      {"\"aimWeight\": 1", "\"aimWeight\": 1, \"aimAxis\": [1e38, 1e38, 1e38]"},
      {"\"tolerance\": 0.001", "\"tolerance\": 0"},
      {"\"tolerance\": 0.001", "\"tolerance\": -1"},
      {"\"maxStepDegrees\": 45", "\"maxStepDegrees\": 0"},
      {"\"min\": [0, -5, -5]", "\"min\": [-1e38, -5, -5]"},
      {"\"rotationX\": \"[SpeedXZ] * 10\"", "\"rotationX\": \"[SpeedXZ] * 1e38 * 1e38\""},
      {"\"scaleY\": \"1 + [Boost]\"", "\"scaleY\": \"0\""},
      {"\"scaleY\": \"1 + [Boost]\"", "\"scaleY\": \"[Boost] * 1e38 * 1e38\""},
      {"\"BodyDrop\": 0.4", "\"BodyDrop\": 1e38"},
      {"\"Boost\": 0.25", "\"Boost\": 1e38"},
      {"\"Count\": { \"type\": \"int\", \"value\": 1 }",
       "\"Count\": { \"type\": \"int\", \"value\": 1e300 }"},
      {"\"value\": \"\"", "\"value\": 1e999"},
      {"\"extends\": \"fuzz_base\"", "\"extends\": \"mutant\""},
      {"\"extends\": \"fuzz_base\"", "\"extends\": \"\""},
      {"\"extends\": \"fuzz_base\"", "\"extends\": [\"fuzz_base\"]"},
      {"\"extends\": \"fuzz_base\"", "\"template\": \"mutant\""},
      {"\"extends\": \"fuzz_base\"", "\"extends\": \"fuzz_base\", \"template\": \"c.json\""},
  };
  std::mt19937 rng(99u);
  Outcome outcome;
  for (const Case& k : cases) {
    std::string text = test_support::kFeatureConfig;
    const std::size_t at = text.find(k.from);
    ASSERT_NE(at, std::string::npos) << k.from;
    text.replace(at, std::string_view(k.from).size(), k.to);
    // "extends": "mutant" names the document itself: write it so the cycle is real.
    write_file(folder_.file("mutant.json"), std::string_view(text));
    SCOPED_TRACE(k.to);
    run_pipeline(text, folder_.file("mutant.json"), model, rng, outcome);
    if (HasFailure()) return;
  }
  // The base config can carry the hostile values too: the same chain through extends.
  for (const Case& k : cases) {
    std::string base = test_support::kFeatureConfig;
    const std::size_t at = base.find(k.from);
    base.replace(at, std::string_view(k.from).size(), k.to);
    const std::size_t ext = base.find("\"extends\"");
    if (ext != std::string::npos) base.replace(ext, 9, "\"extendz\"");
    write_file(folder_.file("hostile_base.json"), std::string_view(base));
    SCOPED_TRACE(k.to);
    run_pipeline(R"({"extends": "hostile_base", "modelScale": 1})", folder_.file("child.json"),
                 model, rng, outcome);
    if (HasFailure()) return;
  }
  EXPECT_GT(outcome.driven, 0);
}

TEST_F(AnimationConfigFuzzTest, ExtendsCyclesThroughFiles) {
  const Model model = test_support::spec_example_quadruped();
  write_file(folder_.file("a.json"), std::string_view(R"({"extends": "b", "modelScale": 1})"));
  write_file(folder_.file("b.json"), std::string_view(R"({"extends": "c.json"})"));
  write_file(folder_.file("c.json"), std::string_view(R"({"extends": "./a"})"));
  write_file(folder_.file("self.json"), std::string_view(R"({"extends": "self"})"));
  write_file(folder_.file("upper.json"), std::string_view(R"({"EXTENDS": "upper"})"));
  std::mt19937 rng(5u);
  Outcome outcome;
  for (const char* name : {"a.json", "b.json", "c.json", "self.json", "upper.json"}) {
    Diagnostics diag;
    auto c = critter::config::load_animation_config(folder_.file(name), {}, &diag);
    ASSERT_FALSE(c) << name;  // every one is a cycle (upper.json spells the key in capitals)
    expect_located(c.error(), name, name);
    EXPECT_NE(c.error().message.find("cycle"), std::string::npos) << c.error().to_string();
    if (HasFailure()) return;
  }
  // A long chain does not recurse without bound either.
  for (int i = 0; i < 200; ++i) {
    write_file(folder_.file("chain" + std::to_string(i) + ".json"),
               std::string_view("{\"extends\": \"chain" + std::to_string(i + 1) + "\"}"));
  }
  write_file(folder_.file("chain200.json"), std::string_view(test_support::kFeatureConfig));
  auto c = critter::config::load_animation_config(folder_.file("chain0.json"));
  ASSERT_FALSE(c);
  expect_located(c.error(), "chain", "chain0.json");
  EXPECT_NE(c.error().message.find("deeper than 16"), std::string::npos) << c.error().to_string();
  run_pipeline(R"({"extends": "a"})", folder_.file("x.json"), model, rng, outcome);
  EXPECT_EQ(outcome.parse_failed, 1);
}

// io::load_controller on written mutants: the one-call API sees the same hostile files
// (CreatureModel on top of it: tests/creature/creature_model_fuzz_test.cpp).
TEST_F(AnimationConfigFuzzTest, LoadControllerOnMutants) {
  auto model = std::make_shared<const Model>(test_support::spec_example_quadruped());
  std::mt19937 rng(314u);
  const int count = test_support::fuzz_iterations() * 2;
  int loaded = 0;
  for (int i = 0; i < count; ++i) {
    const std::string text = test_support::mutate_config(
        (i & 1) ? test_support::kFeatureConfig : test_support::kSpecExampleConfig, rng);
    const std::string path = folder_.file("loaded.json");
    write_file(path, std::string_view(text));
    Diagnostics diag;
    auto result = io::load_controller(path, model, {}, &diag);
    if (!result) {
      expect_located(result.error(), "load_controller", text);
      if (HasFailure()) return;
      continue;
    }
    ++loaded;
    EXPECT_EQ(result->model, model);  // no file: source loads
    drive(result->program, rng, text);
    if (HasFailure()) return;
  }
  EXPECT_GT(loaded, 0);
}

// ---- regressions found by the fuzzer ----------------------------------------------------------

// Bug: a driver number property written "inf" or "nan" (a numeric string) or as a number beyond
// float range passed bind and reached the LookAt driver as an infinite angle limit, so the head
// pose became NaN. Bind now rejects it at the value.
TEST_F(AnimationConfigFuzzTest, DriverNumberPropertyNotFiniteIsRejectedAtBind) {
  const Model model = test_support::spec_example_quadruped();
  const std::pair<const char*, const char*> cases[] = {
      {"\"MaxAngleY\": 15", "\"MaxAngleY\": \"inf\""},
      {"\"MaxAngleY\": 15", "\"MaxAngleY\": \"-NaN\""},
      {"\"MaxAngleY\": 15", "\"MaxAngleY\": 1e300"},
      {"\"BodyDrop\": 0.4", "\"BodyDrop\": \"1e39\""}};
  for (const auto& [from, to] : cases) {
    std::string text = test_support::kSpecExampleConfig;
    text.replace(text.find(from), std::string_view(from).size(), to);
    auto c = critter::config::parse_animation_config(text, folder_.file("c.json"));
    ASSERT_TRUE(c) << c.error().to_string();
    auto b = critter::config::bind(*c, model);
    ASSERT_FALSE(b) << to;
    const std::string key = std::string(from).substr(1, std::string_view(from).find('"', 1) - 1);
    const std::string layer = key == "BodyDrop" ? "Death" : "Head";
    EXPECT_EQ(b.error().location, "/layers/" + layer + "/driver/properties/" + key) << to;
    EXPECT_NE(b.error().message.find("not a finite number"), std::string::npos)
        << b.error().to_string();
  }
  // The largest float and a numeric string inside the range still bind.
  std::string text = test_support::kSpecExampleConfig;
  text.replace(text.find("\"MaxAngleY\": 15"), 15, "\"MaxAngleY\": \"1e3\"");
  auto c = critter::config::parse_animation_config(text, folder_.file("c.json"));
  ASSERT_TRUE(c);
  EXPECT_TRUE(critter::config::bind(*c, model));
}

// Bug: an IK chain's aim parameter with components above ~1e19 (finite) overflowed the length the
// chain job normalises it with, so the chain's bones became NaN. The aim is a direction: a huge
// aim must pose the chain exactly like the same direction at unit length.
TEST_F(AnimationConfigFuzzTest, HugeIkAimParameterPosesLikeItsDirection) {
  const Model model = test_support::spec_example_quadruped();
  auto c =
      critter::config::parse_animation_config(test_support::kFeatureConfig, folder_.file("c.json"));
  ASSERT_TRUE(c) << c.error().to_string();
  auto d = critter::config::bind(*c, model);
  ASSERT_TRUE(d) << d.error().to_string();
  auto p = anim::ControllerProgram::compile(model, std::move(*d));
  ASSERT_TRUE(p) << p.error().to_string();
  auto pose_with_aim = [&](vec3 aim) {
    anim::Controller ctl(*p);
    ctl.parameters().set_bool("IsOnGround", true);
    ctl.parameters().set_float("Boost", 0.5);
    ctl.parameters().set("FootTargetL", anim::ParameterValue::of_vec3(vec3(0.2f, -1.0f, 0.3f)));
    ctl.parameters().set("Aim", anim::ParameterValue::of_vec3(aim));
    for (int f = 0; f < 5; ++f) {
      ctl.update(1.0f / 60.0f);
      ctl.compute_pose();
    }
    return std::vector<Transform>(ctl.pose().begin(), ctl.pose().end());
  };
  const std::vector<Transform> unit = pose_with_aim(vec3(1.0f, 0.0f, 0.0f));
  for (const vec3& huge : {vec3(1e20f, 0.0f, 0.0f), vec3(3.4e38f, 0.0f, 0.0f)}) {
    const std::vector<Transform> big = pose_with_aim(huge);
    ASSERT_EQ(big.size(), unit.size());
    for (std::size_t j = 0; j < big.size(); ++j) {
      ASSERT_TRUE(all_finite(big[j].rotation) && all_finite(big[j].translation)) << "joint " << j;
      EXPECT_NEAR(big[j].rotation.x, unit[j].rotation.x, 1e-5f) << "joint " << j;
      EXPECT_NEAR(big[j].rotation.y, unit[j].rotation.y, 1e-5f) << "joint " << j;
      EXPECT_NEAR(big[j].rotation.z, unit[j].rotation.z, 1e-5f) << "joint " << j;
      EXPECT_NEAR(big[j].rotation.w, unit[j].rotation.w, 1e-5f) << "joint " << j;
    }
  }
}

// Bug: deeply nested arrays or objects (a few thousand levels, a 9 kB file) made the reader use
// gigabytes (the tree is walked and copied level by level) before any error. Nesting beyond
// 128 levels is now refused at once with a kLimit error at the container that goes too deep.
TEST_F(AnimationConfigFuzzTest, DeepNestingIsRefusedWithLimitError) {
  auto nested = [](int depth) {
    return "{\"animations\": {\"die\": {\"source\": \"Death\", \"preservePose\": " +
           std::string(static_cast<std::size_t>(depth), '[') +
           std::string(static_cast<std::size_t>(depth), ']') + "}}}";
  };
  // The root, animations and die take three levels: 125 arrays reach level 128, the limit.
  auto c = critter::config::parse_animation_config(nested(125), folder_.file("deep.json"));
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, ErrorCode::kInvalid) << c.error().to_string();
  EXPECT_EQ(c.error().location, "/animations/die/preservePose");
  std::string pointer = "/animations/die/preservePose";
  for (int i = 0; i < 125; ++i) pointer += "/0";
  for (int depth : {126, 5000, 1000000}) {
    c = critter::config::parse_animation_config(nested(depth), folder_.file("deep.json"));
    ASSERT_FALSE(c);
    EXPECT_EQ(c.error().code, ErrorCode::kLimit) << depth;
    EXPECT_EQ(c.error().path, folder_.file("deep.json"));
    EXPECT_EQ(c.error().location, pointer) << depth;
  }
}

// Bug: the LookAt and Death drivers read their number parameters with a clamp, which keeps NaN,
// and a cast to float, which turns 1e300 into inf: a host's NaN look angle or death phase, or a
// huge body height, made the head or root NaN. Such a parameter now reads as 0 (its unset
// value), so the pose equals the pose with 0.
TEST_F(AnimationConfigFuzzTest, DriverParameterNotFiniteReadsAsZero) {
  const Model model = test_support::spec_example_quadruped();
  auto c = critter::config::parse_animation_config(test_support::kSpecExampleConfig,
                                                   folder_.file("c.json"));
  ASSERT_TRUE(c) << c.error().to_string();
  auto d = critter::config::bind(*c, model);
  ASSERT_TRUE(d) << d.error().to_string();
  auto p = anim::ControllerProgram::compile(model, std::move(*d));
  ASSERT_TRUE(p) << p.error().to_string();
  auto pose_with = [&](double look, double phase, double height) {
    anim::Controller ctl(*p);
    ctl.parameters().set_float("LookAngleX", look);
    ctl.parameters().set_float("LookAngleY", look);
    ctl.parameters().set_float("DeathPhase", phase);
    ctl.parameters().set_float("BodyHeight", height);
    for (int f = 0; f < 3; ++f) {
      ctl.update(0.5f);
      ctl.compute_pose();
    }
    return std::vector<Transform>(ctl.pose().begin(), ctl.pose().end());
  };
  auto same = [](const std::vector<Transform>& a, const std::vector<Transform>& e) {
    for (std::size_t j = 0; j < a.size(); ++j) {
      if (!all_finite(a[j].translation) || !all_finite(a[j].rotation)) return false;
      if (glm::length(a[j].translation - e[j].translation) > 1e-6f) return false;
      if (std::fabs(glm::dot(a[j].rotation, e[j].rotation)) < 1.0f - 1e-6f) return false;
    }
    return a.size() == e.size();
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(same(pose_with(nan, 0.0, 1.0), pose_with(0.0, 0.0, 1.0)));
  EXPECT_TRUE(same(pose_with(1e300, 0.0, 1.0), pose_with(0.0, 0.0, 1.0)));
  EXPECT_TRUE(same(pose_with(0.0, nan, 1.0), pose_with(0.0, 0.0, 1.0)));
  EXPECT_TRUE(same(pose_with(0.0, 1.0, 1e300), pose_with(0.0, 1.0, 0.0)));
  EXPECT_TRUE(same(pose_with(0.0, 1.0, -std::numeric_limits<double>::infinity()),
                   pose_with(0.0, 1.0, 0.0)));
  // A finite height still drops the body (the rule is not "ignore the parameter").
  EXPECT_FALSE(same(pose_with(0.0, 1.0, 2.0), pose_with(0.0, 1.0, 0.0)));
}

// Bug: modelScale 1e-45 (> 0, so accepted) made root_correction() divide the root-bone
// translation by a subnormal scale: an infinite translation in the matrix given to the instance.
// The quotient is now clamped to the largest float; ordinary scales are unchanged.
TEST_F(AnimationConfigFuzzTest, TinyModelScaleKeepsRootCorrectionFinite) {
  const Model model = test_support::spec_example_quadruped();
  auto correction_y = [&](const char* text) {
    auto c = critter::config::parse_animation_config(text, folder_.file("c.json"));
    EXPECT_TRUE(c) << c.error().to_string();
    auto d = critter::config::bind(*c, model);
    auto p = anim::ControllerProgram::compile(model, std::move(*d));
    anim::Controller ctl(*p);
    ctl.update(0.1f);
    const mat4 m = ctl.root_correction();
    for (int col = 0; col < 4; ++col) {
      for (int row = 0; row < 4; ++row) EXPECT_TRUE(std::isfinite(m[col][row])) << text;
    }
    return m[3][1];
  };
  EXPECT_FLOAT_EQ(correction_y(R"({"modelScale": 0.5, "rootBoneTranslation": [0, 1, 0]})"), 2.0f);
  EXPECT_EQ(correction_y(R"({"modelScale": 1e-45, "rootBoneTranslation": [0, 1, 0]})"),
            std::numeric_limits<float>::max());
  EXPECT_EQ(correction_y(R"({"modelScale": 1e-45, "rootBoneTranslation": [0, -1, 0]})"),
            -std::numeric_limits<float>::max());
}

// Bug: an Expression driver channel scaling a bone to 0 ("scaleY": "1 + [Boost]" with Boost -1)
// under a look-at entry made the look-at job's model matrix singular and wrote NaN into the head.
// Joints an IK or look-at job leaves non-finite now keep their pose from before that job.
TEST_F(AnimationConfigFuzzTest, LookAtOverZeroScaledBoneKeepsPoseFinite) {
  const Model model = test_support::spec_example_quadruped();
  std::string text = test_support::kFeatureConfig;
  const std::string weight = "\"weight\": 0.8,";
  text.erase(text.find(weight), weight.size());  // the Head layer at full weight
  auto c = critter::config::parse_animation_config(text, folder_.file("c.json"));
  ASSERT_TRUE(c) << c.error().to_string();
  auto d = critter::config::bind(*c, model);
  ASSERT_TRUE(d) << d.error().to_string();
  auto p = anim::ControllerProgram::compile(model, std::move(*d));
  ASSERT_TRUE(p) << p.error().to_string();
  anim::Controller ctl(*p);
  ctl.parameters().set_float("Boost", -1.0);
  ctl.parameters().set_float("LookAngleX", 0.5);
  for (int f = 0; f < 3; ++f) {
    ctl.update(1.0f / 60.0f);
    ctl.compute_pose();
  }
  const std::size_t head = static_cast<std::size_t>(model.find_bone("b_Head_05"));
  for (std::size_t j = 0; j < ctl.pose().size(); ++j) {
    EXPECT_TRUE(all_finite(ctl.pose()[j].translation) && all_finite(ctl.pose()[j].rotation) &&
                all_finite(ctl.pose()[j].scale))
        << "joint " << j;
  }
  // The driver's scale (1 + -1 = 0 on y) is what the head shows.
  EXPECT_EQ(ctl.pose()[head].scale.y, 0.0f);
  EXPECT_EQ(ctl.pose()[head].scale.x, 1.0f);
}

// Bug (found under AddressSanitizer): the reader kept a pointer to the first unconditional rule
// inside the vector of rules it was filling, so a later rule that grew the vector left it dangling
// and the "unreachable" warning of the next rule read freed memory. Every later rule is now
// reported against the right pointer.
TEST_F(AnimationConfigFuzzTest, UnreachableRuleWarningAfterManyRulesNamesTheFirstUnconditional) {
  Diagnostics diag;
  auto c = critter::config::parse_animation_config(R"({"states": {"s": {"layer": "Base", "rules": [
      {"condition": "true", "animation": "a"}, {"condition": "x", "animation": "b"},
      {"condition": "y", "animation": "c"}, {"condition": "z", "animation": "d"},
      {"condition": "w", "animation": "e"}]}}})",
                                                   folder_.file("c.json"), {}, &diag);
  ASSERT_TRUE(c) << c.error().to_string();
  std::vector<std::string> got;
  for (const Warning& w : diag.items()) got.push_back(w.location + " | " + w.message);
  const std::string tail =
      " | rule is unreachable: an earlier rule at /states/s/rules/0 always matches";
  EXPECT_EQ(got,
            (std::vector<std::string>{"/states/s/rules/1" + tail, "/states/s/rules/2" + tail,
                                      "/states/s/rules/3" + tail, "/states/s/rules/4" + tail}));
}

}  // namespace
