// SPDX-License-Identifier: MIT
#include "critter/anim/compact_sampling_job.h"
#include "critter/core/cpu_features.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <string>

#include "anim/compact_kernels.h"
#include "anim/flush_denormals.h"
#include "anim/quat_slerp.h"
#include "anim/sampling_checks.h"
#include "anim/soa_store.h"

#include <emmintrin.h>

namespace critter::anim {

namespace {

constexpr std::uint32_t kNoKey = std::numeric_limits<std::uint32_t>::max();
constexpr float kInf = std::numeric_limits<float>::infinity();

Status job_error(std::string location, std::string message) {
  return fail(
      Error::at(ErrorCode::kUsage, "CompactSamplingJob", std::move(location), std::move(message)));
}

std::uint32_t components_of(std::uint32_t kind) {
  return kind == 0 ? 4u : 3u;
}

std::uint32_t groups_of(std::uint32_t lanes) {
  return (lanes + 7) / 8;
}

// Rows (Lanes) of a context's cache for `clip`: each kind's groups of eight lanes, in order.
std::size_t cache_rows(const CompactClip& clip) {
  std::size_t rows = 0;
  for (std::uint32_t kind = 0; kind < 3; ++kind)
    rows +=
        std::size_t{groups_of(clip.lane_counts()[kind])} * detail::group_size(components_of(kind));
  return rows;
}

}  // namespace

CompactSamplingContext::CompactSamplingContext(std::size_t max_tracks) : residual_(max_tracks) {
  // Every track animated, in the kind with the largest groups, plus one padded group per kind.
  cache_.reserve((max_tracks + 24) / 8 * detail::group_size(4));
}

namespace {

// Row kLaneKey holds each lane's start key as the bits of a 32-bit integer.
std::uint32_t key_of(const CompactSamplingContext::Lanes& row, int l) {
  std::uint32_t k;
  std::memcpy(&k, &row.v[l], sizeof k);
  return k;
}
void set_key(CompactSamplingContext::Lanes& row, int l, std::uint32_t k) {
  std::memcpy(&row.v[l], &k, sizeof k);
}

}  // namespace

// Lays out the groups of `clip` (its lanes()): every lane empty (its bounds make the first sample
// refresh it); padding lanes hold a segment that covers every time (key 0: no lower bound), so
// they are never refreshed, and are never written out.
void CompactSamplingContext::bind(const CompactClip& clip) {
  cache_.assign(cache_rows(clip), Lanes{});
  const auto lanes = clip.lanes();
  std::size_t first = 0, base = 0;
  for (std::uint32_t kind = 0; kind < 3; ++kind) {
    const std::uint32_t size = detail::group_size(components_of(kind));
    const std::uint32_t groups = groups_of(clip.lane_counts()[kind]);
    for (std::uint32_t g = 0; g < groups; ++g, base += size) {
      for (int l = 0; l < 8; ++l) {
        const bool used =
            lanes[first + 8 * g + static_cast<std::uint32_t>(l)].track != CompactClip::kNoLane;
        set_key(cache_[base + detail::kLaneKey], l, used ? kNoKey : 0u);
        cache_[base + detail::kLaneHigh].v[l] = used ? -kInf : kInf;
        cache_[base + detail::kLaneNext].v[l] = used ? -kInf : kInf;
        if (kind == 0) {
          cache_[base + detail::kLaneA + 3].v[l] = 1.0f;
          cache_[base + detail::lane_b(4) + 3].v[l] = 1.0f;
        }
      }
    }
    first += std::size_t{groups} * 8;
  }
  clip_ = &clip;
}

namespace {

// The key k of a track (its `n` key frames at `frames`) with times[frames[k]] <= t < times[frames[k
// + 1]] (0 before the first key, the last key at and after it), starting from the hint: forward
// playback moves it by a key or two; anything else is a binary search.
std::uint32_t find_segment(const std::uint16_t* frames, std::uint32_t n, const float* times,
                           float t, std::uint32_t hint) {
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

// Decodes key k of `track` (its words at `words`, its range at `range`) into lane `l` of the
// `components` key lanes starting at `dst`.
inline void decode_into(const CompactTrack& track, const std::uint16_t* words, const float* range,
                        std::uint32_t k, CompactSamplingContext::Lanes* dst,
                        std::uint32_t components, int l) {
  const std::uint16_t* w = words + std::size_t{k} * track.stride();
  if (components == 4) {
    const quat q = compact::decode_quat(track.format, w);
    dst[0].v[l] = q.x;
    dst[1].v[l] = q.y;
    dst[2].v[l] = q.z;
    dst[3].v[l] = q.w;
  } else {
    const vec3 v = compact::decode_vec3(track.format, w, range);
    dst[0].v[l] = v.x;
    dst[1].v[l] = v.y;
    dst[2].v[l] = v.z;
  }
}

}  // namespace

namespace {

// The checks of CompactSamplingJob::validate() that are the compact job's own.
Status own_checks(const CompactSamplingJob& j) {
  if (j.clip == nullptr) return job_error("clip", "clip is null");
  if (j.context == nullptr) return job_error("context", "context is null");
  if (!finite_float(j.time)) return job_error("time", "time is not a finite float");
  if (j.path == CompactSamplingPath::kAvx2 && !cpu_has_avx2_fma())
    return job_error("path", "this CPU has no AVX2");
  const std::size_t joints = j.soa_output.empty() ? j.rest.size() : j.soa_joints;
  if (j.clip->max_joint() >= static_cast<std::int64_t>(joints))
    return job_error("clip", "a track targets joint " + std::to_string(j.clip->max_joint()) +
                                 ", rest pose has " + std::to_string(joints) + " joints");
  return {};
}

// The job that samples the residual clip into the same buffers (`context`: the compact
// context's residual one). Built once per run: validated, then run without validating again.
SamplingJob residual_job(const CompactSamplingJob& j, SamplingContext* context) {
  return SamplingJob{.clip = j.clip == nullptr ? nullptr : &j.clip->residual(),
                     .time = j.time,
                     .context = context,
                     .rest = j.rest,
                     .default_weights = j.default_weights,
                     .weight_offsets = j.weight_offsets,
                     .output = j.output,
                     .output_weights = j.output_weights,
                     .soa_rest = j.soa_rest,
                     .soa_output = j.soa_output,
                     .soa_joints = j.soa_joints};
}

// SamplingJob::validate() of the residual job, reported as the compact job's error.
Status residual_checks(const SamplingJob& residual) {
  if (auto ok = residual.validate(); !ok) {
    Error e = ok.error();
    e.path = "CompactSamplingJob";
    return fail(std::move(e));
  }
  return {};
}

// A crowd's contexts have left the nearest caches by the time their instance comes round again:
// run() asks for the lines of the context's cache (at most 2 KB) as it starts, so that they
// arrive while the pose is laid out instead of stalling the refresh one miss at a time (the
// greenman's two-clip pipeline of 256 characters 5 % faster on a Zen 4 core; the same request
// for the blend's and local-to-model's poses, which the samplers have just written, gained
// nothing). A hint only: no result changes.
void prefetch(const void* data, std::size_t bytes) {
#if defined(__GNUC__)
  const char* p = static_cast<const char*>(data);
  for (std::size_t o = 0; o < std::min<std::size_t>(bytes, 2048); o += 64)
    __builtin_prefetch(p + o, 0, 3);
#else
  (void)data;
  (void)bytes;
#endif
}

}  // namespace

Status CompactSamplingJob::validate() const {
  if (auto ok = own_checks(*this); !ok) return ok;
  return residual_checks(residual_job(*this, &context->residual_));
}

Status CompactSamplingJob::run() const {
  // validate()'s rules as one test (own_checks', and SamplingJob::validate's for the residual
  // clip and the buffers, read from this job's own fields); a job that fails it is validated
  // for its message.
  const bool passes = clip != nullptr && context != nullptr && finite_float(time) &&
                      (path != CompactSamplingPath::kAvx2 || cpu_has_avx2_fma()) &&
                      clip->max_joint() < static_cast<std::int64_t>(
                                              soa_output.empty() ? rest.size() : soa_joints) &&
                      detail::sampling_buffers_pass(*this, clip->residual());
  if (!passes) {
    if (auto ok = validate(); !ok) return ok;
  }
  const detail::FlushDenormals no_denormals;
  const auto clip_time = static_cast<float>(time);
  CompactSamplingContext& ctx = *context;
  prefetch(ctx.cache_.data(), ctx.cache_.size() * sizeof(ctx.cache_[0]));
  // The cache's size is checked too: the groups walked below come from the clip's lane counts,
  // so a context whose clip was replaced by another at the same address never reads past them.
  const bool same_clip = ctx.clip_ == clip && ctx.cache_.size() == cache_rows(*clip);
  if (!same_clip) ctx.bind(*clip);
#if defined(__x86_64__) && defined(__GNUC__)
  const bool avx2 = path == CompactSamplingPath::kAvx2 ||
                    (path == CompactSamplingPath::kAuto && cpu_has_avx2_fma());
#endif
  // The pose before the animated tracks: the rest pose (and the residual tracks over it) with the
  // constant tracks laid over it in one pass, from the clip's overlay.
  const bool soa_form = !soa_output.empty();
  float* const to =
      soa_form ? detail::soa_floats(soa_output) : reinterpret_cast<float*>(output.data());
  static_assert(sizeof(Transform) == 10 * sizeof(float) &&
                sizeof(SoaTransform) == 10 * SoaTransform::kLanes * sizeof(float));
  const float* from = soa_form ? reinterpret_cast<const float*>(soa_rest.data())
                               : reinterpret_cast<const float*>(rest.data());
  const std::size_t floats =
      soa_form ? soa_output.size() * 10 * SoaTransform::kLanes : output.size() * 10;
  const std::span<const float> overlay =
      soa_form ? clip->soa_constant_values() : clip->constant_values();
  const std::span<const std::uint32_t> mask =
      soa_form ? clip->soa_constant_mask() : clip->constant_mask();
  // The same clip writes the same channels on every run: an output nothing else touched still
  // holds the rest and the constants the last run laid there (output_untouched).
  const detail::RestWritten written{from, to, soa_form ? soa_joints : rest.size(), soa_form};
  const bool untouched = output_untouched && same_clip && ctx.rest_written_ == written;
  if (clip->residual().tracks().empty()) {
    if (!untouched) std::copy(from + overlay.size(), from + floats, to + overlay.size());
    std::copy(default_weights.begin(), default_weights.end(), output_weights.begin());
  } else {
    // Validated above (sampling_buffers_pass, or validate() for its message). Its own context
    // checks the same promise for the residual clip's rest pose.
    SamplingJob residual = residual_job(*this, &context->residual_);
    residual.output_untouched = untouched;
    residual.sample();
    from = to;
  }
  if (!untouched) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (avx2)
      detail::overlay_avx2(from, overlay.data(), mask.data(), to, overlay.size());
    else
#endif
      detail::overlay_sse2(from, overlay.data(), mask.data(), to, overlay.size());
    ctx.rest_written_ = written;
  }

