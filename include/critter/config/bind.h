// SPDX-License-Identifier: MIT
// BIND stage of an animation config (specs/animation-config.md §0.4): a parsed AnimationConfig
// checked against a Model and turned into the runtime description anim::ControllerDesc in one
// pass. Names become indices (bones, clips, layers), masks are expanded to subtrees, drivers are
// checked against the registry, rule animations are merged with their alias chains (§7). Like the
// parse stage it keeps going after an error in one element so a checker can list every problem.
// Expressions are not compiled here: anim::ControllerProgram::compile compiles each one once and
// reports its errors at the SourceLocation bind stores beside it.
//
//   auto config = config::load_animation_config("wolf.json");
//   auto desc = config::bind(*config, model);
//   auto program = anim::ControllerProgram::compile(model, std::move(*desc),
//                                                   &creature::default_drivers());
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "critter/anim/controller_desc.h"
#include "critter/anim/driver.h"
#include "critter/asset/model.h"
#include "critter/config/animation_config.h"
#include "critter/config/config_paths.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"

namespace critter::config {

// Where the host put the clip of a `file:` source (§7). Called with the reference that names the
// file (kind kFile: target = the path as written, file_clip = the clip after '#', empty for the
// file's first clip; source_where = where it was written, which also anchors relative paths);
// returns that clip's index in Model::clips() of the model given to bind(), or the error to
// report (located at the reference). io::load_controller (io/controller_loader.h) is such a host:
// it loads the files and appends their clips to a copy of the model before binding.
using FileClipIndex = std::function<Result<int>(const AnimationReference&)>;

// The driver names of the default registry (creature::default_drivers(), §14): LookAt, Death,
// Expression, the legacy creature drivers and the declared GltfBodyTurn, as registered.
// is_known_driver() looks a name up there (case-insensitive, a "Driver" suffix accepted).
std::span<const std::string_view> known_drivers();
bool is_known_driver(std::string_view name);

struct BindOptions {
  // Folders searched after the config file's folder for `file:` sources, and whether such a
  // path may lead outside the config's folder and these roots (config/config_paths.h; a refused
  // path is an error at the source's JSON pointer).
  std::vector<std::string> asset_roots;
  bool allow_outside = false;
  // The driver types configs may name (null: creature::default_drivers(), the engine and legacy
  // creature drivers); used during the call only. Compile the description with the same registry.
  const anim::DriverRegistry* drivers = nullptr;
  // The host's `file:` clips; empty: a `file:` source is a kUnsupported error, as the host must
  // load the file's clip into the model first.
  FileClipIndex file_clips;
  // Parameters the host sets at run time without the config declaring them (a game's own state,
  // such as a legacy `Gait`): declared unset in the schema, so expressions and properties may
  // read them without a warning.
  std::vector<std::string> host_parameters;
  // True: the schema is complete (ControllerDesc::schema_complete), so a parameter an expression
  // reads that is neither declared in the config, built in nor in `host_parameters` is a compile
  // error (a typo would read as unset for ever). False: it is declared unset with a warning.
  bool complete_schema = false;
};

// Builds the controller description of `config` for `model`.
//
// The description: layers in ascending template index with the config's overrides (masks as 0/1
// joint weights, empty when every joint is in; written weights <= 0 count as 1); states in JSON
// order with their rule nesting and the index of their layer (-1 when unknown); each rule's
// animation merged with its alias chain (the field nearest the rule wins, the source comes from
// the end of the chain) and its source resolved to a clip index, a string parameter, a driver or
// null; the `animations` entries merged the same way (ControllerDesc::animations); the schema:
// built-ins, the config's parameters and the names read by IK targets, driver parameter
// properties and setState actions. Layer driver presets and `driver:` rules carry their
// properties both typed (the built-in LookAt/Death/Expression fields) and as the generic list
// every registered driver type receives (bones resolved to joints); a rule's driverArgs also
// travel as parameter values (`driver_arguments`, §9). IK chains and look-at entries get their
// bones resolved through the bone aliases. `source` is config.path and every field evaluated at
// run time carries the SourceLocation where it was written (an alias's field for a merged one).
//
// Errors (path = the file that wrote the field, location = its JSON pointer): bones the model
// lacks (layer bones and bonesExclude, boneAliases targets, driver bone properties,
// rootMotion.sourceBone, ik bones, the template's requiredBones); clips that are neither alias nor
// clip; alias cycles; `file:` paths not found (kIo), the error `file_clips` returns, a clip index
// outside Model::clips(), (kUnsupported) any `file:` source when `file_clips` is empty; unknown
// driver types (at the type or the `driver:` source); properties a driver type does not list (at
// the property) or whose value its spec type cannot take (at the value), for layer presets and
// for the driverArgs of `driver:` rules that create a new driver (a rule on a layer whose preset
// is of the same type sends its driverArgs to Parameters, so there any name is accepted and each
// value must be a bool, number, string or array of 2 or 3 numbers; a listed property is still
// type-checked); properties of types the registry only declares are not checked; IK chains of
// fewer than 2 bones. Warnings: template mask bones the model lacks, parameters named (not by
// expressions: compile reports those as errors) that are neither declared nor built in, declared
// driver types that are not implemented. A message about a name that nothing matches (bone,
// clip or alias, driver type, parameter) ends with " (did you mean A, B?)" when up to three known
// names are near it (closest_names() in core/strings.h).
//
// The first error is returned; `all_errors` (when given) receives every one. With `partial`
// given, a description is stored there even when there are errors, with each element that failed
// made inert (a source that does not resolve plays nothing), so a checker can compile it and list
// the expression errors too.
Result<anim::ControllerDesc> bind(const AnimationConfig& config, const Model& model,
                                  const BindOptions& options = {}, Diagnostics* diag = nullptr,
                                  std::vector<Error>* all_errors = nullptr,
                                  anim::ControllerDesc* partial = nullptr);

}  // namespace critter::config
