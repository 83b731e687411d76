// SPDX-License-Identifier: MIT
// Expression evaluation cost for a typical state-rule condition (animation-config.md §15), plus
// compile time for the same text and a concatenating comparison.
#include <benchmark/benchmark.h>

#include "critter/anim/expression.h"
#include "critter/anim/parameters.h"
#include "critter/creature/builtin_parameters.h"

namespace {

using critter::anim::compile;
using critter::anim::Expression;
using critter::anim::ParameterSchema;
using critter::anim::ParameterValue;
using critter::anim::ParameterValues;

constexpr const char* kCondition = "[Speed] > 0.5 and not [IsDead] and [Gait] = 'walk'";

struct Fixture {
  ParameterSchema schema = critter::creature::builtin_schema();
  ParameterValues values;
  Fixture() {
    (void)schema.declare("Gait", ParameterValue::of_string("walk"));
    values = ParameterValues(schema);
    values.set_float("Speed", 0.75);
  }
};

void BM_EvaluateCondition(benchmark::State& state) {
  Fixture f;
  const Expression e = *compile(kCondition, f.schema);
  for (auto _ : state) {
    benchmark::DoNotOptimize(e.evaluate_bool(f.values));
  }
  state.SetLabel(e.evaluate_bool(f.values) ? "true" : "false");
}
BENCHMARK(BM_EvaluateCondition);

// The first operand already decides: `and` stops after one comparison.
void BM_EvaluateConditionShortCircuit(benchmark::State& state) {
  Fixture f;
  f.values.set_float("Speed", 0.25);
  const Expression e = *compile(kCondition, f.schema);
  for (auto _ : state) {
    benchmark::DoNotOptimize(e.evaluate_bool(f.values));
  }
}
BENCHMARK(BM_EvaluateConditionShortCircuit);

void BM_EvaluateFloatWithFunctions(benchmark::State& state) {
  Fixture f;
  const Expression e =
      *compile("clamp(lerp(0.5, 2, [Speed] / Max([WalkSpeed], 0.1)), 0.25, 3)", f.schema);
  for (auto _ : state) {
    benchmark::DoNotOptimize(e.evaluate_float(f.values, 1.0f));
  }
}
BENCHMARK(BM_EvaluateFloatWithFunctions);

void BM_EvaluateConcatenation(benchmark::State& state) {
  Fixture f;
  const Expression e = *compile("'anim_' + [Gait] = 'anim_walk'", f.schema);
  for (auto _ : state) {
    benchmark::DoNotOptimize(e.evaluate_bool(f.values));
  }
}
BENCHMARK(BM_EvaluateConcatenation);

void BM_CompileCondition(benchmark::State& state) {
  Fixture f;
  for (auto _ : state) {
    auto e = compile(kCondition, f.schema);
    benchmark::DoNotOptimize(e);
  }
}
BENCHMARK(BM_CompileCondition);

}  // namespace

BENCHMARK_MAIN();
