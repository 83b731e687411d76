// SPDX-License-Identifier: MIT
// CompactClip: a Clip with its joint keys reduced within a model-space error bound and quantised,
// the optional build step of DESIGN.md convention 4. The exact Clip stays the source of truth;
// a compact clip is built from it for one skeleton and sampled by anim::CompactSamplingJob into
// the same pose layout as SamplingJob.
//
//   CompactOptions options{.tolerance = 1e-4f * character_size(model)};
//   CompactClipStats stats;
//   auto compact = build_compact_clip(model.clips()[0], model.skeleton(),
//                                     model.rest_model_transforms(), morph_counts, options,
//                                     &stats);
//   // stats.max_error <= options.tolerance, stats.bytes < stats.exact_bytes
//
// What is compacted: every live LINEAR translation, rotation and scale track. Its keys are a
// subset of the exact track's keys, chosen so that interpolating between the kept keys stays
// within the tolerance at every joint position and at virtual points (see CompactOptions);
// rotations are stored in 48 bits (smallest three, 15 bits each), translations and scales in
// 16 bits per component over the track's range, or as floats where quantising alone would break
// the bound. A track whose kept values never change is stored once, as floats (a constant).
// Every other track (STEP, CUBICSPLINE, morph weights) is kept exactly in residual(), an
// ordinary Clip.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "critter/asset/clip.h"
#include "critter/asset/skeleton.h"
#include "critter/core/error.h"
#include "critter/core/math.h"

namespace critter {

struct CompactOptions {
  // Largest allowed distance, in model units, between a point's model-space position under the
  // exact clip and under the compact one. Finite and > 0.
  float tolerance = 1e-4f;
  // Distance, in model units, of the virtual points measured around every joint (one along each
  // of its local axes): they stand for skin attached beyond the last joint of a chain, like the
  // "distance" of ozz-animation's and ACL's error metrics. Finite and >= 0.
  float virtual_distance = 0.1f;
};

// What build_compact_clip did. Errors are measured at every exact key time and at the midpoint
// between consecutive key times, at every joint's model-space position and its virtual points.
struct CompactClipStats {
  float tolerance = 0.0f;       // the requested bound, model units
  float max_error = 0.0f;       // the measured maximum distance, model units
  std::size_t exact_bytes = 0;  // Clip::byte_size() of the source
  std::size_t bytes = 0;        // CompactClip::byte_size()
  std::uint32_t keys_in = 0;    // keys of the compacted tracks in the source
  std::uint32_t keys_out = 0;   // keys kept (a constant counts as one)
};

// How one compact track stores its values.
enum class CompactFormat : std::uint8_t {
  kQuantized = 0,  // rotations: 3 words (smallest three); T/S: 3 words over [min, min + extent]
  kFloat = 1,      // 2 words per float: 6 words per T/S key, 8 per rotation key (x, y, z, w)
};

// One compacted channel. Its key frames, values and range follow those of the tracks before it
// in CompactClip's arrays (offsets are running sums, see CompactClip::offsets).
struct CompactTrack {
  std::uint16_t joint = 0;
  std::uint16_t key_count = 0;                  // >= 1; 1 for a constant, which has no key frame
  TrackTarget target = TrackTarget::kRotation;  // kTranslation, kRotation or kScale
  CompactFormat format = CompactFormat::kQuantized;

