// SPDX-License-Identifier: MIT
// AVX-512 skinning kernel, 16 vertices per block: the AVX2 kernel's algorithm with its per-vertex
// arithmetic (positions, cofactor normals, tangents, normalisation) on 16 lanes. Matrices are
// blended per vertex on 8-float halves and transposed eight vertices at a time as in the AVX2
// kernel; the two halves meet in one 512-bit register per matrix element. Packed vec3 streams
// move through three 512-bit reads or writes per 16 vertices. Every function here
// carries the target attribute and this file includes no library header (see
// skinning_kernels.h). Only called after a run-time check of the CPU (cpu_has_avx512).
// GCC 12's AVX-512 intrinsics (casts, rsqrt14, widening conversions) start from
// _mm512_undefined_ps() or _mm512_undefined_epi32(), which its own -Wuninitialized and
// -Wmaybe-uninitialized then report at every use (depending on the optimisation level); the
// values are never read. clang has no such warning (and rejects the unknown name).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include <algorithm>

#define CRITTER_AVX512 __attribute__((target("avx512f,avx512dq,avx2,fma")))
#define CRITTER_SKIN_TARGET CRITTER_AVX512

#include "deform/skinning_kernels.h"
#include "deform/skinning_lanes_8.h"

namespace critter::deform::detail {

namespace {

struct Vec3x8 {
  __m256 x, y, z;
};

CRITTER_AVX512 inline const float* at(const char* base, std::size_t stride, std::size_t i) {
  return reinterpret_cast<const float*>(base + i * stride);
}
CRITTER_AVX512 inline float* at(char* base, std::size_t stride, std::size_t i) {
  return reinterpret_cast<float*>(base + i * stride);
}

// Loads 8 elements of 4 floats (the 4th may belong to the next element; see the header) and
// transposes them: lane k of x/y/z/w is element i + k.
CRITTER_AVX512 inline void load4x8(const char* base, std::size_t stride, std::size_t i, __m256& x,
                                   __m256& y, __m256& z, __m256& w) {
  __m256 r[4];
  for (std::size_t k = 0; k < 4; ++k) {
    const __m128 lo = _mm_loadu_ps(at(base, stride, i + k));
    const __m128 hi = _mm_loadu_ps(at(base, stride, i + k + 4));
    r[k] = _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1);
  }
  const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]);
  const __m256 t1 = _mm256_unpackhi_ps(r[0], r[1]);
  const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]);
  const __m256 t3 = _mm256_unpackhi_ps(r[2], r[3]);
  x = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
  y = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
  z = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
  w = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
}

// Inverse of load4x8: writes 12 bytes (xyz) or 16 bytes (xyzw) per element, nothing else.
CRITTER_AVX512 inline void store4x8(char* base, std::size_t stride, std::size_t i, __m256 x,
                                    __m256 y, __m256 z, __m256 w, bool with_w) {
  const __m256 t0 = _mm256_unpacklo_ps(x, y);
  const __m256 t1 = _mm256_unpackhi_ps(x, y);
  const __m256 t2 = _mm256_unpacklo_ps(z, w);
  const __m256 t3 = _mm256_unpackhi_ps(z, w);
  __m256 r[4];
  r[0] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
  r[1] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
  r[2] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
  r[3] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
  for (std::size_t k = 0; k < 4; ++k) {
    const __m128 lo = _mm256_castps256_ps128(r[k]);
    const __m128 hi = _mm256_extractf128_ps(r[k], 1);
    float* plo = at(base, stride, i + k);
    float* phi = at(base, stride, i + k + 4);
    if (with_w) {
      _mm_storeu_ps(plo, lo);
      _mm_storeu_ps(phi, hi);
    } else {
      _mm_storeu_si64(plo, _mm_castps_si128(lo));
      _mm_store_ss(plo + 2, _mm_movehl_ps(lo, lo));
      _mm_storeu_si64(phi, _mm_castps_si128(hi));
      _mm_store_ss(phi + 2, _mm_movehl_ps(hi, hi));
    }
  }
}

