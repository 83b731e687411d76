// SPDX-License-Identifier: MIT
#include "critter/asset/clip.h"

#include <algorithm>
#include <bit>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <cmath>
#include <limits>
#include <utility>

#include "asset/clip_load_simd.h"
#include "core/finite_floats.h"
#include "core/soa_lanes.h"
#include "critter/core/cpu_features.h"
#include "critter/core/math.h"

namespace critter {

std::string_view to_string(Interpolation i) {
  switch (i) {
    case Interpolation::kStep:
      return "STEP";
    case Interpolation::kLinear:
      return "LINEAR";
    case Interpolation::kCubicSpline:
      return "CUBICSPLINE";
  }
  return "?";
}

std::string_view to_string(TrackTarget t) {
  switch (t) {
    case TrackTarget::kTranslation:
      return "translation";
    case TrackTarget::kRotation:
      return "rotation";
    case TrackTarget::kScale:
      return "scale";
    case TrackTarget::kWeights:
      return "weights";
  }
  return "?";
}

namespace {

// FNV-1a over the bit patterns of a key time list.
std::uint64_t hash_times(std::span<const float> times) {
  std::uint64_t h = 14695981039346656037ull;
  for (const float t : times) {
    h ^= std::bit_cast<std::uint32_t>(t);
    h *= 1099511628211ull;
  }
  return h;
}

// The live (last) track of each T/R/S target and joint below `joints`, at
// target * joints + joint, or kNoTrack.
constexpr std::uint32_t kNoTrack = std::numeric_limits<std::uint32_t>::max();
std::vector<std::uint32_t> last_tracks(std::span<const Track> tracks, std::size_t joints) {
  std::vector<std::uint32_t> last(3 * joints, kNoTrack);
  for (std::size_t i = 0; i < tracks.size(); ++i) {
    const Track& t = tracks[i];
    if (t.target != TrackTarget::kWeights && static_cast<std::size_t>(t.index) < joints)
      last[static_cast<std::size_t>(t.target) * joints + static_cast<std::size_t>(t.index)] =
          static_cast<std::uint32_t>(i);
  }
  return last;
}

// Floats of one batch's block: for each key, 4 lanes of each component.
std::uint64_t batch_floats(const Clip::LinearBatch& b, std::span<const Clip::Timeline> timelines) {
  return std::uint64_t{timelines[b.timeline].key_count} * 4 *
         (b.target == TrackTarget::kRotation ? 4u : 3u);
}

constexpr std::size_t kBatchBlockAlignFloats = Clip::kBatchBlockAlignment / sizeof(float);

// Sets each batch's value_begin (batches' blocks in batch order) and soa_in_row; returns the
// floats of the interleaved batch values.
std::size_t lay_out(std::span<Clip::LinearBatch> batches,
                    std::span<const Clip::Timeline> timelines) {
  // Each block starts a 64-byte line (the storage is line-aligned), so that the vector stores
  // of interleave_batches and the samplers' reads never split a line; the few floats after a
  // block are zeros.
  std::size_t total = 0;
  for (Clip::LinearBatch& b : batches) {
    b.soa_in_row = detail::consecutive_in_block(b.joints, b.lanes, 4) ? 1 : 0;
    b.value_begin = static_cast<std::uint32_t>(total);
    total += static_cast<std::size_t>(batch_floats(b, timelines));
    total = (total + kBatchBlockAlignFloats - 1) / kBatchBlockAlignFloats * kBatchBlockAlignFloats;
  }
  return total;
}

// The interleaved batch values (Clip::batch_values) of batches laid out by lay_out (`total`
// floats). Each lane reads the values of its joint's live track (`last`, from last_tracks); the
// batches are valid (Clip::from_parts checks them). The one place the layout is made (its
// AVX-512 step in clip_load_simd.cpp).
Clip::BatchValues interleave_batches(std::span<const Clip::LinearBatch> batches,
                                     std::span<const Clip::Timeline> timelines,
                                     std::span<const Track> tracks, std::span<const float> values,
                                     std::span<const std::uint32_t> last, std::size_t total) {
  const std::size_t joints = last.size() / 3;
  Clip::BatchValues out(total);  // every float written below
#if defined(__x86_64__) && defined(__GNUC__)
  const bool avx512 = cpu_has_avx512();  // checked once per process (cpu_features.h)
#endif
  for (const Clip::LinearBatch& b : batches) {
    const float* lane_values[4];
    for (int lane = 0; lane < 4; ++lane) {
      const std::uint32_t track = last[static_cast<std::size_t>(b.target) * joints +
                                       static_cast<std::size_t>(b.joints[lane])];
      lane_values[lane] = values.data() + tracks[track].value_begin;
    }
    const std::uint32_t keys = timelines[b.timeline].key_count;
    const std::uint32_t components = b.target == TrackTarget::kRotation ? 4u : 3u;
    float* o = out.data() + b.value_begin;
    std::uint32_t k = 0;
#if defined(__x86_64__) && defined(__GNUC__)
    if (avx512) {
      k = detail::interleave_keys_avx512(lane_values, keys, components, o);
      o += std::size_t{k} * 4 * components;
    }
#endif
#if defined(__SSE2__)
    // A 4 x 4 transpose per key: lane rows in, component rows out. A 3-component key reads the
    // next key's x as its fourth column, so the last key of such a track is left to the loop
    // below (its fourth float may lie past the values).
    const std::uint32_t vector_keys = components == 4 ? keys : keys - 1;
    for (; k < vector_keys; ++k) {
      const std::size_t at = std::size_t{k} * components;
      __m128 r0 = _mm_loadu_ps(lane_values[0] + at);
      __m128 r1 = _mm_loadu_ps(lane_values[1] + at);
      __m128 r2 = _mm_loadu_ps(lane_values[2] + at);
      __m128 r3 = _mm_loadu_ps(lane_values[3] + at);
      _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
      _mm_storeu_ps(o, r0);
      _mm_storeu_ps(o + 4, r1);
      _mm_storeu_ps(o + 8, r2);
      if (components == 4) _mm_storeu_ps(o + 12, r3);
      o += 4 * components;
    }
#endif
    for (; k < keys; ++k) {
      const std::size_t at = std::size_t{k} * components;
      for (std::uint32_t c = 0; c < components; ++c) {
        o[0] = lane_values[0][at + c];
        o[1] = lane_values[1][at + c];
        o[2] = lane_values[2][at + c];
        o[3] = lane_values[3][at + c];
        o += 4;
      }
    }
    while (static_cast<std::size_t>(o - out.data()) % kBatchBlockAlignFloats != 0) *o++ = 0.0f;
  }
  return out;
}

}  // namespace

void Clip::index_for_sampling(std::size_t mesh_count) {
  Clip& clip = *this;
  const std::size_t n = clip.tracks_.size();
  const std::span<const float> all_times(clip.times_);

  // Timelines: an open-addressing table of timeline indices keyed by the hash of their times,
  // then the times themselves are compared.
  std::size_t capacity = 16;
  while (capacity < 2 * n) capacity *= 2;
  constexpr std::uint32_t kEmpty = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> table(capacity, kEmpty);
  std::vector<std::uint64_t> timeline_hashes;
  timeline_hashes.reserve(n);
  clip.timelines_.reserve(n);
  clip.track_timelines_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Track& t = clip.tracks_[i];
    const auto times = all_times.subspan(t.key_begin, t.key_count);
    const std::uint64_t h = hash_times(times);
    std::size_t slot = static_cast<std::size_t>(h) & (capacity - 1);
    std::uint32_t found = kEmpty;
    for (; table[slot] != kEmpty; slot = (slot + 1) & (capacity - 1)) {
      const std::uint32_t candidate = table[slot];
      const Clip::Timeline& tl = clip.timelines_[candidate];
      if (timeline_hashes[candidate] == h && tl.key_count == t.key_count &&
          std::ranges::equal(all_times.subspan(tl.key_begin, tl.key_count), times)) {
        found = candidate;
        break;
      }
    }
    if (found == kEmpty) {
      found = static_cast<std::uint32_t>(clip.timelines_.size());
      clip.timelines_.push_back({t.key_begin, t.key_count});
      timeline_hashes.push_back(h);
      table[slot] = found;
    }
    clip.track_timelines_[i] = found;
  }
  // Tracks on one timeline share its key times: the pool keeps each timeline's times once (glTF
  // channels of one sampler input, and most authored clips, key every track at the same times).
  std::vector<float> shared;
  std::size_t shared_count = 0;
  for (const Timeline& tl : clip.timelines_) shared_count += tl.key_count;
  shared.reserve(shared_count);
  for (Timeline& tl : clip.timelines_) {
    const auto from = all_times.begin() + tl.key_begin;
    tl.key_begin = static_cast<std::uint32_t>(shared.size());
    shared.insert(shared.end(), from, from + tl.key_count);
  }
  for (std::size_t i = 0; i < n; ++i)
    clip.tracks_[i].key_begin = clip.timelines_[clip.track_timelines_[i]].key_begin;
  clip.times_ = std::move(shared);