  // Words per key.
  std::uint32_t stride() const {
    if (format == CompactFormat::kQuantized) return 3;
    return target == TrackTarget::kRotation ? 8u : 6u;
  }
  // Entries in CompactClip::key_frames().
  std::uint32_t frame_count() const { return key_count > 1 ? key_count : 0u; }
  // Entries in CompactClip::ranges(): quantised translations and scales have a range (minimum
  // x y z, extent x y z).
  std::uint32_t range_count() const {
    return format == CompactFormat::kQuantized && target != TrackTarget::kRotation ? 6u : 0u;
  }
};

// Where a track's data starts in CompactClip's arrays.
struct CompactOffsets {
  std::uint32_t frame = 0;  // first entry in key_frames()
  std::uint32_t word = 0;   // first entry in words()
  std::uint32_t range = 0;  // first entry in ranges()
  void advance(const CompactTrack& t) {
    frame += t.frame_count();
    word += std::uint32_t{t.key_count} * t.stride();
    range += t.range_count();
  }
};

// The plain arrays of a CompactClip, as a file stores them (see CompactClip::from_parts).
struct CompactClipParts {
  std::string name;
  float duration = 0.0f;
  std::vector<float> times;  // every distinct key time of the compacted tracks, increasing
  std::vector<CompactTrack> tracks;
  std::vector<float> ranges;              // per quantised T/S track: minimum, extent (3 each)
  std::vector<std::uint16_t> key_frames;  // per key of an animated track, its index in times
  std::vector<std::uint16_t> words;       // key values
  RawClip residual;                       // tracks kept exactly; indices of the built model
};

class CompactClip {
 public:
  const std::string& name() const { return name_; }
  // Seconds; the exact clip's duration.
  float duration() const { return duration_; }
  std::span<const float> times() const { return times_; }
  // Constant tracks first (key_count == 1), then animated tracks sorted by joint.
  std::span<const CompactTrack> tracks() const { return tracks_; }
  std::uint32_t constant_count() const { return constant_count_; }
  std::span<const float> ranges() const { return ranges_; }
  std::span<const std::uint16_t> key_frames() const { return key_frames_; }
  std::span<const std::uint16_t> words() const { return words_; }
  // The tracks kept exactly (STEP, CUBICSPLINE, weights); an empty clip when there are none.
  const Clip& residual() const { return residual_; }
  // The constant tracks (the first constant_count()) as an overlay on a pose, shared by every
  // instance that samples the clip: for each of the first constant_joints() joints, ten floats
  // laid out as a Transform's (translation x y z, rotation x y z w, scale x y z) in
  // constant_values(), and in constant_mask() all bits set where a constant track gives that
  // float, zero where the pose keeps its own (there, the value is 0). soa_constant_values() and
  // soa_constant_mask() are the same in the structure-of-arrays form (SoaTransform blocks seen as
  // floats, soa_blocks(constant_joints()) blocks). A sampler lays the overlay over the rest pose
  // in one pass instead of writing each constant; the values are the decoded tracks, bit for bit.
  std::uint32_t constant_joints() const { return constant_joints_; }
  std::span<const float> constant_values() const { return constant_values_; }
  std::span<const std::uint32_t> constant_mask() const { return constant_mask_; }
  std::span<const float> soa_constant_values() const { return soa_constant_values_; }
  std::span<const std::uint32_t> soa_constant_mask() const { return soa_constant_mask_; }
  // The largest joint index of a compact track; -1 when there is none.
  std::int32_t max_joint() const { return max_joint_; }

  // How a sampler lays out the animated (non-constant) tracks, derived from tracks() and shared by
  // every instance that samples the clip, so that a per-instance cache holds only cursors and
  // decoded keys: lanes of rotations, then translations, then scales, each kind in track order and
  // padded to a multiple of eight with empty lanes (track kNoLane).
  static constexpr std::uint32_t kNoLane = 0xFFFFFFFFu;
  struct Lane {
    std::uint32_t track = kNoLane;  // index in tracks()
    CompactOffsets begin;           // where the track's key frames, words and range start
    std::uint32_t key_count = 0;
  };
  std::span<const Lane> lanes() const { return lanes_; }
  // Per lane, the joint it writes (0 for an empty lane).
  std::span<const std::uint32_t> lane_joints() const { return lane_joints_; }
  // Animated rotation, translation and scale tracks (lanes in use of each kind).
  const std::uint32_t* lane_counts() const { return lane_counts_; }
  // How a structure-of-arrays pose (SoaTransform blocks seen as floats) takes a group of eight
  // lanes whose joints are not eight in a row of one block: through windows of eight consecutive
  // floats of one component row, each float of a window taking one lane of the group (a vector
  // permute, blended over what the pose holds) or keeping its value (lane -1). `first` is the
  // offset of the window's first float in the pose's first component row: block · 160 + 0 or 8
  // (row r adds 16 · r). A window is one aligned half of a row, the 32 bytes of one of the
  // vector stores that have just laid the rest pose out, so that the window's read of the floats
  // it keeps is forwarded from that store (a read across two stores waits for both to reach the
  // cache: with windows from each group's first joint the greenman's moving clip took 110 ns a
  // sample against 93 on a Zen 4 core). Groups in a row of one block (one store per component), and
  // groups whose windows would cost more than storing their lanes one float at a time (4 · windows
  // > 3 · lanes), have none.
  struct SoaWindow {
    std::uint32_t first = 0;
    std::int32_t lanes[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
  };
  std::span<const SoaWindow> soa_windows() const { return soa_windows_; }
  // Per group of eight lanes (lanes().size() / 8 of them), where its windows start in
  // soa_windows(); one entry more, the end of the last group's.
  std::span<const std::uint32_t> soa_window_begin() const { return soa_window_begin_; }

  // Bytes of the clip's data: times, tracks, ranges, key frames, words and the residual clip
  // (what a file stores). The lane layout derived from the tracks on construction (lanes(),
  // lane_joints() and the structure-of-arrays windows: 28 bytes per lane, 36 per window) and a
  // sampler's per-instance cache are not part of it.
  std::size_t byte_size() const;

  // The arrays of this clip (for writers); residual tracks as raw tracks.
  CompactClipParts parts() const;
  // Rebuilds a clip from its arrays, checking every index and range against the arrays and the
  // model (joints < joint_count, residual as build_clip checks it against morph_counts): times
  // finite and increasing, the tracks' key frames, words and ranges adding up to the arrays'
  // sizes, key frames increasing indices of times, float values and ranges finite (extents
  // >= 0), float rotations of unit length, formats and targets known, constant tracks before
  // animated ones. An ErrorCode::kInvalid error at `path` naming the field otherwise.
  static Result<CompactClip> from_parts(CompactClipParts parts, int joint_count,
                                        std::span<const std::size_t> morph_counts,
                                        std::string_view path = {});

