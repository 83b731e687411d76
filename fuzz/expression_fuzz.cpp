// SPDX-License-Identifier: MIT
// libFuzzer target: the expression language (compile, constant folding, evaluation). The input is
// the expression text; it is compiled against a schema with parameters of every type and, when it
// compiles, evaluated against unset, ordinary and hostile parameter values (NaN, infinities,
// int64 extremes, long strings). Properties: no crash or sanitizer report; a compile error has a
// column within the text (one past its end at most); a float result is finite or the fallback.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "critter/anim/expression.h"
#include "critter/anim/parameters.h"
#include "fuzz_support.h"

namespace {

using namespace critter;
using namespace critter::anim;

struct Fixture {
  ParameterSchema schema;
  ParamIndex speed = 0, count = 0, gait = 0, flag = 0, pos = 0, jump = 0;

  Fixture() {
    speed = *schema.declare("Speed", ParameterValue::of_float(1.5));
    count = *schema.declare("Count", ParameterValue::of_int(3));
    gait = *schema.declare("Gait", ParameterValue::of_string("Walk"));
    flag = *schema.declare("Flag", ParameterValue::of_bool(true));
    pos = *schema.declare("Pos", ParameterValue::of_vec3(vec3(1, 2, 3)));
    jump = *schema.declare("Jump", ParameterValue::of_trigger());
    schema.declare_or_find("Unset");
  }
};

void evaluate_all(const Expression& e, const ParameterValues& values) {
  EvalScratch scratch;
  const Value v = e.evaluate(values, scratch);
  if (v.kind == ValueKind::kString && v.text.size() > EvalScratch::kScratchBytes + (1u << 16))
    critter::fuzz::fail("expression", "string result longer than its sources");
  const float f = e.evaluate_float(values, 0.25f);
  if (!std::isfinite(f)) critter::fuzz::fail("expression", "evaluate_float not finite");
  (void)e.evaluate_bool(values, false);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Fixture fixture;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const bool strict : {false, true}) {
    CompileOptions options;
    options.unknown_parameters_are_errors = strict;
    auto e = compile(text, fixture.schema, options);
    if (!e) {
      const int column = error_column(e.error());
      if (column < 1 || static_cast<std::size_t>(column) > size + 1)
        critter::fuzz::fail("expression",
                            "error column outside the text: " + e.error().to_string());
      continue;
    }
    ParameterValues values(fixture.schema);
    evaluate_all(*e, values);
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    constexpr double kInf = std::numeric_limits<double>::infinity();
    values.set_float(fixture.speed, kNaN);
    values.set_int(fixture.count, std::numeric_limits<std::int64_t>::min());
    values.set_string(fixture.gait, std::string(300, 'W'));
    values.fire_trigger(fixture.jump);
    values.set_vec3(fixture.pos, vec3(std::numeric_limits<float>::infinity()));
    evaluate_all(*e, values);
    values.set_float(fixture.speed, -kInf);
    values.set_int(fixture.count, std::numeric_limits<std::int64_t>::max());
    values.set_string(fixture.gait, "");
    values.set_bool(fixture.flag, false);
    values.set_float(fixture.pos, 1e308);
    evaluate_all(*e, values);
  }
  return 0;
}
