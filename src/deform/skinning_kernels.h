// SPDX-License-Identifier: MIT
// Internal: the skinning kernels behind SkinningJob. Raw pointers only, so that the SIMD files
// include no library header (their code is compiled for other instruction sets, and an inline
// function emitted there could be picked by the linker for the whole program; the one inline
// functions here have no target attribute, so every copy of them is baseline code).
#pragma once

#include <cstddef>
#include <cstdint>

namespace critter::deform::detail {

// Validated job data. Byte pointers and byte strides; null normals/tangents mean "absent".
struct SkinStreams {
  std::size_t count = 0;
  const float* palette = nullptr;  // 16 floats per matrix, column-major
  std::uint32_t palette_last = 0;  // palette size - 1: the clamp for joint indices
  const char* joints = nullptr;
  std::size_t joints_stride = 0;
  const char* weights = nullptr;
  std::size_t weights_stride = 0;
  const char* in_positions = nullptr;
  std::size_t in_positions_stride = 0;
  const char* in_normals = nullptr;
  std::size_t in_normals_stride = 0;
  const char* in_tangents = nullptr;
  std::size_t in_tangents_stride = 0;
  char* out_positions = nullptr;
  std::size_t out_positions_stride = 0;
  char* out_normals = nullptr;
  std::size_t out_normals_stride = 0;
  char* out_tangents = nullptr;
  std::size_t out_tangents_stride = 0;
  // Normals by M3 itself (NormalTransform::kMatrix) instead of its cofactor.
  bool normals_by_matrix = false;
  // Separate tightly packed streams: joints 8 bytes, weights 16, positions and any normals 12
  // (tangents any stride). The SIMD kernels have a loop compiled for these strides.
  bool packed = false;
};

// `s` with the strides that `packed` stands for, as constants: a kernel's loop for packed streams
// starts from this copy, so that the compiler folds the strides into its addressing. (No target
// attribute: wherever a SIMD file emits it, it is compiled for the baseline.)
inline SkinStreams with_packed_strides(SkinStreams s) {
  s.joints_stride = 8;
  s.weights_stride = 16;
  s.in_positions_stride = s.out_positions_stride = 12;
  s.in_normals_stride = s.out_normals_stride = 12;
  return s;
}

// The palette matrix of influence `c` (0-3) of the vertex whose u16vec4 of joint indices starts
// at `joints`: the index clamped to the palette, min(joint, palette_last), so that a hostile
// index reads the last matrix. Scalar code in general registers: the AVX2 and AVX-512 kernels
// call it for each influence rather than computing the offsets in vector registers, whose every
// offset would have to move back to a general register to address its load (the AVX2 kernel took
// a tenth longer that way on Zen 4).
inline const float* influence_matrix(const SkinStreams& s, const char* joints, int c) {
  std::uint16_t j;
  __builtin_memcpy(&j, joints + 2 * c, 2);
  return s.palette + std::size_t{j < s.palette_last ? j : s.palette_last} * 16;
}

// How a block turns its normals: none, by the blended matrix (NormalTransform::kMatrix) or by its
// cofactor (the inverse transpose times the determinant, sign kept). A template parameter of the
// SIMD kernels' block loops, as the tangents' presence and the packed strides are, so that no
// branch splits a block.
enum class Normals { kNone, kMatrix, kCofactor };

// The block loop compiled for the streams `s`: Loop::run<kPacked, kNormals, kTangents>(s), with
// kPacked for separate tightly packed streams (SkinStreams::packed), the normal mode and whether
// there are tangents. Returns what the loop returns (the vertices it skinned). Each SIMD kernel
// passes a Loop type of its own file (internal linkage), so every instantiation stays in that file.
template <class Loop, bool kPacked, Normals kNormals>
std::size_t run_with_tangents(const SkinStreams& s) {
  return s.in_tangents != nullptr ? Loop::template run<kPacked, kNormals, true>(s)
                                  : Loop::template run<kPacked, kNormals, false>(s);
}
template <class Loop, bool kPacked>
std::size_t run_with_normals(const SkinStreams& s) {
  if (s.in_normals == nullptr) return run_with_tangents<Loop, kPacked, Normals::kNone>(s);
  if (s.normals_by_matrix) return run_with_tangents<Loop, kPacked, Normals::kMatrix>(s);
  return run_with_tangents<Loop, kPacked, Normals::kCofactor>(s);
}
template <class Loop>
std::size_t run_block_loop(const SkinStreams& s) {
  return s.packed ? run_with_normals<Loop, true>(s) : run_with_normals<Loop, false>(s);
}

// Reference path: skins vertices [begin, count).
void skin_scalar(const SkinStreams& s, std::size_t begin);

// SIMD paths: each skins whole blocks from vertex 0 and returns how many vertices it did; the
// caller finishes the rest with skin_scalar. A block never contains the last vertex, because the
// kernels read 16 bytes for a 12-byte vec3 and only the next element makes that read safe.
std::size_t skin_sse2(const SkinStreams& s);
// Requires a CPU with AVX2 and FMA.
std::size_t skin_avx2(const SkinStreams& s);
// Requires a CPU with AVX-512 F and DQ (and AVX2, FMA).
std::size_t skin_avx512(const SkinStreams& s);

}  // namespace critter::deform::detail
