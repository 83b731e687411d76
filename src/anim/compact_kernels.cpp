// SPDX-License-Identifier: MIT
#include "anim/compact_kernels.h"

#include <algorithm>

#include "anim/quat_slerp.h"
#include "anim/soa_store.h"

#include <emmintrin.h>

namespace critter::anim::detail {

namespace {

using Lanes = CompactSamplingContext::Lanes;

// 8 + 4 bytes: a 16-byte store would spill into the next field of the Transform.
inline void store_vec3(float* dst, __m128 v) {
  _mm_storel_pi(reinterpret_cast<__m64*>(dst), v);
  _mm_store_ss(dst + 2, _mm_movehl_ps(v, v));
}

inline float* channel(Transform& o, std::uint32_t kind) {
  return kind == 1 ? &o.translation.x : &o.scale.x;
}

// The fraction of each lane's segment at t: (t - start) / (end - start), 0 before the first key
// and after the last (whose end is +inf), as the scalar locate computes it.
inline __m128 fraction4(const Lanes* g, int half, __m128 t) {
  const __m128 start = _mm_load_ps(g[kLaneStart].v + 4 * half);
  const __m128 end = _mm_load_ps(g[kLaneHigh].v + 4 * half);
  return _mm_max_ps(_mm_div_ps(_mm_sub_ps(t, start), _mm_sub_ps(end, start)), _mm_setzero_ps());
}

}  // namespace

void overlay_sse2(const float* from, const float* values, const std::uint32_t* mask, float* to,
                  std::size_t n) {
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m128 m = _mm_loadu_ps(reinterpret_cast<const float*>(mask + i));
    _mm_storeu_ps(to + i, select4(m, _mm_loadu_ps(values + i), _mm_loadu_ps(from + i)));
  }
  for (; i < n; ++i) to[i] = mask[i] != 0 ? values[i] : from[i];
}

void decode_rotations_sse2(const RotationDecode* keys, std::uint32_t count) {
  constexpr float kScale = 2.0f * compact::kInvSqrt2 / 32767.0f;
  for (std::uint32_t i = 0; i < count; i += 4) {
    const RotationDecode* k = keys + i;
    const std::uint32_t n = std::min(4u, count - i);
    alignas(16) std::int32_t w[3][4] = {};
    for (std::uint32_t l = 0; l < n; ++l)
      for (int c = 0; c < 3; ++c) w[c][l] = k[l].words[c];
    const __m128i w0 = _mm_load_si128(reinterpret_cast<const __m128i*>(w[0]));
    const __m128i w1 = _mm_load_si128(reinterpret_cast<const __m128i*>(w[1]));
    const __m128i w2 = _mm_load_si128(reinterpret_cast<const __m128i*>(w[2]));
    const __m128i m15 = _mm_set1_epi32(0x7fff);
    const __m128i ia = _mm_and_si128(w0, m15);
    const __m128i ib =
        _mm_and_si128(_mm_or_si128(_mm_srli_epi32(w0, 15), _mm_slli_epi32(w1, 1)), m15);
    const __m128i ic =
        _mm_and_si128(_mm_or_si128(_mm_srli_epi32(w1, 14), _mm_slli_epi32(w2, 2)), m15);
    const __m128i index = _mm_and_si128(_mm_srli_epi32(w2, 13), _mm_set1_epi32(3));
    const __m128 scale = _mm_set1_ps(kScale), offset = _mm_set1_ps(compact::kInvSqrt2);
    const __m128 a = _mm_sub_ps(_mm_mul_ps(_mm_cvtepi32_ps(ia), scale), offset);
    const __m128 b = _mm_sub_ps(_mm_mul_ps(_mm_cvtepi32_ps(ib), scale), offset);
    const __m128 c = _mm_sub_ps(_mm_mul_ps(_mm_cvtepi32_ps(ic), scale), offset);
    const __m128 d = _mm_sqrt_ps(_mm_max_ps(
        _mm_setzero_ps(),
        _mm_sub_ps(_mm_sub_ps(_mm_sub_ps(_mm_set1_ps(1.0f), _mm_mul_ps(a, a)), _mm_mul_ps(b, b)),
                   _mm_mul_ps(c, c))));
    const __m128 is0 = _mm_castsi128_ps(_mm_cmpeq_epi32(index, _mm_setzero_si128()));
    const __m128 is1 = _mm_castsi128_ps(_mm_cmpeq_epi32(index, _mm_set1_epi32(1)));
    const __m128 is2 = _mm_castsi128_ps(_mm_cmpeq_epi32(index, _mm_set1_epi32(2)));
    const __m128 is3 = _mm_castsi128_ps(_mm_cmpeq_epi32(index, _mm_set1_epi32(3)));
    alignas(16) float q[4][4];
    _mm_store_ps(q[0], select4(is0, d, a));
    _mm_store_ps(q[1], select4(is1, d, select4(is0, a, b)));
    _mm_store_ps(q[2], select4(is2, d, select4(_mm_or_ps(is0, is1), b, c)));
    _mm_store_ps(q[3], select4(is3, d, c));
    for (std::uint32_t l = 0; l < n; ++l)
      for (int x = 0; x < 4; ++x) k[l].lane[8 * x] = q[x][l];
  }
}

