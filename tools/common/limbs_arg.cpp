// SPDX-License-Identifier: MIT
#include "limbs_arg.h"

#include <utility>

#include "critter/creature/limbs/split_limbs.h"

namespace critter::tools {

Result<Model> with_limbs(Result<Model> model, bool limbs, Diagnostics* diag,
                         std::vector<creature::Limb>* limbs_out) {
  if (!model || !limbs) return model;
  // Splitting a split model again would cut its upper halves a second time: recognise it first.
  creature::FoundLimbs recovered = creature::recover_limbs(*model);
  if (!recovered.limbs.empty()) {
    if (diag)
      for (Warning& w : recovered.warnings)
        diag->warn(std::move(w.path), std::move(w.location), std::move(w.message));
    if (limbs_out) *limbs_out = std::move(recovered.limbs);
    return model;
  }
  Result<creature::LimbSplit> split = creature::split_limbs(*model);
  if (!split) return std::unexpected(std::move(split.error()));
  if (diag)
    for (Warning& w : split->warnings)
      diag->warn(std::move(w.path), std::move(w.location), std::move(w.message));
  if (limbs_out) *limbs_out = std::move(split->limbs);
  return std::move(split->model);
}

}  // namespace critter::tools