// xyz of 8 elements: packed vec3 arrays (stride 12, the common case of separate streams) load as
// 6 128-bit reads and a shuffle network; other strides go through load4x8.
CRITTER_AVX512 inline Vec3x8 load3x8(const char* base, std::size_t stride, std::size_t i) {
  if (stride == 12) {
    const float* p = at(base, stride, i);
    const __m256 m03 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p)),
                                            _mm_loadu_ps(p + 12), 1);  // x0y0z0x1 | x4y4z4x5
    const __m256 m14 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p + 4)),
                                            _mm_loadu_ps(p + 16), 1);  // y1z1x2y2 | y5z5x6y6
    const __m256 m25 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p + 8)),
                                            _mm_loadu_ps(p + 20), 1);        // z2x3y3z3 | z6x7y7z7
    const __m256 xy = _mm256_shuffle_ps(m14, m25, _MM_SHUFFLE(2, 1, 3, 2));  // x2y2x3y3
    const __m256 yz = _mm256_shuffle_ps(m03, m14, _MM_SHUFFLE(1, 0, 2, 1));  // y0z0y1z1
    return {_mm256_shuffle_ps(m03, xy, _MM_SHUFFLE(2, 0, 3, 0)),
            _mm256_shuffle_ps(yz, xy, _MM_SHUFFLE(3, 1, 2, 0)),
            _mm256_shuffle_ps(yz, m25, _MM_SHUFFLE(3, 0, 3, 1))};
  }
  __m256 x, y, z, w;
  load4x8(base, stride, i, x, y, z, w);
  return {x, y, z};
}

// Inverse of load3x8: packed arrays are written as three 256-bit stores.
CRITTER_AVX512 inline void store3x8(char* base, std::size_t stride, std::size_t i, Vec3x8 v) {
  if (stride == 12) {
    const __m256 rxy = _mm256_shuffle_ps(v.x, v.y, _MM_SHUFFLE(2, 0, 2, 0));  // x0x2y0y2
    const __m256 ryz = _mm256_shuffle_ps(v.y, v.z, _MM_SHUFFLE(3, 1, 3, 1));  // y1y3z1z3
    const __m256 rzx = _mm256_shuffle_ps(v.z, v.x, _MM_SHUFFLE(3, 1, 2, 0));  // z0z2x1x3
    const __m256 r03 = _mm256_shuffle_ps(rxy, rzx, _MM_SHUFFLE(2, 0, 2, 0));  // x0y0z0x1
    const __m256 r14 = _mm256_shuffle_ps(ryz, rxy, _MM_SHUFFLE(3, 1, 2, 0));  // y1z1x2y2
    const __m256 r25 = _mm256_shuffle_ps(rzx, ryz, _MM_SHUFFLE(3, 1, 3, 1));  // z2x3y3z3
    float* p = at(base, stride, i);
    _mm256_storeu_ps(p, _mm256_permute2f128_ps(r03, r14, 0x20));
    _mm256_storeu_ps(p + 8, _mm256_permute2f128_ps(r25, r03, 0x30));
    _mm256_storeu_ps(p + 16, _mm256_permute2f128_ps(r14, r25, 0x31));
    return;
  }
  store4x8(base, stride, i, v.x, v.y, v.z, v.z, false);
}

struct Vec3x16 {
  __m512 x, y, z;
};

CRITTER_AVX512 inline __m512 join(__m256 lo, __m256 hi) {
  return _mm512_insertf32x8(_mm512_castps256_ps512(lo), hi, 1);
}
CRITTER_AVX512 inline __m256 low(__m512 v) {
  return _mm512_castps512_ps256(v);
}
CRITTER_AVX512 inline __m256 high(__m512 v) {
  return _mm512_extractf32x8_ps(v, 1);
}

// Packed vec3 arrays (stride 12) move 16 elements as three 512-bit reads or writes and six
// two-table permutes; other strides go eight elements at a time through load3x8 / store3x8.
CRITTER_AVX512 inline Vec3x16 load3x16(const char* base, std::size_t stride, std::size_t i) {
  if (stride == 12) {
    const float* p = at(base, stride, i);
    const __m512 f0 = _mm512_loadu_ps(p), f1 = _mm512_loadu_ps(p + 16),
                 f2 = _mm512_loadu_ps(p + 32);
    // Component k of element e is float 3e + k: floats 0-31 come from f0|f1, 32-47 from f2.
    const __m512i x01 = _mm512_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 0, 0, 0, 0, 0);
    const __m512i x2 = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 17, 20, 23, 26, 29);
    const __m512i y01 = _mm512_setr_epi32(1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 0, 0, 0, 0, 0);
    const __m512i y2 = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 18, 21, 24, 27, 30);
    const __m512i z01 = _mm512_setr_epi32(2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 0, 0, 0, 0, 0, 0);
    const __m512i z2 = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 19, 22, 25, 28, 31);
    return {_mm512_permutex2var_ps(_mm512_permutex2var_ps(f0, x01, f1), x2, f2),
            _mm512_permutex2var_ps(_mm512_permutex2var_ps(f0, y01, f1), y2, f2),
            _mm512_permutex2var_ps(_mm512_permutex2var_ps(f0, z01, f1), z2, f2)};
  }
  const Vec3x8 a = load3x8(base, stride, i), b = load3x8(base, stride, i + 8);
  return {join(a.x, b.x), join(a.y, b.y), join(a.z, b.z)};
}

