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
#include <span>
#include <vector>

#include "critter/anim/sampling_job.h"
#include "critter/asset/compact_clip.h"
#include "critter/core/error.h"
#include "critter/core/transform.h"

namespace critter::anim {

// Per-instance sampling cache for the clip last sampled with it (rebuilt when the clip changes, or
// when the clip at the same address now has another lane layout):
// for every animated compact track, its key cursor and the two keys around the last sampled time,
// decoded, in groups of eight tracks of one channel kind (struct of arrays, in the order of the
// clip's lanes()), and the SamplingContext of the residual clip; constant tracks and the tracks'
// layout are read from the clip itself, which every instance shares. Forward playback only
// re-decodes the tracks whose segment the time has left (one key each); a seek, a backward step or
// a loop wrap finds each such track's segment by a search. The cache never changes a result: a
// sample equals the sample of a fresh context, bit for bit.
class CompactSamplingContext {
 public:
  CompactSamplingContext() = default;
  // Pre-sizes for clips of up to `max_tracks` compact tracks so that run() never allocates.
  explicit CompactSamplingContext(std::size_t max_tracks);
  // Forgets the cached clip and keys.
  void invalidate() {
    clip_ = nullptr;
    residual_.invalidate();
    rest_written_ = {};
  }

  // Eight floats, one per lane of a group (32-byte aligned for eight-lane loads).
  struct alignas(32) Lanes {
    float v[8];
  };

 private:
  friend struct CompactSamplingJob;
  void bind(const CompactClip& clip);

  const CompactClip* clip_ = nullptr;
  // Groups of eight lanes: rotations first, then translations, then scales. A rotation group is
  // 12 Lanes (the index of the segment's start key among the track's keys, as 32-bit integers;
  // its end key's time; the time of the key after; its start key's time; key a x y z w; key b x y
  // z w), a translation or scale group 10 (the same with x y z).
  std::vector<Lanes> cache_;
  SamplingContext residual_;
  detail::RestWritten rest_written_;  // CompactSamplingJob::output_untouched reads it
};

// Which interpolation and decoding kernels CompactSamplingJob runs. kAuto takes AVX2 where the CPU
// has it, else SSE2; every path gives the same pose, bit for bit.
enum class CompactSamplingPath : std::uint8_t { kAuto, kSse2, kAvx2 };

struct CompactSamplingJob {
  const CompactClip* clip = nullptr;
  double time = 0.0;  // seconds of clip time, sampled as a float (as SamplingJob::time)
  CompactSamplingContext* context = nullptr;      // required
  std::span<const Transform> rest;                // skeleton rest pose (one per joint)
  std::span<const float> default_weights;         // MorphLayout::defaults
  std::span<const std::uint32_t> weight_offsets;  // MorphLayout::offsets
  std::span<Transform> output;                    // rest.size() entries
  std::span<float> output_weights;                // default_weights.size() entries
  CompactSamplingPath path = CompactSamplingPath::kAuto;
  // Structure-of-arrays form, as SamplingJob's: a non-empty soa_output takes the pose of
  // soa_joints joints from soa_rest (soa_blocks(soa_joints) blocks each) instead of rest and
  // output, every joint the Transform form's bits.
  std::span<const SoaTransform> soa_rest{};
  std::span<SoaTransform> soa_output{};
  std::size_t soa_joints = 0;
  // As SamplingJob::output_untouched: the output still holds what the last run with this context
  // wrote. With the same clip, rest and output as that run, the rest pose and the clip's
  // constant tracks are not laid over the output again; only the animated tracks are written.
  bool output_untouched = false;

  // Names the first broken rule (ErrorCode::kUsage, path "CompactSamplingJob"): missing clip or
  // context, a time that is not a finite float, a compact track's joint outside the rest pose
  // (soa_joints in the structure-of-arrays form), a path this CPU cannot run, and every rule of
  // SamplingJob::validate for the residual clip and the buffers.
  Status validate() const;
  // Validates, then samples. Never throws or logs; allocates only when the context is too small.
  Status run() const;
};

}  // namespace critter::anim
