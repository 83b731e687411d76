// SPDX-License-Identifier: MIT
// Internal: the SIMD forward passes behind LocalToModelJob. Raw pointers only, so that the files
// compiled for other instruction sets include no library header (an inline function emitted
// there could be picked by the linker for the whole program).
#pragma once

#include <cstddef>
#include <cstdint>

namespace critter::anim::detail {

// Floats per joint of `local`: translation xyz, rotation xyzw, scale xyz (critter::Transform).
inline constexpr std::size_t kLocalFloats = 10;

// Whether the CPU runs local_to_model_avx512 (AVX-512 F); checked once.
bool cpu_has_ltm_avx512();

// The forward pass over n parents-first joints: model[i] = M(parents[i]) · T·R·S(local i), where
// M(-1) is `root` and M(p) is model[p]; a root joint is then multiplied by `correction` when it is
// not null. Matrices are 16 floats, column-major; `correction` is affine. Each entry comes out of
// the same float operations in the same order as the scalar form (quaternion to matrix as
// glm::mat3_cast, then the parent's columns weighted and summed left to right), so the bits equal
// those of the other paths. Only called after cpu_has_ltm_avx512().
void local_to_model_avx512(const std::int16_t* parents, std::size_t n, const float* local,
                           const float* root, const float* correction, float* model);

}  // namespace critter::anim::detail
