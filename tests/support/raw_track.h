// SPDX-License-Identifier: MIT
// Building RawTracks in test code: one keyframe track with its values laid out as RawTrack
// documents (components per key, in key order).
#pragma once

#include <cstdint>
#include <vector>

#include "critter/asset/clip.h"

namespace critter::testing {

// A track of `target` on joint (or mesh) `index` with `components` values per key.
RawTrack raw_track(TrackTarget target, int index, std::uint32_t components,
                   std::vector<float> times, std::vector<float> values,
                   Interpolation interpolation = Interpolation::kLinear);

}  // namespace critter::testing
