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
// the bound. A track whose kept values never change is stored once (a constant). Every other
// track (STEP, CUBICSPLINE, morph weights) is kept exactly in residual(), an ordinary Clip.
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

struct CompactTrack {
  std::uint16_t joint = 0;
  TrackTarget target = TrackTarget::kRotation;  // kTranslation, kRotation or kScale
  CompactFormat format = CompactFormat::kQuantized;
  std::uint32_t key_begin = 0;                 // first entry in CompactClip::key_frames()
  std::uint32_t key_count = 0;                 // >= 1; 1 for a constant
  std::uint32_t value_begin = 0;               // first word in CompactClip::words()
  float range_min[3] = {0.0f, 0.0f, 0.0f};     // quantised T/S only
  float range_extent[3] = {0.0f, 0.0f, 0.0f};  // quantised T/S only, >= 0

  // Words per key.
  std::uint32_t stride() const {
    if (format == CompactFormat::kQuantized) return 3;
    return target == TrackTarget::kRotation ? 8u : 6u;
  }
};

// The plain arrays of a CompactClip, as a file stores them (see CompactClip::from_parts).
struct CompactClipParts {
  std::string name;
  float duration = 0.0f;
  std::vector<float> times;  // every distinct key time of the compacted tracks, increasing
  std::vector<CompactTrack> tracks;
  std::vector<std::uint16_t> key_frames;  // per key, its index in times
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
  std::span<const std::uint16_t> key_frames() const { return key_frames_; }
  std::span<const std::uint16_t> words() const { return words_; }
  // The tracks kept exactly (STEP, CUBICSPLINE, weights); an empty clip when there are none.
  const Clip& residual() const { return residual_; }
  // The largest joint index of a compact track; -1 when there is none.
  std::int32_t max_joint() const { return max_joint_; }

  // Bytes of the clip's data: times, tracks, key frames, words and the residual clip.
  std::size_t byte_size() const;

  // The arrays of this clip (for writers); residual tracks as raw tracks.
  CompactClipParts parts() const;
  // Rebuilds a clip from its arrays, checking every index and range against the arrays and the
  // model (joints < joint_count, residual as build_clip checks it against morph_counts): times
  // finite and non-decreasing, every track's keys inside key_frames with frames < times.size()
  // and increasing, values inside words, float values and ranges finite, formats and targets
  // known, constant tracks before animated ones. An ErrorCode::kInvalid error at `path` naming
  // the field otherwise.
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
  std::vector<std::uint16_t> key_frames_;
  std::vector<std::uint16_t> words_;
  Clip residual_;
  std::uint32_t constant_count_ = 0;
  std::int32_t max_joint_ = -1;
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

// Key `k` of `track` (values from `words`) as a vector (T/S) or quaternion (R).
inline vec3 decode_vec3(const CompactTrack& track, const std::uint16_t* words, std::uint32_t k) {
  const std::uint16_t* w = words + track.value_begin + std::size_t{k} * track.stride();
  if (track.format == CompactFormat::kFloat)
    return vec3(load_float(w), load_float(w + 2), load_float(w + 4));
  constexpr float kInv = 1.0f / 65535.0f;
  return vec3(track.range_min[0] + track.range_extent[0] * (static_cast<float>(w[0]) * kInv),
              track.range_min[1] + track.range_extent[1] * (static_cast<float>(w[1]) * kInv),
              track.range_min[2] + track.range_extent[2] * (static_cast<float>(w[2]) * kInv));
}

inline quat decode_quat(const CompactTrack& track, const std::uint16_t* words, std::uint32_t k) {
  const std::uint16_t* w = words + track.value_begin + std::size_t{k} * track.stride();
  if (track.format == CompactFormat::kFloat)
    return quat_xyzw(load_float(w), load_float(w + 2), load_float(w + 4), load_float(w + 6));
  return decode_rotation(w);
}

// Where time `t` falls among the keys of `track`: key k and the fraction s of the way to key
// k + 1 (s == 0 before the first key, at a key and after the last). `cursor` is a hint from the
// previous call (forward playback finds the key in O(1)); it is updated.
inline void locate(const CompactTrack& track, const float* times, const std::uint16_t* key_frames,
                   float t, std::uint32_t& cursor, std::uint32_t& k, float& s) {
  const std::uint16_t* frames = key_frames + track.key_begin;
  const std::uint32_t n = track.key_count;
  std::uint32_t c = cursor < n ? cursor : 0;
  if (times[frames[c]] > t) {
    c = 0;
    if (times[frames[0]] > t) {
      cursor = 0;
      k = 0;
      s = 0.0f;
      return;
    }
  }
  while (c + 1 < n && times[frames[c + 1]] <= t) {
    // Long jumps forward (a seek) use a binary search instead of a walk.
    if (c + 8 < n && times[frames[c + 8]] <= t) {
      std::uint32_t lo = c + 8, hi = n;
      while (hi - lo > 1) {
        const std::uint32_t mid = (lo + hi) / 2;
        if (times[frames[mid]] <= t)
          lo = mid;
        else
          hi = mid;
      }
      c = lo;
      break;
    }
    ++c;
  }
  cursor = c;
  k = c;
  if (c + 1 >= n) {
    s = 0.0f;
    return;
  }
  const float t0 = times[frames[c]];
  s = (t - t0) / (times[frames[c + 1]] - t0);
}

inline vec3 sample_vec3(const CompactTrack& track, const std::uint16_t* words, std::uint32_t k,
                        float s) {
  const vec3 a = decode_vec3(track, words, k);
  if (s == 0.0f) return a;
  const vec3 b = decode_vec3(track, words, k + 1);
  return a + (b - a) * s;
}

}  // namespace compact

}  // namespace critter
