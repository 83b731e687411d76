// SPDX-License-Identifier: MIT
// The second half of the bind stage (private to the config module): from the names the binder
// resolved to the anim::ControllerDesc, alias chains merged (animation-config.md §7).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "critter/anim/controller_desc.h"
#include "critter/anim/driver.h"
#include "critter/anim/parameters.h"
#include "critter/asset/model.h"
#include "critter/config/animation_config.h"
#include "critter/config/bind.h"
#include "relaxed_json.h"

namespace critter::config::detail {

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
  std::optional<DriverConfig> driver;  // the type as written; unset when the type is unknown
};

// What the binder resolved that the description is built from.
struct BoundNames {
  std::vector<BoundLayer> layers;  // ascending template index
  // Per AnimationConfig::states entry: index into `layers` (-1 when the layer is unknown).
  std::vector<int> state_layers;
  // Built-ins, the config's parameters and the names IK and drivers read without a declaration.
  anim::ParameterSchema schema;
  // The clip index of each `file:` reference the host placed in the model (BindOptions::file_clips
  // is asked once per reference).
  std::map<const AnimationReference*, int> file_clips;
};

// Builds the description. The binder has reported every problem of `config` against `model`
// when `problems` holds errors: the builder then makes what fails inert without reporting it
// again; otherwise (a config the binder accepted) it reports what it cannot build.
anim::ControllerDesc build_desc(const AnimationConfig& config, const BoundNames& bound,
                                const Model& model, const anim::DriverRegistry& drivers,
                                Problems& problems);

}  // namespace critter::config::detail