  // Live tracks: walking backwards, a track is live when no later track had its target.
  for (const Track& t : clip.tracks_)
    if (t.target != TrackTarget::kWeights) clip.max_joint_ = std::max(clip.max_joint_, t.index);
  const auto joints = static_cast<std::size_t>(clip.max_joint_ + 1);
  std::vector<std::uint8_t> channels(joints, 0);  // bit (1 << target) per joint
  std::vector<std::uint8_t> mesh_seen(mesh_count, 0);
  std::vector<std::uint8_t> live(n, 0);
  for (std::size_t i = n; i-- > 0;) {
    const Track& t = clip.tracks_[i];
    const auto index = static_cast<std::size_t>(t.index);
    if (t.target == TrackTarget::kWeights) {
      if (index < mesh_count && !mesh_seen[index]) {
        mesh_seen[index] = 1;
        live[i] = 1;
      }
    } else {
      const auto bit = static_cast<std::uint8_t>(1u << static_cast<unsigned>(t.target));
      if (!(channels[index] & bit)) {
        channels[index] |= bit;
        live[i] = 1;
      }
    }
  }
  while (clip.animated_prefix_ < joints && channels[clip.animated_prefix_] == 7u)
    ++clip.animated_prefix_;

  // Live LINEAR T/R/S tracks grouped by (target, timeline), each group sorted by joint. A live
  // track's (target, joint) is unique, so one sort of the keys gives the groups and their order.
  struct GroupKey {
    TrackTarget target;
    std::uint32_t timeline;
    std::int32_t joint;
    std::uint32_t track;
  };
  std::vector<GroupKey> keyed;
  keyed.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Track& t = clip.tracks_[i];
    const auto ti = static_cast<std::uint32_t>(i);
    if (t.target == TrackTarget::kWeights) clip.weight_tracks_.push_back(ti);
    if (!live[i]) continue;
    if (t.interpolation != Interpolation::kLinear || t.target == TrackTarget::kWeights)
      clip.other_tracks_.push_back(ti);
    else
      keyed.push_back({t.target, clip.track_timelines_[i], t.index, ti});
  }
  std::ranges::sort(keyed, [](const GroupKey& a, const GroupKey& b) {
    if (a.target != b.target) return a.target < b.target;
    if (a.timeline != b.timeline) return a.timeline < b.timeline;
    return a.joint < b.joint;
  });
  for (std::size_t g = 0; g < keyed.size();) {
    std::size_t end = g + 1;
    while (end < keyed.size() && keyed[end].target == keyed[g].target &&
           keyed[end].timeline == keyed[g].timeline)
      ++end;
    for (std::size_t first = g; first < end; first += 4) {
      Clip::LinearBatch batch{};
      batch.target = keyed[g].target;
      batch.lanes = static_cast<std::uint8_t>(std::min<std::size_t>(4, end - first));
      batch.timeline = keyed[g].timeline;
      for (std::size_t lane = 0; lane < 4; ++lane)
        batch.joints[lane] = keyed[first + (lane < batch.lanes ? lane : 0)].joint;
      clip.linear_batches_.push_back(batch);
    }
    g = end;
  }
  std::ranges::stable_sort(clip.linear_batches_, {},
                           [](const Clip::LinearBatch& b) { return b.joints[0]; });
  clip.lay_out_batches(false);
}

