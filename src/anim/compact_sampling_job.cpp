// SPDX-License-Identifier: MIT
#include "critter/anim/compact_sampling_job.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>

#include "anim/compact_kernels.h"

namespace critter::anim {

namespace {

constexpr std::uint32_t kNoKey = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint32_t kNoTrack = std::numeric_limits<std::uint32_t>::max();
constexpr float kInf = std::numeric_limits<float>::infinity();

Status job_error(std::string location, std::string message) {
  return fail(
      Error::at(ErrorCode::kUsage, "CompactSamplingJob", std::move(location), std::move(message)));
}

std::uint32_t kind_of(TrackTarget target) {
  return target == TrackTarget::kRotation ? 0u : target == TrackTarget::kTranslation ? 1u : 2u;
}

std::uint32_t components_of(std::uint32_t kind) {
  return kind == 0 ? 4u : 3u;
}

std::uint32_t groups_of(std::uint32_t lanes) {
  return (lanes + 7) / 8;
}

#if defined(__x86_64__) && defined(__GNUC__)
bool has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}
#endif

}  // namespace

CompactSamplingContext::CompactSamplingContext(std::size_t max_tracks) : residual_(max_tracks) {
  // Every track animated, in the kind with the largest groups, plus one padded group per kind.
  const std::size_t lanes = max_tracks + 24;
  cache_.reserve(lanes / 8 * detail::group_size(4));
  lane_track_.reserve(lanes);
  lane_joint_.reserve(lanes);
  lane_key_.reserve(lanes);
  constants_.reserve(max_tracks);
}

// Lays out the groups of `clip`: lanes of each kind in track order, padded to eight, every lane
// empty (its bounds make the first sample refresh it); padding lanes hold a segment that covers
// every time, so they are never refreshed, and are never written out.
void CompactSamplingContext::bind(const CompactClip& clip) {
  const auto tracks = clip.tracks();
  const std::uint32_t constants = clip.constant_count();
  constants_.clear();
  lane_track_.clear();
  lane_joint_.clear();
  lane_key_.clear();
  cache_.clear();
  for (std::uint32_t kind = 0; kind < 3; ++kind) {
    constant_count_[kind] = 0;
    for (std::uint32_t i = 0; i < constants; ++i) {
      const CompactTrack& track = tracks[i];
      if (kind_of(track.target) != kind) continue;
      Constant c{track.joint, {0.0f, 0.0f, 0.0f, 0.0f}};
      if (kind == 0) {
        const quat q = compact::decode_quat(track, clip.words().data(), 0);
        c.value[0] = q.x;
        c.value[1] = q.y;
        c.value[2] = q.z;
        c.value[3] = q.w;
      } else {
        const vec3 v = compact::decode_vec3(track, clip.words().data(), 0);
        c.value[0] = v.x;
        c.value[1] = v.y;
        c.value[2] = v.z;
      }
      constants_.push_back(c);
      ++constant_count_[kind];
    }
    const std::size_t first = lane_track_.size();
    for (std::size_t i = constants; i < tracks.size(); ++i) {
      if (kind_of(tracks[i].target) != kind) continue;
      lane_track_.push_back(static_cast<std::uint32_t>(i));
      lane_joint_.push_back(tracks[i].joint);
    }
    lane_count_[kind] = static_cast<std::uint32_t>(lane_track_.size() - first);
    while ((lane_track_.size() - first) % 8 != 0) {
      lane_track_.push_back(kNoTrack);
      lane_joint_.push_back(0);
    }
    const std::uint32_t size = detail::group_size(components_of(kind));
    for (std::uint32_t g = 0; g < groups_of(lane_count_[kind]); ++g) {
      const std::size_t base = cache_.size();
      cache_.resize(base + size, Lanes{});
      for (int l = 0; l < 8; ++l) {
        const bool used = lane_track_[first + 8 * g + static_cast<std::uint32_t>(l)] != kNoTrack;
        cache_[base + detail::kLaneLow].v[l] = used ? kInf : -kInf;
        cache_[base + detail::kLaneHigh].v[l] = used ? -kInf : kInf;
        if (kind == 0) {
          cache_[base + detail::kLaneA + 3].v[l] = 1.0f;
          cache_[base + detail::lane_b(4) + 3].v[l] = 1.0f;
        }
      }
    }
  }
  lane_key_.assign(lane_track_.size(), kNoKey);
  clip_ = &clip;
}

