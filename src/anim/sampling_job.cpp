// SPDX-License-Identifier: MIT
#include "critter/anim/sampling_job.h"
#include "critter/core/cpu_features.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

#include "anim/flush_denormals.h"
#include "anim/quat_slerp.h"
#include "anim/sampling_checks.h"
#include "anim/soa_store.h"

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

namespace critter::anim {

namespace {

Status job_error(std::string location, std::string message) {
  return fail(Error::at(ErrorCode::kUsage, "SamplingJob", std::move(location), std::move(message)));
}

// Where a time falls among a track's keys: key k is the last key with times[k] <= t (0 when t is
// before the first key) and s in [0, 1) the fraction of the way to key k + 1. s == 0 means "the
// value of key k", which also covers "before the first key" and "at or after the last key".
struct KeySpan {
  std::uint32_t k;
  float s;
};

// Finds the key span of `t`, starting from the cached cursor. Forward playback usually stays in
// the cursor's interval or moves to the next one; anything else (a seek, a loop wrap, a long
// frame) is a binary search over the part of the keys that can still hold t.
inline KeySpan locate(const float* times, std::uint32_t n, float t, std::uint32_t& cursor) {
  std::uint32_t k = cursor;
  std::uint32_t lo = 0, hi = n;
  if (k < n && times[k] <= t) {
    if (k + 1 >= n) return {k, 0.0f};
    if (t < times[k + 1]) {
      // Δ > 0 here because times[k] <= t < times[k + 1]: equal key times never divide by zero.
      return {k, (t - times[k]) / (times[k + 1] - times[k])};
    }
    ++k;
    if (k + 1 >= n) {
      cursor = k;
      return {k, 0.0f};
    }
    if (t < times[k + 1]) {
      cursor = k;
      return {k, (t - times[k]) / (times[k + 1] - times[k])};
    }
    lo = k + 1;
  } else if (k < n) {
    hi = k;
  }
  // First key strictly after t, among [lo, hi); the key before it is the span's start.
  const float* after = std::upper_bound(times + lo, times + hi, t);
  if (after == times) {
    cursor = 0;
    return {0, 0.0f};
  }
  k = static_cast<std::uint32_t>(after - times) - 1;
  cursor = k;
  if (k + 1 >= n || t <= times[k]) return {k, 0.0f};
  return {k, (t - times[k]) / (times[k + 1] - times[k])};
}

// glTF cubic Hermite basis (playback.md §2) with the tangent terms already scaled by Δ.
struct Hermite {
  float v0, b0, v1, a1;
  Hermite(float s, float delta) {
    const float s2 = s * s, s3 = s2 * s;
    v0 = 2.0f * s3 - 3.0f * s2 + 1.0f;
    b0 = delta * (s3 - 2.0f * s2 + s);
    v1 = -2.0f * s3 + 3.0f * s2;
    a1 = delta * (s3 - s2);
  }
};

// Evaluates `components` floats of a track into `out` (T, S and weights: no normalisation).
// Count is std::uint32_t, or an integral_constant so that T/S loops unroll.
template <class Count>
inline void sample_floats(const Track& track, const float* times, const float* values, KeySpan at,
                          Count components, float* out) {
  const std::uint32_t c = components;
  switch (track.interpolation) {
    case Interpolation::kStep:
      std::copy_n(values + std::size_t{at.k} * c, c, out);
      return;
    case Interpolation::kLinear: {
      const float* v0 = values + std::size_t{at.k} * c;
      if (at.s == 0.0f) {
        std::copy_n(v0, c, out);
        return;
      }
      const float* v1 = v0 + c;
      for (std::uint32_t i = 0; i < c; ++i) out[i] = v0[i] + (v1[i] - v0[i]) * at.s;
      return;
    }
    case Interpolation::kCubicSpline: {
      // Per key: in-tangent a, value v, out-tangent b, each `c` floats.
      const float* key0 = values + std::size_t{at.k} * 3 * c;
      if (at.s == 0.0f) {
        std::copy_n(key0 + c, c, out);
        return;
      }
      const float* key1 = key0 + 3 * c;
      const Hermite h(at.s, times[at.k + 1] - times[at.k]);
      for (std::uint32_t i = 0; i < c; ++i)
        out[i] = h.v0 * key0[c + i] + h.b0 * key0[2 * c + i] + h.v1 * key1[c + i] + h.a1 * key1[i];
      return;
    }
  }
}

inline vec3 sample_vec3(const Track& track, const float* times, const float* values, KeySpan at) {
  vec3 out(0.0f);
  sample_floats(track, times, values, at, std::integral_constant<std::uint32_t, 3>{}, &out.x);
  return out;
}

inline quat load_quat(const float* v) {
  return quat_xyzw(v[0], v[1], v[2], v[3]);
}

inline quat sample_quat(const Track& track, const float* times, const float* values, KeySpan at) {
  switch (track.interpolation) {
    case Interpolation::kStep:
      return load_quat(values + std::size_t{at.k} * 4);
    case Interpolation::kLinear: {
      const float* v0 = values + std::size_t{at.k} * 4;
      if (at.s == 0.0f) return load_quat(v0);
      return detail::slerp_shortest(load_quat(v0), load_quat(v0 + 4), at.s);
    }
    case Interpolation::kCubicSpline: {
      const float* key0 = values + std::size_t{at.k} * 12;
      const quat value0 = load_quat(key0 + 4);
      if (at.s == 0.0f) return value0;
      const float* key1 = key0 + 12;
      const Hermite h(at.s, times[at.k + 1] - times[at.k]);
      float q[4];
      for (int i = 0; i < 4; ++i)
        q[i] = h.v0 * key0[4 + i] + h.b0 * key0[8 + i] + h.v1 * key1[4 + i] + h.a1 * key1[i];
      // Tangents can make the curve pass through zero; the segment's start key is the most
      // faithful value there.
      return detail::normalize_or(quat_xyzw(q[0], q[1], q[2], q[3]), value0);
    }
  }
  return load_quat(values);
}

using Segment = SamplingContext::Segment;

// One LINEAR batch (Clip::LinearBatch): up to four tracks of one target on one timeline, whose
// interleaved key blocks v0 (segment start) and v1 (segment end) are contiguous. Rotations take
// the 4-wide slerp (equal to the scalar one lane by lane); translations and
// scales are v0 + (v1 − v0)·s, which at a key (s == 0, v1 == v0) is v0 exactly.
// Where a batch writes: Transform arrays or structure-of-arrays blocks (as floats).
struct SoaOut {
  float* floats;
};

#if defined(__SSE2__)
// The four results c[k] (k < count; lane l: component k of joint batch.joints[l]) of a batch into
// rows first_component + k of a structure-of-arrays pose, on every vector path: one store a row
// for four joints in a row of one block (LinearBatch::soa_in_row, derived when the clip was made),
// else one store a lane (unused lanes repeat lane 0, so all four are stored). On an Intel Xeon,
// BM_SampleClipSoa (3 batches of 51 not four joints in a row) takes 429–436 ns so; testing each
// batch's joints here instead took 503–510 (533–536 before rotation batches were grouped for this
// form). A permute and a masked store for lanes within a window of four joints measured no faster,
// and a second such window for the other batches slower (the harness's Wizard 12 %).
[[gnu::always_inline]] inline void store_soa_batch(float* pose, const Clip::LinearBatch& batch,
                                                   std::uint32_t first_component, const __m128* c,
                                                   std::uint32_t count) {
  constexpr std::size_t kRow = SoaTransform::kLanes;
  if (batch.soa_in_row != 0) {
    float* at =
        detail::soa_channel(pose, static_cast<std::size_t>(batch.joints[0]), first_component);
    for (std::uint32_t k = 0; k < count; ++k) _mm_storeu_ps(at + k * kRow, c[k]);
    return;
  }
  float* at[4];
  for (int l = 0; l < 4; ++l)
    at[l] = detail::soa_channel(pose, static_cast<std::size_t>(batch.joints[l]), first_component);
  for (std::uint32_t k = 0; k < count; ++k) {
    const __m128 v = c[k];
    const std::size_t row = k * kRow;
    _mm_store_ss(at[3] + row, _mm_shuffle_ps(v, v, 0xFF));
    _mm_store_ss(at[2] + row, _mm_movehl_ps(v, v));
    _mm_store_ss(at[1] + row, _mm_shuffle_ps(v, v, 0x55));
    _mm_store_ss(at[0] + row, v);
  }
}
#endif

template <class Out>
[[gnu::always_inline]] inline void sample_batch(const Clip::LinearBatch& batch, Segment seg,
                                                const float* batch_values, Out out) {
  constexpr bool kSoa = std::is_same_v<Out, SoaOut>;
  const bool rotation = batch.target == TrackTarget::kRotation;
  const std::size_t block = rotation ? 16 : 12;
  const float* v0 = batch_values + batch.value_begin + std::size_t{seg.key} * block;
  // At a key (fraction 0, which includes the last key) the end key may not exist.
  const float* v1 = seg.fraction != 0.0f ? v0 + block : v0;
#if defined(__SSE2__)
  const __m128 f = _mm_set1_ps(seg.fraction);
  if (rotation) {
    const detail::Quat4 a{_mm_loadu_ps(v0), _mm_loadu_ps(v0 + 4), _mm_loadu_ps(v0 + 8),
                          _mm_loadu_ps(v0 + 12)};
    const detail::Quat4 b{_mm_loadu_ps(v1), _mm_loadu_ps(v1 + 4), _mm_loadu_ps(v1 + 8),
                          _mm_loadu_ps(v1 + 12)};
    detail::Quat4 r = detail::slerp_shortest4(a, b, f);
    if constexpr (kSoa) {
      const __m128 c[4] = {r.x, r.y, r.z, r.w};
      store_soa_batch(out.floats, batch, detail::kSoaRotation, c, 4);
      return;
    } else {
      _MM_TRANSPOSE4_PS(r.x, r.y, r.z, r.w);
      const __m128 lanes[4] = {r.x, r.y, r.z, r.w};
      for (int lane = 0; lane < batch.lanes; ++lane)
        _mm_storeu_ps(&out[batch.joints[lane]].rotation.x, lanes[lane]);
      return;
    }
  } else {
    __m128 x = _mm_loadu_ps(v0), y = _mm_loadu_ps(v0 + 4), z = _mm_loadu_ps(v0 + 8);
    x = _mm_add_ps(x, _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(v1), x), f));
    y = _mm_add_ps(y, _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(v1 + 4), y), f));
    z = _mm_add_ps(z, _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(v1 + 8), z), f));
    if constexpr (kSoa) {
      const __m128 c[3] = {x, y, z};
      store_soa_batch(
          out.floats, batch,
          batch.target == TrackTarget::kTranslation ? detail::kSoaTranslation : detail::kSoaScale,
          c, 3);
      return;
    } else {
      __m128 w = _mm_setzero_ps();
      _MM_TRANSPOSE4_PS(x, y, z, w);
      const __m128 lanes[4] = {x, y, z, w};
      const bool translation = batch.target == TrackTarget::kTranslation;
      for (int lane = 0; lane < batch.lanes; ++lane) {
        Transform& o = out[batch.joints[lane]];
        float* dst = translation ? &o.translation.x : &o.scale.x;
        // 8 + 4 bytes: a 16-byte store would spill into the next field.
        _mm_storel_pi(reinterpret_cast<__m64*>(dst), lanes[lane]);
        _mm_store_ss(dst + 2, _mm_movehl_ps(lanes[lane], lanes[lane]));
      }
      return;
    }
  }
