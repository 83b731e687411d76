// SPDX-License-Identifier: MIT
#include "raw_track.h"

#include <utility>

namespace critter::testing {

RawTrack raw_track(TrackTarget target, int index, std::uint32_t components,
                   std::vector<float> times, std::vector<float> values,
                   Interpolation interpolation) {
  RawTrack t;
  t.target = target;
  t.index = index;
  t.interpolation = interpolation;
  t.components = components;
  t.times = std::move(times);
  t.values = std::move(values);
  return t;
}

}  // namespace critter::testing