CRITTER_AVX512 inline void store3x16(char* base, std::size_t stride, std::size_t i, Vec3x16 v) {
  if (stride == 12) {
    // Float f of the 48 is component f % 3 of element f / 3: x and y first, then z.
    float* p = at(base, stride, i);
    const __m512i xy0 = _mm512_setr_epi32(0, 16, 0, 1, 17, 0, 2, 18, 0, 3, 19, 0, 4, 20, 0, 5);
    const __m512i z0 = _mm512_setr_epi32(0, 1, 16, 3, 4, 17, 6, 7, 18, 9, 10, 19, 12, 13, 20, 15);
    const __m512i xy1 = _mm512_setr_epi32(21, 0, 6, 22, 0, 7, 23, 0, 8, 24, 0, 9, 25, 0, 10, 26);
    const __m512i z1 = _mm512_setr_epi32(0, 21, 2, 3, 22, 5, 6, 23, 8, 9, 24, 11, 12, 25, 14, 15);
    const __m512i xy2 = _mm512_setr_epi32(0, 11, 27, 0, 12, 28, 0, 13, 29, 0, 14, 30, 0, 15, 31, 0);
    const __m512i z2 = _mm512_setr_epi32(26, 1, 2, 27, 4, 5, 28, 7, 8, 29, 10, 11, 30, 13, 14, 31);
    _mm512_storeu_ps(p, _mm512_permutex2var_ps(_mm512_permutex2var_ps(v.x, xy0, v.y), z0, v.z));
    _mm512_storeu_ps(p + 16,
                     _mm512_permutex2var_ps(_mm512_permutex2var_ps(v.x, xy1, v.y), z1, v.z));
    _mm512_storeu_ps(p + 32,
                     _mm512_permutex2var_ps(_mm512_permutex2var_ps(v.x, xy2, v.y), z2, v.z));
    return;
  }
  store3x8(base, stride, i, {low(v.x), low(v.y), low(v.z)});
  store3x8(base, stride, i + 8, {high(v.x), high(v.y), high(v.z)});
}

// v / |v| lane by lane, 0 where |v| is 0: the 14-bit reciprocal square root estimate refined by
// one Newton-Raphson step.
CRITTER_AVX512 inline Vec3x16 normalized(Vec3x16 v) {
  const __m512 len2 = _mm512_fmadd_ps(v.z, v.z, _mm512_fmadd_ps(v.y, v.y, _mm512_mul_ps(v.x, v.x)));
  const __m512 r = _mm512_rsqrt14_ps(len2);
  // r' = r * (1.5 - 0.5 * len2 * r * r)
  const __m512 half_len2_r = _mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(0.5f), len2), r);
  const __m512 inv = _mm512_mul_ps(r, _mm512_fnmadd_ps(half_len2_r, r, _mm512_set1_ps(1.5f)));
  const __mmask16 keep = _mm512_cmp_ps_mask(len2, _mm512_setzero_ps(), _CMP_GT_OQ);
  return {_mm512_maskz_mul_ps(keep, v.x, inv), _mm512_maskz_mul_ps(keep, v.y, inv),
          _mm512_maskz_mul_ps(keep, v.z, inv)};
}

// The matrix's columns a, b, c times (x, y, z), lane by lane: how tangents, and normals under
// NormalTransform::kMatrix, are turned.
CRITTER_AVX512 inline Vec3x16 turned(Vec3x16 a, Vec3x16 b, Vec3x16 c, __m512 x, __m512 y,
                                     __m512 z) {
  return {_mm512_fmadd_ps(c.x, z, _mm512_fmadd_ps(b.x, y, _mm512_mul_ps(a.x, x))),
          _mm512_fmadd_ps(c.y, z, _mm512_fmadd_ps(b.y, y, _mm512_mul_ps(a.y, x))),
          _mm512_fmadd_ps(c.z, z, _mm512_fmadd_ps(b.z, y, _mm512_mul_ps(a.z, x)))};
}

// a * b - c * d
CRITTER_AVX512 inline __m512 diff_of_products(__m512 a, __m512 b, __m512 c, __m512 d) {
  return _mm512_fmsub_ps(a, b, _mm512_mul_ps(c, d));
}

