// SPDX-License-Identifier: MIT
// Internal: how the samplers write channels into structure-of-arrays poses (SoaTransform blocks
// seen as floats: block j / 16, row `component` (0-2 translation, 3-6 rotation x y z w, 7-9
// scale), lane j % 16). Lanes of consecutive joints inside one block are one vector store per
// component; any other lanes are stored one float at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "core/soa_lanes.h"
#include "critter/core/soa_transform.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace critter::anim::detail {

inline constexpr std::uint32_t kSoaTranslation = 0, kSoaRotation = 3, kSoaScale = 7;

// The rule a job with both forms of pose (SamplingJob, BlendingJob) checks first: a non-empty
// structure-of-arrays output selects that form, whose rest pose and joint count go only with it,
// and in which the Transform rest pose and output stay empty. The broken field and why, or a null
// location when the form is consistent.
struct FormProblem {
  const char* location = nullptr;
  const char* message = nullptr;
};
inline FormProblem soa_form_problem(bool soa_output, bool soa_rest, std::size_t soa_joints,
                                    bool rest, bool output) {
  if (!soa_output && (soa_rest || soa_joints != 0))
    return {soa_rest ? "soa_rest" : "soa_joints",
            "structure-of-arrays inputs without a structure-of-arrays output"};
  if (soa_output && (rest || output))
    return {rest ? "rest" : "output",
            "a Transform array in the structure-of-arrays form (soa_output is set)"};
  return {};
}

inline float* soa_channel(float* pose, std::size_t joint, std::uint32_t component) {
  return pose + critter::detail::soa_float_index(joint, component);
}

inline float* soa_floats(std::span<SoaTransform> pose) {
  return &pose.data()->translation[0][0];
}

using critter::detail::consecutive_in_block;

// Component values[k][l] (k < count) of joint joints[l] (l < lanes), as floats.
template <class J>
inline void store_soa_lanes(float* pose, const J* joints, std::size_t lanes,
                            std::uint32_t first_component, const float (*values)[8],
                            std::uint32_t count) {
  for (std::size_t l = 0; l < lanes; ++l)
    for (std::uint32_t k = 0; k < count; ++k)
      *soa_channel(pose, static_cast<std::size_t>(joints[l]), first_component + k) = values[k][l];
}

#if defined(__SSE2__)
// Four lanes of `count` component vectors (lane l of c[k]: component k of joint joints[l]).
template <class J>
inline void store_soa4(float* pose, const J* joints, std::size_t lanes,
                       std::uint32_t first_component, const __m128* c, std::uint32_t count) {
  if (consecutive_in_block(joints, lanes, 4)) {
    for (std::uint32_t k = 0; k < count; ++k)
      _mm_storeu_ps(soa_channel(pose, static_cast<std::size_t>(joints[0]), first_component + k),
                    c[k]);
    return;
  }
  alignas(16) float values[4][8] = {};
  for (std::uint32_t k = 0; k < count; ++k) _mm_store_ps(values[k], c[k]);
  store_soa_lanes(pose, joints, lanes, first_component, values, count);
}
#endif

}  // namespace critter::anim::detail
