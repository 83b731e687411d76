// SPDX-License-Identifier: MIT
// The driver registry a creature's config is bound and compiled with: anim's engine drivers
// (LookAt, Death, Expression, animation-config.md §14.1) and the legacy creature drivers of §14.2
// implemented by the rigs (legacy/legacy_drivers.h); GltfBodyTurn stays declared only. The
// config binder, io::load_controller, the CLI and the viewer use it when given no registry.
//
//   config::BindOptions options;             // options.drivers null: default_drivers()
//   auto desc = config::bind(config, model, options);
//   auto program = anim::ControllerProgram::compile(model, std::move(*desc), &default_drivers());
#pragma once

#include "critter/anim/driver.h"

namespace critter::creature {

// anim::DriverRegistry::with_builtins() with register_legacy_drivers() applied: a new, independent
// registry a host may extend with its own types.
anim::DriverRegistry with_default_drivers();
// The process-wide default: with_default_drivers(), built on first use, immutable (safe to share
// between threads) and alive until the process ends.
const anim::DriverRegistry& default_drivers();

}  // namespace critter::creature
