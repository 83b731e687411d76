// SPDX-License-Identifier: MIT
// The blending kernel written once for any lane count: included by each SIMD kernel file after
// it has defined its vector type V and turned on its instruction set for what follows. Every
// operation is the scalar kernel's (blend_kernel_scalar.cpp) on each lane, in the same order, so
// the lanes equal the scalar results bit for bit.
//
// A block is V::kLanes consecutive joints: their 10·kLanes floats as ten vectors in the order of
// memory (translation and scale blend there, where every float is one lane), and the rotations
// transposed to one vector per component (lane k: joint k), where the slerp and the quaternion
// product need them. Each layer of the stack folds into the block in registers; the block is
// stored once, its ten vectors first and the rotations over them. N blocks go together, their
// steps interleaved, so that the long dependency chain of one block's slerp (a square root, a
// polynomial, a normalisation) overlaps the others'. Structure-of-arrays poses need no transpose
// and go the other way round, one layer at a time over all their joints (blend_soa_with; a lerp
// stack with masks, sampled sets or additive layers goes block by block like Transform arrays).
//
// V provides: T (kLanes floats), M (a lane mask); set1, add, sub, mul, div, sqrt, min,
// sign_bits (the sign bits of a vector), xor_; ge, gt (ordered compares), select (m ? a : b),
// partial (lanes of the first mask that are not in the second), any; and per block of kLanes
// joints load_aos, store_aos, load_rot, store_rot, lane_mask (the layer mask), sampled (nonzero
// bytes), expand (the lane weights spread over the floats of vector v) and scale_floats (the
// floats of vector v that are scale components). Structure-of-arrays poses (SoaLayout) use
// load_aos and store_aos with v = 0 as plain loads and stores of one component's row.
#pragma once

#include "anim/blend_kernels.h"

// Everything here inlines into the kernel's entry point: a call between the steps would pass
// the vectors through memory and cut the interleaved dependency chains apart.
#define CRITTER_BLEND_INLINE [[gnu::always_inline]] inline

// The vector registers the including file's instruction set has: 32 with AVX-512 (its kernel
// file defines this), 16 otherwise.
#if !defined(CRITTER_BLEND_VECTOR_REGISTERS)
#define CRITTER_BLEND_VECTOR_REGISTERS 16
#endif