void interpolate_groups_sse2(const CompactGroups& groups, float t, Transform* out, float* soa) {
  const __m128 time = _mm_set1_ps(t);
  const Lanes* g = groups.cache;
  const std::uint32_t* joint = groups.lane_joint;
  // Rotations: both halves of a group through one interleaved nlerp.
  for (std::uint32_t done = 0; done < groups.lane_count[0]; done += 8) {
    Quat4 a[2], b[2], r[2];
    __m128 f[2];
    for (int h = 0; h < 2; ++h) {
      const int o = 4 * h;
      a[h] = Quat4{_mm_load_ps(g[kLaneA].v + o), _mm_load_ps(g[kLaneA + 1].v + o),
                   _mm_load_ps(g[kLaneA + 2].v + o), _mm_load_ps(g[kLaneA + 3].v + o)};
      b[h] = Quat4{_mm_load_ps(g[lane_b(4)].v + o), _mm_load_ps(g[lane_b(4) + 1].v + o),
                   _mm_load_ps(g[lane_b(4) + 2].v + o), _mm_load_ps(g[lane_b(4) + 3].v + o)};
      f[h] = fraction4(g, h, time);
    }
    nlerp_shortest4<2>(a, b, f, r);
    const std::uint32_t lanes = std::min(8u, groups.lane_count[0] - done);
    for (int h = 0; h < 2; ++h) {
      // At a key (f == 0) the start key itself.
      const __m128 at_key = _mm_cmpeq_ps(f[h], _mm_setzero_ps());
      r[h] = Quat4{select4(at_key, a[h].x, r[h].x), select4(at_key, a[h].y, r[h].y),
                   select4(at_key, a[h].z, r[h].z), select4(at_key, a[h].w, r[h].w)};
      if (soa != nullptr) {
        const __m128 c[4] = {r[h].x, r[h].y, r[h].z, r[h].w};
        if (lanes > 4u * static_cast<std::uint32_t>(h))
          store_soa4(soa, joint + 4 * h, std::min(4u, lanes - 4 * h), kSoaRotation, c, 4);
        continue;
      }
      _MM_TRANSPOSE4_PS(r[h].x, r[h].y, r[h].z, r[h].w);
      const __m128 q[4] = {r[h].x, r[h].y, r[h].z, r[h].w};
      for (std::uint32_t l = 0; l < 4 && 4 * h + l < lanes; ++l)
        _mm_storeu_ps(&out[joint[4 * h + l]].rotation.x, q[l]);
    }
    g += group_size(4);
    joint += 8;
  }
  // Translations, then scales: a + (b - a) * f, a itself where f == 0.
  for (std::uint32_t kind = 1; kind < 3; ++kind) {
    for (std::uint32_t done = 0; done < groups.lane_count[kind]; done += 8) {
      const std::uint32_t lanes = std::min(8u, groups.lane_count[kind] - done);
      for (int h = 0; h < 2; ++h) {
        const int o = 4 * h;
        const __m128 f = fraction4(g, h, time);
        const __m128 at_key = _mm_cmpeq_ps(f, _mm_setzero_ps());
        __m128 c[4];
        for (int k = 0; k < 3; ++k) {
          const __m128 a = _mm_load_ps(g[kLaneA + k].v + o);
          const __m128 b = _mm_load_ps(g[lane_b(3) + k].v + o);
          c[k] = select4(at_key, a, _mm_add_ps(a, _mm_mul_ps(_mm_sub_ps(b, a), f)));
        }
        if (soa != nullptr) {
          if (lanes > static_cast<std::uint32_t>(o))
            store_soa4(soa, joint + o, std::min(4u, lanes - o),
                       kind == 1 ? kSoaTranslation : kSoaScale, c, 3);
          continue;
        }
        c[3] = _mm_setzero_ps();
        _MM_TRANSPOSE4_PS(c[0], c[1], c[2], c[3]);
        for (std::uint32_t l = 0; l < 4 && 4 * h + l < lanes; ++l)
          store_vec3(channel(out[joint[4 * h + l]], kind), c[l]);
      }
      g += group_size(3);
      joint += 8;
    }
  }
}

