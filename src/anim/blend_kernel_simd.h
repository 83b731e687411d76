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
// stored once, its ten vectors first and the rotations over them.
//
// V provides: T (kLanes floats), M (a lane mask); set1, add, sub, mul, div, sqrt, min,
// sign_bits (the sign bits of a vector), xor_; ge, gt (ordered compares), select (m ? a : b),
// partial (lanes of the first mask that are not in the second), any; and per block of joints
// (kTail: a last block of `count` < kLanes joints, only where V has masked loads) load_aos,
// store_aos, load_rot, store_rot, lane_mask (the layer mask), sampled (nonzero bytes), expand
// (the lane weights spread over the floats of vector v) and scale_floats (the floats of vector v
// that are scale components).
#pragma once

#include "anim/blend_kernels.h"

namespace critter::anim::detail::blend_simd {

template <class V>
using T = typename V::T;

template <class V>
struct Block {
  T<V> aos[kTransformFloats];
  T<V> rot[4];
};

// The slerp factors of a uniform layer, broadcast where they are used.
template <class V>
struct UniformFactors {
  const SlerpFactors* s;
  T<V> ff() const { return V::set1(s->ff); }
  T<V> gg() const { return V::set1(s->gg); }
  T<V> af(int m) const { return V::set1(s->af[m]); }
  T<V> ag(int m) const { return V::set1(s->ag[m]); }
};

// The slerp factors of lane weights f, as slerp_factors() computes them.
template <class V>
struct LaneFactors {
  T<V> ff_, gg_, f2_, g2_;
  explicit LaneFactors(T<V> f) {
    const T<V> g = V::sub(V::set1(1.0f), f);
    ff_ = V::add(f, f);
    gg_ = V::add(g, g);
    f2_ = V::mul(ff_, ff_);
    g2_ = V::mul(gg_, gg_);
  }
  T<V> ff() const { return ff_; }
  T<V> gg() const { return gg_; }
  T<V> af(int m) const {
    return V::mul(V::sub(f2_, V::set1(kSlerpSquares[m])), V::set1(kSlerpInv[m]));
  }
  T<V> ag(int m) const {
    return V::mul(V::sub(g2_, V::set1(kSlerpSquares[m])), V::set1(kSlerpInv[m]));
  }
};

// slerp_blend() on every lane.
template <class V, class F>
inline void slerp(const T<V> (&a)[4], const T<V> (&b)[4], const F& factors, T<V> (&out)[4]) {
  const T<V> one = V::set1(1.0f), half = V::set1(0.5f);
  const T<V> d0 = V::add(V::add(V::add(V::mul(a[0], b[0]), V::mul(a[1], b[1])), V::mul(a[2], b[2])),
                         V::mul(a[3], b[3]));
  const T<V> sign = V::sign_bits(d0);
  const T<V> d = V::xor_(d0, sign);
  const T<V> c = V::sqrt(V::add(half, V::mul(half, d)));
  const T<V> xm1 = V::sub(c, one);
  const T<V> half_inv = V::div(half, c);
  // The first term multiplies 1: (af·xm1)·1 is af·xm1 exactly.
  T<V> hf = V::add(one, V::mul(factors.af(kSlerpTerms), xm1));
  T<V> hg = V::add(one, V::mul(factors.ag(kSlerpTerms), xm1));
  for (int m = kSlerpTerms - 1; m >= 1; --m) {
    hf = V::add(one, V::mul(V::mul(factors.af(m), xm1), hf));
    hg = V::add(one, V::mul(V::mul(factors.ag(m), xm1), hg));
  }
  const T<V> ca = V::mul(V::mul(factors.gg(), hg), half_inv);
  const T<V> cb = V::xor_(V::mul(V::mul(factors.ff(), hf), half_inv), sign);
  T<V> q[4];
  for (int k = 0; k < 4; ++k) q[k] = V::add(V::mul(ca, a[k]), V::mul(cb, b[k]));
  const T<V> len2 = V::add(
      V::add(V::add(V::mul(q[0], q[0]), V::mul(q[1], q[1])), V::mul(q[2], q[2])), V::mul(q[3], q[3]));
  const T<V> inv_len = V::sub(V::set1(1.5f), V::mul(half, len2));
  for (int k = 0; k < 4; ++k) out[k] = V::mul(q[k], inv_len);
}

// The additive rotation of add_joint() on every lane: rot · slerp(identity, in, f), normalised.
template <class V, class F>
inline void add_rotation(const T<V> (&rot)[4], const T<V> (&in)[4], const F& factors,
                         T<V> (&out)[4]) {
  const T<V> zero = V::set1(0.0f), one = V::set1(1.0f);
  const T<V> identity[4] = {zero, zero, zero, one};
  T<V> q[4];
  slerp<V>(identity, in, factors, q);
  const T<V>(&p)[4] = rot;
  const T<V> x = V::sub(V::add(V::add(V::mul(p[3], q[0]), V::mul(p[0], q[3])), V::mul(p[1], q[2])),
                        V::mul(p[2], q[1]));
  const T<V> y = V::sub(V::add(V::add(V::mul(p[3], q[1]), V::mul(p[1], q[3])), V::mul(p[2], q[0])),
                        V::mul(p[0], q[2]));
  const T<V> z = V::sub(V::add(V::add(V::mul(p[3], q[2]), V::mul(p[2], q[3])), V::mul(p[0], q[1])),
                        V::mul(p[1], q[0]));
  const T<V> r = V::sub(V::sub(V::sub(V::mul(p[3], q[3]), V::mul(p[0], q[0])), V::mul(p[1], q[1])),
                        V::mul(p[2], q[2]));
  const T<V> len2 =
      V::add(V::add(V::add(V::mul(x, x), V::mul(y, y)), V::mul(z, z)), V::mul(r, r));
  const T<V> inv = V::div(one, V::sqrt(len2));
  const auto some = V::gt(len2, zero);
  out[0] = V::select(some, V::mul(x, inv), zero);
  out[1] = V::select(some, V::mul(y, inv), zero);
  out[2] = V::select(some, V::mul(z, inv), zero);
  out[3] = V::select(some, V::mul(r, inv), one);
}

// The lane weights of a non-uniform layer: weight · mask, 0 where the layer sampled nothing.
template <class V, bool kTail>
inline T<V> lane_weights(const KernelLayer& l, std::size_t j, unsigned count) {
  T<V> w = V::set1(l.weight);
  if (l.mask != nullptr) w = V::mul(w, V::template lane_mask<kTail>(l.mask + j, count));
  if (l.sampled != nullptr)
    w = V::select(V::template sampled<kTail>(l.sampled + j, count), w, V::set1(0.0f));
  return w;
}

// An override layer on the block of joints from j.
template <class V, bool kTail>
inline void override_layer(Block<V>& s, const KernelLayer& l, std::size_t j, unsigned count) {
  const float* in = l.pose + j * kTransformFloats;
  T<V> rin[4];
  V::template load_rot<kTail>(in, count, rin);
  if (l.uniform) {
    // 0 < weight < 1 on every joint.
    slerp<V>(s.rot, rin, UniformFactors<V>{&l.factors}, s.rot);
    const T<V> w = V::set1(l.weight);
    for (int v = 0; v < 10; ++v) {
      const T<V> x = V::template load_aos<kTail>(in, v, count);
      s.aos[v] = V::add(s.aos[v], V::mul(V::sub(x, s.aos[v]), w));
    }
    return;
  }
  const T<V> w = lane_weights<V, kTail>(l, j, count);
  const T<V> one = V::set1(1.0f), zero = V::set1(0.0f);
  const auto full = V::ge(w, one);
  const auto some = V::gt(w, zero);
  if (V::any(V::partial(some, full))) {
    T<V> r[4];
    slerp<V>(s.rot, rin, LaneFactors<V>(w), r);
    for (int k = 0; k < 4; ++k)
      s.rot[k] = V::select(full, rin[k], V::select(some, r[k], s.rot[k]));
  } else {
    for (int k = 0; k < 4; ++k) s.rot[k] = V::select(full, rin[k], s.rot[k]);
  }
  for (int v = 0; v < 10; ++v) {
    const T<V> x = V::template load_aos<kTail>(in, v, count);
    const T<V> we = V::expand(w, v);
    const T<V> lerp = V::add(s.aos[v], V::mul(V::sub(x, s.aos[v]), we));
    s.aos[v] = V::select(V::ge(we, one), x, V::select(V::gt(we, zero), lerp, s.aos[v]));
  }
}

// An additive layer on the block of joints from j.
template <class V, bool kTail>
inline void additive_layer(Block<V>& s, const KernelLayer& l, std::size_t j, unsigned count) {
  const float* in = l.pose + j * kTransformFloats;
  T<V> rin[4];
  V::template load_rot<kTail>(in, count, rin);
  const T<V> one = V::set1(1.0f), zero = V::set1(0.0f);
  if (l.uniform) {
    add_rotation<V>(s.rot, rin, UniformFactors<V>{&l.factors}, s.rot);
    const T<V> w = V::set1(l.weight);
    for (int v = 0; v < 10; ++v) {
      const T<V> x = V::template load_aos<kTail>(in, v, count);
      const T<V> t = V::add(s.aos[v], V::mul(w, x));
      const T<V> sc = V::mul(s.aos[v], V::add(one, V::mul(V::sub(x, one), w)));
      s.aos[v] = V::select(V::scale_floats(v), sc, t);
    }
    return;
  }
  const T<V> w = lane_weights<V, kTail>(l, j, count);
  const auto some = V::gt(w, zero);
  T<V> r[4];
  add_rotation<V>(s.rot, rin, LaneFactors<V>(V::min(w, one)), r);
  for (int k = 0; k < 4; ++k) s.rot[k] = V::select(some, r[k], s.rot[k]);
  for (int v = 0; v < 10; ++v) {
    const T<V> x = V::template load_aos<kTail>(in, v, count);
    const T<V> we = V::expand(w, v);
    const T<V> t = V::add(s.aos[v], V::mul(we, x));
    const T<V> sc = V::mul(s.aos[v], V::add(one, V::mul(V::sub(x, one), we)));
    s.aos[v] = V::select(V::gt(we, zero), V::select(V::scale_floats(v), sc, t), s.aos[v]);
  }
}

// Joints j .. j + count − 1 (count = kLanes unless kTail).
template <class V, bool kTail>
inline void blend_block(const KernelArgs& args, std::size_t j, unsigned count) {
  Block<V> s;
  const float* start = args.start + j * kTransformFloats;
  for (int v = 0; v < 10; ++v) s.aos[v] = V::template load_aos<kTail>(start, v, count);
  V::template load_rot<kTail>(start, count, s.rot);
  for (std::size_t i = 0; i < args.layer_count; ++i) {
    const KernelLayer& l = args.layers[i];
    if (l.additive) {
      additive_layer<V, kTail>(s, l, j, count);
    } else {
      override_layer<V, kTail>(s, l, j, count);
    }
  }
  float* out = args.out + j * kTransformFloats;
  for (int v = 0; v < 10; ++v) V::template store_aos<kTail>(out, v, s.aos[v], count);
  V::template store_rot<kTail>(out, count, s.rot);
}

// Joints [first, last), last − first >= kLanes: whole blocks, then a last block that overlaps
// the one before it, or with kTail a partial block.
template <class V, bool kHasTail>
inline void blend_joints(const KernelArgs& args, std::size_t first, std::size_t last) {
  constexpr std::size_t kLanes = V::kLanes;
  std::size_t j = first;
  for (; j + kLanes <= last; j += kLanes) blend_block<V, false>(args, j, kLanes);
  if (j == last) return;
  if constexpr (kHasTail) {
    blend_block<V, true>(args, j, static_cast<unsigned>(last - j));
  } else {
    blend_block<V, false>(args, last - kLanes, kLanes);
  }
}

}  // namespace critter::anim::detail::blend_simd
