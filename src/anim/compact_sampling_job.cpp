// SPDX-License-Identifier: MIT
#include "critter/anim/compact_sampling_job.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "anim/quat_slerp.h"

namespace critter::anim {

namespace {

Status job_error(std::string location, std::string message) {
  return fail(
      Error::at(ErrorCode::kUsage, "CompactSamplingJob", std::move(location), std::move(message)));
}

}  // namespace

Status CompactSamplingJob::validate() const {
  if (clip == nullptr) return job_error("clip", "clip is null");
  if (context == nullptr) return job_error("context", "context is null");
  if (!std::isfinite(time)) return job_error("time", "time is not finite");
  if (clip->max_joint() >= static_cast<std::int64_t>(rest.size()))
    return job_error("clip", "a track targets joint " + std::to_string(clip->max_joint()) +
                                 ", rest pose has " + std::to_string(rest.size()) + " joints");
  const SamplingJob residual{.clip = &clip->residual(),
                             .time = time,
                             .context = &context->residual_,
                             .rest = rest,
                             .default_weights = default_weights,
                             .weight_offsets = weight_offsets,
                             .output = output,
                             .output_weights = output_weights};
  if (auto ok = residual.validate(); !ok) {
    Error e = ok.error();
    e.path = "CompactSamplingJob";
    return fail(std::move(e));
  }
  return {};
}

Status CompactSamplingJob::run() const {
  if (auto ok = validate(); !ok) return ok;
  CompactSamplingContext& ctx = *context;
  const auto tracks = clip->tracks();
  if (ctx.clip_ != clip || ctx.cursors_.size() != tracks.size()) {
    ctx.cursors_.assign(tracks.size(), 0u);
    ctx.clip_ = clip;
  }
  if (clip->residual().tracks().empty()) {
    std::copy(rest.begin(), rest.end(), output.begin());
    std::copy(default_weights.begin(), default_weights.end(), output_weights.begin());
  } else {
    const SamplingJob residual{.clip = &clip->residual(),
                               .time = time,
                               .context = &ctx.residual_,
                               .rest = rest,
                               .default_weights = default_weights,
                               .weight_offsets = weight_offsets,
                               .output = output,
                               .output_weights = output_weights};
    if (auto ok = residual.run(); !ok) return ok;
  }

  const std::uint16_t* words = clip->words().data();
  const float* times = clip->times().data();
  const std::uint16_t* frames = clip->key_frames().data();
  Transform* out = output.data();
  const std::uint32_t constants = clip->constant_count();
  for (std::uint32_t i = 0; i < constants; ++i) {
    const CompactTrack& track = tracks[i];
    Transform& o = out[track.joint];
    switch (track.target) {
      case TrackTarget::kRotation:
        o.rotation = compact::decode_quat(track, words, 0);
        break;
      case TrackTarget::kTranslation:
        o.translation = compact::decode_vec3(track, words, 0);
        break;
      default:
        o.scale = compact::decode_vec3(track, words, 0);
        break;
    }
  }
  std::uint32_t* cursors = ctx.cursors_.data();
  for (std::size_t i = constants; i < tracks.size(); ++i) {
    const CompactTrack& track = tracks[i];
    std::uint32_t k = 0;
    float s = 0.0f;
    compact::locate(track, times, frames, time, cursors[i], k, s);
    Transform& o = out[track.joint];
    switch (track.target) {
      case TrackTarget::kRotation: {
        const quat a = compact::decode_quat(track, words, k);
        o.rotation =
            s == 0.0f ? a : detail::slerp_shortest(a, compact::decode_quat(track, words, k + 1), s);
        break;
      }
      case TrackTarget::kTranslation:
        o.translation = compact::sample_vec3(track, words, k, s);
        break;
      default:
        o.scale = compact::sample_vec3(track, words, k, s);
        break;
    }
  }
  return {};
}

}  // namespace critter::anim
