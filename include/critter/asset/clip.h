// SPDX-License-Identifier: MIT
// Clip: a keyframe animation. Tracks keep their keys and interpolation exactly as authored
// (DESIGN.md convention 4); times are seconds. Immutable once built; keys live in two flat pools.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "critter/core/error.h"
#include "critter/core/uninitialized_allocator.h"

namespace critter {

enum class Interpolation : std::uint8_t { kStep, kLinear, kCubicSpline };

// What a track animates. Translation/Scale have 3 components, Rotation 4 (x, y, z, w), Weights one
// per morph target of the mesh.
enum class TrackTarget : std::uint8_t { kTranslation, kRotation, kScale, kWeights };

std::string_view to_string(Interpolation i);
std::string_view to_string(TrackTarget t);

// Editable track. `index` is a joint index (T/R/S; raw skeleton index before the model builder
// remaps it) or a mesh index (Weights). `values` holds key_count * components floats, or
// key_count * 3 * components for CUBICSPLINE, laid out per key as in glTF: in-tangent, value,
// out-tangent.
struct RawTrack {
  TrackTarget target = TrackTarget::kTranslation;
  std::int32_t index = 0;
  Interpolation interpolation = Interpolation::kLinear;
  std::uint32_t components = 3;
  std::vector<float> times;
  std::vector<float> values;
  std::string source_location;  // e.g. "/animations/0/channels/3", used in builder errors
};

struct RawClip {
  std::string name;
  std::vector<RawTrack> tracks;
  std::string source_location;  // e.g. "/animations/0"
};

// A track inside a built Clip: a window into the clip's pools.
struct Track {
  TrackTarget target;
  Interpolation interpolation;
  std::uint16_t components;
  std::int32_t index;         // joint index (T/R/S) or mesh index (Weights)
  std::uint32_t key_begin;    // first time in Clip::times() (shared by the tracks of a timeline)
  std::uint32_t key_count;    // >= 1
  std::uint32_t value_begin;  // first float in Clip::values()
  // Floats per key: components, or 3 * components for CUBICSPLINE.
  std::uint32_t stride() const {
    return interpolation == Interpolation::kCubicSpline ? 3u * components : components;
  }
};

struct ClipParts;
class Clip;

namespace detail {
// Clip::from_parts without its check that every key time and value is finite, for a reader that
// has made that check itself while copying the arrays (the .crit reader, which names the byte
// offset of the first bad float). Every other rule of Clip::from_parts is checked.
//
// With `defer_batch_values`, batch_values() is interleaved on its first call instead of here:
// for a model whose players sample its compact clips, the exact clips' interleaved copy is never
// needed, and not making it takes about a fifth off loading such a .crit.
Result<Clip> clip_from_finite_parts(ClipParts parts, int joint_count,
                                    std::span<const std::size_t> morph_counts,
                                    std::string_view path = {}, bool defer_batch_values = false);
}  // namespace detail

class Clip {
 public:
  // The key values' storage: sized without writing zeros first, as a loader fills it in full.
  using KeyValues = std::vector<float, UninitializedAllocator<float>>;

  const std::string& name() const { return name_; }
  // Seconds: the largest key time over all tracks (playback.md §1); 0 for a clip with no keys.
  float duration() const { return duration_; }
  std::span<const Track> tracks() const { return tracks_; }
  std::span<const float> times() const { return times_; }
  std::span<const float> values() const { return values_; }
  // The key times and values of one track.
  std::span<const float> track_times(const Track& t) const {
    return std::span<const float>(times_).subspan(t.key_begin, t.key_count);
  }
  std::span<const float> track_values(const Track& t) const {
    return std::span<const float>(values_).subspan(t.value_begin,
                                                   std::size_t{t.key_count} * t.stride());
  }

  // Sampling index, derived from the tracks at build time so that samplers need no per-frame
  // analysis of the clip. The tracks above stay the source of truth.
  //
  // A timeline is one list of key times. Tracks whose key times are identical (glTF channels
  // often share their sampler's input accessor) share a timeline, so a sampler can locate a time
  // once per timeline instead of once per track; a built clip stores those times once, and the
  // tracks' key_begin all point at them.
  struct Timeline {
    std::uint32_t key_begin;  // first time in times()
    std::uint32_t key_count;  // >= 1
  };
  std::span<const Timeline> timelines() const { return timelines_; }
  // Per track (same order as tracks()), the index of its timeline in timelines().
  std::span<const std::uint32_t> track_timelines() const { return track_timelines_; }
  // The live tracks are those not overridden by a later track with the same target and index
  // (see SamplingJob). Live LINEAR translation, rotation and scale tracks come in batches of up
  // to four tracks with one target and one timeline, sorted by joint; every other live track
  // (STEP, CUBICSPLINE, weights) is listed in other_tracks(), in input order.
  //
  // A batch's key values are a copy of its tracks' values interleaved per key: for each key, the
  // x of every lane, then y, z (and w for rotations), so a sampler reads two contiguous blocks
  // per batch, batches' blocks following one another in batch order, each starting a 64-byte
  // line (kBatchBlockAlignment; batch_values() is line-aligned and the up to 15 floats after a
  // block are zeros). Lanes from `lanes` to 3 repeat lane 0. This copy is the memory price of
  // sampling speed: it roughly doubles the size of a clip's LINEAR T/R/S values in memory (files
  // hold the keys once; see Clip::from_parts). A clip read from a .crit that also holds compact
  // clips makes it on the first call of batch_values() (thread-safe: one caller interleaves,
  // concurrent callers wait; copies of the clip share it), so that a model whose players sample
  // the compact clips neither waits for nor holds it; every other clip makes it when built.
  struct LinearBatch {
    TrackTarget target;  // kTranslation, kRotation or kScale
    std::uint8_t lanes;  // tracks in the batch, 1 to 4
    // Derived from joints when the clip is made (files do not store it): 1 when the lanes are
    // the four joints joints[0] + 0..3 inside one block of 16 (SoaTransform::kLanes), so that a
    // structure-of-arrays pose takes each component of the batch as one store; 0 otherwise.
    std::uint8_t soa_in_row;
    std::uint32_t timeline;     // index into timelines()
    std::uint32_t value_begin;  // first float in batch_values(); 4 * components floats per key
    std::int32_t joints[4];     // the joint each lane animates
  };
  static constexpr std::size_t kBatchBlockAlignment = 64;
  using BatchValues = std::vector<float, UninitializedAllocator<float, kBatchBlockAlignment>>;
  std::span<const LinearBatch> linear_batches() const { return linear_batches_; }
  std::span<const float> batch_values() const {
    if (batches_ == nullptr) return {};
    if (!batches_->ready.load(std::memory_order_acquire)) fill_batch_values();
    return batches_->values;
  }
  std::span<const std::uint32_t> other_tracks() const { return other_tracks_; }
  // Indices of all weights tracks (live or not), input order.
  std::span<const std::uint32_t> weight_tracks() const { return weight_tracks_; }
  // The largest joint index of a T/R/S track; -1 when the clip has none.
  std::int32_t max_joint() const { return max_joint_; }
  // J such that every joint below J has a translation, a rotation and a scale track: a sampler
  // need not start those joints from the rest pose.
  std::uint32_t animated_joint_prefix() const { return animated_prefix_; }

