// SPDX-License-Identifier: MIT
// SkinningJob: linear blend skinning with four influences per vertex (DESIGN.md conventions 1, 6
// and 7). Vertex streams are strided so that separate (structure of arrays) and interleaved
// buffers both work. The scalar path is the reference; the SIMD paths (SSE2, and AVX2 + FMA and
// AVX-512 when the CPU has them, detected at run time) agree with it within 1e-5.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include <glm/gtc/type_precision.hpp>

#include "critter/core/cpu_features.h"
#include "critter/core/error.h"
#include "critter/core/math.h"

namespace critter::deform {

// A read-only strided stream: element i starts at byte `i * stride` from `data`. A stride of 0
// repeats element 0 for every vertex (allowed where the job says so).
template <class T>
struct InStream {
  const T* data = nullptr;
  std::size_t stride = 0;  // bytes

  InStream() = default;
  InStream(const T* d, std::size_t s) : data(d), stride(s) {}
};

// A writable strided stream: element i starts at byte `i * stride` from `data`.
template <class T>
struct OutStream {
  T* data = nullptr;
  std::size_t stride = 0;  // bytes

  OutStream() = default;
  OutStream(T* d, std::size_t s) : data(d), stride(s) {}
};

// Which implementation run() uses. kAuto picks the fastest the CPU supports (AVX-512, else
// AVX2 + FMA, else SSE2), except that an AMD Zen 4 core, whose AVX-512 runs on 256-bit halves,
// gets AVX2 (measured faster there; cpu_splits_avx512()); kScalar is the plain reference loop.
// The paths agree with the scalar one within 1e-5 (positions relative to their magnitude, unit
// normals and tangents absolute); which one kAuto takes is fixed for the process.
enum class SkinningPath : std::uint8_t { kAuto, kScalar, kSse2, kAvx2, kAvx512 };

// How SkinningJob turns normals by the blended matrix M (its upper 3x3, M3).
//   kInverseTranspose: normalize(inverse-transpose(M3) * n), computed as the cofactor of M3 times
//     sign(det M3). Right under non-uniform scale and mirroring. The default.
//   kMatrix: normalize(M3 * n), as tangents are turned (ozz-animation's default; three.js's
//     skinning shader does the same). The same direction wherever a vertex's blended M3 is a
//     rotation times a uniform scale (every influence of the vertex turning alike); where
//     influences disagree it strays from the inverse transpose by an angle that grows with their
//     disagreement; wrong under non-uniform scale. Cheaper: three multiply-adds per component
//     instead of three cross products.
enum class NormalTransform : std::uint8_t { kInverseTranspose, kMatrix };

// Whether this CPU can run SkinningPath::kAvx2 and kAvx512 (critter/core/cpu_features.h).
using critter::cpu_has_avx2_fma;
using critter::cpu_has_avx512;

// For each vertex v < vertex_count, with M = sum_k weights[v][k] * palette[joints[v][k]]:
//   out_positions[v] = (M * vec4(in_positions[v], 1)).xyz
//   out_normals[v]   = normalize(inverse-transpose(M3) * in_normals[v]), computed as the cofactor
//                      of M's upper 3x3 times sign(det M3), so it stays correct under non-uniform
//                      scale and mirroring; normalize(M3 * in_normals[v]) with
//                      normal_transform = NormalTransform::kMatrix
//   out_tangents[v]  = vec4(normalize(M3 * in_tangents[v].xyz), in_tangents[v].w)
// A vector whose transformed length is 0 is written as 0 (never NaN). The palette is assumed affine
// (its fourth row is ignored). Weights are used as given: callers normalise them (Model's builder
// makes them sum to 1). Tangent handedness (w) is copied, not flipped for mirroring palettes.
//
// Joint indices: run() clamps each index to palette.size() - 1, so a hostile index reads the last
// palette entry and never outside the palette; validate() does not scan the indices.
//
// Aliasing: an output may be exactly its input (same pointer and stride: skinning in place).
// Otherwise outputs must not overlap inputs. Outputs may be interleaved with each other and with
// data the job does not touch: only the 12 (or 16) bytes of each element are written.
struct SkinningJob {
  std::size_t vertex_count = 0;
  // Joint (palette) matrices, e.g. from PaletteJob. 1 to 65536 entries.
  std::span<const mat4> palette;

  // Influences: 4 joint indices (into palette) and 4 weights per vertex. Stride 0 is allowed for
  // both (every vertex uses the same influences: rigid placement by one bone).
  InStream<std::uint16_t> joints;  // stride 0 or >= 8 bytes, a multiple of 2
  InStream<float> weights;         // stride 0 or >= 16 bytes, a multiple of 4

  // Vertex streams: xyz floats (tangents xyzw). Strides >= the element size (12 or 16 bytes) and a
  // multiple of 4; pointers 4-byte aligned. Normals and tangents are optional: their input and
  // output are both set or both null.
  InStream<float> in_positions;
  InStream<float> in_normals;
  InStream<float> in_tangents;
  OutStream<float> out_positions;
  OutStream<float> out_normals;
  OutStream<float> out_tangents;

  SkinningPath path = SkinningPath::kAuto;
  NormalTransform normal_transform = NormalTransform::kInverseTranspose;

  // Names the first broken rule: palette size, null streams, strides, alignment, normals or
  // tangents with only one side set, a path this CPU cannot run, a normal_transform that is no
  // NormalTransform. Constant time.
  Status validate() const;
  // Validates, then skins. Never allocates, throws or logs. Uses about 16 KB of stack: a palette
  // of up to 256 matrices that does not start on a 64-byte boundary is copied there first for
  // the SIMD paths, which read each matrix whole (see docs/jobs.md on the fast stream layout).
  Status run() const;

  // Helpers for separate (structure of arrays) streams. set_positions also sets vertex_count to
  // in.size(); the other spans must be at least that long (not checked: spans carry no stride).
  void set_positions(std::span<const vec3> in, std::span<vec3> out);
  void set_normals(std::span<const vec3> in, std::span<vec3> out);
  void set_tangents(std::span<const vec4> in, std::span<vec4> out);
  void set_influences(std::span<const glm::u16vec4> j, std::span<const vec4> w);
};

}  // namespace critter::deform
