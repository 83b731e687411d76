// SPDX-License-Identifier: MIT
// The interpolation kernels of CompactSamplingJob: every group of eight cached segments of one
// channel kind is interpolated with vertical operations only and written to its joints. One
// kernel for SSE2 (two halves of four lanes; CompactSamplingPath::kSse2) and one for AVX2 (eight
// lanes), chosen at run time; both give the scalar result lane by lane (see quat_slerp.h), so the
// choice never shows.
#pragma once

#include <cstddef>
#include <cstdint>

#include "critter/anim/compact_sampling_job.h"
#include "critter/core/transform.h"

namespace critter::anim::detail {

// Offsets, in Lanes, inside a cached group.
inline constexpr std::uint32_t kLaneKey = 0;    // the segment's start key (uint32 bits)
inline constexpr std::uint32_t kLaneHigh = 1;   // time of the segment's end key (+inf after last)
inline constexpr std::uint32_t kLaneNext = 2;   // time of the key after the end key (+inf none)
inline constexpr std::uint32_t kLaneStart = 3;  // time of the segment's start key
inline constexpr std::uint32_t kLaneA = 4;      // start key components
// Lanes in a group of `components` (4 rotation, 3 translation or scale) and its end key's offset.
constexpr std::uint32_t group_size(std::uint32_t components) {
  return kLaneA + 2 * components;
}
constexpr std::uint32_t lane_b(std::uint32_t components) {
  return kLaneA + components;
}

// The cached groups of one context, as the kernels read them.
struct CompactGroups {
  const CompactSamplingContext::Lanes* cache;
  const std::uint32_t* lane_joint;
  const std::uint32_t* lane_count;  // 3 entries: rotation, translation, scale lanes in use
  // CompactClip::soa_windows() and soa_window_begin() (read by the AVX2 kernel).
  const CompactClip::SoaWindow* soa_windows;
  const std::uint32_t* soa_window_begin;
};

// A quantised rotation key to decode into a cache lane: its three words, and the lane's x in the
// cache (y, z and w follow at 8, 16 and 24 floats).
struct RotationDecode {
  const std::uint16_t* words;
  float* lane;
};

// Decodes `count` quantised rotation keys (compact::decode_rotation, bit for bit) four or eight at
// a time.
void decode_rotations_sse2(const RotationDecode* keys, std::uint32_t count);
#if defined(__x86_64__) && defined(__GNUC__)
void decode_rotations_avx2(const RotationDecode* keys, std::uint32_t count);
#endif

// to[i] = mask[i] ? values[i] : from[i] for i < n (a clip's constant overlay, CompactClip::
// constant_values and constant_mask, laid over a pose); `from` may be `to`.
void overlay_sse2(const float* from, const float* values, const std::uint32_t* mask, float* to,
                  std::size_t n);
#if defined(__x86_64__) && defined(__GNUC__)
void overlay_avx2(const float* from, const float* values, const std::uint32_t* mask, float* to,
                  std::size_t n);
#endif

// Writes every cached segment at time t: rotations by nlerp along the shorter arc
// (critter::nlerp_shortest), translations
// and scales lerped, each the start key itself where the fraction is 0. Into `out` (Transforms)
// when `soa` is null, else into the structure-of-arrays pose `soa` (SoaTransform blocks as
// floats: soa_store.h), the same values.
void interpolate_groups_sse2(const CompactGroups& groups, float t, Transform* out, float* soa);
#if defined(__x86_64__) && defined(__GNUC__)
void interpolate_groups_avx2(const CompactGroups& groups, float t, Transform* out, float* soa);
#endif

}  // namespace critter::anim::detail
