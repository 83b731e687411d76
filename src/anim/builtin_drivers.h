// SPDX-License-Identifier: MIT
// The engine drivers of animation-config.md §14.1 (LookAt, Death, Expression) and the names of the
// creature drivers of §14.2, for DriverRegistry::with_builtins().
#pragma once

#include "critter/anim/driver.h"

namespace critter::anim {

// Adds LookAt, Death and Expression (implemented) and declares the creature drivers.
void register_builtin_drivers(DriverRegistry& registry);

}  // namespace critter::anim
