// SPDX-License-Identifier: MIT
// The models every tool opens without a file, "builtin:NAME" in place of a path, and the one
// loader the tools open models with (`critter` commands, `critter-viewer`).
//
//   Result<Model> model = tools::load_model("builtin:four-legged", {}, &diag);
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"
#include "critter/io/load_options.h"

namespace critter::tools {

// Prefix of the built-in model names the tools take in place of a file: "builtin:quadruped"
// (the demo's keyframed quadruped), "builtin:blob" (the demo's morphing sphere) and one legacy
// creature per rig kind, "builtin:four-legged", "builtin:human", "builtin:bird",
// "builtin:flightless-bird", "builtin:fish" (creature/legacy/builtin_creatures.h).
inline constexpr std::string_view kBuiltinPrefix = "builtin:";
// The names after the prefix, in the order --help lists them.
std::span<const std::string_view> builtin_model_names();

// Loads the model a tool names: a built-in model for "builtin:NAME" (an unknown NAME is a
// kUsage error at the argument listing the names), else io::load(path, options, diag).
Result<Model> load_model(const std::string& path, const io::LoadOptions& options,
                         Diagnostics* diag);

}  // namespace critter::tools