namespace critter::anim::detail::blend_simd {

// Not inline: each kernel file has its own value (internal linkage).
constexpr int kVectorRegisters = CRITTER_BLEND_VECTOR_REGISTERS;

template <class V>
using T = typename V::T;

static_assert(kSlerpTerms == 5, "ratio() evaluates a polynomial of degree 5");

// a + (x - a) * w, every lerp of the kernels in the scalar reference's order of operations.
template <class V>
CRITTER_BLEND_INLINE T<V> lerp_vec(T<V> a, T<V> x, T<V> w) {
  return V::add(a, V::mul(V::sub(x, a), w));
}

// The polynomial coefficients of a uniform layer, broadcast where they are used.
template <class V>
struct UniformFactors {
  const SlerpFactors* s;
  T<V> cf(int, int k) const { return V::set1(s->cf[k]); }
  T<V> cg(int, int k) const { return V::set1(s->cg[k]); }
};

// The polynomial coefficients of lane weights f, as slerp_factors() computes them.
template <class V, int N>
struct LaneFactors {
  T<V> cf_[N][kSlerpTerms + 1];
  T<V> cg_[N][kSlerpTerms + 1];
  CRITTER_BLEND_INLINE explicit LaneFactors(const T<V> (&f)[N]) {
    for (int n = 0; n < N; ++n) {
      const T<V> g = V::sub(V::set1(1.0f), f[n]);
      coefficients(V::add(f[n], f[n]), cf_[n]);
      coefficients(V::add(g, g), cg_[n]);
    }
  }
  CRITTER_BLEND_INLINE static void coefficients(T<V> t, T<V> (&c)[kSlerpTerms + 1]) {
    const T<V> t2 = V::mul(t, t);
    T<V> p = t;
    c[0] = p;
    for (int m = 1; m <= kSlerpTerms; ++m) {
      p = V::mul(p, V::mul(V::sub(t2, V::set1(kSlerpSquares[m])), V::set1(kSlerpInv[m])));
      c[m] = p;
    }
  }
  T<V> cf(int n, int k) const { return cf_[n][k]; }
  T<V> cg(int n, int k) const { return cg_[n][k]; }
};

// (c₀ + c₁x) + x²((c₂ + c₃x) + x²(c₄ + c₅x)) for the coefficients c(n, k).
template <class V, class C>
CRITTER_BLEND_INLINE T<V> ratio(const C& c, int n, T<V> x, T<V> x2) {
  const T<V> lo = V::add(c(n, 0), V::mul(c(n, 1), x));
  const T<V> mid = V::add(c(n, 2), V::mul(c(n, 3), x));
  const T<V> hi = V::add(c(n, 4), V::mul(c(n, 5), x));
  return V::add(lo, V::mul(x2, V::add(mid, V::mul(x2, hi))));
}

template <class F>
struct CfOf {
  const F* f;
  auto operator()(int n, int k) const { return f->cf(n, k); }
};
template <class F>
struct CgOf {
  const F* f;
  auto operator()(int n, int k) const { return f->cg(n, k); }
};

// (x₀y₀ + x₁y₁) + (x₂y₂ + x₃y₃) on every lane.
template <class V>
CRITTER_BLEND_INLINE T<V> dot(const T<V> (&x)[4], const T<V> (&y)[4]) {
  return V::add(V::add(V::mul(x[0], y[0]), V::mul(x[1], y[1])),
                V::add(V::mul(x[2], y[2]), V::mul(x[3], y[3])));
}

// slerp_blend() on every lane of N groups.
template <class V, int N, class F>
CRITTER_BLEND_INLINE void slerp(const T<V> (&a)[N][4], const T<V> (&b)[N][4], const F& factors,
                                T<V> (&out)[N][4]) {
  const T<V> one = V::set1(1.0f), half = V::set1(0.5f);
  T<V> sign[N], x[N], x2[N], half_inv[N];
  const float* h = kHalfCosH;
  const float* hk = kHalfInvK;
  for (int n = 0; n < N; ++n) {
    const T<V> d = dot<V>(a[n], b[n]);
    sign[n] = V::sign_bits(d);
    const T<V> u = V::xor_(d, sign[n]);
    const T<V> u2 = V::mul(u, u), u4 = V::mul(u2, u2);
    const T<V> hu = V::add(V::add(V::add(V::set1(h[0]), V::mul(V::set1(h[1]), u)),
                                  V::mul(u2, V::add(V::set1(h[2]), V::mul(V::set1(h[3]), u)))),
                           V::mul(u4, V::add(V::add(V::set1(h[4]), V::mul(V::set1(h[5]), u)),
                                             V::mul(u2, V::set1(h[6])))));
    half_inv[n] = V::add(V::add(V::add(V::set1(hk[0]), V::mul(V::set1(hk[1]), u)),
                                V::mul(u2, V::add(V::set1(hk[2]), V::mul(V::set1(hk[3]), u)))),
                         V::mul(u4, V::set1(hk[4])));
    x[n] = V::mul(V::sub(u, one), hu);
    x2[n] = V::mul(x[n], x[n]);
  }
  T<V> ca[N], cb[N];
  for (int n = 0; n < N; ++n) {
    ca[n] = V::mul(ratio<V>(CgOf<F>{&factors}, n, x[n], x2[n]), half_inv[n]);
    cb[n] = V::xor_(V::mul(ratio<V>(CfOf<F>{&factors}, n, x[n], x2[n]), half_inv[n]), sign[n]);
  }
  for (int n = 0; n < N; ++n) {
    T<V> q[4];
    for (int k = 0; k < 4; ++k) q[k] = V::add(V::mul(ca[n], a[n][k]), V::mul(cb[n], b[n][k]));
    const T<V> len2 = V::add(V::add(V::mul(q[0], q[0]), V::mul(q[1], q[1])),
                             V::add(V::mul(q[2], q[2]), V::mul(q[3], q[3])));
    const T<V> inv_len = V::sub(V::set1(1.5f), V::mul(half, len2));
    for (int k = 0; k < 4; ++k) out[n][k] = V::mul(q[k], inv_len);
  }
}

// The template parameter kRot below is KernelArgs::rotations.
constexpr KernelRotations kRotSlerp = KernelRotations::kSlerp;
constexpr KernelRotations kRotNlerp = KernelRotations::kNlerp;
constexpr KernelRotations kRotLerp = KernelRotations::kLerp;

// lerp_rotation() on every lane of N groups, lane weights f: the shortest-arc lerp before its
// normalisation. `out` may alias `a` or `b`.
template <class V, int N>
CRITTER_BLEND_INLINE void lerp(const T<V> (&a)[N][4], const T<V> (&b)[N][4], const T<V> (&f)[N],
                               T<V> (&out)[N][4]) {
  const T<V> one = V::set1(1.0f);
  for (int n = 0; n < N; ++n) {
    const T<V> d = dot<V>(a[n], b[n]);
    const T<V> fs = V::xor_(f[n], V::sign_bits(d));
    const T<V> g = V::sub(one, f[n]);
    for (int k = 0; k < 4; ++k) out[n][k] = V::add(V::mul(a[n][k], g), V::mul(b[n][k], fs));
  }
}

// normalize_rotation() on every lane of N groups: q / |q|, the identity where |q| is 0.
template <class V, int N>
CRITTER_BLEND_INLINE void normalize(const T<V> (&q)[N][4], T<V> (&out)[N][4]) {
  const T<V> zero = V::set1(0.0f), one = V::set1(1.0f);
  for (int n = 0; n < N; ++n) {
    const T<V> len2 = dot<V>(q[n], q[n]);
    const T<V> inv = V::div(one, V::sqrt(len2));
    const auto some = V::gt(len2, zero);
    for (int k = 0; k < 4; ++k)
      out[n][k] = V::select(some, V::mul(q[n][k], inv), k == 3 ? one : zero);
  }
}

// nlerp_blend() on every lane of N groups, lane weights f.
template <class V, int N>
CRITTER_BLEND_INLINE void nlerp(const T<V> (&a)[N][4], const T<V> (&b)[N][4], const T<V> (&f)[N],
                                T<V> (&out)[N][4]) {
  T<V> q[N][4];
  lerp<V, N>(a, b, f, q);
  normalize<V, N>(q, out);
}

// The lane weights of an nlerp (KernelRotations::kNlerp and kLerp), where the slerp takes its
// factors.
template <class V, int N>
struct Nlerp {
  T<V> f[N];
};

// The delta rotation of an additive layer on every lane of N groups: slerp(identity, in, f) for
// slerp factors, or nlerp(identity, in, f) before its normalisation for Nlerp lane weights.
template <class V, int N, class F>
CRITTER_BLEND_INLINE void delta_rotation(const T<V> (&in)[N][4], const F& factors,
                                         T<V> (&q)[N][4]) {
  const T<V> zero = V::set1(0.0f), one = V::set1(1.0f);
  if constexpr (std::is_same_v<F, Nlerp<V, N>>) {
    for (int n = 0; n < N; ++n) {
      const T<V> sign = V::sign_bits(in[n][3]);
      for (int k = 0; k < 3; ++k) q[n][k] = V::mul(V::xor_(in[n][k], sign), factors.f[n]);
      q[n][3] = lerp_vec<V>(one, V::xor_(in[n][3], sign), factors.f[n]);
    }
  } else {
    T<V> identity[N][4];
    for (int n = 0; n < N; ++n) {
      identity[n][0] = identity[n][1] = identity[n][2] = zero;
      identity[n][3] = one;
    }
    slerp<V, N>(identity, in, factors, q);
  }
}

// The additive rotation of add_joint() on every lane of N groups: rot · delta_rotation(in),
// normalised, the identity where the product has no length; lanes outside `apply` keep rot.
template <class V, int N, class F, class A>
CRITTER_BLEND_INLINE void add_rotation(T<V> (&rot)[N][4], const T<V> (&in)[N][4], const F& factors,
                                       const A& apply) {
  T<V> q[N][4], product[N][4], unit[N][4];
  delta_rotation<V, N>(in, factors, q);
  for (int n = 0; n < N; ++n) {
    const T<V>(&p)[4] = rot[n];
    const T<V>(&s)[4] = q[n];
    product[n][0] = V::add(V::add(V::mul(p[3], s[0]), V::mul(p[0], s[3])),
                           V::sub(V::mul(p[1], s[2]), V::mul(p[2], s[1])));
    product[n][1] = V::add(V::add(V::mul(p[3], s[1]), V::mul(p[1], s[3])),
                           V::sub(V::mul(p[2], s[0]), V::mul(p[0], s[2])));
    product[n][2] = V::add(V::add(V::mul(p[3], s[2]), V::mul(p[2], s[3])),
                           V::sub(V::mul(p[0], s[1]), V::mul(p[1], s[0])));
    product[n][3] = V::sub(V::sub(V::mul(p[3], s[3]), V::mul(p[0], s[0])),
                           V::add(V::mul(p[1], s[1]), V::mul(p[2], s[2])));
  }
  normalize<V, N>(product, unit);
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < 4; ++k) rot[n][k] = apply(n, unit[n][k], rot[n][k]);
}