#endif
  const float s = seg.fraction;
  for (int lane = 0; lane < batch.lanes; ++lane) {
    const auto joint = static_cast<std::size_t>(batch.joints[lane]);
    if (rotation) {
      const quat a = quat_xyzw(v0[lane], v0[4 + lane], v0[8 + lane], v0[12 + lane]);
      const quat b = quat_xyzw(v1[lane], v1[4 + lane], v1[8 + lane], v1[12 + lane]);
      const quat r = s == 0.0f ? a : detail::slerp_shortest(a, b, s);
      if constexpr (kSoa) {
        const float rc[4] = {r.x, r.y, r.z, r.w};
        for (std::uint32_t c = 0; c < 4; ++c)
          *detail::soa_channel(out.floats, joint, detail::kSoaRotation + c) = rc[c];
      } else {
        out[joint].rotation = r;
      }
    } else {
      const bool translation = batch.target == TrackTarget::kTranslation;
      for (int c = 0; c < 3; ++c) {
        const float v = v0[4 * c + lane] + (v1[4 * c + lane] - v0[4 * c + lane]) * s;
        if constexpr (kSoa) {
          *detail::soa_channel(out.floats, joint,
                               (translation ? detail::kSoaTranslation : detail::kSoaScale) +
                                   static_cast<std::uint32_t>(c)) = v;
        } else {
          (translation ? out[joint].translation : out[joint].scale)[c] = v;
        }
      }
    }
  }
}

