// SPDX-License-Identifier: MIT
// CompactSamplingJob: evaluates a CompactClip at one time into a complete local pose, in the same
// layout as SamplingJob, so everything downstream (blending, local-to-model, skinning) takes it
// unchanged.
//
//   CompactSamplingContext context;
//   CompactSamplingJob job{.clip = &compact, .time = t, .context = &context, .rest = rest,
//                          .default_weights = layout.defaults, .weight_offsets = layout.offsets,
//                          .output = locals, .output_weights = weights};
//   if (auto ok = job.run(); !ok) ...
//
// Joints and channels without a track take their rest value, meshes without a weights track their
// default weights. Compacted channels are interpolated between their kept keys (LINEAR for
// translations and scales, spherical along the shorter arc for rotations), within the
// error bound the clip was built with; the residual tracks are sampled exactly as SamplingJob does.
#pragma once

#include <cstdint>
#include <vector>

#include "critter/anim/sampling_job.h"
#include "critter/asset/compact_clip.h"
#include "critter/core/error.h"
#include "critter/core/transform.h"

namespace critter::anim {

// Per-instance key cursors for the clip last sampled with it (reset when the clip changes), and
// the SamplingContext of its residual clip. Cursors are hints: a stale one costs a search.
class CompactSamplingContext {
 public:
  CompactSamplingContext() = default;
  // Pre-sizes for clips of up to `max_tracks` compact tracks so that run() never allocates.
  explicit CompactSamplingContext(std::size_t max_tracks) : residual_(max_tracks) {
    cursors_.reserve(max_tracks);
  }
  void invalidate() {
    clip_ = nullptr;
    cursors_.clear();
    residual_.invalidate();
  }

 private:
  friend struct CompactSamplingJob;
  const CompactClip* clip_ = nullptr;
  std::vector<std::uint32_t> cursors_;
  SamplingContext residual_;
};

struct CompactSamplingJob {
  const CompactClip* clip = nullptr;
  float time = 0.0f;                              // seconds of clip time
  CompactSamplingContext* context = nullptr;      // required
  std::span<const Transform> rest;                // skeleton rest pose (one per joint)
  std::span<const float> default_weights;         // MorphLayout::defaults
  std::span<const std::uint32_t> weight_offsets;  // MorphLayout::offsets
  std::span<Transform> output;                    // rest.size() entries
  std::span<float> output_weights;                // default_weights.size() entries

  // Names the first broken rule (ErrorCode::kUsage, path "CompactSamplingJob"): missing clip or
  // context, non-finite time, a compact track's joint outside the rest pose, and every rule of
  // SamplingJob::validate for the residual clip and the buffers.
  Status validate() const;
  // Validates, then samples. Never throws or logs; allocates only when the context is too small.
  Status run() const;
};

}  // namespace critter::anim