// Every lane applies (uniform layers).
struct AllLanes {
  template <class X>
  X operator()(int, X yes, X) const {
    return yes;
  }
};

// Lanes where the weight is > 0.
template <class V, int N>
struct SomeLanes {
  typename V::M some[N];
  T<V> operator()(int n, T<V> yes, T<V> no) const { return V::select(some[n], yes, no); }
};

// The lane weights of a non-uniform layer: weight · mask, 0 where the layer sampled nothing.
template <class V>
CRITTER_BLEND_INLINE T<V> lane_weights(const KernelLayer& l, std::size_t j) {
  T<V> w = V::set1(l.weight);
  if (l.mask != nullptr) w = V::mul(w, V::lane_mask(l.mask + j));
  if (l.sampled != nullptr) w = V::select(V::sampled(l.sampled + j), w, V::set1(0.0f));
  return w;
}

// Where a pose's floats are: Transform arrays (AosLayout: block k of kLanes joints is the
// 10·kLanes floats from joint k, the rotations transposed by V::load_rot) or SoaTransform blocks
// (SoaLayout: row c of kSoaLanes floats per component, so kLanes joints' component c is one
// aligned vector; kSoaLanes is a multiple of every kLanes).
struct AosLayout {
  static constexpr bool kSoa = false;
  template <class V>
  CRITTER_BLEND_INLINE static void load_rot(const float* pose, std::size_t j, T<V> (&r)[4]) {
    V::load_rot(pose + j * kTransformFloats, r);
  }
  template <class V>
  CRITTER_BLEND_INLINE static void store_rot(float* pose, std::size_t j, const T<V> (&r)[4]) {
    V::store_rot(pose + j * kTransformFloats, r);
  }
};

