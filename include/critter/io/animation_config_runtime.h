// From a bound animation config to the runtime description the Controller consumes
// (anim/controller_desc.h): plain data with names already resolved, so the runtime never sees io
// types. Rule animations are merged with their aliases here (animation-config.md §7).
#pragma once

#include "critter/anim/controller_desc.h"
#include "critter/asset/model.h"
#include "critter/core/error.h"
#include "critter/io/animation_config.h"
#include "critter/io/animation_config_bind.h"

namespace critter::io {

// Builds the controller description of `config`, which `bound` is the successful bind of against
// `model`. Layers come from the bound layers (masks as 0/1 joint weights, empty when every joint
// is in), states keep their JSON order and rule nesting, each rule's animation is merged with its
// alias chain (the field nearest the rule wins; the source comes from the end of the chain) and
// its source resolved to a clip index, a string parameter, a driver or null. The schema is the
// bound schema. Layer driver presets and `driver:` rules carry LookAt/Expression properties
// (driverArgs applied over the layer's preset of the same type); IK chains and look-at
// entries get their bones resolved through the bone aliases. Errors (kInvalid, path = the config
// file, location = the JSON pointer): a name that is neither alias nor clip, an alias cycle;
// (kUnsupported) a `file:` source, which needs the host to load the file into the model first.
Result<anim::ControllerDesc> make_controller_desc(const AnimationConfig& config,
                                                  const BoundAnimationConfig& bound,
                                                  const Model& model);

}  // namespace critter::io
