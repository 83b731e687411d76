// BlendingJob: mixes complete local poses (and morph weights) of several layers into one pose
// (playback.md §8 and §10, animation-config.md layers). Override layers are averaged by weight;
// additive layers then add their deltas on top.
#pragma once

#include <span>

#include "critter/core/error.h"
#include "critter/core/transform.h"

namespace critter::anim {

// One input of a BlendingJob. Spans are borrowed for the duration of run().
struct BlendingLayer {
  // Override layer: a complete local pose, one transform per joint.
  // Additive layer: a delta pose, one per joint, as make_additive_delta() computes it from a
  // sampled pose and the clip's reference pose.
  std::span<const Transform> pose;
  // Flat morph weights laid out like the job's default_weights, or empty when the layer does not
  // drive morph weights. Override layers: sampled weights. Additive layers: the values to add
  // (scaled by `weight`); a caller whose clip has no track for a mesh passes 0 for that mesh.
  std::span<const float> weights;
  // Layer weight, finite and >= 0. 0 disables the layer. Override weights are relative (they are
  // normalised per joint); an additive weight of 1 applies the whole delta, 0.5 half of it.
  float weight = 0.0f;
  // Optional per-joint mask in [0, 1], one entry per joint: the joint's effective weight is
  // weight * joint_weights[j]. Empty means 1 for every joint. Masks never apply to morph weights.
  std::span<const float> joint_weights;
};

// Computes a delta pose for an additive layer: out = reference⁻¹ ∘ pose per joint, i.e.
// translation pose.t − ref.t, rotation conj(ref.r)·pose.r (normalised), scale pose.s / ref.s
// (a component whose reference scale is 0 gets 1). Applying the delta with weight 1 on top of
// `reference` gives back `pose`. All three spans must have the same size (kUsage otherwise);
// `out` may alias `pose`.
Status make_additive_delta(std::span<const Transform> pose, std::span<const Transform> reference,
                           std::span<Transform> out);

struct BlendingJob {
  // Total override weight below which the rest pose fills in: per joint, when the sum w of the
  // effective override weights is below `threshold`, the rest transform joins the average with
  // weight threshold − w (so a pose with no active layer is the rest pose, and fading a single
  // layer out blends it towards rest). Finite and > 0. Same rule for morph weights, with the
  // default weights in place of rest.
  float threshold = 0.1f;
  std::span<const BlendingLayer> layers;           // override layers, any number (may be empty)
  std::span<const BlendingLayer> additive_layers;  // applied after the override average, in order
  std::span<const Transform> rest;                 // skeleton rest pose, one per joint
  std::span<const float> default_weights;          // flat default morph weights
  std::span<Transform> output;                     // rest.size() entries; must not alias inputs
  std::span<float> output_weights;                 // default_weights.size(); must not alias inputs

  // Names the first broken rule (ErrorCode::kUsage, path "BlendingJob", location the field or
  // "layers/<i>/<field>", "additive_layers/<i>/<field>"): threshold not finite or <= 0; output
  // size != rest size; output weights size != default weights size; a layer pose size != rest
  // size; layer weights neither empty nor default_weights.size(); joint_weights neither empty nor
  // rest.size(); layer weight not finite or < 0.
  Status validate() const;

  // Validates, then blends. Per joint, override layers: translation and scale are the weighted
  // average, rotations are summed after aligning each to the running sum's hemisphere, then
  // normalised. Additive layers with effective weight w: translation += w·Δt, rotation =
  // rotation · slerp(identity, Δr, w), scale *= 1 + w·(Δs − 1). Morph weights: override layers
  // with non-empty weights average by layer weight (the default weights fill in below the
  // threshold; layers without weights do not count), then additive layers add w·value. Output
  // rotations are normalised. Never throws, logs or allocates.
  Status run() const;
};

}  // namespace critter::anim