// Component c of joint j of a pose of SoaTransform blocks.
template <class P>
CRITTER_BLEND_INLINE P* soa_row(P* pose, std::size_t j, std::size_t c) {
  return pose + (j / kSoaLanes) * kSoaBlockFloats + c * kSoaLanes + j % kSoaLanes;
}

struct SoaLayout {
  static constexpr bool kSoa = true;
  template <class V>
  CRITTER_BLEND_INLINE static void load_rot(const float* pose, std::size_t j, T<V> (&r)[4]) {
    for (std::size_t k = 0; k < 4; ++k)
      r[k] = V::load_aos(soa_row(pose, j, kRotationOffset + k), 0);
  }
  template <class V>
  CRITTER_BLEND_INLINE static void store_rot(float* pose, std::size_t j, const T<V> (&r)[4]) {
    for (std::size_t k = 0; k < 4; ++k)
      V::store_aos(soa_row(pose, j, kRotationOffset + k), 0, r[k]);
  }
};

template <class V, int N, class L>
CRITTER_BLEND_INLINE void load_rotations(const float* pose, const std::size_t (&at)[N],
                                         T<V> (&r)[N][4]) {
  for (int n = 0; n < N; ++n) L::template load_rot<V>(pose, at[n], r[n]);
}

// The lane weights of a non-uniform layer for N blocks.
template <class V, int N>
CRITTER_BLEND_INLINE void layer_weights(const KernelLayer& l, const std::size_t (&at)[N],
                                        T<V> (&w)[N]) {
  for (int n = 0; n < N; ++n) w[n] = lane_weights<V>(l, at[n]);
}

// The weight of a uniform layer on every lane of N groups.
template <class V, int N>
CRITTER_BLEND_INLINE Nlerp<V, N> uniform_weights(float weight) {
  Nlerp<V, N> w;
  for (int n = 0; n < N; ++n) w.f[n] = V::set1(weight);
  return w;
}

// Where the rotation of a lane waits for its normalisation (kRotLerp: 1 where an override layer
// with weight in (0, 1) lerped it since the last full override or additive layer, else 0).
template <class V, int N>
struct Pending {
  T<V> lanes[N];
};

// The rotations of an override layer on N blocks.
template <class V, int N, class L, KernelRotations kRot>
CRITTER_BLEND_INLINE void override_rotations(T<V> (&rot)[N][4], const KernelLayer& l,
                                             const std::size_t (&at)[N], Pending<V, N>& pending) {
  T<V> rin[N][4];
  load_rotations<V, N, L>(l.pose, at, rin);
  const T<V> one = V::set1(1.0f), zero = V::set1(0.0f);
  if (l.uniform) {
    // 0 < weight < 1 on every joint.
    if constexpr (kRot == kRotLerp) {
      lerp<V, N>(rot, rin, uniform_weights<V, N>(l.weight).f, rot);
      for (int n = 0; n < N; ++n) pending.lanes[n] = one;
    } else if constexpr (kRot == kRotNlerp) {
      nlerp<V, N>(rot, rin, uniform_weights<V, N>(l.weight).f, rot);
    } else {
      slerp<V, N>(rot, rin, UniformFactors<V>{&l.factors}, rot);
    }
    return;
  }
  T<V> w[N];
  layer_weights<V, N>(l, at, w);
  typename V::M full[N], some[N];
  bool partial = false;
  for (int n = 0; n < N; ++n) {
    full[n] = V::ge(w[n], one);
    some[n] = V::gt(w[n], zero);
    partial = partial || V::any(V::partial(some[n], full[n]));
  }
  if (partial) {
    T<V> r[N][4];
    if constexpr (kRot == kRotLerp) {
      lerp<V, N>(rot, rin, w, r);
    } else if constexpr (kRot == kRotNlerp) {
      nlerp<V, N>(rot, rin, w, r);
    } else {
      slerp<V, N>(rot, rin, LaneFactors<V, N>(w), r);
    }
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < 4; ++k)
        rot[n][k] = V::select(full[n], rin[n][k], V::select(some[n], r[n][k], rot[n][k]));
    if constexpr (kRot == kRotLerp)
      for (int n = 0; n < N; ++n)
        pending.lanes[n] = V::select(full[n], zero, V::select(some[n], one, pending.lanes[n]));
  } else {
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < 4; ++k) rot[n][k] = V::select(full[n], rin[n][k], rot[n][k]);
    if constexpr (kRot == kRotLerp)
      for (int n = 0; n < N; ++n) pending.lanes[n] = V::select(full[n], zero, pending.lanes[n]);
  }
}