// Pass 1 of half a block: the 4 palette matrices of each of the 8 vertices from `first` blended
// and transposed (transpose_blended): `out` receives a, b, c and t, x y z each, one lane per
// vertex.
CRITTER_AVX512 inline void blend8(const SkinStreams& s, std::size_t first, __m256 (&out)[12]) {
  const char* jp = s.joints + first * s.joints_stride;
  __m256 lo[8], hi[8];
  const char* wp = s.weights + first * s.weights_stride;
  // Kept unrolled: with the index code inside, GCC leaves this loop rolled up, and the kernel was
  // then 4 % slower than with the earlier vector offsets (Zen 4, fastest samples).
#pragma GCC unroll 8
  for (std::size_t k = 0; k < 8; ++k, wp += s.weights_stride, jp += s.joints_stride) {
    const float* w = reinterpret_cast<const float*>(wp);
    const float* m0 = influence_matrix(s, jp, 0);
    const float* m1 = influence_matrix(s, jp, 1);
    const float* m2 = influence_matrix(s, jp, 2);
    const float* m3 = influence_matrix(s, jp, 3);
    // The whole matrix in one register: one product and three fused steps per vertex.
    // The four weights in one read, broadcast by shuffles rather than four broadcast reads.
    const __m128 wv = _mm_loadu_ps(w);
    __m512 m = _mm512_mul_ps(_mm512_broadcastss_ps(wv), _mm512_loadu_ps(m0));
    m = _mm512_fmadd_ps(_mm512_broadcastss_ps(_mm_permute_ps(wv, 0x55)), _mm512_loadu_ps(m1), m);
    m = _mm512_fmadd_ps(_mm512_broadcastss_ps(_mm_permute_ps(wv, 0xAA)), _mm512_loadu_ps(m2), m);
    m = _mm512_fmadd_ps(_mm512_broadcastss_ps(_mm_permute_ps(wv, 0xFF)), _mm512_loadu_ps(m3), m);
    lo[k] = low(m);
    hi[k] = high(m);
  }
  transpose_blended(lo, hi, out);
}

}  // namespace

// Pass 2 of a block: the 16 vertices from `i` turned by their blended matrices (m0 for the first
// eight, m1 for the rest, from blend8), their normals and tangents as kNormals and kTangents say,
// and stored.
template <Normals kNormals, bool kTangents>
CRITTER_AVX512 inline void finish16(const SkinStreams& s, std::size_t i, const __m256 (&m0)[12],
                                    const __m256 (&m1)[12]) {
  const Vec3x16 a{join(m0[0], m1[0]), join(m0[1], m1[1]), join(m0[2], m1[2])};
  const Vec3x16 b{join(m0[3], m1[3]), join(m0[4], m1[4]), join(m0[5], m1[5])};
  const Vec3x16 c{join(m0[6], m1[6]), join(m0[7], m1[7]), join(m0[8], m1[8])};
  const Vec3x16 t{join(m0[9], m1[9]), join(m0[10], m1[10]), join(m0[11], m1[11])};

  const Vec3x16 p = load3x16(s.in_positions, s.in_positions_stride, i);
  const Vec3x16 op{
      _mm512_fmadd_ps(c.x, p.z, _mm512_fmadd_ps(b.x, p.y, _mm512_fmadd_ps(a.x, p.x, t.x))),
      _mm512_fmadd_ps(c.y, p.z, _mm512_fmadd_ps(b.y, p.y, _mm512_fmadd_ps(a.y, p.x, t.y))),
      _mm512_fmadd_ps(c.z, p.z, _mm512_fmadd_ps(b.z, p.y, _mm512_fmadd_ps(a.z, p.x, t.z)))};

  if constexpr (kNormals == Normals::kMatrix) {
    const Vec3x16 n = load3x16(s.in_normals, s.in_normals_stride, i);
    store3x16(s.out_normals, s.out_normals_stride, i, normalized(turned(a, b, c, n.x, n.y, n.z)));
  } else if constexpr (kNormals == Normals::kCofactor) {
    const Vec3x16 n = load3x16(s.in_normals, s.in_normals_stride, i);
    const Vec3x16 c0{diff_of_products(b.y, c.z, b.z, c.y), diff_of_products(b.z, c.x, b.x, c.z),
                     diff_of_products(b.x, c.y, b.y, c.x)};
    const Vec3x16 c1{diff_of_products(c.y, a.z, c.z, a.y), diff_of_products(c.z, a.x, c.x, a.z),
                     diff_of_products(c.x, a.y, c.y, a.x)};
    const Vec3x16 c2{diff_of_products(a.y, b.z, a.z, b.y), diff_of_products(a.z, b.x, a.x, b.z),
                     diff_of_products(a.x, b.y, a.y, b.x)};
    const __m512 det =
        _mm512_fmadd_ps(a.z, c0.z, _mm512_fmadd_ps(a.y, c0.y, _mm512_mul_ps(a.x, c0.x)));
    const __m512 sign = _mm512_and_ps(det, _mm512_set1_ps(-0.0f));
    const Vec3x16 r{
        _mm512_fmadd_ps(c2.x, n.z, _mm512_fmadd_ps(c1.x, n.y, _mm512_mul_ps(c0.x, n.x))),
        _mm512_fmadd_ps(c2.y, n.z, _mm512_fmadd_ps(c1.y, n.y, _mm512_mul_ps(c0.y, n.x))),
        _mm512_fmadd_ps(c2.z, n.z, _mm512_fmadd_ps(c1.z, n.y, _mm512_mul_ps(c0.z, n.x)))};
    store3x16(
        s.out_normals, s.out_normals_stride, i,
        normalized({_mm512_xor_ps(r.x, sign), _mm512_xor_ps(r.y, sign), _mm512_xor_ps(r.z, sign)}));
  }
  if constexpr (kTangents) {
    __m256 x0, y0, z0, w0, x1, y1, z1, w1;
    load4x8(s.in_tangents, s.in_tangents_stride, i, x0, y0, z0, w0);
    load4x8(s.in_tangents, s.in_tangents_stride, i + 8, x1, y1, z1, w1);
    const __m512 tx = join(x0, x1), ty = join(y0, y1), tz = join(z0, z1);
    const Vec3x16 o = normalized(turned(a, b, c, tx, ty, tz));
    store4x8(s.out_tangents, s.out_tangents_stride, i, low(o.x), low(o.y), low(o.z), w0, true);
    store4x8(s.out_tangents, s.out_tangents_stride, i + 8, high(o.x), high(o.y), high(o.z), w1,
             true);
  }
  // Positions last: when skinning in place, the inputs above are read before any write.
  store3x16(s.out_positions, s.out_positions_stride, i, op);
}