template <class Out>
void sample_batches(std::span<const Clip::LinearBatch> batches, const Segment* segments,
                    const float* batch_values, Out out) {
  for (const Clip::LinearBatch& batch : batches)
    sample_batch(batch, segments[batch.timeline], batch_values, out);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define CRITTER_SAMPLE_AVX2 1

// Four floats at `lo` in the low half, four at `hi` in the high half.
[[gnu::target("avx2"), gnu::always_inline]] inline __m256 halves(const float* lo, const float* hi) {
  return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(lo)), _mm_loadu_ps(hi), 1);
}

// Rotation batches list[0, count), count in (2N − 2, 2N], into either form of pose, as N groups of
// eight lanes (two batches each) for slerp_shortest8, the four-lane slerp's operations lane by lane
// (the same bits); the groups' dependency chains overlap. Each batch keeps its own segment
// fraction; a lane at a key (fraction 0) takes its start key, as in sample_batch. A missing last
// batch repeats the one before it, whose results are not stored again.
template <int N, class Out>
[[gnu::target("avx2"), gnu::always_inline]] inline void sample_rotations(
    const Clip::LinearBatch* const* list, int count, const Segment* segments,
    const float* batch_values, Out out) {
  constexpr std::size_t kBlock = 16;
  detail::Quat8 a[N], b[N], r[N];
  __m256 f[N];
  for (int n = 0; n < N; ++n) {
    const Clip::LinearBatch& lo = *list[2 * n];
    const Clip::LinearBatch& hi = *list[std::min(2 * n + 1, count - 1)];
    const Segment slo = segments[lo.timeline], shi = segments[hi.timeline];
    const float* a0 = batch_values + lo.value_begin + std::size_t{slo.key} * kBlock;
    const float* b0 = batch_values + hi.value_begin + std::size_t{shi.key} * kBlock;
    // At a key the end key may not exist.
    const float* a1 = slo.fraction != 0.0f ? a0 + kBlock : a0;
    const float* b1 = shi.fraction != 0.0f ? b0 + kBlock : b0;
    a[n] = {halves(a0, b0), halves(a0 + 4, b0 + 4), halves(a0 + 8, b0 + 8),
            halves(a0 + 12, b0 + 12)};
    b[n] = {halves(a1, b1), halves(a1 + 4, b1 + 4), halves(a1 + 8, b1 + 8),
            halves(a1 + 12, b1 + 12)};
    f[n] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_set1_ps(slo.fraction)),
                                _mm_set1_ps(shi.fraction), 1);
  }
  detail::slerp_shortest8<N>(a, b, f, r);
  for (int n = 0; n < N; ++n) {
    const __m256 at_key = _mm256_cmp_ps(f[n], _mm256_setzero_ps(), _CMP_EQ_OQ);
    const __m256 x = _mm256_blendv_ps(r[n].x, a[n].x, at_key);
    const __m256 y = _mm256_blendv_ps(r[n].y, a[n].y, at_key);
    const __m256 z = _mm256_blendv_ps(r[n].z, a[n].z, at_key);
    const __m256 w = _mm256_blendv_ps(r[n].w, a[n].w, at_key);
    const Clip::LinearBatch& lo = *list[2 * n];
    const Clip::LinearBatch* hi = 2 * n + 1 < count ? list[2 * n + 1] : nullptr;
    if constexpr (std::is_same_v<Out, SoaOut>) {
      const __m128 clo[4] = {_mm256_castps256_ps128(x), _mm256_castps256_ps128(y),
                             _mm256_castps256_ps128(z), _mm256_castps256_ps128(w)};
      store_soa_batch(out.floats, lo, detail::kSoaRotation, clo, 4);
      if (hi != nullptr) {
        const __m128 chi[4] = {_mm256_extractf128_ps(x, 1), _mm256_extractf128_ps(y, 1),
                               _mm256_extractf128_ps(z, 1), _mm256_extractf128_ps(w, 1)};
        store_soa_batch(out.floats, *hi, detail::kSoaRotation, chi, 4);
      }
    } else {
      // A 4×4 transpose within each 128-bit half: row k holds lane k's quaternion of both
      // batches.
      const __m256 t0 = _mm256_unpacklo_ps(x, y), t1 = _mm256_unpackhi_ps(x, y);
      const __m256 t2 = _mm256_unpacklo_ps(z, w), t3 = _mm256_unpackhi_ps(z, w);
      const __m256 rows[4] = {_mm256_shuffle_ps(t0, t2, 0x44), _mm256_shuffle_ps(t0, t2, 0xEE),
                              _mm256_shuffle_ps(t1, t3, 0x44), _mm256_shuffle_ps(t1, t3, 0xEE)};
      for (int lane = 0; lane < lo.lanes; ++lane)
        _mm_storeu_ps(&out[lo.joints[lane]].rotation.x, _mm256_castps256_ps128(rows[lane]));
      if (hi != nullptr)
        for (int lane = 0; lane < hi->lanes; ++lane)
          _mm_storeu_ps(&out[hi->joints[lane]].rotation.x, _mm256_extractf128_ps(rows[lane], 1));
    }
  }
}