// The rotations of an additive layer on N blocks (normalised where the layer applies).
template <class V, int N, class L, KernelRotations kRot>
CRITTER_BLEND_INLINE void additive_rotations(T<V> (&rot)[N][4], const KernelLayer& l,
                                             const std::size_t (&at)[N], Pending<V, N>& pending) {
  T<V> rin[N][4];
  load_rotations<V, N, L>(l.pose, at, rin);
  const T<V> one = V::set1(1.0f), zero = V::set1(0.0f);
  if (l.uniform) {
    if constexpr (kRot != kRotSlerp) {
      add_rotation<V, N>(rot, rin, uniform_weights<V, N>(l.weight < 1.0f ? l.weight : 1.0f),
                         AllLanes{});
    } else {
      add_rotation<V, N>(rot, rin, UniformFactors<V>{&l.factors}, AllLanes{});
    }
    if constexpr (kRot == kRotLerp)
      for (int n = 0; n < N; ++n) pending.lanes[n] = zero;
    return;
  }
  T<V> w[N], f[N];
  layer_weights<V, N>(l, at, w);
  SomeLanes<V, N> some;
  for (int n = 0; n < N; ++n) {
    f[n] = V::min(w[n], one);
    some.some[n] = V::gt(w[n], zero);
  }
  if constexpr (kRot != kRotSlerp) {
    Nlerp<V, N> lanes;
    for (int n = 0; n < N; ++n) lanes.f[n] = f[n];
    add_rotation<V, N>(rot, rin, lanes, some);
  } else {
    add_rotation<V, N>(rot, rin, LaneFactors<V, N>(f), some);
  }
  if constexpr (kRot == kRotLerp)
    for (int n = 0; n < N; ++n) pending.lanes[n] = V::select(some.some[n], zero, pending.lanes[n]);
}

// The translations and scales of one block of a crossfade (is_crossfade): one vector of its
// floats at a time from the inputs to the output, the rotation floats among them overwritten
// when the rotations are stored.
template <class V>
CRITTER_BLEND_INLINE void crossfade_aos(const KernelArgs& args, std::size_t at) {
  const T<V> w = V::set1(args.layers[0].weight);
  const float* start = args.start + at * kTransformFloats;
  const float* in = args.layers[0].pose + at * kTransformFloats;
  float* out = args.out + at * kTransformFloats;
  for (int v = 0; v < 10; ++v) {
    const T<V> a = V::load_aos(start, v);
    const T<V> x = V::load_aos(in, v);
    V::store_aos(out, v, lerp_vec<V>(a, x, w));
  }
}

// The translations and scales of one block of any other stack (the ten vectors of its floats,
// the rotation floats among them carried along and overwritten when the rotations are stored):
// every layer in order, then the store.
template <class V>
CRITTER_BLEND_INLINE void blend_aos(const KernelArgs& args, std::size_t at) {
  const T<V> one = V::set1(1.0f), zero = V::set1(0.0f);
  const float* start = args.start + at * kTransformFloats;
  float* out = args.out + at * kTransformFloats;
  // SSE2 (sixteen registers, two-operand instructions) takes the ten vectors in two halves of
  // five, each through the whole stack: ten held across the layer loop do not fit beside the
  // temporaries, and the spills cost more than going over the layers twice (its masked stack
  // 12-22 % faster). AVX2 measured no faster that way; AVX-512 has 32 registers.
  constexpr int kPass = kVectorRegisters < 32 && V::kLanes == 4 ? 5 : 10;
  for (int first = 0; first < 10; first += kPass) {
    T<V> s[kPass];
    for (int k = 0; k < kPass; ++k) s[k] = V::load_aos(start, first + k);
    for (std::size_t i = 0; i < args.layer_count; ++i) {
      const KernelLayer& l = args.layers[i];
      const float* in = l.pose + at * kTransformFloats;
      if (l.uniform) {
        const T<V> w = V::set1(l.weight);
        if (l.additive) {
          for (int k = 0; k < kPass; ++k) {
            const T<V> x = V::load_aos(in, first + k);
            const T<V> t = V::add(s[k], V::mul(w, x));
            const T<V> sc = V::mul(s[k], lerp_vec<V>(one, x, w));
            s[k] = V::select(V::scale_floats(first + k), sc, t);
          }
        } else {
          // 0 < weight < 1 on every joint.
          for (int k = 0; k < kPass; ++k) {
            const T<V> x = V::load_aos(in, first + k);
            s[k] = lerp_vec<V>(s[k], x, w);
          }
        }
        continue;
      }
      const T<V> w = lane_weights<V>(l, at);
      for (int k = 0; k < kPass; ++k) {
        const int v = first + k;
        const T<V> x = V::load_aos(in, v);
        const T<V> we = V::expand(w, v);
        if (l.additive) {
          const T<V> t = V::add(s[k], V::mul(we, x));
          const T<V> sc = V::mul(s[k], lerp_vec<V>(one, x, we));
          s[k] = V::select(V::gt(we, zero), V::select(V::scale_floats(v), sc, t), s[k]);
        } else {
          const T<V> lerp = lerp_vec<V>(s[k], x, we);
          s[k] = V::select(V::ge(we, one), x, V::select(V::gt(we, zero), lerp, s[k]));
        }
      }
    }
    for (int k = 0; k < kPass; ++k) V::store_aos(out, first + k, s[k]);
  }
}

