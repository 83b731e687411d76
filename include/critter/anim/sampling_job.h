// SPDX-License-Identifier: MIT
// SamplingJob: evaluates a Clip at one time into a complete local pose (playback.md §2).
// Exact glTF interpolation (STEP, LINEAR with shortest-path slerp, CUBICSPLINE Hermite); joints
// without a track take their rest value, meshes without a weights track their default weights.
// Before a track's first key the first value holds, at and after its last key the last value; a
// one-key track is constant. At a time shared by several keys the last of them wins (so equal key
// times make a jump, never a division by zero). Rotations are returned normalised; a cubic
// rotation that passes through zero length takes the value of the segment's start key.
// When a clip has several tracks for the same target, the later track wins.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "critter/asset/clip.h"
#include "critter/core/error.h"
#include "critter/core/soa_transform.h"
#include "critter/core/transform.h"

namespace critter::anim {

namespace detail {
// Where a sampler's last run wrote the rest pose into the channels no track drives: from which
// rest, into which output, how many joints, which form. The samplers' contexts keep one for
// their jobs' output_untouched.
struct RestWritten {
  const void* rest = nullptr;
  const void* output = nullptr;
  std::size_t joints = 0;
  bool soa = false;
  bool operator==(const RestWritten&) const = default;
};
}  // namespace detail

// Per-instance cache of key cursors, one per timeline (Clip::timelines(), at most one per track)
// of the clip it was last used with. Forward playback finds the next key in amortised O(1) per
// timeline; a random seek falls back to a binary search (O(log n)). Reset automatically when used
// with a different clip. Cursors are only hints: a stale cursor costs a search, never a wrong
// result.
class SamplingContext {
 public:
  SamplingContext() = default;
  // Pre-sizes for clips of up to `max_tracks` tracks so that run() never allocates.
  explicit SamplingContext(std::size_t max_tracks) {
    cursors_.reserve(max_tracks);
    segments_.reserve(max_tracks);
  }

  // Where a sampled time falls on one timeline: the last key at or before it and the fraction of
  // the way to the next key (0 means the key's own value). SamplingJob's scratch.
  struct Segment {
    std::uint32_t key;
    float fraction;
  };

  // Forgets the cached clip and cursors, and where the last run wrote the rest pose (the next run
  // writes it again whatever its output_untouched says).
  void invalidate() {
    clip_ = nullptr;
    cursors_.clear();
    rest_written_ = {};
  }

 private:
  friend struct SamplingJob;
  const Clip* clip_ = nullptr;
  std::vector<std::uint32_t> cursors_;
  std::vector<Segment> segments_;
  detail::RestWritten rest_written_;  // SamplingJob::output_untouched reads it
};

struct SamplingJob {
  const Clip* clip = nullptr;
  // Seconds of clip time, sampled as the float it rounds to; clamped to each track's key range.
  // A double only so that no padding follows it: a job built per call is then cleared and
  // filled in whole 8-byte fields, each of which run() reads back from one store. (After a
  // 4-byte time the compiler clears the padding with the fields behind it, in stores 4 bytes off
  // their alignment that the CPU cannot forward to run()'s reads; see docs/jobs.md.)
  double time = 0.0;
  SamplingContext* context = nullptr;      // required; grows to the clip's track count if needed
  std::span<const Transform> rest;         // skeleton rest pose (one per joint)
  std::span<const float> default_weights;  // flat default morph weights (MorphLayout::defaults)
  std::span<const std::uint32_t> weight_offsets;  // MorphLayout::offsets
  std::span<Transform> output;                    // one per joint; rest.size() entries
  std::span<float> output_weights;                // default_weights.size() entries
  // Structure-of-arrays form, chosen by a non-empty soa_output: the pose of soa_joints joints
  // goes to soa_output from soa_rest (soa_blocks(soa_joints) blocks each; rest and output stay
  // empty), every joint the Transform form's bits. Padding lanes come from soa_rest.
  std::span<const SoaTransform> soa_rest{};
  std::span<SoaTransform> soa_output{};
  std::size_t soa_joints = 0;
  // The caller's promise that the output (either form) still holds what the last run with this
  // context wrote: nothing else has written to it since. run() then leaves the channels that no
  // track of the clip drives as they are, instead of copying the rest pose into them again,
  // provided the context's last run sampled the same clip from the same rest into the same
  // output (the clip is known by its address: after assigning another clip over the same object,
  // call context->invalidate()); otherwise, and after invalidate(), it copies them as usual.
  // Player sets it for its own pose buffers. A clip that animates only rotations (common in
  // exported files) otherwise copies the whole rest pose on every run, which in a crowd of cold
  // poses was a seventh of Crowd::update. Leave it false when anything (IK, a game's own
  // overrides) edits the output in place between runs: with it true, such edits would stay in
  // the channels the clip does not drive.
  bool output_untouched = false;

  // Names the first broken rule (ErrorCode::kUsage, path "SamplingJob", location the field or
  // "tracks/<i>"): missing clip/context, a time that is not a finite float, output size != rest
  // size (in the structure-of-arrays form: rest or output not empty, soa_rest or soa_output not
  // soa_blocks(soa_joints) blocks; in the Transform form soa_rest or soa_joints set), weight
  // offsets not starting at 0 / decreasing / not ending at default_weights.size(), output weights
  // size != default weights size, track index out of range, T/S/R component count not 3/3/4,
  // weights track size different from its mesh's weight count.
  Status validate() const;
  // Validates, then samples. Never throws or logs; allocates only when the context is too small.
  Status run() const;

 private:
  friend struct CompactSamplingJob;  // runs its residual clip after validating it itself
  // Samples a job that validate() accepted.
  void sample() const;
};

}  // namespace critter::anim
