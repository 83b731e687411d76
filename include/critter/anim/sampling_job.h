// SamplingJob: evaluates a Clip at one time into a complete local pose (playback.md §2).
// Exact glTF interpolation (STEP, LINEAR with shortest-path slerp, CUBICSPLINE Hermite); joints
// without a track take their rest value, meshes without a weights track their default weights.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "critter/asset/clip.h"
#include "critter/core/error.h"
#include "critter/core/transform.h"

namespace critter::anim {

// Per-instance cache of key cursors, one per track of the clip it was last used with. Forward
// playback finds the next key in amortised O(1) per track; a random seek falls back to a binary
// search (O(log n)). Reset automatically when used with a different clip.
class SamplingContext {
 public:
  SamplingContext() = default;
  // Pre-sizes for clips of up to `max_tracks` tracks so that run() never allocates.
  explicit SamplingContext(std::size_t max_tracks) { cursors_.reserve(max_tracks); }

  // Forgets the cached clip and cursors.
  void invalidate() {
    clip_ = nullptr;
    cursors_.clear();
  }

 private:
  friend struct SamplingJob;
  const Clip* clip_ = nullptr;
  std::vector<std::uint32_t> cursors_;
};

struct SamplingJob {
  const Clip* clip = nullptr;
  float time = 0.0f;                   // seconds of clip time; clamped to each track's key range
  SamplingContext* context = nullptr;  // required; grows to the clip's track count if needed
  std::span<const Transform> rest;     // skeleton rest pose (one per joint)
  std::span<const float> default_weights;  // flat default morph weights (MorphLayout::defaults)
  std::span<const std::uint32_t> weight_offsets;  // MorphLayout::offsets
  std::span<Transform> output;                    // one per joint; rest.size() entries
  std::span<float> output_weights;                // default_weights.size() entries

  // Names the first broken rule: missing clip/context, output sizes, track indices out of range,
  // weights track size different from its mesh's weight count, non-finite time.
  Status validate() const;
  // Validates, then samples. Never throws or logs; allocates only when the context is too small.
  Status run() const;
};

}  // namespace critter::anim
