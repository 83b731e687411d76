// SPDX-License-Identifier: MIT
// libFuzzer target: the animation-config chain. The input is a config document: relaxed JSON ->
// parse (with `extends` and a custom template beside it) -> bind to a small quadruped built in
// code -> compile with the creature drivers -> 60 controller frames with hostile parameter
// values and time steps (NaN, infinities, huge, negative, int64 extremes, long strings) drawn
// from a generator seeded by the input, so every input replays the same. Properties: no crash,
// leak or sanitizer report; errors name the file and a location; every pose transform, morph
// weight and root matrix is finite; records and runtime warnings stay bounded.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "critter/anim/controller.h"
#include "critter/anim/controller_program.h"
#include "critter/anim/parameters.h"
#include "critter/config/animation_config.h"
#include "critter/config/bind.h"
#include "critter/creature/default_drivers.h"
#include "fuzz_support.h"
#include "support/config_fuzz.h"
#include "support/spec_example.h"

namespace {

using namespace critter;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

anim::ParameterValue hostile_value(std::mt19937& rng) {
  static const double kNumbers[] = {0.0,   1.0,  -1.0, 0.5,   3.5,   1e30, -1e30,
                                    1e300, kNaN, kInf, -kInf, 1e-40, 2.0,  10.0};
  const auto number = [&] {
    return kNumbers[std::uniform_int_distribution<std::size_t>(0, std::size(kNumbers) - 1)(rng)];
  };
  static const char* const kStrings[] = {
      "", "Idle", "Walk", "Jump", "walk", "Nope", "[Gait]", "animation://Idle", "driver:Death"};
  switch (std::uniform_int_distribution<int>(0, 8)(rng)) {
    case 0:
      return anim::ParameterValue::of_float(number());
    case 1:
      return anim::ParameterValue::of_int((rng() & 1u) ? std::numeric_limits<std::int64_t>::min()
                                                       : std::numeric_limits<std::int64_t>::max());
    case 2:
      return anim::ParameterValue::of_int(std::uniform_int_distribution<int>(-3, 5)(rng));
    case 3:
      return anim::ParameterValue::of_bool(rng() & 1u);
    case 4:
      if ((rng() & 7u) == 0) return anim::ParameterValue::of_string(std::string(300, 'W'));
      return anim::ParameterValue::of_string(
          kStrings[std::uniform_int_distribution<std::size_t>(0, std::size(kStrings) - 1)(rng)]);
    case 5:
      return anim::ParameterValue::of_vec2(
          vec2(static_cast<float>(number()), static_cast<float>(number())));
    case 6:
      return anim::ParameterValue::of_vec3(vec3(static_cast<float>(number()),
                                                static_cast<float>(number()),
                                                static_cast<float>(number())));
    case 7:
      return anim::ParameterValue::of_trigger(rng() & 1u);
    default:
      return anim::ParameterValue::unset();
  }
}

float hostile_dt(std::mt19937& rng) {
  static const float kDts[] = {0.0f, 1.0f / 60.0f, 1.0f / 30.0f, 0.25f,  1e30f, -1.0f,
                               kNaN, kInf,         -kInf,        1e-30f, 5.0f,  1.0f / 60.0f};
  return kDts[std::uniform_int_distribution<std::size_t>(0, std::size(kDts) - 1)(rng)];
}

void check_matrix(const mat4& m, const char* what) {
  for (int col = 0; col < 4; ++col)
    for (int row = 0; row < 4; ++row)
      if (!std::isfinite(m[col][row])) fuzz::fail("config drive", what);
}

void drive(const std::shared_ptr<const anim::ControllerProgram>& program, std::mt19937& rng) {
  anim::Controller c(program);
  const anim::ParameterSchema& schema = program->schema();
  for (int frame = 0; frame < 60; ++frame) {
    const int sets = std::uniform_int_distribution<int>(0, 4)(rng);
    for (int s = 0; s < sets && schema.size() > 0; ++s) {
      const auto index = static_cast<anim::ParamIndex>(
          std::uniform_int_distribution<std::size_t>(0, schema.size() - 1)(rng));
      const anim::ParameterValue v = hostile_value(rng);
      if (rng() & 1u)
        c.parameters().set(index, v);
      else
        c.parameters().set(schema.name(index), v);
      if ((rng() & 15u) == 0) c.parameters().fire_trigger(index);
    }
    // The host's body: finite (a host's own NaN is not the config's doing), sometimes large.
    const float vx = std::uniform_real_distribution<float>(-20.0f, 20.0f)(rng);
    c.set_body(vec3(vx, (rng() & 7u) == 0 ? 1e6f : 0.0f, 0.0f),
               quat_xyzw(0.0f, std::sin(vx), 0.0f, std::cos(vx)));
    c.update(hostile_dt(rng));
    for (const Transform& t : c.compute_pose())
      if (!all_finite(t.translation) || !all_finite(t.rotation) || !all_finite(t.scale))
        fuzz::fail("config drive", "pose not finite");
    for (float w : c.morph_weights())
      if (!std::isfinite(w)) fuzz::fail("config drive", "morph weight not finite");
    check_matrix(c.root_matrix(), "root matrix not finite");
    check_matrix(c.root_correction(), "root correction not finite");
    const std::optional<vec3> velocity = c.root_motion_velocity();
    if (velocity && !all_finite(*velocity)) fuzz::fail("config drive", "velocity not finite");
    const std::optional<float> scale = c.root_motion_scale();
    if (scale && !std::isfinite(*scale)) fuzz::fail("config drive", "root scale not finite");
    if (c.records().size() > 4096u) fuzz::fail("config drive", "records unbounded");
    c.clear_records();
    if (c.runtime_warnings().size() > anim::Controller::kMaxRuntimeCases + 1)
      fuzz::fail("config drive", "runtime warnings unbounded");
  }
}

void check_all(const std::vector<Error>& errors, const char* stage) {
  for (const Error& e : errors) {
    fuzz::check_error(e, stage);
    if (e.location.empty()) fuzz::fail(stage, "error without a location: " + e.to_string());
  }
}

struct Fixture {
  Model model = test_support::spec_example_quadruped();
  std::string path;
  Fixture() {
    const std::string& dir = fuzz::scratch_dir();
    const std::string_view base(test_support::kFuzzBaseConfig);
    const std::string_view templ(test_support::kFuzzTemplate);
    fuzz::write_bytes(dir + "/fuzz_base.json", reinterpret_cast<const std::uint8_t*>(base.data()),
                      base.size());
    fuzz::write_bytes(dir + "/fuzz_quad.template.json",
                      reinterpret_cast<const std::uint8_t*>(templ.data()), templ.size());
    path = dir + "/fuzz.json";
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Fixture fixture;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::mt19937 rng(static_cast<std::uint32_t>(std::hash<std::string_view>()(text)));

  Diagnostics diag;
  std::vector<Error> errors;
  auto config = config::parse_animation_config(text, fixture.path, {}, &diag, &errors);
  check_all(errors, "parse");
  if (!config) return 0;
  errors.clear();
  auto desc = config::bind(*config, fixture.model, {}, &diag, &errors);
  check_all(errors, "bind");
  if (!desc) return 0;
  errors.clear();
  auto program = anim::ControllerProgram::compile(fixture.model, std::move(*desc),
                                                  &creature::default_drivers(), &diag, &errors);
  check_all(errors, "compile");
  if (!program) return 0;
  drive(*program, rng);
  return 0;
}