// The translations and scales of kLanes joints from joint `at` of structure-of-arrays poses: the
// six rows of one vector each, every layer in order, then the store. The operations of
// blend_aos() on each float, lane weights straight from the layer (one lane, one joint).
template <class V>
CRITTER_BLEND_INLINE void blend_soa_rows(const KernelArgs& args, std::size_t at) {
  constexpr std::size_t kRows[6] = {0, 1, 2, kScaleOffset, kScaleOffset + 1, kScaleOffset + 2};
  const T<V> one = V::set1(1.0f), zero = V::set1(0.0f);
  T<V> s[6];
  for (int r = 0; r < 6; ++r) s[r] = V::load_aos(soa_row(args.start, at, kRows[r]), 0);
  for (std::size_t i = 0; i < args.layer_count; ++i) {
    const KernelLayer& l = args.layers[i];
    T<V> x[6];
    for (int r = 0; r < 6; ++r) x[r] = V::load_aos(soa_row(l.pose, at, kRows[r]), 0);
    if (l.uniform) {
      const T<V> w = V::set1(l.weight);
      if (l.additive) {
        for (int r = 0; r < 3; ++r) s[r] = V::add(s[r], V::mul(w, x[r]));
        for (int r = 3; r < 6; ++r) s[r] = V::mul(s[r], lerp_vec<V>(one, x[r], w));
      } else {
        // 0 < weight < 1 on every joint.
        for (int r = 0; r < 6; ++r) s[r] = lerp_vec<V>(s[r], x[r], w);
      }
      continue;
    }
    const T<V> w = lane_weights<V>(l, at);
    if (l.additive) {
      const auto some = V::gt(w, zero);
      for (int r = 0; r < 3; ++r) s[r] = V::select(some, V::add(s[r], V::mul(w, x[r])), s[r]);
      for (int r = 3; r < 6; ++r)
        s[r] = V::select(some, V::mul(s[r], lerp_vec<V>(one, x[r], w)), s[r]);
    } else {
      const auto full = V::ge(w, one), some = V::gt(w, zero);
      for (int r = 0; r < 6; ++r) {
        const T<V> lerp = lerp_vec<V>(s[r], x[r], w);
        s[r] = V::select(full, x[r], V::select(some, lerp, s[r]));
      }
    }
  }
  for (int r = 0; r < 6; ++r) V::store_aos(soa_row(args.out, at, kRows[r]), 0, s[r]);
}

// The N blocks of kLanes joints starting at joints at[n]. Translations and scales blend first,
// block by block; then the rotations of the N blocks, interleaved, and with kRotLerp the
// normalisation of the lanes still pending. The two parts share nothing but the weights, so the
// first part of the next call runs while the rotations here finish.
template <class V, int N, class L, KernelRotations kRot>
inline void blend_blocks(const KernelArgs& args, const std::size_t (&at)[N]) {
  for (int n = 0; n < N; ++n) {
    if constexpr (L::kSoa) {
      blend_soa_rows<V>(args, at[n]);
    } else {
      blend_aos<V>(args, at[n]);
    }
  }
  const T<V> zero = V::set1(0.0f);
  T<V> rot[N][4];
  Pending<V, N> pending;
  for (int n = 0; n < N; ++n) pending.lanes[n] = zero;
  load_rotations<V, N, L>(args.start, at, rot);
  for (std::size_t i = 0; i < args.layer_count; ++i) {
    const KernelLayer& l = args.layers[i];
    if (l.additive) {
      additive_rotations<V, N, L, kRot>(rot, l, at, pending);
    } else {
      override_rotations<V, N, L, kRot>(rot, l, at, pending);
    }
  }
  if constexpr (kRot == kRotLerp) {
    typename V::M wait[N];
    bool any = false;
    for (int n = 0; n < N; ++n) {
      wait[n] = V::gt(pending.lanes[n], zero);
      any = any || V::any(wait[n]);
    }
    if (any) {
      T<V> unit[N][4];
      normalize<V, N>(rot, unit);
      for (int n = 0; n < N; ++n)
        for (int k = 0; k < 4; ++k) rot[n][k] = V::select(wait[n], unit[n][k], rot[n][k]);
    }
  }
  for (int n = 0; n < N; ++n) L::template store_rot<V>(args.out, at[n], rot[n]);
}