void Clip::lay_out_batches(bool defer) {
  batch_value_count_ = lay_out(linear_batches_, timelines_);
  batches_ = std::make_shared<BatchStore>();
  if (!defer) fill_batch_values();
}

void Clip::fill_batch_values() const {
  const std::lock_guard lock(batches_->fill);
  if (batches_->ready.load(std::memory_order_relaxed)) return;
  // Every T/R/S track's joint is at most max_joint_.
  const auto joints = static_cast<std::size_t>(max_joint_ + 1);
  batches_->values = interleave_batches(linear_batches_, timelines_, tracks_, values_,
                                        last_tracks(tracks_, joints), batch_value_count_);
  batches_->ready.store(true, std::memory_order_release);
}

std::size_t Clip::byte_size() const {
  return tracks_.size() * sizeof(Track) + times_.size() * sizeof(float) +
         values_.size() * sizeof(float) + timelines_.size() * sizeof(Timeline) +
         track_timelines_.size() * sizeof(std::uint32_t) +
         linear_batches_.size() * sizeof(LinearBatch) + batch_value_count_ * sizeof(float) +
         (other_tracks_.size() + weight_tracks_.size()) * sizeof(std::uint32_t);
}

ClipParts Clip::parts() const {
  return ClipParts{name_,      duration_,        tracks_,         times_,        values_,
                   timelines_, track_timelines_, linear_batches_, other_tracks_, weight_tracks_};
}

