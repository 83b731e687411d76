// From a bound animation config to the runtime description the Controller consumes
// (anim/controller_desc.h): plain data with names already resolved, so the runtime never sees io
// types. Rule animations are merged with their aliases here (animation-config.md §7).
#pragma once

#include <functional>

#include "critter/anim/controller_desc.h"
#include "critter/asset/model.h"
#include "critter/core/error.h"
#include "critter/io/animation_config.h"
#include "critter/io/animation_config_bind.h"

namespace critter::io {

// Where the host put the clip of a `file:` source (§7). Called with the reference that names the
// file (kind kFile: target = the path as written, file_clip = the clip after '#', empty for the
// file's first clip; source_where = where it was written, which also anchors relative paths);
// returns that clip's index in Model::clips() of the model given to make_controller_desc, or the
// error to report. io::load_controller (controller_loader.h) is such a host.
using FileClipIndex = std::function<Result<int>(const AnimationReference&)>;

// Builds the controller description of `config`, which `bound` is the successful bind of against
// `model`. Layers come from the bound layers (masks as 0/1 joint weights, empty when every joint
// is in), states keep their JSON order and rule nesting, each rule's animation is merged with its
// alias chain (the field nearest the rule wins; the source comes from the end of the chain) and
// its source resolved to a clip index, a string parameter, a driver or null. The schema is the
// bound schema. Layer driver presets and `driver:` rules carry their properties both typed (the
// built-in LookAt/Death/Expression fields) and as the generic list every registered driver type
// receives (bones resolved to joints); a rule's driverArgs also travel as parameter values
// (`driver_arguments`) for the §9 case where the layer already runs that driver type. IK chains
// and look-at entries get their bones resolved through the bone aliases. `source` is config.path
// and every field evaluated at run time carries its ConfigSite (the file and JSON pointer where it
// was written; an alias's field for a merged one), for the Controller's runtime warnings. Errors
// (kInvalid, path = the config file, location = the JSON pointer): a name that is neither alias nor
// clip, an alias cycle, a `file:` source whose `file_clips` index is outside Model::clips(); the
// error `file_clips` returns; (kUnsupported) a `file:` source when `file_clips` is empty, as the
// host must load the file's clip into the model first.
Result<anim::ControllerDesc> make_controller_desc(const AnimationConfig& config,
                                                  const BoundAnimationConfig& bound,
                                                  const Model& model,
                                                  const FileClipIndex& file_clips = {});

}  // namespace critter::io