// A crossfade (one uniform override layer over the start) on the N blocks of kLanes joints from
// joints at[n] of Transform arrays: the rotations of the start and the layer read first, the
// translations and scales lerped vector by vector into the output (crossfade_aos), then the
// rotations blended and stored over them. The operations of blend_blocks() on such a stack, in
// the same order (kLerp's one layer is its nlerp), without its per-layer dispatch, pending
// normalisations and the stack of rotations it keeps across layers.
template <class V, int N, KernelRotations kRot>
CRITTER_BLEND_INLINE void crossfade_aos_blocks(const KernelArgs& args, const std::size_t (&at)[N]) {
  const KernelLayer& l = args.layers[0];
  T<V> qa[N][4], qb[N][4], r[N][4];
  for (int n = 0; n < N; ++n) {
    AosLayout::load_rot<V>(args.start, at[n], qa[n]);
    AosLayout::load_rot<V>(l.pose, at[n], qb[n]);
  }
  for (int n = 0; n < N; ++n) crossfade_aos<V>(args, at[n]);
  if constexpr (kRot == kRotSlerp) {
    slerp<V, N>(qa, qb, UniformFactors<V>{&l.factors}, r);
  } else {
    T<V> f[N];
    for (int n = 0; n < N; ++n) f[n] = V::set1(l.weight);
    nlerp<V, N>(qa, qb, f, r);
  }
  for (int n = 0; n < N; ++n) AosLayout::store_rot<V>(args.out, at[n], r[n]);
}

template <class V, int N, KernelRotations kRot, bool kCrossfade>
CRITTER_BLEND_INLINE void aos_blocks(const KernelArgs& args, const std::size_t (&at)[N]) {
  if constexpr (kCrossfade) {
    crossfade_aos_blocks<V, N, kRot>(args, at);
  } else {
    blend_blocks<V, N, AosLayout, kRot>(args, at);
  }
}

// Joints [first, last), last − first >= kLanes: pairs of whole blocks, then what is left below
// two blocks, paired where it is more than one; the last block overlaps the one before it (the
// joints they share are computed twice, with the same result).
template <class V, KernelRotations kRot, bool kCrossfade>
inline void blend_joints_in(const KernelArgs& args, std::size_t first, std::size_t last) {
  constexpr std::size_t kLanes = V::kLanes;
  std::size_t j = first;
  for (; last - j >= 2 * kLanes; j += 2 * kLanes)
    aos_blocks<V, 2, kRot, kCrossfade>(args, {j, j + kLanes});
  const std::size_t rest = last - j;
  if (rest == kLanes) {
    aos_blocks<V, 1, kRot, kCrossfade>(args, {j});
  } else if (rest > kLanes) {
    aos_blocks<V, 2, kRot, kCrossfade>(args, {j, last - kLanes});
  } else if (rest > 0) {
    aos_blocks<V, 1, kRot, kCrossfade>(args, {last - kLanes});
  }
}
template <class V, KernelRotations kRot>
inline void blend_joints_with(const KernelArgs& args, std::size_t first, std::size_t last) {
  if (is_crossfade(args)) {
    blend_joints_in<V, kRot, true>(args, first, last);
  } else {
    blend_joints_in<V, kRot, false>(args, first, last);
  }
}
template <class V>
inline void blend_joints(const KernelArgs& args, std::size_t first, std::size_t last) {
  switch (args.rotations) {
    case kRotLerp:
      return blend_joints_with<V, kRotLerp>(args, first, last);
    case kRotNlerp:
      return blend_joints_with<V, kRotNlerp>(args, first, last);
    default:
      return blend_joints_with<V, kRotSlerp>(args, first, last);
  }
}