namespace {

// For finite times only: the sign of a difference of finite floats is exact (gradual underflow
// keeps a - b != 0 when a != b), so a decrease is a negative difference. Compilers do not
// vectorise this reduction of overlapping windows, so the x86 build spells it out.
bool non_decreasing(std::span<const float> times) {
  const float* t = times.data();
  const std::size_t n = times.size();
  float least = 0.0f;
  std::size_t k = 1;
#if defined(__SSE2__)
  __m128 lanes = _mm_setzero_ps();
  for (; k + 4 <= n; k += 4)
    lanes = _mm_min_ps(lanes, _mm_sub_ps(_mm_loadu_ps(t + k), _mm_loadu_ps(t + k - 1)));
  alignas(16) float out[4];
  _mm_store_ps(out, lanes);
  for (const float lane : out) least = std::min(least, lane);
#endif
  for (; k < n; ++k) least = std::min(least, t[k] - t[k - 1]);
  return !(least < 0.0f);
}

}  // namespace

Result<Clip> Clip::from_parts(ClipParts p, int joint_count,
                              std::span<const std::size_t> morph_counts, std::string_view path) {
  if (!all_finite_floats(p.times) || !all_finite_floats(p.values))
    return fail(Error::at(ErrorCode::kInvalid, std::string(path), "values",
                          "a key time or value is not finite"));
  return detail::clip_from_finite_parts(std::move(p), joint_count, morph_counts, path);
}

