// SPDX-License-Identifier: MIT
// The blending kernel on eight lanes with AVX2 (blend_kernel_simd.h): eight joints per block, the
// eighty floats of their transforms in ten vectors, the rotations of joints k and k + 4 in the
// two halves of one register before a transpose within the halves. Everything here is compiled
// for AVX2 without fused multiply-add and includes no library header (blend_kernels.h); it runs
// only after a run-time check of the CPU (blending_path_available).
#include "anim/blend_kernels.h"

#if defined(CRITTER_BLEND_X86)

#include <immintrin.h>

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC target("avx2")
#pragma GCC optimize("fp-contract=off")
#endif

#include "anim/blend_kernel_simd.h"
#include "anim/blend_lanes_8.h"

namespace critter::anim::detail {

void blend_joints_avx2(const KernelArgs& args, std::size_t first, std::size_t last) {
  blend_simd::blend_joints<V8>(args, first, last);
}

void blend_soa_avx2(const KernelArgs& args, std::size_t first, std::size_t last) {
  blend_simd::blend_soa<V8>(args, first, last);
}

void crossfade_soa_avx2(const KernelArgs& args, std::size_t first, std::size_t last) {
  blend_simd::crossfade_soa<V8>(args, first, last);
}

}  // namespace critter::anim::detail

#if defined(__clang__)
#pragma clang attribute pop
#elif defined(__GNUC__)
#pragma GCC pop_options
#endif

#endif
