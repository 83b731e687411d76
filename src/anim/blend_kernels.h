// SPDX-License-Identifier: MIT
// The joint part of the BlendingJob (animation-config.md §11) as kernels over plain arrays: a
// start pose and an ordered list of layers fold into the output, one block of joints at a time,
// every layer applied to a block while it is in registers. The scalar kernel is the reference;
// the SIMD kernels (4 lanes with SSE2, 8 with AVX2, 16 with AVX-512) give the same bits.
//
// This header includes no library header and defines no function, so that the SIMD kernel
// files, compiled for instruction sets the CPU may lack, share nothing with the rest of the
// program but these declarations and constants. Kernel files turn off the contraction of a
// multiply and an add into one fused instruction, which would round differently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>  // blend_kernel_simd.h, included after a target pragma

// The SIMD kernels exist on x86 with GCC or clang (their target attributes and intrinsics).
#if (defined(__x86_64__) || defined(__i386__)) && defined(__SSE2__) && defined(__GNUC__)
#define CRITTER_BLEND_X86 1
#endif

namespace critter::anim::detail {

// A Transform as the kernels see it: 10 floats, translation x y z, rotation x y z w, scale x y z.
inline constexpr std::size_t kTransformFloats = 10;
inline constexpr std::size_t kRotationOffset = 3;
inline constexpr std::size_t kScaleOffset = 7;

// Structure-of-arrays poses (critter::SoaTransform): blocks of kSoaLanes joints, each component
// a row of kSoaLanes floats, the rows in the order of a Transform's floats.
inline constexpr std::size_t kSoaLanes = 16;
inline constexpr std::size_t kSoaBlockFloats = kTransformFloats * kSoaLanes;

// The most layers one kernel call takes (KernelArgs::layer_count).
inline constexpr std::size_t kKernelLayers = 32;

// The blending slerp (slerp_blend below): terms of the sine-ratio series of the half angle, and
// per term m = 1..kSlerpTerms the factor 1 / (m (2m + 1)) and m². The last factor carries the
// correction μ = 1.144347 that compensates for the terms left out (Eberly's "A fast and accurate
// algorithm for computing SLERP" corrects the last term of the full-angle series the same way).
inline constexpr int kSlerpTerms = 5;
inline constexpr float kSlerpInv[kSlerpTerms + 1] = {0.0f,         1.0f / 3.0f,  1.0f / 10.0f,
                                                     1.0f / 21.0f, 1.0f / 36.0f, 1.144347f / 55.0f};
inline constexpr float kSlerpSquares[kSlerpTerms + 1] = {0.0f, 1.0f, 4.0f, 9.0f, 16.0f, 25.0f};

// For u = |cos θ| in [0, 1] and the half angle's cosine c = sqrt((1 + u)/2), polynomials in u
// (Chebyshev interpolants, coefficients from degree 0 up) that stand in for a square root and a
// division: c − 1 = (u − 1)·H(u) with H(u) = 1/(2(1 + c)), to 3.2e-7 relative; and
// K(u) = 1/(2c), to 8.5e-5 relative (it scales both sine ratios alike, so its error only scales
// the quaternion, which the final Newton step normalises away to within 1e-8).
inline constexpr float kHalfCosH[7] = {0.292893142f,   -0.0606534816f, 0.027616743f,
                                       -0.0157412775f, 0.00876363646f, -0.00361540541f,
                                       0.000736672548f};
inline constexpr float kHalfInvK[5] = {0.707047045f, -0.350513637f, 0.238551259f, -0.13019146f,
                                       0.0351384543f};

// What the blending slerp needs of a blend factor f: the coefficients of two polynomials of
// degree kSlerpTerms in x = cos φ − 1, the sine ratios sin(2f·φ)/sin φ (cf) and
// sin(2(1 − f)·φ)/sin φ (cg). For t = 2f (or 2(1 − f)) the series is
// t·(1 + a₁x(1 + a₂x(1 + …))) with aₘ = (t² − m²)/(m (2m + 1)), so coefficient k is t·a₁⋯aₖ.
struct SlerpFactors {
  float cf[kSlerpTerms + 1];
  float cg[kSlerpTerms + 1];
};

// The factors of f, computed with the operations the SIMD kernels run lane by lane: t = f + f,
// t² = t·t, aₘ = (t² − m²)·kSlerpInv[m], coefficient k = (…(t·a₁)·a₂…)·aₖ, for f and 1 − f.
SlerpFactors slerp_factors(float f);

// The blending slerp of unit quaternions `a` and `b` (x y z w) along the shorter arc for the
// factors of f in [0, 1]: 0 gives a, 1 gives b or -b (within rounding), normalised. Against a
// double-precision slerp every component is within 2e-7 (3e-7 is tested). The weights
// sin((1 − f)θ)/sin θ and sin(fθ)/sin θ are ratios of the half angle φ = θ/2, whose cosine c is
// at least 0.707 on the shorter arc: sin(2f·φ)/sin φ / (2c), the series truncated after
// kSlerpTerms terms with the corrected last one (below 7e-8 rad on every arc). In order:
// d = (a₀b₀ + a₁b₁) + (a₂b₂ + a₃b₃), negative d flips b; u = |d|, u² and u⁴; H and K in Estrin
// form, (p₀ + p₁u) + u²(p₂ + p₃u) + u⁴((p₄ + p₅u) + u²p₆) and (p₀ + p₁u) + u²(p₂ + p₃u) + u⁴p₄;
// x = (u − 1)·H = c − 1; each ratio polynomial as (c₀ + c₁x) + x²((c₂ + c₃x) + x²(c₄ + c₅x)),
// times K; and one Newton step for 1/sqrt(len²) from 1 normalises. No branch, no square root,
// no division: only multiplies and adds, with short dependency chains. `out` may alias `a` or
// `b`.
void slerp_blend(const float* a, const float* b, const SlerpFactors& factors, float* out);

// The blending nlerp of unit quaternions `a` and `b` (x y z w) along the shorter arc with weight
// f in [0, 1], the fast alternative to slerp_blend (BlendingJob::rotations): lerp_rotation(a, b,
// f, q), then normalize_rotation(q, out) (len² is 0 only when both inputs are zero). 38 vector
// operations a lane group beside the square root and the division, where |q|² expanded from a·a,
// b·b and d (not waiting for q) took 58 and measured 2–13 % slower on 14–67 joints on an Intel Xeon
// (on Zen 5 it had been faster on 14). `out` may alias `a` or `b`.
void nlerp_blend(const float* a, const float* b, float f, float* out);

// The shortest-arc lerp of quaternions `a` and `b` (x y z w) with weight f in [0, 1], not
// normalised: d = (a₀b₀ + a₁b₁) + (a₂b₂ + a₃b₃), f' = −f where d is negative (the sign bit) and
// f elsewhere, g = 1 − f, out = a·g + b·f'. `out` may alias `a` or `b`.
void lerp_rotation(const float* a, const float* b, float f, float* out);

// q · (1 / sqrt(len²)) with len² = (q₀q₀ + q₁q₁) + (q₂q₂ + q₃q₃) where len² > 0, the identity
// elsewhere. `out` may alias `q`.
void normalize_rotation(const float* q, float* out);

// One joint (kTransformFloats floats) of an override layer with weight f in (0, 1): translation
// and scale a + (b − a)·f, rotation slerp_blend. `out` may alias `a` or `b`.
void blend_joint(const float* a, const float* b, float f, const SlerpFactors& factors, float* out);

// How the kernels blend rotations: BlendingJob's RotationBlend, value for value (blending_job.cpp
// checks).
enum class KernelRotations : std::uint8_t { kSlerp, kNlerp, kLerp };

// One layer of the stack, weight > 0. Trivial, so that a stack of them costs nothing to declare.
struct KernelLayer {
  const float* pose;            // kTransformFloats per joint
  const float* mask;            // per joint, or null: 1 everywhere
  const std::uint8_t* sampled;  // per joint, nonzero where set, or null: every joint
  float weight;
  bool additive;
  // No mask and no sampled set: every joint has the layer weight. An override layer of this
  // kind has weight < 1 (a full-weight one starts the stack instead).
  bool uniform;
  // Uniform layers: the slerp factors of the weight (override) or of min(weight, 1) (additive).
  SlerpFactors factors;
};

// Joints [first, last) of `out` from `start` (the rest pose or the bottom layer) and the layers
// in order. `out` aliases no input.
struct KernelArgs {
  const float* start = nullptr;
  const KernelLayer* layers = nullptr;
  std::size_t layer_count = 0;
  float* out = nullptr;
  // How rotations blend: kSlerp with slerp_blend. kNlerp with nlerp_blend instead: an override
  // layer's rotation is nlerp_blend(out, in, w); an additive layer's is the product out · s
  // normalised as before, where s = (in'ₓ·f, in'ᵧ·f, in'₂·f, 1 + (in'_w − 1)·f) is nlerp(1, in, f)
  // before its normalisation (in' = in flipped where in_w is negative, f = min(w, 1)); layers'
  // factors are then unused. kLerp as kNlerp, except that an override layer with weight w in
  // (0, 1) leaves its rotation unnormalised, lerp_rotation(out, in, w), and the joint's rotation
  // is normalised (normalize_rotation) once, after the last layer, unless a full-weight override
  // or an additive layer (whose product is normalised) came after the last such lerp: the
  // weighted sum of the stack's rotations that ozz-animation normalises once.
  KernelRotations rotations = KernelRotations::kSlerp;
};

// The commonest stack, a crossfade: one uniform override layer over the start. The Transform
// kernels give it its own way through (same operations, so the same bits).
inline bool is_crossfade(const KernelArgs& args) {
  return args.layer_count == 1 && args.layers[0].uniform && !args.layers[0].additive;
}

// The reference, one joint at a time.
void blend_joints_scalar(const KernelArgs& args, std::size_t first, std::size_t last);

// Blocks of 4, 8 or 16 consecutive joints from `first`; joints [first, last), last − first at
// least the block size. A count that is no multiple of the block size ends with a block that
// overlaps the one before it and writes the joints they share again with the same values. Each
// may only be called where the CPU has its instruction set (blending_path_available()).
void blend_joints_sse2(const KernelArgs& args, std::size_t first, std::size_t last);
void blend_joints_avx2(const KernelArgs& args, std::size_t first, std::size_t last);
void blend_joints_avx512(const KernelArgs& args, std::size_t first, std::size_t last);
// Blocks of 8 and 4 joints, as blend_joints_avx2 and blend_joints_sse2 do, for CPUs with AVX-512.
void blend_joints_avx512_8(const KernelArgs& args, std::size_t first, std::size_t last);
void blend_joints_avx512_4(const KernelArgs& args, std::size_t first, std::size_t last);
// A crossfade (is_crossfade(args)) on joints [0, n), 8 < n < 16, as one sixteen-lane block under
// masks instead of two eight-lane blocks that overlap: half the instructions for the same bits.
// Reads and writes nothing past joint n - 1.
void crossfade_joints_avx512_short(const KernelArgs& args, std::size_t n);

// The same for structure-of-arrays poses: `start`, `out` and every layer's `pose` point to
// kSoaBlockFloats floats a block; masks and sampled sets stay one entry per joint. Joints
// [first, last), both multiples of kSoaLanes (whole blocks: the caller gives masks that cover
// them); 4, 8 or 16 lanes at a time, one layer at a time over all the joints, the same bits as
// the scalar kernel on every joint. `out` may be `start` (the layers fold in place).
void blend_soa_sse2(const KernelArgs& args, std::size_t first, std::size_t last);
void blend_soa_avx2(const KernelArgs& args, std::size_t first, std::size_t last);
void blend_soa_avx512(const KernelArgs& args, std::size_t first, std::size_t last);
// The same for a crossfade (is_crossfade(args)), the same bits, without the general stack's
// dispatch (3.5 of a one-block crossfade's 25 ns on a Zen 4 core).
void crossfade_soa_sse2(const KernelArgs& args, std::size_t first, std::size_t last);
void crossfade_soa_avx2(const KernelArgs& args, std::size_t first, std::size_t last);
void crossfade_soa_avx512(const KernelArgs& args, std::size_t first, std::size_t last);
// The scalar reference on structure-of-arrays poses of `joints` joints: each block's joints
// gathered, blend_joints_scalar() on them, scattered back; at most kKernelLayers layers; the
// padding lanes of `out` copied from `start`. `out` may be `start`.
void blend_soa_scalar(const KernelArgs& args, std::size_t joints);

}  // namespace critter::anim::detail
