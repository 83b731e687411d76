// One call from an animation config file and a model to a ready ControllerProgram: parse
// (animation-config.md §0.4), bind, build the runtime description and compile it. This is what a
// host, the CLI and the creature module use; the phases stay available separately
// (animation_config.h, animation_config_bind.h, animation_config_runtime.h) for tools such as
// `critter check` that want every error rather than the first.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "critter/anim/controller.h"
#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"

namespace critter::io {

struct ControllerLoadOptions {
  // Folders searched (in order) after the config file's folder for `extends`, `template` and
  // `file:` paths.
  std::vector<std::string> asset_roots;
};

// A compiled controller and the model it drives. `model` is the model passed in; `program` keeps
// a reference to it, so keep `model` alive as long as the program and its Controllers.
struct LoadedController {
  std::shared_ptr<const Model> model;
  std::shared_ptr<const anim::ControllerProgram> program;
};

// Loads the config at `config_path` and compiles it against `model`. Returns the first error
// (code, the file it came from, the JSON pointer); warnings go to `diag` (may be null). A null
// `model` is a kUsage error.
Result<LoadedController> load_controller(std::string_view config_path,
                                         std::shared_ptr<const Model> model,
                                         const ControllerLoadOptions& options = {},
                                         Diagnostics* diag = nullptr);

}  // namespace critter::io
