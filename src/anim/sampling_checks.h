// SPDX-License-Identifier: MIT
// Internal: every rule of SamplingJob::validate() as one test that builds no message, for the
// samplers' run() (SamplingJob; CompactSamplingJob for its residual clip and buffers), which a
// frame calls per character: a job that passes is not validated again; one that fails is, for its
// message. validate() starts with this test, so the two cannot disagree on a job that passes;
// validate()'s own checks must catch every job that fails it (SamplingJobTest and
// CompactSamplingJobTest break each rule and read the error back from run()).
#pragma once

#include <cstddef>
#include <cstdint>

#include "critter/anim/sampling_job.h"
#include "critter/core/math.h"
#include "critter/core/soa_transform.h"

namespace critter::anim::detail {

// The rules on the buffers and on the clip's tracks against them, for a job `j` with
// SamplingJob's buffer fields (a SamplingJob, or a CompactSamplingJob whose residual clip is
// `clip`): read field by field from the job as the caller filled it, so that the compact job
// need not copy itself into a SamplingJob first (a copy whose wide loads of just-written fields
// stall on store forwarding).
template <class Job>
inline bool sampling_buffers_pass(const Job& j, const Clip& clip) {
  const bool soa = !j.soa_output.empty();
  if (soa ? !j.rest.empty() || !j.output.empty() || j.soa_rest.size() != soa_blocks(j.soa_joints) ||
                j.soa_output.size() != j.soa_rest.size()
          : !j.soa_rest.empty() || j.soa_joints != 0 || j.output.size() != j.rest.size())
    return false;
  const std::span<const std::uint32_t> offsets = j.weight_offsets;
  if (offsets.empty() || offsets.front() != 0 || offsets.back() != j.default_weights.size() ||
      j.output_weights.size() != j.default_weights.size())
    return false;
  for (std::size_t m = 1; m < offsets.size(); ++m)
    if (offsets[m] < offsets[m - 1]) return false;
  const std::size_t joints = soa ? j.soa_joints : j.rest.size();
  const std::size_t meshes = offsets.size() - 1;
  if (!clip.tracks().empty() && clip.max_joint() >= static_cast<std::int64_t>(joints)) return false;
  for (const std::uint32_t i : clip.weight_tracks()) {
    const Track& t = clip.tracks()[i];
    const auto index = static_cast<std::uint32_t>(t.index);  // negative -> huge
    if (index >= meshes || t.components != offsets[index + 1] - offsets[index]) return false;
  }
  return true;
}

inline bool sampling_job_passes(const SamplingJob& j) {
  if (j.clip == nullptr || j.context == nullptr || !finite_float(j.time)) return false;
  return sampling_buffers_pass(j, *j.clip);
}

}  // namespace critter::anim::detail