  // Bytes of the clip's arrays (tracks, key times and values, and the sampling index above).
  std::size_t byte_size() const;

  // Every array of the clip and its sampling index, but batch_values(), which is derived from
  // values() (for writers of the baked format).
  ClipParts parts() const;
  // Rebuilds a clip from its arrays without re-deriving the sampling index, checking everything
  // the samplers rely on: each track's keys and values inside the pools, targets, interpolations
  // and component counts as build_clip requires them, joint indices < joint_count, weights tracks
  // matching morph_counts; times finite and non-decreasing per track and timeline; values finite;
  // timelines inside the times, one per track with the track's key count; batches with a known
  // target, 1 to 4 lanes, joints < joint_count, unused lanes repeating lane 0, each used lane
  // naming a joint whose live (last) track of the batch's target is LINEAR and on the batch's
  // timeline; other and weights track lists naming tracks. batch_values() is interleaved from
  // those tracks' values (each batch's value_begin is recomputed, in batch order); the animated
  // joint prefix and the largest joint are recomputed. An ErrorCode::kInvalid error at `path`
  // naming the field otherwise.
  static Result<Clip> from_parts(ClipParts parts, int joint_count,
                                 std::span<const std::size_t> morph_counts,
                                 std::string_view path = {});

 private:
  friend Result<Clip> build_clip(const RawClip&, int, std::span<const std::size_t>,
                                 std::string_view);
  friend Result<Clip> detail::clip_from_finite_parts(ClipParts, int, std::span<const std::size_t>,
                                                     std::string_view, bool);
  // Fills the sampling index from the tracks (build_clip's last step).
  void index_for_sampling(std::size_t mesh_count);
  // Sets each batch's value_begin and soa_in_row and makes batches_ (interleaved now, or on the
  // first batch_values() call when `defer`).
  void lay_out_batches(bool defer);
  // Interleaves batches_->values from the tracks' values unless another caller has (batch_values).
  void fill_batch_values() const;
  // The interleaved batch values, shared by copies of the clip: written once, under `fill`, before
  // `ready` is set; read without a lock after.
  struct BatchStore {
    std::atomic<bool> ready{false};
    std::mutex fill;
    BatchValues values;
  };
  std::string name_;
  float duration_ = 0.0f;
  std::vector<Track> tracks_;
  std::vector<float> times_;
  KeyValues values_;
  std::vector<Timeline> timelines_;
  std::vector<std::uint32_t> track_timelines_;
  std::vector<LinearBatch> linear_batches_;
  // Null for a clip with no sampling index (default-constructed or moved from).
  std::shared_ptr<BatchStore> batches_;
  std::size_t batch_value_count_ = 0;  // floats in batches_->values, once filled
  std::vector<std::uint32_t> other_tracks_;
  std::vector<std::uint32_t> weight_tracks_;
  std::int32_t max_joint_ = -1;
  std::uint32_t animated_prefix_ = 0;
};

// The arrays of a built Clip but the interleaved batch values (see Clip::parts and
// Clip::from_parts). The batches' value_begin is not read by from_parts.
struct ClipParts {
  std::string name;
  float duration = 0.0f;
  std::vector<Track> tracks;
  std::vector<float> times;
  Clip::KeyValues values;
  std::vector<Clip::Timeline> timelines;
  std::vector<std::uint32_t> track_timelines;
  std::vector<Clip::LinearBatch> linear_batches;
  std::vector<std::uint32_t> other_tracks;
  std::vector<std::uint32_t> weight_tracks;
};

// Validates and builds a clip. `joint_count` bounds T/R/S indices; `morph_counts[m]` is mesh m's
// target count and bounds Weights indices and sizes. Rules: at least one key per track; times
// finite, >= 0 and non-decreasing; values finite; values.size() matches the key count, components
// and interpolation; T/S have 3 components, R has 4 (non-zero; normalised by the builder); Weights
// components equal the mesh's target count; CUBICSPLINE needs at least 2 keys' worth of layout
// (any count >= 1 is accepted). Tracks are kept in input order.
Result<Clip> build_clip(const RawClip& raw, int joint_count,
                        std::span<const std::size_t> morph_counts, std::string_view path = {});

}  // namespace critter