// The same loop compiled for AVX2 (three-operand instructions: fewer of them for the same
// operations, same results); run only where the CPU has it. Rotation batches, whose slerp is most
// of a batch's work, wait to go four at a time (the rest as a pair or alone), into either form.
template <class Out>
[[gnu::target("avx2")]] void sample_batches_avx2(std::span<const Clip::LinearBatch> batches,
                                                 const Segment* segments, const float* batch_values,
                                                 Out out) {
  const Clip::LinearBatch* pending[4];
  int count = 0;
  for (const Clip::LinearBatch& batch : batches) {
    if (batch.target != TrackTarget::kRotation) {
      sample_batch(batch, segments[batch.timeline], batch_values, out);
      continue;
    }
    pending[count++] = &batch;
    if (count == 4) {
      sample_rotations<2>(pending, 4, segments, batch_values, out);
      count = 0;
    }
  }
  if (count > 2) {
    sample_rotations<2>(pending, count, segments, batch_values, out);
  } else if (count == 2) {
    sample_rotations<1>(pending, 2, segments, batch_values, out);
  } else if (count == 1) {
    sample_batch(*pending[0], segments[pending[0]->timeline], batch_values, out);
  }
}

#endif

}  // namespace

Status SamplingJob::validate() const {
  if (detail::sampling_job_passes(*this)) return {};
  if (clip == nullptr) return job_error("clip", "clip is null");
  if (context == nullptr) return job_error("context", "context is null");
  if (!finite_float(time)) return job_error("time", "time is not a finite float");
  const bool soa = !soa_output.empty();
  if (const detail::FormProblem p = detail::soa_form_problem(soa, !soa_rest.empty(), soa_joints,
                                                             !rest.empty(), !output.empty());
      p.location != nullptr)
    return job_error(p.location, p.message);
  if (soa && (soa_rest.size() != soa_blocks(soa_joints) || soa_output.size() != soa_rest.size()))
    return job_error(soa_rest.size() != soa_blocks(soa_joints) ? "soa_rest" : "soa_output",
                     "rest pose has " + std::to_string(soa_rest.size()) + " blocks, output " +
                         std::to_string(soa_output.size()) + ", " + std::to_string(soa_joints) +
                         " joints need " + std::to_string(soa_blocks(soa_joints)));
  if (output.size() != rest.size())
    return job_error("output", "output has " + std::to_string(output.size()) +
                                   " transforms, rest pose has " + std::to_string(rest.size()));
  if (weight_offsets.empty() || weight_offsets.front() != 0)
    return job_error("weight_offsets", "weight offsets must start with 0 (mesh count + 1 entries)");
  for (std::size_t m = 1; m < weight_offsets.size(); ++m)
    if (weight_offsets[m] < weight_offsets[m - 1])
      return job_error("weight_offsets", "weight offsets decrease at mesh " + std::to_string(m));
  if (weight_offsets.back() != default_weights.size())
    return job_error("default_weights", "default weights have " +
                                            std::to_string(default_weights.size()) +
                                            " entries, weight offsets end at " +
                                            std::to_string(weight_offsets.back()));
  if (output_weights.size() != default_weights.size())
    return job_error("output_weights",
                     "output weights have " + std::to_string(output_weights.size()) +
                         " entries, default weights " + std::to_string(default_weights.size()));
  const std::size_t joints = soa ? soa_joints : rest.size();
  const std::size_t meshes = weight_offsets.size() - 1;
  const auto tracks = clip->tracks();
  // Here sampling_job_passes() has failed on the tracks: find the first broken one and say why.
  for (std::size_t i = 0; i < tracks.size(); ++i) {
    const Track& t = tracks[i];
    const std::string where = "tracks/" + std::to_string(i);
    if (t.key_count == 0) return job_error(where, "track has no keys");
    if (t.index < 0) return job_error(where, "track index is negative");
    const auto index = static_cast<std::size_t>(t.index);
    if (t.target == TrackTarget::kWeights) {
      if (index >= meshes)
        return job_error(where, "weights track targets mesh " + std::to_string(index) + ", " +
                                    std::to_string(meshes) + " meshes given");
      const std::uint32_t count = weight_offsets[index + 1] - weight_offsets[index];
      if (t.components != count)
        return job_error(where, "weights track has " + std::to_string(t.components) +
                                    " components, mesh " + std::to_string(index) + " has " +
                                    std::to_string(count) + " weights");
    } else {
      if (index >= joints)
        return job_error(where, std::string(to_string(t.target)) + " track targets joint " +
                                    std::to_string(index) + ", rest pose has " +
                                    std::to_string(joints) + " joints");
      const std::uint32_t want = t.target == TrackTarget::kRotation ? 4u : 3u;
      if (t.components != want)
        return job_error(where, std::string(to_string(t.target)) + " track has " +
                                    std::to_string(t.components) + " components, expected " +
                                    std::to_string(want));
    }
  }
  return {};
}