Result<Clip> detail::clip_from_finite_parts(ClipParts p, int joint_count,
                                            std::span<const std::size_t> morph_counts,
                                            std::string_view path, bool defer_batch_values) {
  const std::string file(path);
  const auto bad = [&](const std::string& where, const std::string& msg) {
    return fail(Error::at(ErrorCode::kInvalid, file, where, msg));
  };
  if (!std::isfinite(p.duration) || p.duration < 0.0f)
    return bad("duration", "not a finite time >= 0");
  Clip clip;
  const auto joints = static_cast<std::size_t>(std::max(joint_count, 0));
  std::vector<std::uint8_t> channels(joints, 0);
  std::int32_t max_joint = -1;  // kept in a register, not the member
  for (std::size_t i = 0; i < p.tracks.size(); ++i) {
    const Track& t = p.tracks[i];
    // The location is spelled out only for an error.
    const auto where = [i] { return "tracks/" + std::to_string(i); };
    if (static_cast<unsigned>(t.interpolation) > 2u || static_cast<unsigned>(t.target) > 3u)
      return bad(where(), "unknown interpolation or target");
    if (t.key_count == 0) return bad(where(), "track has no keys");
    if (std::uint64_t{t.key_begin} + t.key_count > p.times.size())
      return bad(where(), "keys run past the key times");
    if (std::uint64_t{t.value_begin} + std::uint64_t{t.key_count} * t.stride() > p.values.size())
      return bad(where(), "values run past the key values");
    if (t.index < 0) return bad(where(), "negative index");
    const auto index = static_cast<std::size_t>(t.index);
    if (t.target == TrackTarget::kWeights) {
      if (index >= morph_counts.size() || t.components != morph_counts[index] || t.components == 0)
        return bad(where(), "weights track does not match a mesh's morph targets");
    } else {
      if (index >= joints) return bad(where(), "track targets a joint outside the skeleton");
      if (t.components != (t.target == TrackTarget::kRotation ? 4u : 3u))
        return bad(where(), "wrong component count");
      max_joint = std::max(max_joint, t.index);
    }
  }
  for (std::size_t i = 0; i < p.timelines.size(); ++i) {
    const Clip::Timeline& tl = p.timelines[i];
    if (tl.key_count == 0 || std::uint64_t{tl.key_begin} + tl.key_count > p.times.size())
      return bad("timelines/" + std::to_string(i), "timeline outside the key times");
    if (!non_decreasing(std::span<const float>(p.times).subspan(tl.key_begin, tl.key_count)))
      return bad("timelines/" + std::to_string(i), "key times decrease");
  }
  if (p.track_timelines.size() != p.tracks.size())
    return bad("track_timelines", "one timeline per track expected");
  for (std::size_t i = 0; i < p.tracks.size(); ++i) {
    if (p.track_timelines[i] >= p.timelines.size() ||
        p.timelines[p.track_timelines[i]].key_count != p.tracks[i].key_count)
      return bad("track_timelines/" + std::to_string(i), "timeline does not match the track");
    // A track that shares its timeline's times was checked with the timeline.
    const Track& t = p.tracks[i];
    if (t.key_begin != p.timelines[p.track_timelines[i]].key_begin &&
        !non_decreasing(std::span<const float>(p.times).subspan(t.key_begin, t.key_count)))
      return bad("tracks/" + std::to_string(i), "key times decrease");
  }
  // Each batch lane is the live track of its target and joint (the last such track), LINEAR and
  // on the batch's timeline; batch_values() is made from those tracks' values, so the two copies
  // of a key can never disagree.
  const std::vector<std::uint32_t> last = last_tracks(p.tracks, joints);
  std::uint64_t total_floats = 0;
  for (std::size_t i = 0; i < p.linear_batches.size(); ++i) {
    const Clip::LinearBatch& b = p.linear_batches[i];
    const auto where = [i] { return "linear_batches/" + std::to_string(i); };
    if (b.target != TrackTarget::kTranslation && b.target != TrackTarget::kRotation &&
        b.target != TrackTarget::kScale)
      return bad(where(), "batch target is not T, R or S");
    if (b.lanes < 1 || b.lanes > 4 || b.timeline >= p.timelines.size())
      return bad(where(), "lanes or timeline out of range");
    for (int lane = 0; lane < 4; ++lane) {
      if (b.joints[lane] < 0 || static_cast<std::size_t>(b.joints[lane]) >= joints)
        return bad(where(), "batch targets a joint outside the skeleton");
      if (lane >= b.lanes && b.joints[lane] != b.joints[0])
        return bad(where(), "an unused lane does not repeat lane 0");
    }
    for (int lane = 0; lane < b.lanes; ++lane) {
      const std::uint32_t track = last[static_cast<std::size_t>(b.target) * joints +
                                       static_cast<std::size_t>(b.joints[lane])];
      if (track == kNoTrack || p.tracks[track].interpolation != Interpolation::kLinear ||
          p.track_timelines[track] != b.timeline)
        return bad(where(), "a lane is not its joint's live LINEAR track on the batch's timeline");
      channels[static_cast<std::size_t>(b.joints[lane])] |=
          static_cast<std::uint8_t>(1u << static_cast<unsigned>(b.target));
    }
    // (Pairwise: std::max of an initializer list goes through a stack array every batch.)
    max_joint = std::max(max_joint, std::max(std::max(b.joints[0], b.joints[1]),
                                             std::max(b.joints[2], b.joints[3])));
    total_floats += batch_floats(b, p.timelines) + kBatchBlockAlignFloats - 1;  // (padding)
  }
  if (total_floats > std::numeric_limits<std::uint32_t>::max())
    return fail(
        Error::at(ErrorCode::kLimit, file, "linear_batches", "more than 2^32 batch values"));
  for (const std::uint32_t i : p.other_tracks) {
    if (i >= p.tracks.size()) return bad("other_tracks", "names no track");
    const Track& t = p.tracks[i];
    if (t.target != TrackTarget::kWeights)
      channels[static_cast<std::size_t>(t.index)] |=
          static_cast<std::uint8_t>(1u << static_cast<unsigned>(t.target));
  }
  for (const std::uint32_t i : p.weight_tracks) {
    if (i >= p.tracks.size() || p.tracks[i].target != TrackTarget::kWeights)
      return bad("weight_tracks", "names no weights track");
  }
  // The sampler skips the rest pose below the prefix, so it counts only joints whose three
  // channels are written by what the sampler runs (batches and other tracks).
  while (clip.animated_prefix_ < joints && channels[clip.animated_prefix_] == 7u)
    ++clip.animated_prefix_;
  clip.max_joint_ = max_joint;
  clip.name_ = std::move(p.name);
  clip.duration_ = p.duration;
  clip.tracks_ = std::move(p.tracks);
  clip.times_ = std::move(p.times);
  clip.values_ = std::move(p.values);
  clip.timelines_ = std::move(p.timelines);
  clip.track_timelines_ = std::move(p.track_timelines);
  clip.linear_batches_ = std::move(p.linear_batches);
  clip.other_tracks_ = std::move(p.other_tracks);
  clip.weight_tracks_ = std::move(p.weight_tracks);
  clip.lay_out_batches(defer_batch_values);
  return clip;
}

