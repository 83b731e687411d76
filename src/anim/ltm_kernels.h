// SPDX-License-Identifier: MIT
// Internal: the forward passes behind LocalToModelJob, one per instruction set, and the scalar
// reference they are tested against. Raw pointers only, so that ltm_avx2.cpp and ltm_avx512.cpp
// include no library header (an inline function emitted there, compiled for a wider instruction
// set, could be picked by the linker for the whole program).
#pragma once

#include <cstddef>
#include <cstdint>

namespace critter::anim::detail {

// Floats per joint of `local`: translation xyz, rotation xyzw, scale xyz (critter::Transform).
inline constexpr std::size_t kLocalFloats = 10;

// Entry (column c, row r), c and r < 3, of a joint's rotation-scale matrix as the
// structure-of-arrays passes compute it, eight or sixteen joints a register: u = q[ua]·q[ub] and
// v = q[va]·q[vb] (quaternion components x y z w = 0..3), then twice·(sign·v + u) + offset,
// times the scale of column c. The same operations as glm::mat3_cast (the multiplies by ±1 and
// ±2 are exact), so the same bits as the other passes. Plain data: safe to include anywhere.
struct RotationEntry {
  int ua, ub, va, vb;
  float sign, twice, offset;
};
inline constexpr RotationEntry kRotationEntries[3][3] = {
    {{1, 1, 2, 2, 1, -2, 1}, {0, 1, 3, 2, 1, 2, -0.0f}, {0, 2, 3, 1, -1, 2, -0.0f}},
    {{0, 1, 3, 2, -1, 2, -0.0f}, {0, 0, 2, 2, 1, -2, 1}, {1, 2, 3, 0, 1, 2, -0.0f}},
    {{0, 2, 3, 1, 1, 2, -0.0f}, {1, 2, 3, 0, -1, 2, -0.0f}, {0, 0, 1, 1, 1, -2, 1}}};

// Every pass computes, over the joints [first, last) of a parents-first skeleton (parents[i] < i,
// or -1; the joints below `first` already done),
//   model[i] = M(parents[i]) · T·R·S(local i), then · correction when parents[i] is -1 and
//   `correction` is not null,
// where M(-1) is `root`, M(p) is model[p], and `local` holds the joints from `first` on
// (local i at local + (i − first)·kLocalFloats). `parents` and `model` are indexed by joint.
// Matrices are 16 floats, column-major; `correction` is affine. Each entry comes out of the same
// float operations in the same order (quaternion to matrix as glm::mat3_cast, then the parent's
// columns weighted and summed left to right, column 3 last), so all passes give the same bits.
// `model` must not overlap the other arrays.
void local_to_model_scalar(const std::int16_t* parents, std::size_t first, std::size_t last,
                           const float* local, const float* root, const float* correction,
                           float* model);

// Four joints' quaternions at a time on 128-bit registers (SSE2).
void local_to_model_sse2(const std::int16_t* parents, std::size_t first, std::size_t last,
                         const float* local, const float* root, const float* correction,
                         float* model);
// One joint's matrix in two 256-bit registers. Only called where the CPU has AVX2 and FMA.
void local_to_model_avx2(const std::int16_t* parents, std::size_t first, std::size_t last,
                         const float* local, const float* root, const float* correction,
                         float* model);
// The AVX2 pass over all n joints of a structure-of-arrays pose (`soa`: SoaTransform blocks as
// floats, 64-byte aligned): the local matrices of eight joints at a time, the same bits. Only
// called where the CPU has AVX2 and FMA.
void local_to_model_avx2_soa(const std::int16_t* parents, std::size_t n, const float* soa,
                             const float* root, const float* correction, float* model);
// One joint's matrix per 512-bit register. Only called where the CPU has AVX-512 F and FMA.
void local_to_model_avx512(const std::int16_t* parents, std::size_t first, std::size_t last,
                           const float* local, const float* root, const float* correction,
                           float* model);
// The AVX-512 pass over all n joints of a structure-of-arrays pose (`soa`: SoaTransform blocks
// as floats, 64-byte aligned): the local matrices of sixteen joints at a time, the same bits.
void local_to_model_avx512_soa(const std::int16_t* parents, std::size_t n, const float* soa,
                               const float* root, const float* correction, float* model);

}  // namespace critter::anim::detail