  // Refresh the lanes whose cached segment does not hold the time: the next key when playback
  // moved one segment on, both keys after a search otherwise. Quantised rotation keys are
  // decoded in batches after the search.
  const auto tracks = clip->tracks();
  const float* times = clip->times().data();
  const std::uint16_t* frames = clip->key_frames().data();
  const std::uint16_t* words = clip->words().data();
  const float* ranges = clip->ranges().data();
  constexpr std::uint32_t kBatch = 64;
  detail::RotationDecode batch[kBatch];
  static_assert(kBatch % 8 == 0 && kBatch >= 2);
  std::uint32_t batched = 0;
  const auto flush = [&] {
#if defined(__x86_64__) && defined(__GNUC__)
    if (avx2) {
      detail::decode_rotations_avx2(batch, batched);
      batched = 0;
      return;
    }
#endif
    detail::decode_rotations_sse2(batch, batched);
    batched = 0;
  };
  const __m128 now = _mm_set1_ps(clip_time);
  const __m128i zero = _mm_setzero_si128();
  CompactSamplingContext::Lanes* g = ctx.cache_.data();
  const CompactClip::Lane* lanes = clip->lanes().data();
  for (std::uint32_t kind = 0; kind < 3; ++kind) {
    const std::uint32_t components = components_of(kind);
    const std::uint32_t size = detail::group_size(components);
    const std::uint32_t groups = groups_of(clip->lane_counts()[kind]);
    for (std::uint32_t group = 0; group < groups; ++group, g += size, lanes += 8) {
      CompactSamplingContext::Lanes* a = g + detail::kLaneA;
      CompactSamplingContext::Lanes* b = g + detail::lane_b(components);
      // Lanes whose segment does not hold the time (before its start key, unless that is the
      // first key, or at or past its end key); among them those that moved exactly one segment
      // on, whose key, bounds and start key shift in vector form (the end key becomes the start
      // key) before their new end key is decoded.
      unsigned stale = 0, forward = 0;
      for (int h = 0; h < 8; h += 4) {
        float* key = g[detail::kLaneKey].v + h;
        float* high = g[detail::kLaneHigh].v + h;
        float* next = g[detail::kLaneNext].v + h;
        float* start = g[detail::kLaneStart].v + h;
        const __m128i k = _mm_load_si128(reinterpret_cast<const __m128i*>(key));
        const __m128 st = _mm_load_ps(start), hi = _mm_load_ps(high), nx = _mm_load_ps(next);
        const __m128 past = _mm_cmpnlt_ps(now, hi);
        const __m128 before =
            _mm_andnot_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(k, zero)), _mm_cmplt_ps(now, st));
        const __m128 step = _mm_and_ps(past, _mm_cmplt_ps(now, nx));
        stale |= static_cast<unsigned>(_mm_movemask_ps(_mm_or_ps(before, past))) << h;
        const unsigned bits = static_cast<unsigned>(_mm_movemask_ps(step));
        if (bits == 0) continue;
        forward |= bits << h;
        // A stepping lane's mask is -1: subtracting it adds one to its key.
        _mm_store_si128(reinterpret_cast<__m128i*>(key), _mm_sub_epi32(k, _mm_castps_si128(step)));
        _mm_store_ps(start, detail::select4(step, hi, st));
        _mm_store_ps(high, detail::select4(step, nx, hi));
        for (std::uint32_t x = 0; x < components; ++x)
          _mm_store_ps(a[x].v + h,
                       detail::select4(step, _mm_load_ps(b[x].v + h), _mm_load_ps(a[x].v + h)));
      }
      for (unsigned bits = forward; bits != 0; bits &= bits - 1) {
        const int l = std::countr_zero(bits);
        const CompactClip::Lane& lane = lanes[l];
        const std::uint32_t k = key_of(g[detail::kLaneKey], l);
        const std::uint32_t n = lane.key_count;
        g[detail::kLaneNext].v[l] = k + 2 < n ? times[frames[lane.begin.frame + k + 2]] : kInf;
        if (k + 1 >= n) {
          for (std::uint32_t x = 0; x < components; ++x) b[x].v[l] = a[x].v[l];
        } else if (kind == 0 && tracks[lane.track].format == CompactFormat::kQuantized) {
          if (batched + 1 > kBatch) flush();
          batch[batched++] = {words + lane.begin.word + 3 * std::size_t{k + 1}, &b[0].v[l]};
        } else {
          decode_into(tracks[lane.track], words + lane.begin.word, ranges + lane.begin.range, k + 1,
                      b, components, l);
        }
      }
      // The others: a search from the cached key, both keys decoded.
      for (unsigned bits = stale & ~forward; bits != 0; bits &= bits - 1) {
        const int l = std::countr_zero(bits);
        const CompactClip::Lane& lane = lanes[l];
        const CompactTrack& track = tracks[lane.track];
        const std::uint16_t* f = frames + lane.begin.frame;
        const std::uint32_t n = lane.key_count;
        const std::uint32_t k =
            find_segment(f, n, times, clip_time, key_of(g[detail::kLaneKey], l));
        const std::uint32_t next = k + 1 < n ? k + 1 : k;
        if (kind == 0 && track.format == CompactFormat::kQuantized) {
          const std::uint16_t* values = words + lane.begin.word;
          if (batched + 2 > kBatch) flush();
          batch[batched++] = {values + 3 * std::size_t{k}, &a[0].v[l]};
          batch[batched++] = {values + 3 * std::size_t{next}, &b[0].v[l]};
        } else {
          decode_into(track, words + lane.begin.word, ranges + lane.begin.range, k, a, components,
                      l);
          decode_into(track, words + lane.begin.word, ranges + lane.begin.range, next, b,
                      components, l);
        }
        g[detail::kLaneStart].v[l] = times[f[k]];
        g[detail::kLaneHigh].v[l] = k + 1 < n ? times[f[k + 1]] : kInf;
        g[detail::kLaneNext].v[l] = k + 2 < n ? times[f[k + 2]] : kInf;
        set_key(g[detail::kLaneKey], l, k);
      }
    }
    if (batched != 0) flush();
  }

  const detail::CompactGroups groups{ctx.cache_.data(), clip->lane_joints().data(),
                                     clip->lane_counts(), clip->soa_windows().data(),
                                     clip->soa_window_begin().data()};
#if defined(__x86_64__) && defined(__GNUC__)
  if (avx2) {
    detail::interpolate_groups_avx2(groups, clip_time, output.data(), soa_form ? to : nullptr);
    return {};
  }
#endif
  detail::interpolate_groups_sse2(groups, clip_time, output.data(), soa_form ? to : nullptr);
  return {};
}

}  // namespace critter::anim
