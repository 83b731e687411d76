// SPDX-License-Identifier: MIT
// Hostile-input generation for animation configs, shared by the io and creature fuzz tests:
// seed configs and a deterministic mutator (byte flips, inserts and deletes; token swaps for
// hostile numbers, NaN-ish strings, other JSON types, deep nesting, long strings and names,
// duplicate keys differing in case; bracket swaps).
#pragma once

#include <random>
#include <string>

namespace critter::test_support {

// A custom template (layers Base, Head, Death and an additive, masked Legs) that kFuzzBaseConfig
// names as "fuzz_quad": write it as fuzz_quad.template.json beside the base.
extern const char* const kFuzzTemplate;
// A base config for kFeatureConfig's `extends` ("fuzz_base"): write it as fuzz_base.json beside
// the document that extends it.
extern const char* const kFuzzBaseConfig;
// Every feature of the format at once for spec_example_quadruped() (spec_example.h).
extern const char* const kFeatureConfig;

// Random mutants per seed: CRITTER_FUZZ_ITERATIONS when set to a positive number, else a small
// default for CI.
int fuzz_iterations();

// One hostile JSON value (text), drawn from `rng`.
std::string hostile_json_value(std::mt19937& rng);

// `seed` with 1 to 4 random mutations drawn from `rng`.
std::string mutate_config(const std::string& seed, std::mt19937& rng);

}  // namespace critter::test_support
