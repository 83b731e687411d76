// SPDX-License-Identifier: MIT
// Drives a compiled animation controller the way a hostile or careless host would, for the config
// fuzz test (tests/config) and the config libFuzzer target (fuzz/config_fuzz.cpp), which share it:
// parameter values of every type including NaN, infinities, huge numbers, int64 extremes and long
// strings, set by index and by name, triggers, a moving body and time steps of 0, negative, huge,
// NaN and infinity.
#pragma once

#include <memory>
#include <random>
#include <string>

#include "critter/anim/controller_program.h"
#include "critter/anim/parameters.h"

namespace critter::test_support {

// One hostile parameter value of a random type, drawn from `rng`.
anim::ParameterValue hostile_parameter_value(std::mt19937& rng);

// One hostile time step in seconds (0, ordinary, negative, huge, tiny, NaN or an infinity).
float hostile_dt(std::mt19937& rng);

// Runs a Controller of `program` for 60 frames, each with up to 4 hostile parameter values, the
// odd trigger, a finite body motion and a hostile time step, all drawn from `rng`. After each
// frame checks that the pose has one transform per joint, every transform, morph weight, root
// matrix, root correction, root-motion velocity and scale is finite, records (cleared each frame)
// stay within 4096, runtime warnings within Controller::kMaxRuntimeCases + 1 and each has a
// location and a message. Returns what broke first ("frame 3: joint 2: pose not finite"), or an
// empty string when everything held.
std::string drive_hostile_frames(const std::shared_ptr<const anim::ControllerProgram>& program,
                                 std::mt19937& rng);

}  // namespace critter::test_support
