// SPDX-License-Identifier: MIT
// SSE2 skinning kernel (the x86-64 baseline), 4 vertices per block in structure-of-arrays
// registers. Same algorithm and operation order as the AVX2 kernel, without FMA.
#include <emmintrin.h>

#include "deform/skinning_kernels.h"

namespace critter::deform::detail {

namespace {

struct Vec3x4 {
  __m128 x, y, z;
};

inline const float* at(const char* base, std::size_t stride, std::size_t i) {
  return reinterpret_cast<const float*>(base + i * stride);
}
inline float* at(char* base, std::size_t stride, std::size_t i) {
  return reinterpret_cast<float*>(base + i * stride);
}

// r[k] = element k; on return r[0..3] = component 0..3 across the 4 elements.
inline void transpose4(__m128 r[4]) {
  const __m128 t0 = _mm_unpacklo_ps(r[0], r[1]);
  const __m128 t1 = _mm_unpackhi_ps(r[0], r[1]);
  const __m128 t2 = _mm_unpacklo_ps(r[2], r[3]);
  const __m128 t3 = _mm_unpackhi_ps(r[2], r[3]);
  r[0] = _mm_movelh_ps(t0, t2);
  r[1] = _mm_movehl_ps(t2, t0);
  r[2] = _mm_movelh_ps(t1, t3);
  r[3] = _mm_movehl_ps(t3, t1);
}

// Loads 4 elements of 4 floats (the 4th may belong to the next element; see the header).
inline void load4x4(const char* base, std::size_t stride, std::size_t i, __m128 r[4]) {
  for (std::size_t k = 0; k < 4; ++k) r[k] = _mm_loadu_ps(at(base, stride, i + k));
  transpose4(r);
}

// Writes 12 bytes (xyz) or 16 bytes (xyzw) per element, nothing else.
inline void store4x4(char* base, std::size_t stride, std::size_t i, __m128 r[4], bool with_w) {
  transpose4(r);
  for (std::size_t k = 0; k < 4; ++k) {
    float* p = at(base, stride, i + k);
    if (with_w) {
      _mm_storeu_ps(p, r[k]);
    } else {
      _mm_storeu_si64(p, _mm_castps_si128(r[k]));
      _mm_store_ss(p + 2, _mm_movehl_ps(r[k], r[k]));
    }
  }
}

inline __m128 dot3(Vec3x4 a, Vec3x4 b) {
  return _mm_add_ps(_mm_add_ps(_mm_mul_ps(a.x, b.x), _mm_mul_ps(a.y, b.y)), _mm_mul_ps(a.z, b.z));
}

// xyz of 4 elements: packed vec3 arrays (stride 12, the common case of separate streams) load as
// three 128-bit reads and a shuffle network; other strides go through load4x4.
inline Vec3x4 load3x4(const char* base, std::size_t stride, std::size_t i) {
  if (stride == 12) {
    const float* p = at(base, stride, i);
    const __m128 m0 = _mm_loadu_ps(p);                                  // x0 y0 z0 x1
    const __m128 m1 = _mm_loadu_ps(p + 4);                              // y1 z1 x2 y2
    const __m128 m2 = _mm_loadu_ps(p + 8);                              // z2 x3 y3 z3
    const __m128 xy = _mm_shuffle_ps(m1, m2, _MM_SHUFFLE(2, 1, 3, 2));  // x2 y2 x3 y3
    const __m128 yz = _mm_shuffle_ps(m0, m1, _MM_SHUFFLE(1, 0, 2, 1));  // y0 z0 y1 z1
    return {_mm_shuffle_ps(m0, xy, _MM_SHUFFLE(2, 0, 3, 0)),
            _mm_shuffle_ps(yz, xy, _MM_SHUFFLE(3, 1, 2, 0)),
            _mm_shuffle_ps(yz, m2, _MM_SHUFFLE(3, 0, 3, 1))};
  }
  __m128 r[4];
  load4x4(base, stride, i, r);
  return {r[0], r[1], r[2]};
}

// Inverse of load3x4: packed arrays are written as three 128-bit stores.
inline void store3x4(char* base, std::size_t stride, std::size_t i, Vec3x4 v) {
  if (stride == 12) {
    const __m128 rxy = _mm_shuffle_ps(v.x, v.y, _MM_SHUFFLE(2, 0, 2, 0));  // x0 x2 y0 y2
    const __m128 ryz = _mm_shuffle_ps(v.y, v.z, _MM_SHUFFLE(3, 1, 3, 1));  // y1 y3 z1 z3
    const __m128 rzx = _mm_shuffle_ps(v.z, v.x, _MM_SHUFFLE(3, 1, 2, 0));  // z0 z2 x1 x3
    float* p = at(base, stride, i);
    _mm_storeu_ps(p, _mm_shuffle_ps(rxy, rzx, _MM_SHUFFLE(2, 0, 2, 0)));      // x0 y0 z0 x1
    _mm_storeu_ps(p + 4, _mm_shuffle_ps(ryz, rxy, _MM_SHUFFLE(3, 1, 2, 0)));  // y1 z1 x2 y2
    _mm_storeu_ps(p + 8, _mm_shuffle_ps(rzx, ryz, _MM_SHUFFLE(3, 1, 3, 1)));  // z2 x3 y3 z3
    return;
  }
  __m128 r[4] = {v.x, v.y, v.z, v.z};
  store4x4(base, stride, i, r, false);
}

// v / |v| lane by lane, 0 where |v| is 0, its sign flipped where `sign` has the sign bit. The
// reciprocal square root estimate (12 bits) is refined by one Newton-Raphson step to about 1e-7
// relative error, much cheaper than sqrt and divide; lanes where |v| is 0 hold inf * 0 = NaN
// before the mask.
inline Vec3x4 normalized(Vec3x4 v, __m128 sign = _mm_setzero_ps()) {
  const __m128 len2 = dot3(v, v);
  const __m128 r = _mm_rsqrt_ps(len2);
  // r' = r * (1.5 - 0.5 * len2 * r * r)
  const __m128 half_len2_r = _mm_mul_ps(_mm_mul_ps(_mm_set1_ps(0.5f), len2), r);
  const __m128 inv = _mm_mul_ps(r, _mm_sub_ps(_mm_set1_ps(1.5f), _mm_mul_ps(half_len2_r, r)));
  const __m128 scale = _mm_xor_ps(_mm_and_ps(inv, _mm_cmpgt_ps(len2, _mm_setzero_ps())), sign);
  return {_mm_mul_ps(v.x, scale), _mm_mul_ps(v.y, scale), _mm_mul_ps(v.z, scale)};
}

inline __m128 diff_of_products(__m128 a, __m128 b, __m128 c, __m128 d) {
  return _mm_sub_ps(_mm_mul_ps(a, b), _mm_mul_ps(c, d));
}

// a x b, per lane.
inline Vec3x4 cross(Vec3x4 a, Vec3x4 b) {
  return {diff_of_products(a.y, b.z, a.z, b.y), diff_of_products(a.z, b.x, a.x, b.z),
          diff_of_products(a.x, b.y, a.y, b.x)};
}

// a * x + b * y + c * z, per lane.
inline Vec3x4 combine(Vec3x4 a, Vec3x4 b, Vec3x4 c, __m128 x, __m128 y, __m128 z) {
  return {_mm_add_ps(_mm_add_ps(_mm_mul_ps(a.x, x), _mm_mul_ps(b.x, y)), _mm_mul_ps(c.x, z)),
          _mm_add_ps(_mm_add_ps(_mm_mul_ps(a.y, x), _mm_mul_ps(b.y, y)), _mm_mul_ps(c.y, z)),
          _mm_add_ps(_mm_add_ps(_mm_mul_ps(a.z, x), _mm_mul_ps(b.z, y)), _mm_mul_ps(c.z, z))};
}

// Skins the 4 vertices from i, given their blended matrices as columns a, b, c (rotation and
// scale) and t (translation), lane k for vertex i + k.
template <Normals kNormals, bool kTangents>
__attribute__((always_inline)) inline void skin_block(const SkinStreams& s, std::size_t i, Vec3x4 a,
                                                      Vec3x4 b, Vec3x4 c, Vec3x4 t) {
  const Vec3x4 p = load3x4(s.in_positions, s.in_positions_stride, i);
  const Vec3x4 mp = combine(a, b, c, p.x, p.y, p.z);
  const Vec3x4 op{_mm_add_ps(mp.x, t.x), _mm_add_ps(mp.y, t.y), _mm_add_ps(mp.z, t.z)};

  if constexpr (kNormals == Normals::kMatrix) {
    const Vec3x4 n = load3x4(s.in_normals, s.in_normals_stride, i);
    store3x4(s.out_normals, s.out_normals_stride, i, normalized(combine(a, b, c, n.x, n.y, n.z)));
  } else if constexpr (kNormals == Normals::kCofactor) {
    // The cofactor matrix times n, (b x c) nx + (c x a) ny + (a x b) nz, factored as
    // a x (b nz - c ny) + (b x c) nx: three cross products instead of three and a 3x3 product.
    const Vec3x4 n = load3x4(s.in_normals, s.in_normals_stride, i);
    const Vec3x4 bc = cross(b, c);
    const Vec3x4 v{diff_of_products(b.x, n.z, c.x, n.y), diff_of_products(b.y, n.z, c.y, n.y),
                   diff_of_products(b.z, n.z, c.z, n.y)};
    const Vec3x4 av = cross(a, v);
    const Vec3x4 r{_mm_add_ps(av.x, _mm_mul_ps(bc.x, n.x)), _mm_add_ps(av.y, _mm_mul_ps(bc.y, n.x)),
                   _mm_add_ps(av.z, _mm_mul_ps(bc.z, n.x))};
    // det = a . (b x c); a mirroring matrix (det < 0) turns the cofactor's normal around.
    const __m128 sign = _mm_and_ps(dot3(a, bc), _mm_set1_ps(-0.0f));
    store3x4(s.out_normals, s.out_normals_stride, i, normalized(r, sign));
  }
  if constexpr (kTangents) {
    __m128 tg[4];
    load4x4(s.in_tangents, s.in_tangents_stride, i, tg);
    const Vec3x4 o = normalized(combine(a, b, c, tg[0], tg[1], tg[2]));
    __m128 ot[4] = {o.x, o.y, o.z, tg[3]};
    store4x4(s.out_tangents, s.out_tangents_stride, i, ot, true);
  }
  // Positions last: when skinning in place, the inputs above are read before any write.
  store3x4(s.out_positions, s.out_positions_stride, i, op);
}

// Palettes up to this size are copied, per run, into rows (see skin_rows); larger ones are read
// as they are. 24 KiB of stack.
constexpr std::size_t kMaxRowPalette = 512;

// The blend reads the palette as rows: rows 0-2 of each matrix, 12 floats, so that a vertex's
// 4 influences cost 12 loads and 12 multiply-adds instead of 16 (the bottom row is never used)
// and the blended rows transpose into lanes with 3 transposes instead of 4. Joint indices of 4
// vertices are clamped and scaled in vector registers (unsigned 16-bit min through a sign flip,
// which SSE2 lacks; index * 3 fits 16 bits below kMaxRowPalette).
template <Normals kNormals, bool kTangents, bool kPacked>
std::size_t skin_rows(const SkinStreams& streams) {
  const SkinStreams s = kPacked ? with_packed_strides(streams) : streams;
  constexpr std::size_t kLanes = 4;
  const std::size_t joints = std::size_t{s.palette_last} + 1;
  alignas(16) float rows[kMaxRowPalette * 12];
  for (std::size_t j = 0; j < joints; ++j) {
    const float* m = s.palette + j * 16;
    __m128 r[4] = {_mm_loadu_ps(m), _mm_loadu_ps(m + 4), _mm_loadu_ps(m + 8), _mm_loadu_ps(m + 12)};
    transpose4(r);
    _mm_store_ps(rows + j * 12, r[0]);
    _mm_store_ps(rows + j * 12 + 4, r[1]);
    _mm_store_ps(rows + j * 12 + 8, r[2]);
  }
  const char* const base = reinterpret_cast<const char*>(rows);
  const __m128i flip = _mm_set1_epi16(static_cast<short>(0x8000));
  const __m128i last = _mm_xor_si128(_mm_set1_epi16(static_cast<short>(s.palette_last)), flip);
  const __m128i row_bytes = _mm_set1_epi16(48);
  // Blends the matrices of the 4 vertices from i and stores them transposed: m[0..2] = a,
  // m[3..5] = b, m[6..8] = c, m[9..11] = t (x, y, z registers, lane k for vertex i + k).
  const auto blend = [&](std::size_t i, __m128* m) {
    const char* jp = s.joints + i * s.joints_stride;
    const __m128i j01 =
        _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(jp)),
                           _mm_loadl_epi64(reinterpret_cast<const __m128i*>(jp + s.joints_stride)));
    const __m128i j23 = _mm_unpacklo_epi64(
        _mm_loadl_epi64(reinterpret_cast<const __m128i*>(jp + 2 * s.joints_stride)),
        _mm_loadl_epi64(reinterpret_cast<const __m128i*>(jp + 3 * s.joints_stride)));
    // Byte offsets of the rows, min(joint, last) * 48, moved to general registers four at a
    // time and split by shifts. (Storing the two vectors and reading the 16 offsets back was
    // 5 % slower with positions alone, 2 % with normals by the matrix, on a Zen 4 core.)
    const auto clamp = [&](__m128i j) {
      return _mm_mullo_epi16(_mm_xor_si128(_mm_min_epi16(_mm_xor_si128(j, flip), last), flip),
                             row_bytes);
    };
    const __m128i c01 = clamp(j01);
    const __m128i c23 = clamp(j23);
    const std::uint64_t offsets[kLanes] = {
        static_cast<std::uint64_t>(_mm_cvtsi128_si64(c01)),
        static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(c01, c01))),
        static_cast<std::uint64_t>(_mm_cvtsi128_si64(c23)),
        static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(c23, c23)))};
    __m128 r0[kLanes], r1[kLanes], r2[kLanes];
    for (std::size_t k = 0; k < kLanes; ++k) {
      const __m128 w = _mm_loadu_ps(at(s.weights, s.weights_stride, i + k));
      const std::uint64_t o4 = offsets[k];
      const std::uint16_t o[4] = {
          static_cast<std::uint16_t>(o4), static_cast<std::uint16_t>(o4 >> 16),
          static_cast<std::uint16_t>(o4 >> 32), static_cast<std::uint16_t>(o4 >> 48)};
      const float* m0 = reinterpret_cast<const float*>(base + o[0]);
      const float* m1 = reinterpret_cast<const float*>(base + o[1]);
      const float* m2 = reinterpret_cast<const float*>(base + o[2]);
      const float* m3 = reinterpret_cast<const float*>(base + o[3]);
      const __m128 w0 = _mm_shuffle_ps(w, w, _MM_SHUFFLE(0, 0, 0, 0));
      const __m128 w1 = _mm_shuffle_ps(w, w, _MM_SHUFFLE(1, 1, 1, 1));
      const __m128 w2 = _mm_shuffle_ps(w, w, _MM_SHUFFLE(2, 2, 2, 2));
      const __m128 w3 = _mm_shuffle_ps(w, w, _MM_SHUFFLE(3, 3, 3, 3));
      __m128 x = _mm_mul_ps(w0, _mm_load_ps(m0));
      __m128 y = _mm_mul_ps(w0, _mm_load_ps(m0 + 4));
      __m128 z = _mm_mul_ps(w0, _mm_load_ps(m0 + 8));
      x = _mm_add_ps(x, _mm_mul_ps(w1, _mm_load_ps(m1)));
      y = _mm_add_ps(y, _mm_mul_ps(w1, _mm_load_ps(m1 + 4)));
      z = _mm_add_ps(z, _mm_mul_ps(w1, _mm_load_ps(m1 + 8)));
      x = _mm_add_ps(x, _mm_mul_ps(w2, _mm_load_ps(m2)));
      y = _mm_add_ps(y, _mm_mul_ps(w2, _mm_load_ps(m2 + 4)));
      z = _mm_add_ps(z, _mm_mul_ps(w2, _mm_load_ps(m2 + 8)));
      r0[k] = _mm_add_ps(x, _mm_mul_ps(w3, _mm_load_ps(m3)));
      r1[k] = _mm_add_ps(y, _mm_mul_ps(w3, _mm_load_ps(m3 + 4)));
      r2[k] = _mm_add_ps(z, _mm_mul_ps(w3, _mm_load_ps(m3 + 8)));
    }
    // Row r of vertex k holds (a, b, c, t)[r]; transposed, lane k of each register.
    transpose4(r0);
    transpose4(r1);
    transpose4(r2);
    for (std::size_t c = 0; c < 4; ++c) {
      _mm_store_ps(reinterpret_cast<float*>(m + 3 * c), r0[c]);
      _mm_store_ps(reinterpret_cast<float*>(m + 3 * c + 1), r1[c]);
      _mm_store_ps(reinterpret_cast<float*>(m + 3 * c + 2), r2[c]);
    }
  };
  // One block at a time: the out-of-order core already overlaps a block's long normal chain
  // (cross products, reciprocal square root, refinement) with the next block's blend. Pipelining
  // that by hand, the next block's blended rows kept in memory across the iteration, measured
  // about 8 % slower on a Zen 3 core, where the rows went through the stack.
  __m128 cur[12];
  std::size_t i = 0;
  for (; i + kLanes < s.count; i += kLanes) {
    blend(i, cur);
    skin_block<kNormals, kTangents>(s, i, {cur[0], cur[1], cur[2]}, {cur[3], cur[4], cur[5]},
                                    {cur[6], cur[7], cur[8]}, {cur[9], cur[10], cur[11]});
  }
  return i;
}

