// Hostile-input robustness of the whole animation-config chain: parse -> bind -> runtime
// description -> compile -> Controller (and load_controller, CreatureModel). Seeds are mutated
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
#include "critter/io/animation_config.h"
#include "critter/io/animation_config_bind.h"
#include "critter/io/animation_config_runtime.h"
#include "critter/io/controller_loader.h"
#include "critter/io/load.h"
#include "support/config_fuzz.h"
#include "support/glb_builder.h"
#include "support/spec_example.h"

namespace {

using namespace critter;
using critter::testing::TempFolder;
using critter::testing::write_file;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// ---- the pipeline and its properties ----------------------------------------------------------

bool finite(const vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}
bool finite(const quat& q) {
  return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w);
}

class AnimationConfigFuzzTest : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(folder_.file("fuzz_base.json"), std::string_view(test_support::kFuzzBaseConfig));
    write_file(folder_.file("fuzz_quad.template.json"),
               std::string_view(test_support::kFuzzTemplate));
  }

  TempFolder folder_;
};

// ---- regressions found by the fuzzer ----------------------------------------------------------

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
  auto c = io::parse_animation_config(nested(125), folder_.file("deep.json"));
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, ErrorCode::kInvalid) << c.error().to_string();
  EXPECT_EQ(c.error().location, "/animations/die/preservePose");
  std::string pointer = "/animations/die/preservePose";
  for (int i = 0; i < 125; ++i) pointer += "/0";
  for (int depth : {126, 5000, 1000000}) {
    c = io::parse_animation_config(nested(depth), folder_.file("deep.json"));
    ASSERT_FALSE(c);
    EXPECT_EQ(c.error().code, ErrorCode::kLimit) << depth;
    EXPECT_EQ(c.error().path, folder_.file("deep.json"));
    EXPECT_EQ(c.error().location, pointer) << depth;
  }
}

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
    auto c = io::parse_animation_config(text, folder_.file("c.json"));
    ASSERT_TRUE(c) << c.error().to_string();
    auto b = io::bind_animation_config(*c, model);
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
  auto c = io::parse_animation_config(text, folder_.file("c.json"));
  ASSERT_TRUE(c);
  EXPECT_TRUE(io::bind_animation_config(*c, model));
}

// Bug: an IK chain's aim parameter with components above ~1e19 (finite) overflowed the length the
// chain job normalises it with, so the chain's bones became NaN. The aim is a direction: a huge
// aim must pose the chain exactly like the same direction at unit length.
TEST_F(AnimationConfigFuzzTest, HugeIkAimParameterPosesLikeItsDirection) {
  const Model model = test_support::spec_example_quadruped();
  auto c = io::parse_animation_config(test_support::kFeatureConfig, folder_.file("c.json"));
  ASSERT_TRUE(c) << c.error().to_string();
  auto b = io::bind_animation_config(*c, model);
  ASSERT_TRUE(b) << b.error().to_string();
  auto d = io::make_controller_desc(*c, *b, model);
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
      ASSERT_TRUE(finite(big[j].rotation) && finite(big[j].translation)) << "joint " << j;
      EXPECT_NEAR(big[j].rotation.x, unit[j].rotation.x, 1e-5f) << "joint " << j;
      EXPECT_NEAR(big[j].rotation.y, unit[j].rotation.y, 1e-5f) << "joint " << j;
      EXPECT_NEAR(big[j].rotation.z, unit[j].rotation.z, 1e-5f) << "joint " << j;
      EXPECT_NEAR(big[j].rotation.w, unit[j].rotation.w, 1e-5f) << "joint " << j;
    }
  }
}

// Bug: the LookAt and Death drivers read their number parameters with a clamp, which keeps NaN,
// and a cast to float, which turns 1e300 into inf: a host's NaN look angle or death phase, or a
// huge body height, made the head or root NaN. Such a parameter now reads as 0 (its unset
// value), so the pose equals the pose with 0.
TEST_F(AnimationConfigFuzzTest, DriverParameterNotFiniteReadsAsZero) {
  const Model model = test_support::spec_example_quadruped();
  auto c = io::parse_animation_config(test_support::kSpecExampleConfig, folder_.file("c.json"));
  ASSERT_TRUE(c) << c.error().to_string();
  auto b = io::bind_animation_config(*c, model);
  ASSERT_TRUE(b) << b.error().to_string();
  auto d = io::make_controller_desc(*c, *b, model);
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
      if (!finite(a[j].translation) || !finite(a[j].rotation)) return false;
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
    auto c = io::parse_animation_config(text, folder_.file("c.json"));
    EXPECT_TRUE(c) << c.error().to_string();
    auto b = io::bind_animation_config(*c, model);
    auto d = io::make_controller_desc(*c, *b, model);
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
  auto c = io::parse_animation_config(text, folder_.file("c.json"));
  ASSERT_TRUE(c) << c.error().to_string();
  auto b = io::bind_animation_config(*c, model);
  ASSERT_TRUE(b) << b.error().to_string();
  auto d = io::make_controller_desc(*c, *b, model);
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
    EXPECT_TRUE(finite(ctl.pose()[j].translation) && finite(ctl.pose()[j].rotation) &&
                finite(ctl.pose()[j].scale))
        << "joint " << j;
  }
  // The driver's scale (1 + -1 = 0 on y) is what the head shows.
  EXPECT_EQ(ctl.pose()[head].scale.y, 0.0f);
  EXPECT_EQ(ctl.pose()[head].scale.x, 1.0f);
}

}  // namespace
