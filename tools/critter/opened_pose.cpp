// SPDX-License-Identifier: MIT
#include "opened_pose.h"

#include <utility>

#include "command.h"

namespace critter::cli {

Result<OpenedPose> open_pose(const PoseRequest& request, const std::shared_ptr<const Model>& model,
                             Diagnostics* diag) {
  OpenedPose sources;
  if (request.creature != nullptr) {
    Result<CreaturePose> c =
        CreaturePose::load(*request.creature, model, request.file, request.timeline);
    if (!c) return std::unexpected(c.error());
    sources.simulated.emplace(std::move(*c));
    return sources;
  }
  if (request.controller != nullptr) {
    // The config reads its own files under the same rules as the model's URIs.
    ControllerFlags flags = *request.controller;
    flags.allow_outside = request.load_options.allow_outside_uris;
    flags.model_options.allow_outside_uris = request.load_options.allow_outside_uris;
    flags.model_options.assimp_isolation = request.load_options.assimp_isolation;
    Result<ControllerPose> c = ControllerPose::load(flags, model, diag);
    if (!c) return std::unexpected(c.error());
    if (request.timeline != nullptr) {
      if (Status s = c->set_timeline(*request.timeline); !s) return std::unexpected(s.error());
    }
    sources.controller.emplace(std::move(*c));
    return sources;
  }
  const Result<int> clip = clip_from_arg(*model, request.anim, request.file);
  if (!clip) return std::unexpected(clip.error());
  sources.clip = *clip;
  if (request.limbs.limbs && LimbPose::has_limbs(*model)) {
    Result<LimbPose> l =
        LimbPose::load(model, sources.clip, request.limbs, request.timeline, request.file, nullptr);
    if (!l) return std::unexpected(l.error());
    sources.limbs.emplace(std::move(*l));
  }
  return sources;
}

}  // namespace critter::cli