// Palettes too large to copy as rows, or meshes too small to repay the copy: the blend reads
// whole columns of the palette as it is.
template <Normals kNormals, bool kTangents, bool kPacked>
std::size_t skin_columns(const SkinStreams& streams) {
  const SkinStreams s = kPacked ? with_packed_strides(streams) : streams;
  constexpr std::size_t kLanes = 4;
  std::size_t i = 0;
  for (; i + kLanes < s.count; i += kLanes) {
    // col[c][k]: column c of vertex k's blended matrix.
    __m128 col[4][kLanes];
    for (std::size_t k = 0; k < kLanes; ++k) {
      const char* j = s.joints + (i + k) * s.joints_stride;
      const float* w = at(s.weights, s.weights_stride, i + k);
      __m128 c0 = _mm_setzero_ps(), c1 = c0, c2 = c0, c3 = c0;
      for (int n = 0; n < 4; ++n) {
        const float* m = influence_matrix(s, j, n);
        const __m128 wn = _mm_set1_ps(w[n]);
        c0 = _mm_add_ps(c0, _mm_mul_ps(wn, _mm_loadu_ps(m)));
        c1 = _mm_add_ps(c1, _mm_mul_ps(wn, _mm_loadu_ps(m + 4)));
        c2 = _mm_add_ps(c2, _mm_mul_ps(wn, _mm_loadu_ps(m + 8)));
        c3 = _mm_add_ps(c3, _mm_mul_ps(wn, _mm_loadu_ps(m + 12)));
      }
      col[0][k] = c0;
      col[1][k] = c1;
      col[2][k] = c2;
      col[3][k] = c3;
    }
    for (auto& c : col) transpose4(c);
    skin_block<kNormals, kTangents>(
        s, i, {col[0][0], col[0][1], col[0][2]}, {col[1][0], col[1][1], col[1][2]},
        {col[2][0], col[2][1], col[2][2]}, {col[3][0], col[3][1], col[3][2]});
  }
  return i;
}

// The block loops, as run_block_loop() wants them: the normal mode, the tangents and the packed
// strides as template parameters, so that a block's loads and stores have no branch (5 % more
// vertices a second with normals by the matrix on a Zen 4 core).
struct BlockLoop {
  template <bool kPacked, Normals kNormals, bool kTangents>
  static std::size_t run(const SkinStreams& s) {
    const std::size_t joints = std::size_t{s.palette_last} + 1;
    if (joints <= kMaxRowPalette && s.count >= joints)
      return skin_rows<kNormals, kTangents, kPacked>(s);
    return skin_columns<kNormals, kTangents, kPacked>(s);
  }
};

}  // namespace

std::size_t skin_sse2(const SkinStreams& s) {
  return run_block_loop<BlockLoop>(s);
}

}  // namespace critter::deform::detail