 private:
  friend Result<CompactClip> build_compact_clip(const Clip&, const Skeleton&, std::span<const mat4>,
                                                std::span<const std::size_t>, const CompactOptions&,
                                                CompactClipStats*);
  std::string name_;
  float duration_ = 0.0f;
  std::vector<float> times_;
  std::vector<CompactTrack> tracks_;
  std::vector<float> ranges_;
  std::vector<std::uint16_t> key_frames_;
  std::vector<std::uint16_t> words_;
  Clip residual_;
  std::uint32_t constant_count_ = 0;
  std::uint32_t constant_joints_ = 0;
  std::vector<float> constant_values_, soa_constant_values_;
  std::vector<std::uint32_t> constant_mask_, soa_constant_mask_;
  std::int32_t max_joint_ = -1;
  std::vector<Lane> lanes_;
  std::vector<std::uint32_t> lane_joints_;
  std::uint32_t lane_counts_[3] = {0, 0, 0};
  std::vector<SoaWindow> soa_windows_;
  std::vector<std::uint32_t> soa_window_begin_;
  // Derives the constant overlay and the lane layout from the tracks.
  void index_tracks();
};

// Builds the compact form of `clip` for `skeleton` (whose rest model transforms are
// `rest_model`, one per joint) and meshes with `morph_counts` targets. Fails (kInvalid) on options
// out of range, (kLimit) when the compacted tracks have more than 65535 distinct key times or a
// skeleton has more than 65535 joints. When the bound cannot be met with reduced keys the tracks
// keep all their keys as floats. `stats` (may be null) receives the figures.
Result<CompactClip> build_compact_clip(const Clip& clip, const Skeleton& skeleton,
                                       std::span<const mat4> rest_model,
                                       std::span<const std::size_t> morph_counts,
                                       const CompactOptions& options,
                                       CompactClipStats* stats = nullptr);

// Decoding of stored values, shared by the sampler and the builder (the format's definition).
namespace compact {

inline constexpr float kInvSqrt2 = 0.70710678118654752f;

// The kinds of compacted channels in the order clips and samplers group them: rotations (0),
// translations (1), scales (2).
inline std::uint32_t kind_of(TrackTarget target) {
  return target == TrackTarget::kRotation ? 0u : target == TrackTarget::kTranslation ? 1u : 2u;
}

// A rotation key: the three smallest components of the canonical quaternion (largest component
// positive), each 15 bits over [-1/sqrt 2, 1/sqrt 2], and the index of the largest in the top
// two bits of the third word: bits 0-14 a, 15-29 b, 30-44 c, 45-46 index.
inline quat decode_rotation(const std::uint16_t* w) {
  const std::uint64_t v =
      std::uint64_t{w[0]} | (std::uint64_t{w[1]} << 16) | (std::uint64_t{w[2]} << 32);
  constexpr float kScale = 2.0f * kInvSqrt2 / 32767.0f;
  const float a = static_cast<float>(v & 0x7fffu) * kScale - kInvSqrt2;
  const float b = static_cast<float>((v >> 15) & 0x7fffu) * kScale - kInvSqrt2;
  const float c = static_cast<float>((v >> 30) & 0x7fffu) * kScale - kInvSqrt2;
  const float d = std::sqrt(std::max(0.0f, 1.0f - a * a - b * b - c * c));
  switch ((v >> 45) & 3u) {
    case 0:
      return quat_xyzw(d, a, b, c);
    case 1:
      return quat_xyzw(a, d, b, c);
    case 2:
      return quat_xyzw(a, b, d, c);
    default:
      return quat_xyzw(a, b, c, d);
  }
}

inline float load_float(const std::uint16_t* w) {
  float f;
  std::memcpy(&f, w, sizeof f);
  return f;
}

// A translation or scale key of `format` at `w`; `range` (minimum x y z, extent x y z) for a
// quantised key.
inline vec3 decode_vec3(CompactFormat format, const std::uint16_t* w, const float* range) {
  if (format == CompactFormat::kFloat)
    return vec3(load_float(w), load_float(w + 2), load_float(w + 4));
  constexpr float kInv = 1.0f / 65535.0f;
  return vec3(range[0] + range[3] * (static_cast<float>(w[0]) * kInv),
              range[1] + range[4] * (static_cast<float>(w[1]) * kInv),
              range[2] + range[5] * (static_cast<float>(w[2]) * kInv));
}

// A rotation key of `format` at `w`.
inline quat decode_quat(CompactFormat format, const std::uint16_t* w) {
  if (format == CompactFormat::kFloat)
    return quat_xyzw(load_float(w), load_float(w + 2), load_float(w + 4), load_float(w + 6));
  return decode_rotation(w);
}

}  // namespace compact

}  // namespace critter