namespace {

// The key k of `track` with times[frames[k]] <= t < times[frames[k + 1]] (0 before the first
// key, the last key at and after it), starting from the hint: forward playback moves it by a key
// or two; anything else is a binary search.
std::uint32_t find_segment(const CompactTrack& track, const float* times,
                           const std::uint16_t* key_frames, float t, std::uint32_t hint) {
  const std::uint16_t* frames = key_frames + track.key_begin;
  const std::uint32_t n = track.key_count;
  std::uint32_t lo = 0, hi = n;
  if (hint < n && times[frames[hint]] <= t) {
    if (hint + 1 >= n || t < times[frames[hint + 1]]) return hint;
    if (hint + 2 >= n || t < times[frames[hint + 2]]) return hint + 1;
    lo = hint + 2;
  } else if (hint < n) {
    hi = hint;
  }
  if (times[frames[0]] > t) return 0;
  // The last key in [lo, hi) at or before t; keys before lo are known to be.
  while (hi - lo > 1) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (times[frames[mid]] <= t)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// Decodes key k of `track` into lane `l` of the `components` key lanes starting at `dst`.
inline void decode_into(const CompactTrack& track, const std::uint16_t* words, std::uint32_t k,
                        CompactSamplingContext::Lanes* dst, std::uint32_t components, int l) {
  if (components == 4) {
    const quat q = compact::decode_quat(track, words, k);
    dst[0].v[l] = q.x;
    dst[1].v[l] = q.y;
    dst[2].v[l] = q.z;
    dst[3].v[l] = q.w;
  } else {
    const vec3 v = compact::decode_vec3(track, words, k);
    dst[0].v[l] = v.x;
    dst[1].v[l] = v.y;
    dst[2].v[l] = v.z;
  }
}

}  // namespace

Status CompactSamplingJob::validate() const {
  if (clip == nullptr) return job_error("clip", "clip is null");
  if (context == nullptr) return job_error("context", "context is null");
  if (!std::isfinite(time)) return job_error("time", "time is not finite");
  if (clip->max_joint() >= static_cast<std::int64_t>(rest.size()))
    return job_error("clip", "a track targets joint " + std::to_string(clip->max_joint()) +
                                 ", rest pose has " + std::to_string(rest.size()) + " joints");
  const SamplingJob residual{.clip = &clip->residual(),
                             .time = time,
                             .context = &context->residual_,
                             .rest = rest,
                             .default_weights = default_weights,
                             .weight_offsets = weight_offsets,
                             .output = output,
                             .output_weights = output_weights};
  if (auto ok = residual.validate(); !ok) {
    Error e = ok.error();
    e.path = "CompactSamplingJob";
    return fail(std::move(e));
  }
  return {};
}

Status CompactSamplingJob::run() const {
  if (auto ok = validate(); !ok) return ok;
  CompactSamplingContext& ctx = *context;
  if (ctx.clip_ != clip) ctx.bind(*clip);
  if (clip->residual().tracks().empty()) {
    std::copy(rest.begin(), rest.end(), output.begin());
    std::copy(default_weights.begin(), default_weights.end(), output_weights.begin());
  } else {
    const SamplingJob residual{.clip = &clip->residual(),
                               .time = time,
                               .context = &ctx.residual_,
                               .rest = rest,
                               .default_weights = default_weights,
                               .weight_offsets = weight_offsets,
                               .output = output,
                               .output_weights = output_weights};
    if (auto ok = residual.run(); !ok) return ok;
  }
  Transform* out = output.data();

  // Constant tracks, decoded at bind.
  const CompactSamplingContext::Constant* c = ctx.constants_.data();
  for (std::uint32_t i = 0; i < ctx.constant_count_[0]; ++i, ++c)
    out[c->joint].rotation = quat_xyzw(c->value[0], c->value[1], c->value[2], c->value[3]);
  for (std::uint32_t i = 0; i < ctx.constant_count_[1]; ++i, ++c)
    out[c->joint].translation = vec3(c->value[0], c->value[1], c->value[2]);
  for (std::uint32_t i = 0; i < ctx.constant_count_[2]; ++i, ++c)
    out[c->joint].scale = vec3(c->value[0], c->value[1], c->value[2]);

  // Refresh the lanes whose cached segment does not hold the time: the next key when playback
  // moved one segment on, both keys after a search otherwise.
  const auto tracks = clip->tracks();
  const float* times = clip->times().data();
  const std::uint16_t* frames = clip->key_frames().data();
  const std::uint16_t* words = clip->words().data();
  CompactSamplingContext::Lanes* g = ctx.cache_.data();
  std::uint32_t lane = 0;
  for (std::uint32_t kind = 0; kind < 3; ++kind) {
    const std::uint32_t components = components_of(kind);
    const std::uint32_t size = detail::group_size(components);
    const std::uint32_t groups = groups_of(ctx.lane_count_[kind]);
    for (std::uint32_t group = 0; group < groups; ++group, g += size, lane += 8) {
      unsigned stale = 0;
      for (int l = 0; l < 8; ++l)
        stale |= static_cast<unsigned>(time < g[detail::kLaneLow].v[l] ||
                                       !(time < g[detail::kLaneHigh].v[l]))
                 << l;
      while (stale != 0) {
        const int l = std::countr_zero(stale);
        stale &= stale - 1;
        const std::uint32_t i = lane + static_cast<std::uint32_t>(l);
        const CompactTrack& track = tracks[ctx.lane_track_[i]];
        const std::uint32_t old = ctx.lane_key_[i];
        const std::uint32_t k = find_segment(track, times, frames, time, old);
        const std::uint32_t n = track.key_count;
        CompactSamplingContext::Lanes* a = g + detail::kLaneA;
        CompactSamplingContext::Lanes* b = g + detail::lane_b(components);
        if (old != kNoKey && k == old + 1) {
          for (std::uint32_t x = 0; x < components; ++x) a[x].v[l] = b[x].v[l];
        } else {
          decode_into(track, words, k, a, components, l);
        }
        if (k + 1 < n)
          decode_into(track, words, k + 1, b, components, l);
        else
          for (std::uint32_t x = 0; x < components; ++x) b[x].v[l] = a[x].v[l];
        const float start = times[frames[track.key_begin + k]];
        g[detail::kLaneStart].v[l] = start;
        g[detail::kLaneLow].v[l] = k == 0 ? -kInf : start;
        g[detail::kLaneHigh].v[l] = k + 1 < n ? times[frames[track.key_begin + k + 1]] : kInf;
        ctx.lane_key_[i] = k;
      }
    }
  }

  const detail::CompactGroups groups{ctx.cache_.data(), ctx.lane_joint_.data(), ctx.lane_count_};
#if defined(__x86_64__) && defined(__GNUC__)
  if (has_avx2()) {
    detail::interpolate_groups_avx2(groups, time, out);
    return {};
  }
#endif
  detail::interpolate_groups_sse41(groups, time, out);
  return {};
}

}  // namespace critter::anim
