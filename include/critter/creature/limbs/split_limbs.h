// SPDX-License-Identifier: MIT
// split_limbs: cuts each block limb of a character at its knee or elbow (creatures.md §11) so the
// limb animator can bend it; a model transform run once at load.
//
//   auto split = creature::split_limbs(*model);        // Result<LimbSplit>
//   if (!split) return split.error();
//   for (const Warning& w : split->warnings) log(w.to_string());
//   Model bendable = std::move(split->model);           // use instead of *model from now on
//   // split->limbs[i].bone / .seam_bone: the added joints the animator drives
//
// Added joints. For each limb, in limb order, two joints are appended after the source joints:
// "<limb>.lower" (Limb::bone, the half below the cut) then "<limb>.seam" (Limb::seam_bone, the
// vertices on the cut), e.g. "Leg_Right.lower", "Leg_Right.seam". Both are children of the limb
// joint with identity local transforms and no animation tracks, so the rest pose and every clip
// pose the model exactly as before; every skin that holds the limb joint gains both, with the limb
// joint's inverse bind matrix. A model with 4 limbs has joint_count + 8 joints.
#pragma once

#include <string_view>
#include <vector>

#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"
#include "critter/creature/limbs/find_limbs.h"
#include "critter/creature/limbs/limb.h"

namespace critter::creature {

// Suffixes of the added joints' names: "<limb joint name>" + suffix.
inline constexpr std::string_view kLimbLowerSuffix = ".lower";
inline constexpr std::string_view kLimbSeamSuffix = ".seam";

struct LimbSplit {
  Model model;                    // the split model (a copy of the source when no limb was found)
  std::vector<Limb> limbs;        // find_limbs' limbs with bone and seam_bone set
  std::vector<Warning> warnings;  // find_limbs' warnings and the split's own
};

// find_limbs(model, options), then for each limb one after another, on every triangle part of
// every skinned mesh, §11's cut: vertices rigid on the limb joint (first influence, weight >
// 0.999) are the only ones touched; each nested box is cut at its own middle (its side triangles'
// middle when that lies within 0.3 of cut_y, else at cut_y); a box reaching less than 0.3 past
// cut_y is not cut (it goes whole to the nearer side); cut vertices are shared per undirected
// edge (no crack) and forced onto the cut height; triangles are clipped and fan-triangulated
// keeping their winding; vertices below the cut move to Limb::bone, those on it to
// Limb::seam_bone (weight 1). Normals, UVs, colours, tangents and morph deltas of cut vertices
// are interpolated. A limb whose joint has a degenerate (non-invertible) rest skin matrix is left
// out with a warning. Errors only when the result breaks a model rule (e.g. more than 32767
// joints), located at the model.
Result<LimbSplit> split_limbs(const Model& model, const LimbOptions& options = {});

// The limbs of a model split earlier (by split_limbs, then possibly written and loaded again):
// for each limb name, the joint with children named "<name>.lower" and "<name>.seam"; pivot,
// end and cut_y from the box of the vertices rigid on the joint, the lower and the seam joints
// together (the same box find_limbs measured before the split). Names without both children are
// skipped with a warning, as are limbs with no rigid vertex.
FoundLimbs recover_limbs(const Model& model, const LimbOptions& options = {});

}  // namespace critter::creature