#if defined(__x86_64__) && defined(__GNUC__)

namespace {

// Eight lanes of x, y, z, w to eight four-float rows: row l in the low (l < 4) or high half of
// rows[l % 4].
[[gnu::target("avx2"), gnu::always_inline]] inline void transpose8(__m256 x, __m256 y, __m256 z,
                                                                   __m256 w, __m256 (&rows)[4]) {
  const __m256 t0 = _mm256_unpacklo_ps(x, y), t1 = _mm256_unpackhi_ps(x, y);
  const __m256 t2 = _mm256_unpacklo_ps(z, w), t3 = _mm256_unpackhi_ps(z, w);
  rows[0] = _mm256_shuffle_ps(t0, t2, 0x44);
  rows[1] = _mm256_shuffle_ps(t0, t2, 0xee);
  rows[2] = _mm256_shuffle_ps(t1, t3, 0x44);
  rows[3] = _mm256_shuffle_ps(t1, t3, 0xee);
}

[[gnu::target("avx2"), gnu::always_inline]] inline __m128 row(const __m256 (&rows)[4],
                                                              std::uint32_t l) {
  return l < 4 ? _mm256_castps256_ps128(rows[l]) : _mm256_extractf128_ps(rows[l - 4], 1);
}

[[gnu::target("avx2"), gnu::always_inline]] inline __m256 fraction8(const Lanes* g, __m256 t) {
  const __m256 start = _mm256_load_ps(g[kLaneStart].v);
  const __m256 end = _mm256_load_ps(g[kLaneHigh].v);
  return _mm256_max_ps(_mm256_div_ps(_mm256_sub_ps(t, start), _mm256_sub_ps(end, start)),
                       _mm256_setzero_ps());
}

// Eight lanes of `count` component vectors into a structure-of-arrays pose (store_soa4 on eight
// lanes).
[[gnu::target("avx2"), gnu::always_inline]] inline void store_soa8(
    float* pose, const std::uint32_t* joints, std::uint32_t lanes, std::uint32_t first,
    const __m256* c, std::uint32_t count) {
  if (consecutive_in_block(joints, lanes, 8)) {
    for (std::uint32_t k = 0; k < count; ++k)
      _mm256_storeu_ps(soa_channel(pose, joints[0], first + k), c[k]);
    return;
  }
  alignas(32) float values[4][8] = {};
  for (std::uint32_t k = 0; k < count; ++k) _mm256_store_ps(values[k], c[k]);
  store_soa_lanes(pose, joints, lanes, first, values, count);
}

// The same through the group's windows (CompactClip::SoaWindow), when it has them: per window and
// component, the lanes permuted to their floats and blended over the eight floats the pose holds.
[[gnu::target("avx2"), gnu::always_inline]] inline void store_soa_group8(
    float* pose, const CompactGroups& groups, std::uint32_t group, const std::uint32_t* joints,
    std::uint32_t lanes, std::uint32_t component, const __m256* c, std::uint32_t count) {
  const std::uint32_t begin = groups.soa_window_begin[group];
  const std::uint32_t end = groups.soa_window_begin[group + 1];
  if (begin == end) {
    store_soa8(pose, joints, lanes, component, c, count);
    return;
  }
  constexpr std::uint32_t kRow = SoaTransform::kLanes;
  for (std::uint32_t w = begin; w < end; ++w) {
    const CompactClip::SoaWindow& window = groups.soa_windows[w];
    const __m256i from = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(window.lanes));
    const __m256 keep = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_setzero_si256(), from));
    float* row = pose + window.first + std::size_t{component} * kRow;
    for (std::uint32_t k = 0; k < count; ++k, row += kRow)
      _mm256_storeu_ps(
          row, _mm256_blendv_ps(_mm256_permutevar8x32_ps(c[k], from), _mm256_loadu_ps(row), keep));
  }
}

}  // namespace

