// BIND phase of an animation config (specs/animation-config.md §0.4): an AnimationConfig checked
// against a Model. Names become indices (bones, clips, layers), masks are expanded to subtrees,
// drivers are checked against the registry and every expression is compiled. Like the parse
// phase it keeps going after an error in one element so a checker can list every problem.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "critter/anim/driver.h"
#include "critter/anim/expression.h"
#include "critter/anim/parameters.h"
#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"
#include "critter/io/animation_config.h"

namespace critter::io {

// A template layer with the config's overrides applied and its mask resolved.
struct BoundLayer {
  std::string name;
  int index = 0;  // the template index (layers blend in ascending order)
  LayerBlendMode blend_mode = LayerBlendMode::kOverride;
  float weight = 1.0f;  // written weights <= 0 count as 1
  BlendCurve blend_curve = BlendCurve::kLinear;
  // Per joint of the model's skeleton: whether the layer affects it (union of the mask subtrees
  // minus the exclude subtrees; every joint when no mask is given).
  std::vector<bool> mask;
  std::optional<DriverConfig> driver;  // the type as written (see BoundAnimationConfig::drivers)
};

// Where an animation source leads once names are resolved.
struct BoundSource {
  SourceKind kind = SourceKind::kNone;   // kName is resolved to kClip (or through an alias)
  int clip = -1;                         // kClip: index in Model::clips()
  std::string driver;                    // kDriver: the registered name (as the registry spells it)
  std::string file;                      // kFile: the resolved path
  std::string file_clip;                 // kFile: the clip name in that file (first when empty)
  std::string parameter;                 // kParameter
  std::vector<std::string> alias_chain;  // aliases followed, nearest first (empty for none)
};

struct BoundAnimationConfig {
  std::vector<BoundLayer> layers;  // ascending template index
  // Per AnimationConfig::states entry: index into `layers` (-1 when the layer is unknown).
  std::vector<int> state_layers;
  // Per AnimationConfig::animations entry: the source after alias chains.
  std::vector<BoundSource> animations;
  // Built-ins, the config's parameters and names expressions read without a declaration.
  anim::ParameterSchema schema;
  // Names read by expressions or IK that are neither declared nor built in (warned about).
  std::vector<std::string> undeclared_parameters;
  std::size_t expression_count = 0;  // distinct expressions compiled
  // The models of the `file:` sources that loaded, by resolved path (each file read once), for
  // the loader to take their clips from.
  std::map<std::string, std::shared_ptr<const Model>> files;
  // The registry the drivers were checked against (BindOptions::drivers, else the default one);
  // make_controller_desc converts driver properties with it, so it must outlive this value's use.
  const anim::DriverRegistry* drivers = nullptr;
};

// The path rule of §1 for a `file:` path written in a config: an absolute path as it is, else the
// folder of `containing_file` (the config file that wrote it), then each asset root in order. The
// first regular file found, lexically normalised; nullopt when there is none.
std::optional<std::string> resolve_config_file(std::string_view path,
                                               std::string_view containing_file,
                                               std::span<const std::string> asset_roots);

// The driver names of the default registry (anim::DriverRegistry::builtin(), §14): LookAt, Death,
// Expression and the declared creature drivers, as registered. is_known_driver() looks a name up
// there (case-insensitive, a "Driver" suffix accepted).
std::span<const std::string_view> known_drivers();
bool is_known_driver(std::string_view name);

struct BindOptions {
  // Folders searched after the config file's folder for `file:` sources.
  std::vector<std::string> asset_roots;
  // The driver types configs may name (null: anim::DriverRegistry::builtin()). Must outlive the
  // bound config until make_controller_desc has used it.
  const anim::DriverRegistry* drivers = nullptr;
};

// Checks `config` against `model`. Errors: bones the model lacks (layer bones and bonesExclude,
// boneAliases targets, driver bone properties, rootMotion.sourceBone, ik bones, the template's
// requiredBones); clips that are neither alias nor clip; alias cycles; `file:` paths or clips not
// found; unknown driver types (at the type or the `driver:` source); properties a driver type does
// not list (at the property) or whose value its spec type cannot take (at the value), for layer
// presets and for the driverArgs of `driver:` rules that create a new driver (a rule on a layer
// whose preset is of the same type sends its driverArgs to Parameters, so there any name is
// accepted and each value must be a bool, number, string or array of 2 or 3 numbers; a listed
// property is still type-checked); properties of types the registry only declares are not
// checked; expressions that do not compile; IK chains of fewer than 2 bones. Warnings: template
// mask bones the model lacks, undeclared parameters. The first error is returned; `all_errors`
// (when given) receives every one.
Result<BoundAnimationConfig> bind_animation_config(const AnimationConfig& config,
                                                   const Model& model,
                                                   const BindOptions& options = {},
                                                   Diagnostics* diag = nullptr,
                                                   std::vector<Error>* all_errors = nullptr);

}  // namespace critter::io