// The block loop. It works on a local copy of the streams: the output stores go through char
// pointers, which may alias the caller's SkinStreams, so with a reference every field would be
// read again each block (this kernel is bound by its loads). kPacked fixes the strides of
// separate tightly packed streams (the common case) at compile time, and kNormals and kTangents
// the work a block does. As in the AVX2 kernel, it goes over runs of up to kRun blocks in two
// passes, every block's matrices blended (into 3 KB on the stack), then every block turned, so
// that the core overlaps the blocks' long chains: with the indices in general registers and the
// blend unrolled, 13-20 % more vertices a second on a Zen 4 core by the fastest samples, 6 % by
// the medians (where this kernel is not the automatic choice; not measured on the CPUs where it
// is).
template <bool kPacked, Normals kNormals, bool kTangents>
CRITTER_AVX512 std::size_t skin_blocks(const SkinStreams& streams) {
  const SkinStreams s = kPacked ? with_packed_strides(streams) : streams;
  constexpr std::size_t kLanes = 16, kRun = 4;
  __m256 blended[kRun][2][12];
  std::size_t i = 0;
  // A block never holds the last vertex: blocks from i while i + 16 < count.
  while (i + kLanes < s.count) {
    const std::size_t blocks = std::min(kRun, (s.count - i - 1) / kLanes);
    for (std::size_t b = 0; b < blocks; ++b) {
      blend8(s, i + b * kLanes, blended[b][0]);
      blend8(s, i + b * kLanes + 8, blended[b][1]);
    }
    for (std::size_t b = 0; b < blocks; ++b)
      finish16<kNormals, kTangents>(s, i + b * kLanes, blended[b][0], blended[b][1]);
    i += blocks * kLanes;
  }
  return i;
}

namespace {
// The block loops, as run_block_loop() wants them.
struct BlockLoop {
  template <bool kPacked, Normals kNormals, bool kTangents>
  CRITTER_AVX512 static std::size_t run(const SkinStreams& s) {
    return skin_blocks<kPacked, kNormals, kTangents>(s);
  }
};
}  // namespace

CRITTER_AVX512 std::size_t skin_avx512(const SkinStreams& s) {
  return run_block_loop<BlockLoop>(s);
}

}  // namespace critter::deform::detail

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
