// SPDX-License-Identifier: MIT
// Blending of single transforms and whole local poses: the building blocks of crossfades
// (playback.md §8) and of the blending job.
#pragma once

#include <span>

#include "critter/core/error.h"
#include "critter/core/transform.h"

namespace critter::anim {

// Spherical interpolation of unit quaternions along the shorter arc (b is negated when
// dot(a, b) < 0), normalised. f in [0, 1]: 0 gives a, 1 gives b (or -b). Accurate to about 1e-6
// per component against a double-precision slerp.
quat slerp_shortest(const quat& a, const quat& b, float f);

// TRS blend from a (f = 0) to b (f = 1): translation and scale lerped (a + (b − a)·f), rotation
// by a shortest-arc slerp that needs no trigonometric call, within 3e-7 of the exact slerp per
// component for unit quaternions, normalised (at f = 0 and 1 the rotation is a or ±b within
// rounding). An override layer of the BlendingJob blends a joint with this very function.
// f in [0, 1].
Transform blend_transforms(const Transform& a, const Transform& b, float f);

// Blends two complete local poses joint by joint with blend_transforms. `a`, `b` and `out` must
// have the same size; `out` may alias `a` or `b`. Fails (kUsage) on a size mismatch or a
// non-finite f; `out` is left untouched then.
Status blend_transforms(std::span<const Transform> a, std::span<const Transform> b, float f,
                        std::span<Transform> out);

// Lerps two flat morph weight arrays: out[i] = a[i] + (b[i] - a[i]) * f. Same size rules and
// aliasing as the pose overload.
Status blend_weights(std::span<const float> a, std::span<const float> b, float f,
                     std::span<float> out);

}  // namespace critter::anim