[[gnu::target("avx2")]] void decode_rotations_avx2(const RotationDecode* keys,
                                                   std::uint32_t count) {
  constexpr float kScale = 2.0f * compact::kInvSqrt2 / 32767.0f;
  for (std::uint32_t i = 0; i < count; i += 8) {
    const RotationDecode* k = keys + i;
    const std::uint32_t n = std::min(8u, count - i);
    alignas(32) std::int32_t w[3][8] = {};
    for (std::uint32_t l = 0; l < n; ++l)
      for (int c = 0; c < 3; ++c) w[c][l] = k[l].words[c];
    const __m256i w0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(w[0]));
    const __m256i w1 = _mm256_load_si256(reinterpret_cast<const __m256i*>(w[1]));
    const __m256i w2 = _mm256_load_si256(reinterpret_cast<const __m256i*>(w[2]));
    const __m256i m15 = _mm256_set1_epi32(0x7fff);
    const __m256i ia = _mm256_and_si256(w0, m15);
    const __m256i ib =
        _mm256_and_si256(_mm256_or_si256(_mm256_srli_epi32(w0, 15), _mm256_slli_epi32(w1, 1)), m15);
    const __m256i ic =
        _mm256_and_si256(_mm256_or_si256(_mm256_srli_epi32(w1, 14), _mm256_slli_epi32(w2, 2)), m15);
    const __m256i index = _mm256_and_si256(_mm256_srli_epi32(w2, 13), _mm256_set1_epi32(3));
    const __m256 scale = _mm256_set1_ps(kScale), offset = _mm256_set1_ps(compact::kInvSqrt2);
    const __m256 a = _mm256_sub_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(ia), scale), offset);
    const __m256 b = _mm256_sub_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(ib), scale), offset);
    const __m256 c = _mm256_sub_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(ic), scale), offset);
    const __m256 d = _mm256_sqrt_ps(_mm256_max_ps(
        _mm256_setzero_ps(),
        _mm256_sub_ps(_mm256_sub_ps(_mm256_sub_ps(_mm256_set1_ps(1.0f), _mm256_mul_ps(a, a)),
                                    _mm256_mul_ps(b, b)),
                      _mm256_mul_ps(c, c))));
    const __m256 is0 = _mm256_castsi256_ps(_mm256_cmpeq_epi32(index, _mm256_setzero_si256()));
    const __m256 is1 = _mm256_castsi256_ps(_mm256_cmpeq_epi32(index, _mm256_set1_epi32(1)));
    const __m256 is2 = _mm256_castsi256_ps(_mm256_cmpeq_epi32(index, _mm256_set1_epi32(2)));
    const __m256 is3 = _mm256_castsi256_ps(_mm256_cmpeq_epi32(index, _mm256_set1_epi32(3)));
    alignas(32) float q[4][8];
    _mm256_store_ps(q[0], _mm256_blendv_ps(a, d, is0));
    _mm256_store_ps(q[1], _mm256_blendv_ps(_mm256_blendv_ps(b, a, is0), d, is1));
    _mm256_store_ps(q[2], _mm256_blendv_ps(_mm256_blendv_ps(c, b, _mm256_or_ps(is0, is1)), d, is2));
    _mm256_store_ps(q[3], _mm256_blendv_ps(c, d, is3));
    for (std::uint32_t l = 0; l < n; ++l)
      for (int x = 0; x < 4; ++x) k[l].lane[8 * x] = q[x][l];
  }
}

