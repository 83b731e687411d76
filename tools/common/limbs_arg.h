// SPDX-License-Identifier: MIT
// --limbs, as every tool takes it (`critter pose`, `render`, `convert`, `critter-viewer`): the
// loaded model with its block limbs cut at the knees and elbows (creature::split_limbs), so the
// limb animator can bend them.
//
//   Result<Model> model = tools::with_limbs(tools::load_model(path, options, &diag), limbs, &diag);
#pragma once

#include <vector>

#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"
#include "critter/creature/limbs/limb.h"

namespace critter::tools {

// `model` as --limbs shows it. With `limbs` false, or when loading failed, `model` itself.
// Otherwise a model split earlier (a file written by `convert --limbs`, recognised by its
// "<limb>.lower" and "<limb>.seam" joints) is kept as it is, and any other model is split; a
// model without splittable limbs is kept unchanged. Why a limb was not split goes to `diag` (may
// be null) as warnings. `limbs_out` (may be null) receives the limbs, with their added joints.
Result<Model> with_limbs(Result<Model> model, bool limbs, Diagnostics* diag,
                         std::vector<creature::Limb>* limbs_out = nullptr);

}  // namespace critter::tools
