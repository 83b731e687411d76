// SPDX-License-Identifier: MIT
// AVX2 + FMA skinning kernel, 8 vertices per block in structure-of-arrays registers. Every
// function here carries the target attribute and this file includes no library header (see
// skinning_kernels.h), so no AVX2 code leaks into inline functions shared with other files.
// Only called after a run-time check of the CPU (cpu_has_avx2_fma).
#include <immintrin.h>

#include <algorithm>

#define CRITTER_AVX2 __attribute__((target("avx2,fma")))
#define CRITTER_SKIN_TARGET CRITTER_AVX2

#include "deform/skinning_kernels.h"
#include "deform/skinning_lanes_8.h"

namespace critter::deform::detail {

namespace {

struct Vec3x8 {
  __m256 x, y, z;
};

CRITTER_AVX2 inline const float* at(const char* base, std::size_t stride, std::size_t i) {
  return reinterpret_cast<const float*>(base + i * stride);
}
CRITTER_AVX2 inline float* at(char* base, std::size_t stride, std::size_t i) {
  return reinterpret_cast<float*>(base + i * stride);
}

// Loads 8 elements of 4 floats (the 4th may belong to the next element; see the header) and
// transposes them: lane k of x/y/z/w is element i + k.
CRITTER_AVX2 inline void load4x8(const char* base, std::size_t stride, std::size_t i, __m256& x,
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
CRITTER_AVX2 inline void store4x8(char* base, std::size_t stride, std::size_t i, __m256 x, __m256 y,
                                  __m256 z, __m256 w, bool with_w) {
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
CRITTER_AVX2 inline Vec3x8 load3x8(const char* base, std::size_t stride, std::size_t i) {
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
CRITTER_AVX2 inline void store3x8(char* base, std::size_t stride, std::size_t i, Vec3x8 v) {
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

// v / |v| lane by lane, 0 where |v| is 0. The reciprocal square root estimate (12 bits) is refined
// by one Newton-Raphson step to about 1e-7 relative error, much cheaper than sqrt and divide; the
// masked-out lanes hold inf * 0 = NaN before the mask.
CRITTER_AVX2 inline Vec3x8 normalized(Vec3x8 v) {
  const __m256 len2 = _mm256_fmadd_ps(v.z, v.z, _mm256_fmadd_ps(v.y, v.y, _mm256_mul_ps(v.x, v.x)));
  const __m256 r = _mm256_rsqrt_ps(len2);
  // r' = r * (1.5 - 0.5 * len2 * r * r)
  const __m256 half_len2_r = _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(0.5f), len2), r);
  const __m256 inv = _mm256_mul_ps(r, _mm256_fnmadd_ps(half_len2_r, r, _mm256_set1_ps(1.5f)));
  const __m256 keep = _mm256_cmp_ps(len2, _mm256_setzero_ps(), _CMP_GT_OQ);
  return {_mm256_and_ps(_mm256_mul_ps(v.x, inv), keep),
          _mm256_and_ps(_mm256_mul_ps(v.y, inv), keep),
          _mm256_and_ps(_mm256_mul_ps(v.z, inv), keep)};
}

// The matrix's columns a, b, c times (x, y, z), lane by lane: how tangents, and normals under
// NormalTransform::kMatrix, are turned.
CRITTER_AVX2 inline Vec3x8 turned(Vec3x8 a, Vec3x8 b, Vec3x8 c, __m256 x, __m256 y, __m256 z) {
  return {_mm256_fmadd_ps(c.x, z, _mm256_fmadd_ps(b.x, y, _mm256_mul_ps(a.x, x))),
          _mm256_fmadd_ps(c.y, z, _mm256_fmadd_ps(b.y, y, _mm256_mul_ps(a.y, x))),
          _mm256_fmadd_ps(c.z, z, _mm256_fmadd_ps(b.z, y, _mm256_mul_ps(a.z, x)))};
}

// a * b - c * d
CRITTER_AVX2 inline __m256 diff_of_products(__m256 a, __m256 b, __m256 c, __m256 d) {
  return _mm256_fmsub_ps(a, b, _mm256_mul_ps(c, d));
}

// Pass 1 of a block: the 4 palette matrices of each of the 8 vertices from `first` blended by
// their weights, columns 0-1 then 2-3, and transposed to one register per matrix element (rows
// 0-2 of each column): `m` receives a, b, c (the columns) and t (the translation), x y z each.
CRITTER_AVX2 inline void blend_block(const SkinStreams& s, std::size_t first, __m256 (&m)[12]) {
  __m256 lo[8], hi[8];
  const char* wp = s.weights + first * s.weights_stride;
  const char* jp = s.joints + first * s.joints_stride;
  // Kept unrolled, as GCC would not unroll it with the index code inside (see the AVX-512 kernel).
#pragma GCC unroll 8
  for (std::size_t k = 0; k < 8; ++k, wp += s.weights_stride, jp += s.joints_stride) {
    const float* w = reinterpret_cast<const float*>(wp);
    const float* mat[4] = {influence_matrix(s, jp, 0), influence_matrix(s, jp, 1),
                           influence_matrix(s, jp, 2), influence_matrix(s, jp, 3)};
    // The four weights in one load, each spread over the register by an in-lane permute (four
    // single-weight broadcasts would be four more loads).
    const __m256 wv = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(w));
    const __m256 w0 = _mm256_permute_ps(wv, 0x00);
    const __m256 w1 = _mm256_permute_ps(wv, 0x55);
    const __m256 w2 = _mm256_permute_ps(wv, 0xAA);
    const __m256 w3 = _mm256_permute_ps(wv, 0xFF);
    __m256 l = _mm256_mul_ps(w0, _mm256_loadu_ps(mat[0]));
    __m256 h = _mm256_mul_ps(w0, _mm256_loadu_ps(mat[0] + 8));
    l = _mm256_fmadd_ps(w1, _mm256_loadu_ps(mat[1]), l);
    h = _mm256_fmadd_ps(w1, _mm256_loadu_ps(mat[1] + 8), h);
    l = _mm256_fmadd_ps(w2, _mm256_loadu_ps(mat[2]), l);
    h = _mm256_fmadd_ps(w2, _mm256_loadu_ps(mat[2] + 8), h);
    lo[k] = _mm256_fmadd_ps(w3, _mm256_loadu_ps(mat[3]), l);
    hi[k] = _mm256_fmadd_ps(w3, _mm256_loadu_ps(mat[3] + 8), h);
  }
  transpose_blended(lo, hi, m);
}

// Pass 2 of a block: the 8 vertices from `first` turned by their blended matrices `m` (from
// blend_block), their normals and tangents as kNormals and kTangents say, and stored.
template <Normals kNormals, bool kTangents>
CRITTER_AVX2 inline void finish_block(const SkinStreams& s, std::size_t i, const __m256 (&m)[12]) {
  const Vec3x8 a{m[0], m[1], m[2]};
  const Vec3x8 b{m[3], m[4], m[5]};
  const Vec3x8 c{m[6], m[7], m[8]};
  const Vec3x8 t{m[9], m[10], m[11]};

  const Vec3x8 pin = load3x8(s.in_positions, s.in_positions_stride, i);
  const __m256 px = pin.x, py = pin.y, pz = pin.z;
  const __m256 ox =
      _mm256_fmadd_ps(c.x, pz, _mm256_fmadd_ps(b.x, py, _mm256_fmadd_ps(a.x, px, t.x)));
  const __m256 oy =
      _mm256_fmadd_ps(c.y, pz, _mm256_fmadd_ps(b.y, py, _mm256_fmadd_ps(a.y, px, t.y)));
  const __m256 oz =
      _mm256_fmadd_ps(c.z, pz, _mm256_fmadd_ps(b.z, py, _mm256_fmadd_ps(a.z, px, t.z)));

  if constexpr (kNormals == Normals::kMatrix) {
    const Vec3x8 n = load3x8(s.in_normals, s.in_normals_stride, i);
    store3x8(s.out_normals, s.out_normals_stride, i, normalized(turned(a, b, c, n.x, n.y, n.z)));
  } else if constexpr (kNormals == Normals::kCofactor) {
    const Vec3x8 nin = load3x8(s.in_normals, s.in_normals_stride, i);
    const __m256 nx = nin.x, ny = nin.y, nz = nin.z;
    const Vec3x8 c0{diff_of_products(b.y, c.z, b.z, c.y), diff_of_products(b.z, c.x, b.x, c.z),
                    diff_of_products(b.x, c.y, b.y, c.x)};
    const Vec3x8 c1{diff_of_products(c.y, a.z, c.z, a.y), diff_of_products(c.z, a.x, c.x, a.z),
                    diff_of_products(c.x, a.y, c.y, a.x)};
    const Vec3x8 c2{diff_of_products(a.y, b.z, a.z, b.y), diff_of_products(a.z, b.x, a.x, b.z),
                    diff_of_products(a.x, b.y, a.y, b.x)};
    const __m256 det =
        _mm256_fmadd_ps(a.z, c0.z, _mm256_fmadd_ps(a.y, c0.y, _mm256_mul_ps(a.x, c0.x)));
    const __m256 sign = _mm256_and_ps(det, _mm256_set1_ps(-0.0f));
    Vec3x8 n{_mm256_fmadd_ps(c2.x, nz, _mm256_fmadd_ps(c1.x, ny, _mm256_mul_ps(c0.x, nx))),
             _mm256_fmadd_ps(c2.y, nz, _mm256_fmadd_ps(c1.y, ny, _mm256_mul_ps(c0.y, nx))),
             _mm256_fmadd_ps(c2.z, nz, _mm256_fmadd_ps(c1.z, ny, _mm256_mul_ps(c0.z, nx)))};
    n = normalized({_mm256_xor_ps(n.x, sign), _mm256_xor_ps(n.y, sign), _mm256_xor_ps(n.z, sign)});
    store3x8(s.out_normals, s.out_normals_stride, i, n);
  }
  if constexpr (kTangents) {
    __m256 tx, ty, tz, tw;
    load4x8(s.in_tangents, s.in_tangents_stride, i, tx, ty, tz, tw);
    const Vec3x8 o = normalized(turned(a, b, c, tx, ty, tz));
    store4x8(s.out_tangents, s.out_tangents_stride, i, o.x, o.y, o.z, tw, true);
  }
  // Positions last: when skinning in place, the inputs above are read before any write.
  store3x8(s.out_positions, s.out_positions_stride, i, {ox, oy, oz});
}

// The block loop, on a local copy of the streams (the output stores go through char pointers,
// which may alias the caller's SkinStreams), with kPacked fixing the strides of separate tightly
// packed streams at compile time, as in the AVX-512 kernel, and the normals' and tangents' work
// fixed at compile time too. It goes over runs of up to kRun blocks in two passes: all their
// matrices blended (into 3 KB on the stack), then all their vertices turned. A block done whole
// is one dependency chain (index, loads, multiply-adds, transpose, cofactor, normalisation) of
// some 450 instructions, which llvm-mca's Zen 4 model finds latency-bound; each pass alone is
// short enough for the core to overlap several blocks of it. Measured on a Zen 4 core, 3 % more
// vertices a second than the same code one block at a time (runs of 4, 8 or 16 alike).
template <bool kPacked, Normals kNormals, bool kTangents>
CRITTER_AVX2 std::size_t skin_blocks(const SkinStreams& streams) {
  const SkinStreams s = kPacked ? with_packed_strides(streams) : streams;
  constexpr std::size_t kLanes = 8, kRun = 8;
  __m256 blended[kRun][12];
  std::size_t i = 0;
  // A block never holds the last vertex: blocks from i while i + 8 < count.
  while (i + kLanes < s.count) {
    const std::size_t blocks = std::min(kRun, (s.count - i - 1) / kLanes);
    for (std::size_t b = 0; b < blocks; ++b) blend_block(s, i + b * kLanes, blended[b]);
    for (std::size_t b = 0; b < blocks; ++b)
      finish_block<kNormals, kTangents>(s, i + b * kLanes, blended[b]);
    i += blocks * kLanes;
  }
  return i;
}

// The block loops, as run_block_loop() wants them.
struct BlockLoop {
  template <bool kPacked, Normals kNormals, bool kTangents>
  CRITTER_AVX2 static std::size_t run(const SkinStreams& s) {
    return skin_blocks<kPacked, kNormals, kTangents>(s);
  }
};

}  // namespace

CRITTER_AVX2 std::size_t skin_avx2(const SkinStreams& s) {
  return run_block_loop<BlockLoop>(s);
}

}  // namespace critter::deform::detail
