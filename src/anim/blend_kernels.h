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

// The SIMD kernels exist on x86 with GCC or clang (their target attributes and intrinsics).
#if (defined(__x86_64__) || defined(__i386__)) && defined(__SSE2__) && defined(__GNUC__)
#define CRITTER_BLEND_X86 1
#endif

namespace critter::anim::detail {

// A Transform as the kernels see it: 10 floats, translation x y z, rotation x y z w, scale x y z.
inline constexpr std::size_t kTransformFloats = 10;
inline constexpr std::size_t kRotationOffset = 3;
inline constexpr std::size_t kScaleOffset = 7;

// The blending slerp (slerp_blend below): terms of the sine-ratio series of the half angle, and per
// term m = 1..kSlerpTerms the factor 1 / (m (2m + 1)) and m². The last factor carries the
// correction μ = 1.144347 that compensates for the terms left out (Eberly's "A fast and accurate
// algorithm for computing SLERP" corrects the last term of the full-angle series the same way).
inline constexpr int kSlerpTerms = 5;
inline constexpr float kSlerpInv[kSlerpTerms + 1] = {0.0f,         1.0f / 3.0f,  1.0f / 10.0f,
                                                     1.0f / 21.0f, 1.0f / 36.0f, 1.144347f / 55.0f};
inline constexpr float kSlerpSquares[kSlerpTerms + 1] = {0.0f, 1.0f, 4.0f, 9.0f, 16.0f, 25.0f};

// What the blending slerp needs of a blend factor f: 2f, 2(1 − f) and per term m the series
// coefficients ((2f)² − m²) / (m (2m + 1)) and ((2(1 − f))² − m²) / (m (2m + 1)).
struct SlerpFactors {
  float ff = 0.0f, gg = 0.0f;
  float af[kSlerpTerms + 1] = {};
  float ag[kSlerpTerms + 1] = {};
};

// The factors of f, computed with the operations the SIMD kernels run lane by lane.
SlerpFactors slerp_factors(float f);

// The blending slerp of unit quaternions `a` and `b` (x y z w) along the shorter arc for the
// factors of f in [0, 1]: 0 gives a, 1 gives b or -b (within rounding), normalised. Against a
// double-precision slerp every component is within 2e-7 (3e-7 is tested): the weights
// sin((1 - f)θ)/sin θ and sin(fθ)/sin θ are the ratios of the half angle φ = θ/2, whose cosine
// sqrt((1 + cos θ)/2) is at least 0.707 on the shorter arc, sin(2f·φ)/sin φ / (2 cos φ), each
// a kSlerpTerms-term series in (cos φ − 1) with the corrected last term (truncation below 7e-8
// rad on every arc), and one Newton step from 1 normalises. No branch, no transcendental call.
// `out` may alias `a` or `b`.
void slerp_blend(const float* a, const float* b, const SlerpFactors& factors, float* out);

// One joint (kTransformFloats floats) of an override layer with weight f in (0, 1): translation
// and scale a + (b − a)·f, rotation slerp_blend. `out` may alias `a` or `b`.
void blend_joint(const float* a, const float* b, float f, const SlerpFactors& factors, float* out);

// One layer of the stack, weight > 0.
struct KernelLayer {
  const float* pose = nullptr;            // kTransformFloats per joint
  const float* mask = nullptr;            // per joint, or null: 1 everywhere
  const std::uint8_t* sampled = nullptr;  // per joint, nonzero where set, or null: every joint
  float weight = 0.0f;
  bool additive = false;
  // No mask and no sampled set: every joint has the layer weight. An override layer of this
  // kind has weight < 1 (a full-weight one starts the stack instead).
  bool uniform = false;
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
};

// The reference, one joint at a time.
void blend_joints_scalar(const KernelArgs& args, std::size_t first, std::size_t last);

// Blocks of 4, 8 or 16 consecutive joints from `first`; joints [first, last), last − first at
// least the block size. A count that is no multiple of the block size ends with a block that
// overlaps the one before it and writes the joints they share again with the same values. The
// AVX-512 kernel takes any count and ends with a partial block instead. Each may only be called
// where blend_kernel_available() says so.
void blend_joints_sse2(const KernelArgs& args, std::size_t first, std::size_t last);
void blend_joints_avx2(const KernelArgs& args, std::size_t first, std::size_t last);
void blend_joints_avx512(const KernelArgs& args, std::size_t first, std::size_t last);

}  // namespace critter::anim::detail
