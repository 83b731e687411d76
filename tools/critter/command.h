// What every `critter` subcommand shares: exit codes, the shape of a registered command and the
// registration functions main() calls. One file per command (info_command.cpp, demo_command.cpp,
// ...) defines its add_*_command().
#pragma once

#include <functional>
#include <iosfwd>

#include <CLI/CLI.hpp>

#include "critter/core/error.h"

namespace critter::cli {

// Process exit codes, the same for every command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 1;  // a file could not be read or is not a valid model
inline constexpr int kExitUsage = 2;     // bad command line: unknown command, missing argument

// A subcommand registered on the root parser. `run` is called once, after a successful parse, when
// `app` was the selected subcommand; it writes results to `out`, diagnostics to `err` and returns
// an exit code above. Options live in state captured by `run`.
struct Command {
  CLI::App* app = nullptr;
  std::function<int(std::ostream& out, std::ostream& err)> run;
};

// Writes `error` as Error::to_string() ("path:location: message") on its own line to `err` and
// returns the exit code for it: kExitUsage for ErrorCode::kUsage, kExitBadInput otherwise.
int report(const Error& error, std::ostream& err);

// `critter info FILE [--json]`: loads a model file and describes it.
Command add_info_command(CLI::App& root);
// `critter demo [-o demo.gif] [--info] [--json]`: renders the built-in creatures into an animated
// GIF (or describes the demo quadruped with --info / --json).
Command add_demo_command(CLI::App& root);
// `critter convert IN... (-o OUT | --out-dir DIR) [--format glb|gltf|obj] ...`: writes models
// as glTF or OBJ.
Command add_convert_command(CLI::App& root);
// `critter pose FILE [--anim A] --time T...`: local and model-space transforms at clip times.
Command add_pose_command(CLI::App& root);
// `critter render FILE [--anim A] [--time T | --frames N --fps F] ... -o out.png|out.gif`:
// pictures through the OpenGL renderer on a headless context.
Command add_render_command(CLI::App& root);
// `critter check CONFIG MODEL [--json]`: an animation config's errors and warnings against a model.
Command add_check_command(CLI::App& root);

}  // namespace critter::cli
