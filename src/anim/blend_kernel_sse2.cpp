// SPDX-License-Identifier: MIT
// The blending kernel on four lanes with SSE2 (blend_kernel_simd.h): four joints per block, the
// forty floats of their transforms in ten vectors, the rotations transposed with shuffles.
#include "anim/blend_kernels.h"

#if defined(CRITTER_BLEND_X86)

#include <immintrin.h>

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "anim/blend_kernel_simd.h"
#include "anim/blend_lanes_4.h"

namespace critter::anim::detail {

void blend_joints_sse2(const KernelArgs& args, std::size_t first, std::size_t last) {
  blend_simd::blend_joints<V4>(args, first, last);
}

void blend_soa_sse2(const KernelArgs& args, std::size_t first, std::size_t last) {
  blend_simd::blend_soa<V4>(args, first, last);
}

void crossfade_soa_sse2(const KernelArgs& args, std::size_t first, std::size_t last) {
  blend_simd::crossfade_soa<V4>(args, first, last);
}

}  // namespace critter::anim::detail

#endif