Status SamplingJob::run() const {
  if (!detail::sampling_job_passes(*this)) {
    if (auto ok = validate(); !ok) return ok;
  }
  sample();
  return {};
}

void SamplingJob::sample() const {
  const detail::FlushDenormals no_denormals;

  const auto tracks = clip->tracks();
  const auto timelines = clip->timelines();
  SamplingContext& ctx = *context;
  const bool same_clip = ctx.clip_ == clip && ctx.cursors_.size() == timelines.size();
  if (!same_clip) {
    ctx.cursors_.assign(timelines.size(), 0u);
    ctx.clip_ = clip;
  }
  ctx.segments_.resize(timelines.size());

  // Every track of a timeline has the same key times, so the time is located once per timeline.
  const auto t = static_cast<float>(time);
  const float* all_times = clip->times().data();
  SamplingContext::Segment* segments = ctx.segments_.data();
  for (std::size_t i = 0; i < timelines.size(); ++i) {
    const KeySpan at =
        locate(all_times + timelines[i].key_begin, timelines[i].key_count, t, ctx.cursors_[i]);
    segments[i] = {at.k, at.s};
  }

  // Complete poses (playback.md §2): start from rest and defaults, let tracks overwrite. Joints
  // below the clip's animated prefix get all three channels from tracks. (A moved-from clip has
  // no tracks but may keep its counters, hence the emptiness test.)
  const bool soa = !soa_output.empty();
  const std::size_t joints = soa ? soa_joints : rest.size();
  const std::size_t prefix =
      tracks.empty() ? 0 : std::min<std::size_t>(clip->animated_joint_prefix(), joints);
  // The same clip writes the same channels on every run, so an output nothing else touched
  // still holds the rest values the last run copied into the others (output_untouched).
  const detail::RestWritten written =
      soa ? detail::RestWritten{soa_rest.data(), soa_output.data(), joints, true}
          : detail::RestWritten{rest.data(), output.data(), joints, false};
  if (!(output_untouched && same_clip && ctx.rest_written_ == written)) {
    if (soa) {
      // Whole blocks from the one that holds the prefix's end: the tracks overwrite its joints
      // below the prefix.
      const std::size_t from = prefix / SoaTransform::kLanes;
      std::copy(soa_rest.begin() + static_cast<std::ptrdiff_t>(from), soa_rest.end(),
                soa_output.begin() + static_cast<std::ptrdiff_t>(from));
    } else {
      std::copy(rest.begin() + static_cast<std::ptrdiff_t>(prefix), rest.end(),
                output.begin() + static_cast<std::ptrdiff_t>(prefix));
    }
    ctx.rest_written_ = written;
  }
  std::copy(default_weights.begin(), default_weights.end(), output_weights.begin());

  const float* all_values = clip->values().data();
  const std::uint32_t* track_timelines = clip->track_timelines().data();
  Transform* out = output.data();
  float* soa_out = soa ? detail::soa_floats(soa_output) : nullptr;
  const float* batch_values = clip->batch_values().data();
  const auto batches = clip->linear_batches();
#if defined(CRITTER_SAMPLE_AVX2)
  if (cpu_has_avx2_fma()) {
    if (soa) {
      sample_batches_avx2(batches, segments, batch_values, SoaOut{soa_out});
    } else {
      sample_batches_avx2(batches, segments, batch_values, out);
    }
  } else
#endif
      if (soa) {
    sample_batches(batches, segments, batch_values, SoaOut{soa_out});
  } else {
    sample_batches(batches, segments, batch_values, out);
  }

  for (const std::uint32_t i : clip->other_tracks()) {
    const Track& track = tracks[i];
    const float* times = all_times + track.key_begin;
    const float* values = all_values + track.value_begin;
    const SamplingContext::Segment seg = segments[track_timelines[i]];
    const KeySpan at{seg.key, seg.fraction};
    if (soa && track.target != TrackTarget::kWeights) {
      const auto joint = static_cast<std::size_t>(track.index);
      if (track.target == TrackTarget::kRotation) {
        const quat r = sample_quat(track, times, values, at);
        const float c[4] = {r.x, r.y, r.z, r.w};
        for (std::uint32_t k = 0; k < 4; ++k)
          *detail::soa_channel(soa_out, joint, detail::kSoaRotation + k) = c[k];
      } else {
        const vec3 v = sample_vec3(track, times, values, at);
        const std::uint32_t first =
            track.target == TrackTarget::kTranslation ? detail::kSoaTranslation : detail::kSoaScale;
        for (std::uint32_t k = 0; k < 3; ++k)
          *detail::soa_channel(soa_out, joint, first + k) = v[static_cast<int>(k)];
      }
      continue;
    }
    switch (track.target) {
      case TrackTarget::kTranslation:
        out[track.index].translation = sample_vec3(track, times, values, at);
        break;
      case TrackTarget::kRotation:
        out[track.index].rotation = sample_quat(track, times, values, at);
        break;
      case TrackTarget::kScale:
        out[track.index].scale = sample_vec3(track, times, values, at);
        break;
      case TrackTarget::kWeights:
        sample_floats(
            track, times, values, at, track.components,
            output_weights.data() + weight_offsets[static_cast<std::size_t>(track.index)]);
        break;
    }
  }
}

}  // namespace critter::anim
