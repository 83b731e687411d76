// SPDX-License-Identifier: MIT
// One call from an animation config file and a model to a ready ControllerProgram: parse
// (animation-config.md §0.4, config/animation_config.h), load the clips of `file:` sources, bind
// (config/bind.h) and compile (anim::ControllerProgram). This is what a host, the CLI, the viewer
// and `critter check` (which asks for every error) use. It lives in io because `file:` sources
// are model files; the config module itself reads no model format.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "critter/anim/controller.h"
#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"
#include "critter/io/load_options.h"

namespace critter::io {

struct ControllerLoadOptions {
  // Folders searched (in order) after the config file's folder for `extends`, `template` and
  // `file:` paths.
  std::vector<std::string> asset_roots;
  // Those paths may lead only inside the config's own folder (that of `config_path`) and the
  // asset roots: absolute paths, `..` climbing out and symbolic links leading out are refused
  // with an error at the path's file and JSON pointer (config/config_paths.h), unless this is set.
  bool allow_outside = false;
  // How the models of `file:` sources are read (size limit, outside URIs, Assimp isolation).
  LoadOptions model_options;
  // The driver types the config may name (null: creature::default_drivers(), the engine drivers
  // and the legacy creature drivers); used by bind and compile during the call only.
  const anim::DriverRegistry* drivers = nullptr;
  // Parameters the host sets at run time that the config need not declare, and whether any
  // other undeclared name an expression reads is an error (config::BindOptions).
  std::vector<std::string> host_parameters;
  bool complete_schema = false;
};

// A compiled controller and the model it drives. `program` refers to `model` (its clip indices,
// joints and meshes), so keep `model` alive as long as the program and its Controllers. When the
// config plays no `file:` source, `model` is the model passed in (the same pointer); otherwise it
// is a new Model: a copy of the one passed in with the `file:` clips appended after its own clips,
// which keep their indices (see load_controller).
struct LoadedController {
  std::shared_ptr<const Model> model;
  std::shared_ptr<const anim::ControllerProgram> program;
};

// Loads the config at `config_path` and compiles it against `model`. Returns the first error
// (code, the file it came from, the JSON pointer); warnings go to `diag` (may be null). A null
// `model` is a kUsage error. With `all_errors` given, every error of every stage is appended to
// it: the parse errors, then the bind errors and the expression errors of the one compile of what
// did parse and bind (elements that failed left inert; see load_animation_config's `partial`).
// Only a file that cannot be read or is not JSON stops the pass at the parse stage.
//
// `file:path#Clip` sources (animation-config.md §7; the first clip when there is no '#'): each
// distinct file the config names (in `animations` or in rules; paths resolved as in §1) is loaded
// once, and each distinct clip appended once, however many references lead to it. A clip is
// retargeted onto `model` by bone name (Model::find_bone: exact, then case-insensitive); tracks of
// bones `model` lacks are dropped, with one warning per file giving their count and the bone
// names. A morph weight track goes to the mesh of the same name (else the same index) and is kept
// only when that mesh has the track's morph target count; the others are dropped with one warning
// per file. The appended clip is named "file:<file stem>#<clip name>" (the clip's index in its
// file when it has no name), with "~2", "~3"... added when another clip already has that name
// (compared case-insensitively, as Model::find_clip does), so it never shadows a model clip.
// Errors, at the config file and JSON pointer of each source naming the file (reported by bind,
// in config order): a file not found (kIo), one that does not load, lacks the clip or whose clip
// is left with no track (kInvalid).
Result<LoadedController> load_controller(std::string_view config_path,
                                         std::shared_ptr<const Model> model,
                                         const ControllerLoadOptions& options = {},
                                         Diagnostics* diag = nullptr,
                                         std::vector<Error>* all_errors = nullptr);

}  // namespace critter::io