// A uniform override layer over joints [first, last) of structure-of-arrays poses (multiples of
// kLanes): group by group of kLanes joints, each row from `start` and the layer to `out`, then
// the rotations. Groups share nothing, so one group's rotation chain runs beside the next
// group's loads. `out` may be `start`: a group is read before it is written.
template <class V, KernelRotations kRot>
CRITTER_BLEND_INLINE void crossfade_soa_span(const float* start, const KernelLayer& l, float* out,
                                             std::size_t first, std::size_t last) {
  const T<V> w = V::set1(l.weight);
  constexpr std::size_t kRows[6] = {0, 1, 2, kScaleOffset, kScaleOffset + 1, kScaleOffset + 2};
  for (std::size_t j = first; j < last; j += V::kLanes) {
    T<V> qa[1][4], qb[1][4], r[1][4];
    SoaLayout::load_rot<V>(start, j, qa[0]);
    SoaLayout::load_rot<V>(l.pose, j, qb[0]);
    for (const std::size_t c : kRows) {
      const T<V> x = V::load_aos(soa_row(start, j, c), 0);
      const T<V> y = V::load_aos(soa_row(l.pose, j, c), 0);
      V::store_aos(soa_row(out, j, c), 0, lerp_vec<V>(x, y, w));
    }
    if constexpr (kRot == kRotLerp) {
      const T<V> f[1] = {w};
      lerp<V, 1>(qa, qb, f, r);
    } else if constexpr (kRot == kRotNlerp) {
      const T<V> f[1] = {w};
      nlerp<V, 1>(qa, qb, f, r);
    } else {
      slerp<V, 1>(qa, qb, UniformFactors<V>{&l.factors}, r);
    }
    SoaLayout::store_rot<V>(out, j, r[0]);
  }
}

// Joints [first, last) of structure-of-arrays poses, both multiples of kSoaLanes. Slerp and
// nlerp: one layer at a time over every group of kLanes joints, the first from `start`, the
// others from `out` in place. The scalar kernel folds the layers joint by joint; each joint meets
// the same operations in the same order here, so the bits agree, and the groups of one layer are
// independent: the long dependency chain of a rotation blend overlaps the other groups' instead
// of the next layer's. Lerp: a stack of uniform override layers goes the same way, every layer
// but the last lerping without normalising and the last one an nlerp (the lerp and the
// normalisation the scalar kernel ends with); any other stack, whose joints wait for their
// normalisation lane by lane, goes every layer on two groups at a time in registers, as for
// Transform arrays.
template <class V, KernelRotations kRot>
inline void blend_soa_with(const KernelArgs& args, std::size_t first, std::size_t last) {
  constexpr std::size_t kLanes = V::kLanes;
  static_assert(kSoaLanes % kLanes == 0);
  if constexpr (kRot == kRotLerp) {
    bool crossfades = true;
    for (std::size_t i = 0; i < args.layer_count; ++i)
      crossfades = crossfades && args.layers[i].uniform && !args.layers[i].additive;
    if (crossfades) {
      for (std::size_t i = 0; i < args.layer_count; ++i) {
        const float* start = i == 0 ? args.start : args.out;
        if (i + 1 < args.layer_count) {
          crossfade_soa_span<V, kRotLerp>(start, args.layers[i], args.out, first, last);
        } else {
          crossfade_soa_span<V, kRotNlerp>(start, args.layers[i], args.out, first, last);
        }
      }
      return;
    }
    std::size_t j = first;
    for (; last - j >= 2 * kLanes; j += 2 * kLanes)
      blend_blocks<V, 2, SoaLayout, kRot>(args, {j, j + kLanes});
    if (j < last) blend_blocks<V, 1, SoaLayout, kRot>(args, {j});
    return;
  }
  KernelArgs one = args;
  one.layer_count = 1;
  for (std::size_t i = 0; i < args.layer_count; ++i) {
    const KernelLayer& l = args.layers[i];
    const float* start = i == 0 ? args.start : args.out;
    if (l.uniform && !l.additive) {
      crossfade_soa_span<V, kRot>(start, l, args.out, first, last);
      continue;
    }
    one.layers = &l;
    one.start = start;
    for (std::size_t j = first; j < last; j += kLanes)
      blend_blocks<V, 1, SoaLayout, kRot>(one, {j});
  }
}
// A crossfade (is_crossfade(args)) of structure-of-arrays poses straight to its span: what
// blend_soa() does for this stack (with kLerp a single layer's lerp is the last one, so it is
// normalised, as kNlerp's), without the dispatch of the general stack.
template <class V>
inline void crossfade_soa(const KernelArgs& args, std::size_t first, std::size_t last) {
  if (args.rotations == kRotSlerp) {
    crossfade_soa_span<V, kRotSlerp>(args.start, args.layers[0], args.out, first, last);
  } else {
    crossfade_soa_span<V, kRotNlerp>(args.start, args.layers[0], args.out, first, last);
  }
}
template <class V>
inline void blend_soa(const KernelArgs& args, std::size_t first, std::size_t last) {
  switch (args.rotations) {
    case kRotLerp:
      return blend_soa_with<V, kRotLerp>(args, first, last);
    case kRotNlerp:
      return blend_soa_with<V, kRotNlerp>(args, first, last);
    default:
      return blend_soa_with<V, kRotSlerp>(args, first, last);
  }
}

}  // namespace critter::anim::detail::blend_simd

#undef CRITTER_BLEND_INLINE
#undef CRITTER_BLEND_VECTOR_REGISTERS