[[gnu::target("avx2")]] void overlay_avx2(const float* from, const float* values,
                                          const std::uint32_t* mask, float* to, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 m = _mm256_loadu_ps(reinterpret_cast<const float*>(mask + i));
    _mm256_storeu_ps(to + i,
                     _mm256_blendv_ps(_mm256_loadu_ps(from + i), _mm256_loadu_ps(values + i), m));
  }
  if (i < n) overlay_sse2(from + i, values + i, mask + i, to + i, n - i);
}

[[gnu::target("avx2")]] void interpolate_groups_avx2(const CompactGroups& groups, float t,
                                                     Transform* out, float* soa) {
  const __m256 time = _mm256_set1_ps(t);
  const __m256 zero = _mm256_setzero_ps();
  const Lanes* g = groups.cache;
  const std::uint32_t* joint = groups.lane_joint;
  std::uint32_t group = 0;
  for (std::uint32_t done = 0; done < groups.lane_count[0]; done += 8, ++group) {
    const Quat8 a[1] = {Quat8{_mm256_load_ps(g[kLaneA].v), _mm256_load_ps(g[kLaneA + 1].v),
                              _mm256_load_ps(g[kLaneA + 2].v), _mm256_load_ps(g[kLaneA + 3].v)}};
    const Quat8 b[1] = {Quat8{_mm256_load_ps(g[lane_b(4)].v), _mm256_load_ps(g[lane_b(4) + 1].v),
                              _mm256_load_ps(g[lane_b(4) + 2].v),
                              _mm256_load_ps(g[lane_b(4) + 3].v)}};
    const __m256 f = fraction8(g, time);
    const __m256 fs[1] = {f};
    Quat8 r[1];
    nlerp_shortest8<1>(a, b, fs, r);
    // At a key (f == 0) the start key itself, as the SSE2 path returns it.
    const __m256 at_key = _mm256_cmp_ps(f, zero, _CMP_EQ_OQ);
    const __m256 q[4] = {
        _mm256_blendv_ps(r[0].x, a[0].x, at_key), _mm256_blendv_ps(r[0].y, a[0].y, at_key),
        _mm256_blendv_ps(r[0].z, a[0].z, at_key), _mm256_blendv_ps(r[0].w, a[0].w, at_key)};
    const std::uint32_t lanes = std::min(8u, groups.lane_count[0] - done);
    if (soa != nullptr) {
      store_soa_group8(soa, groups, group, joint, lanes, kSoaRotation, q, 4);
    } else {
      __m256 rows[4];
      transpose8(q[0], q[1], q[2], q[3], rows);
      for (std::uint32_t l = 0; l < lanes; ++l)
        _mm_storeu_ps(&out[joint[l]].rotation.x, row(rows, l));
    }
    g += group_size(4);
    joint += 8;
  }
  for (std::uint32_t kind = 1; kind < 3; ++kind) {
    for (std::uint32_t done = 0; done < groups.lane_count[kind]; done += 8, ++group) {
      const __m256 f = fraction8(g, time);
      const __m256 at_key = _mm256_cmp_ps(f, zero, _CMP_EQ_OQ);
      __m256 c[3];
      for (int k = 0; k < 3; ++k) {
        const __m256 a = _mm256_load_ps(g[kLaneA + k].v);
        const __m256 b = _mm256_load_ps(g[lane_b(3) + k].v);
        c[k] = _mm256_blendv_ps(_mm256_add_ps(a, _mm256_mul_ps(_mm256_sub_ps(b, a), f)), a, at_key);
      }
      const std::uint32_t lanes = std::min(8u, groups.lane_count[kind] - done);
      if (soa != nullptr) {
        store_soa_group8(soa, groups, group, joint, lanes, kind == 1 ? kSoaTranslation : kSoaScale,
                         c, 3);
      } else {
        __m256 rows[4];
        transpose8(c[0], c[1], c[2], zero, rows);
        for (std::uint32_t l = 0; l < lanes; ++l)
          store_vec3(channel(out[joint[l]], kind), row(rows, l));
      }
      g += group_size(3);
      joint += 8;
    }
  }
}

#endif

}  // namespace critter::anim::detail
