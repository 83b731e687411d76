// SPDX-License-Identifier: MIT
// libFuzzer target: the animation-config chain. The input is a config document: relaxed JSON ->
// parse (with `extends` and a custom template beside it) -> bind to a small quadruped built in
// code -> compile with the creature drivers -> 60 controller frames with hostile parameter
// values and time steps (NaN, infinities, huge, negative, int64 extremes, long strings) drawn
// from a generator seeded by the input, so every input replays the same. Properties: no crash,
// leak or sanitizer report; errors name the file and a location; every pose transform, morph
// weight and root matrix is finite; records and runtime warnings stay bounded. The frames and
// their checks are the config fuzz test's (tests/support/hostile_drive.h).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "critter/anim/controller_program.h"
#include "critter/config/animation_config.h"
#include "critter/config/bind.h"
#include "critter/creature/default_drivers.h"
#include "fuzz_support.h"
#include "support/config_fuzz.h"
#include "support/hostile_drive.h"
#include "support/spec_example.h"

namespace {

using namespace critter;

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
  // The frames and their properties are the config fuzz test's (tests/support/hostile_drive.h).
  const std::string broken = test_support::drive_hostile_frames(*program, rng);
  if (!broken.empty()) fuzz::fail("config drive", broken);
  return 0;
}
