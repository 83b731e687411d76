// SPDX-License-Identifier: MIT
// What every `critter` subcommand shares: exit codes, the shape of a registered command and the
// registration functions main() calls. One file per command (info_command.cpp, demo_command.cpp,
// ...) defines its add_*_command().
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "../common/anim_args.h"
#include "../common/builtin_models.h"
#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"
#include "critter/io/load.h"
#include "critter/io/texture_override.h"

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

// The one format of every error and warning the CLI prints on stderr:
//   critter: FILE:LOCATION: message    (LOCATION: a byte offset, JSON pointer or element)
//   critter: FILE: message             (no location known)
//   critter: message                   (no file: a usage error names its flag as FILE)
// A warning's message starts with "warning: ". An error whose path is a command's name
// ("critter render") has no file: its location (the flag) takes the file's place.
std::string format_error(const Error& error);
std::string format_warning(const Warning& warning);

// Writes format_error(error) on its own line to `err` and returns the exit code for it:
// kExitUsage for ErrorCode::kUsage, kExitBadInput otherwise.
int report(const Error& error, std::ostream& err);

// Creates the missing folders above the output file `path` (as `--out-dir` creates its folder),
// so `-o new/dir/out.glb` works; the file itself is then written atomically by its writer. An
// ErrorCode::kIo error at `path` when a folder cannot be created.
Status create_output_folder(const std::string& path);

// How every command that reads a model file loads it: the options below are registered on each
// such command by add_load_flags(), so they are spelled the same everywhere.
struct LoadFlags {
  bool allow_outside_uris = false;  // --allow-outside-uris
  std::string clips;                // --clips name:start-end,... (frame ranges of one long track)
  std::optional<double> clips_fps;  // --clips-fps N (frames per second of the ranges)
  int look = 0;                     // --look N (Insomniac .model)
  int lod = 0;                      // --lod N (Insomniac .model)
  std::string game;                 // --game msmr|mm|rcra|so (headerless Insomniac .model)
  const CLI::Option* compact = nullptr;  // --compact[=TOL]: given when its count() > 0
  std::string compact_tolerance;         // its TOL; empty = 1e-4
};

// Registers --allow-outside-uris, --clips, --clips-fps, --look, --lod, --game and --compact on
// `app`, writing
// into `flags` (which must outlive the parse).
void add_load_flags(CLI::App* app, LoadFlags& flags);

// The loader options the flags ask for; a malformed --clips, or a --clips-fps that is not finite
// and > 0 or comes without --clips, is a usage error naming the flag.
Result<io::LoadOptions> load_options_from(const LoadFlags& flags);

// Registers --limbs (pose, render, convert: split the model's block limbs at the knees and
// elbows, tools::with_limbs) on `app`, writing into `limbs` (which must outlive the parse).
void add_limbs_flag(CLI::App* app, bool& limbs);

// Registers --texture FILE|MATERIAL=FILE (repeatable; render and convert) on `app`, writing into
// `texts` (which must outlive the parse).
void add_texture_flag(CLI::App* app, std::vector<std::string>& texts);

// The skins the --texture flags ask for; an empty file or material name is a usage error naming
// the flag.
Result<std::vector<io::TextureOverride>> texture_overrides_from(
    const std::vector<std::string>& texts);

// `model` with the skins applied (see io::apply_texture_overrides); `model` itself when there are
// none or it failed to load.
Result<Model> with_textures(Result<Model> model, std::span<const io::TextureOverride> overrides);

// The built-in models ("builtin:NAME") and the model loader every command uses.
using tools::builtin_model_names;
using tools::kBuiltinPrefix;
using tools::load_model;

// The clip an `--anim` argument names (tools/common/anim_args.h).
using tools::clip_from_arg;

// `critter info FILE [--json]`: loads a model file and describes it.
Command add_info_command(CLI::App& root);
// `critter demo [-o demo.gif] [--info] [--json]`: renders the built-in creatures and the zoo of
// legacy creatures into an animated GIF (or, with --info / --json, describes the demo quadruped
// and lists the zoo).
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
// `critter bench FILE [--clip NAME] [--iterations N] [--json]`: load, sample, blend,
// local-to-model and skinning times of one model.
Command add_bench_command(CLI::App& root);

}  // namespace critter::cli