Result<Clip> build_clip(const RawClip& raw, int joint_count,
                        std::span<const std::size_t> morph_counts, std::string_view path) {
  const std::string file(path);
  Clip clip;
  clip.name_ = raw.name;
  std::size_t total_keys = 0, total_values = 0;
  for (const RawTrack& t : raw.tracks) {
    total_keys += t.times.size();
    total_values += t.values.size();
  }
  if (total_keys > std::numeric_limits<std::uint32_t>::max() ||
      total_values > std::numeric_limits<std::uint32_t>::max()) {
    return fail(Error::at(ErrorCode::kLimit, file, raw.source_location,
                          "clip '" + raw.name + "' has more than 2^32 keys or values"));
  }
  clip.tracks_.reserve(raw.tracks.size());
  clip.times_.reserve(total_keys);
  clip.values_.reserve(total_values);

  for (std::size_t ti = 0; ti < raw.tracks.size(); ++ti) {
    const RawTrack& t = raw.tracks[ti];
    // The location is spelled out only for an error.
    auto err = [&](ErrorCode code, const std::string& msg) {
      const std::string where = t.source_location.empty()
                                    ? raw.source_location + "/tracks/" + std::to_string(ti)
                                    : t.source_location;
      return fail(Error::at(code, file, where, msg));
    };
    if (t.target == TrackTarget::kWeights) {
      if (t.index < 0 || static_cast<std::size_t>(t.index) >= morph_counts.size())
        return err(ErrorCode::kOutOfRange, "weights track targets mesh " + std::to_string(t.index) +
                                               ", model has " +
                                               std::to_string(morph_counts.size()) + " meshes");
      if (t.components != morph_counts[static_cast<std::size_t>(t.index)])
        return err(ErrorCode::kInvalid,
                   "weights track has " + std::to_string(t.components) + " components, mesh has " +
                       std::to_string(morph_counts[static_cast<std::size_t>(t.index)]) +
                       " morph targets");
      if (t.components == 0)
        return err(ErrorCode::kInvalid, "weights track for a mesh without targets");
    } else {
      if (t.index < 0 || t.index >= joint_count)
        return err(ErrorCode::kOutOfRange, std::string(to_string(t.target)) +
                                               " track targets joint " + std::to_string(t.index) +
                                               ", skeleton has " + std::to_string(joint_count) +
                                               " joints");
      const std::uint32_t want = t.target == TrackTarget::kRotation ? 4u : 3u;
      if (t.components != want)
        return err(ErrorCode::kInvalid, std::string(to_string(t.target)) + " track has " +
                                            std::to_string(t.components) +
                                            " components, expected " + std::to_string(want));
    }
    if (t.components > 0xFFFFu) return err(ErrorCode::kLimit, "too many components");
    if (t.times.empty()) return err(ErrorCode::kInvalid, "track has no keys");
    const std::size_t stride =
        (t.interpolation == Interpolation::kCubicSpline ? 3u : 1u) * std::size_t{t.components};
    if (t.values.size() != t.times.size() * stride)
      return err(ErrorCode::kInvalid, "track has " + std::to_string(t.values.size()) +
                                          " values for " + std::to_string(t.times.size()) +
                                          " keys, expected " +
                                          std::to_string(t.times.size() * stride) + " (" +
                                          std::string(to_string(t.interpolation)) + ")");
    // Branch-free passes first (they vectorise); the key-by-key checks below name the first
    // broken key only when a pass finds one. The finiteness test is done on the bits: a
    // non-finite float has every exponent bit set, and adding one to that exponent carries into
    // the top bit.
    std::uint32_t time_carry = 0;
    for (const float time : t.times)
      time_carry |= (std::bit_cast<std::uint32_t>(time) & 0x7f800000u) + 0x00800000u;
    bool decreasing = false;
    for (std::size_t k = 1; k < t.times.size(); ++k) decreasing |= t.times[k] < t.times[k - 1];
    const bool times_ok = (time_carry & 0x80000000u) == 0 && !decreasing && t.times[0] >= 0.0f;
    for (std::size_t k = 0; !times_ok && k < t.times.size(); ++k) {
      const float time = t.times[k];
      if (!std::isfinite(time) || time < 0.0f)
        return err(ErrorCode::kInvalid, "key " + std::to_string(k) + " has time " +
                                            std::to_string(time) + ", expected a finite time >= 0");
      if (k > 0 && time < t.times[k - 1])
        return err(ErrorCode::kInvalid,
                   "key " + std::to_string(k) + " time " + std::to_string(time) +
                       " is before the previous key's " + std::to_string(t.times[k - 1]));
    }
    std::uint32_t carry = 0;
    for (const float v : t.values)
      carry |= (std::bit_cast<std::uint32_t>(v) & 0x7f800000u) + 0x00800000u;
    const bool values_ok = (carry & 0x80000000u) == 0;
    for (std::size_t v = 0; !values_ok && v < t.values.size(); ++v)
      if (!std::isfinite(t.values[v]))
        return err(ErrorCode::kInvalid, "value " + std::to_string(v) + " is not finite");

    Track built{};
    built.target = t.target;
    built.interpolation = t.interpolation;
    built.components = static_cast<std::uint16_t>(t.components);
    built.index = t.index;
    built.key_begin = static_cast<std::uint32_t>(clip.times_.size());
    built.key_count = static_cast<std::uint32_t>(t.times.size());
    built.value_begin = static_cast<std::uint32_t>(clip.values_.size());
    clip.times_.insert(clip.times_.end(), t.times.begin(), t.times.end());
    const std::size_t first_value = clip.values_.size();
    clip.values_.insert(clip.values_.end(), t.values.begin(), t.values.end());
    if (t.target == TrackTarget::kRotation) {
      // Normalise rotation values (cubic tangents are left as authored).
      for (std::size_t k = 0; k < t.times.size(); ++k) {
        const std::size_t at =
            first_value + k * stride + (t.interpolation == Interpolation::kCubicSpline ? 4u : 0u);
        float* q = clip.values_.data() + at;
        if (!normalize_in_place(q))
          return err(ErrorCode::kInvalid, "key " + std::to_string(k) + " has a zero rotation");
      }
    }
    clip.duration_ = std::max(clip.duration_, t.times.back());
    clip.tracks_.push_back(built);
  }
  clip.index_for_sampling(morph_counts.size());
  return clip;
}

}  // namespace critter
