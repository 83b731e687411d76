// SPDX-License-Identifier: MIT
#include "opened_pose.h"

#include <algorithm>
#include <span>
#include <utility>

#include "command.h"

namespace critter::cli {
namespace {

// A creature or controller source gets the limb animator after it on a model with split limbs.
Result<OpenedPose> with_followers(OpenedPose sources, const PoseRequest& request,
                                  const std::shared_ptr<const Model>& model) {
  if (!request.limbs.limbs || !LimbPose::has_limbs(*model)) return sources;
  Result<LimbPose> l = LimbPose::follow(model, request.limbs, request.file, nullptr);
  if (!l) return std::unexpected(l.error());
  sources.limbs.emplace(std::move(*l));
  return sources;
}

Status place_source(OpenedPose& pose, anim::Instance& instance) {
  return pose.controller ? pose.controller->place(instance) : pose.simulated->place(instance);
}

std::span<const Transform> source_local_pose(const OpenedPose& pose) {
  return pose.controller ? pose.controller->local_pose() : pose.simulated->local_pose();
}

}  // namespace

Result<OpenedPose> open_pose(const PoseRequest& request, const std::shared_ptr<const Model>& model,
                             Diagnostics* diag) {
  OpenedPose sources;
  if (request.creature != nullptr) {
    Result<CreaturePose> c =
        CreaturePose::load(*request.creature, model, request.file, request.timeline);
    if (!c) return std::unexpected(c.error());
    sources.simulated.emplace(std::move(*c));
    return with_followers(std::move(sources), request, model);
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
    return with_followers(std::move(sources), request, model);
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

Status restart_followed(OpenedPose& pose, anim::Instance& instance) {
  if (pose.controller) {
    pose.controller->restart();
  } else if (Status s = pose.simulated->restart(); !s) {
    return s;
  }
  if (Status s = pose.limbs->restart(); !s) return s;
  if (Status s = place_source(pose, instance); !s) return s;
  if (Status s = pose.limbs->step_after(0.0, source_local_pose(pose), instance); !s) return s;
  pose.limbs->overlay(instance);
  return {};
}

Status advance_followed(OpenedPose& pose, double t, anim::Instance& instance) {
  LimbPose& limbs = *pose.limbs;
  if (t < limbs.time() - 1e-9) {
    if (Status s = restart_followed(pose, instance); !s) return s;
  }
  if (limbs.time() >= t - 1e-9) {
    // No step to take: the source's pose as it is, with the last step's limbs.
    if (Status s = place_source(pose, instance); !s) return s;
  }
  while (limbs.time() < t - 1e-9) {
    const double dt = std::min(kControllerStep, t - limbs.time());
    const double to = limbs.time() + dt;
    if (pose.controller) {
      pose.controller->advance_to(to);
    } else {
      pose.simulated->advance_to(to);
    }
    if (Status s = place_source(pose, instance); !s) return s;
    if (Status s = limbs.step_after(dt, source_local_pose(pose), instance); !s) return s;
  }
  limbs.overlay(instance);
  return {};
}

Status start_at(OpenedPose& pose, double t, anim::Instance& instance) {
  if (follows(pose)) {
    if (Status s = restart_followed(pose, instance); !s) return s;
    return advance_followed(pose, t, instance);
  }
  if (pose.controller) {
    pose.controller->restart();
    pose.controller->advance_to(t);
  } else {
    if (Status s = pose.simulated->restart(); !s) return s;
    pose.simulated->advance_to(t);
  }
  return place_source(pose, instance);
}

}  // namespace critter::cli
