// SPDX-License-Identifier: MIT
// BlendingJob: folds an ordered stack of override and additive layers into one local pose and one
// set of morph weights (animation-config.md §11; the Controller's layer stack runs it every frame).
//
//   BlendingLayer layers[] = {{LayerBlendMode::kOverride, walk_pose, 1.0f},
//                             {LayerBlendMode::kAdditive, breathe_delta, 0.5f}};
//   BlendingJob job;
//   job.layers = layers;
//   job.rest = skeleton.rest_pose();
//   job.output = pose;
//   if (auto ok = job.run(); !ok) report(ok.error());
//
// Poses come as Transform arrays or, for the same blend at a fraction of the cost, in
// structure-of-arrays blocks (SoaTransform: soa_rest, soa_output, each layer's soa_pose and
// soa_joints instead of rest, output and pose), which the samplers write and LocalToModelJob
// reads; both forms give the same bits.
#pragma once

#include <cstdint>
#include <span>

#include "critter/core/error.h"
#include "critter/core/soa_transform.h"
#include "critter/core/transform.h"

namespace critter::anim {

// How a layer combines with the output of the layers below it (§11).
enum class LayerBlendMode : std::uint8_t {
  kOverride,  // replaces (w >= 1) or TRS-blends with the output so far (§11)
  kAdditive,  // adds its pose as a delta on the local side of the output so far (§11)
};

// One input of a BlendingJob. Spans are borrowed for the duration of run().
struct BlendingLayer {
  LayerBlendMode mode = LayerBlendMode::kOverride;
  // One transform per joint. Override: a local pose. Additive: a delta (identity where the layer
  // adds nothing), such as make_additive_delta() computes from a pose and a reference pose.
  std::span<const Transform> pose;
  // Layer weight, finite and >= 0; 0 disables the layer.
  float weight = 0.0f;
  // Optional per-joint mask, one entry per joint, expected in [0, 1]: joint j blends with weight
  // weight * joint_weights[j]. Empty: 1 for every joint. Masks never apply to morph weights.
  std::span<const float> joint_weights;
  // Optional, one entry per joint: nonzero where the layer has a value (a driver's sampled
  // bones); the layer leaves the other joints as the layers below made them. Empty: every joint.
  std::span<const std::uint8_t> sampled;
  // Flat morph weights laid out like the job's default_weights, or empty when the layer drives no
  // morph weights.
  std::span<const float> weights;
  // Override layers with weights: per mesh (BlendingJob::mesh_offsets), how much the layer
  // animates that mesh's weights, in [0, 1]. Empty: 1 for every mesh. Unused on additive layers.
  std::span<const float> morph_coverage;
  // `pose` in structure-of-arrays form, soa_blocks(joints) blocks: used instead of `pose` when
  // the job's soa_output is set.
  std::span<const SoaTransform> soa_pose{};
};

// Computes a delta pose for an additive layer: out = reference⁻¹ ∘ pose per joint, i.e.
// translation pose.t − ref.t, rotation conj(ref.r)·pose.r (normalised), scale pose.s / ref.s
// (a component whose reference scale is 0 gets 1). Applying the delta with weight 1 on top of
// `reference` gives back `pose`. All three spans must have the same size (kUsage otherwise);
// `out` may alias `pose`.
Status make_additive_delta(std::span<const Transform> pose, std::span<const Transform> reference,
                           std::span<Transform> out);

// How BlendingJob::run() computes the joints. Every path gives the same output bit for bit; the
// scalar path is the reference the others are tested against.
enum class BlendingPath : std::uint8_t {
  kAuto,    // the widest path this CPU runs
  kScalar,  // one joint at a time
  kSse2,    // four joints at a time (x86 with SSE2)
  kAvx2,    // eight joints at a time (x86 with AVX2)
  kAvx512,  // sixteen joints at a time (x86 with AVX-512 F, VL, BW and DQ)
};

// True when this CPU can run `path` (kAuto and kScalar always), checked once at run time.
bool blending_path_available(BlendingPath path);

// How BlendingJob blends rotations (every path gives the same bits for either).
enum class RotationBlend : std::uint8_t {
  // Shortest-arc slerp, within 3e-7 of the exact one: the blend animation-config.md §11 names.
  kSlerp,
  // Shortest-arc normalised lerp, normalize(a + (±b − a)·w), as ozz-animation and most game
  // engines blend: half the arithmetic of the slerp, a two-layer blend 25-42 % faster (the
  // translations, scales and memory traffic stay). It equals slerp at w = 0, ½ and 1 and for equal
  // rotations; elsewhere it turns slower than slerp near the ends and faster through the middle
  // (behind slerp below ½, ahead above), by at most 0.03° between poses 30° apart, 0.27° at 60°,
  // 0.92° at 90° and 8.1° at 180°: blends of similar poses barely change, far-apart
  // ones show it as an uneven speed across a fade.
  kNlerp,
  // The weighted sum of the stack's rotations, normalised once, as ozz-animation blends: each
  // override layer with weight w in (0, 1) lerps along the shorter arc, out·(1 − w) ± in·w,
  // without normalising, and the joint's rotation is normalised after the last layer. Over a unit
  // start q₀ and layers 1..n this is normalize(Σ cᵢ·±qᵢ) with cᵢ = wᵢ·Π_{j>i}(1 − wⱼ) (w₀ = 1),
  // the weights the translations and scales blend with; a full-weight override or an additive
  // layer (whose product is normalised) starts the sum again. One layer gives kNlerp's bits and a
  // joint no layer touches keeps its bits. On a stack it strays further from slerp than kNlerp:
  // rest, then 0.6 and 0.4 layers, the three rotations pairwise 30° / 60° / 90° apart, land
  // 0.04° / 0.34° / 1.19° from the slerp stack (kNlerp 0.015° / 0.12° / 0.41°). It saves a square
  // root and a division per joint and partial layer but the last. (A stack deeper than 32 layers
  // is normalised after every 32.)
  kLerp,
};

// `rotations` where it is one of the three values above, kSlerp otherwise (a value cast from a
// wider integer): how the Player and the Controller take a setting.
constexpr RotationBlend known_or_slerp(RotationBlend rotations) {
  return rotations == RotationBlend::kNlerp || rotations == RotationBlend::kLerp
             ? rotations
             : RotationBlend::kSlerp;
}

struct BlendingJob {
  std::span<const BlendingLayer> layers;   // applied in order, first to last; may be empty
  std::span<const Transform> rest;         // skeleton rest pose, one per joint
  std::span<const float> default_weights;  // flat default morph weights (may be empty)
  // Where each mesh's weights start in default_weights: mesh count + 1 ascending entries, the
  // first 0 and the last default_weights.size(). Empty: all weights form one mesh.
  std::span<const std::uint32_t> mesh_offsets;
  std::span<Transform> output;      // rest.size() entries; must not alias inputs
  std::span<float> output_weights;  // default_weights.size() entries; must not alias inputs
  BlendingPath path = BlendingPath::kAuto;
  RotationBlend rotations = RotationBlend::kSlerp;

  // Structure-of-arrays form, chosen by a non-empty soa_output: the poses are soa_rest,
  // soa_output and each layer's soa_pose, soa_blocks(soa_joints) blocks each, instead of rest,
  // output and pose (which stay empty); masks and sampled sets have soa_joints entries. Joint j
  // of the output is what the Transform form gives bit for bit; the padding lanes (past
  // soa_joints) are left with unspecified values (the kernels blend whole blocks).
  std::span<const SoaTransform> soa_rest{};
  std::span<SoaTransform> soa_output{};  // must not alias inputs
  std::size_t soa_joints = 0;

  // Names the first broken rule (ErrorCode::kUsage, path "BlendingJob", location the field or
  // "layers/<i>/<field>"): a path this CPU cannot run; rotations not a RotationBlend; in the
  // structure-of-arrays form rest, output or a layer's pose not empty, or soa_rest, soa_output or
  // a layer's soa_pose not soa_blocks(soa_joints) blocks (in the Transform form: soa_rest,
  // soa_joints or a layer's soa_pose not empty); output size != rest size; output_weights size !=
  // default_weights size; mesh_offsets not as described; a layer weight not finite or < 0;
  // a layer pose size != rest size; joint_weights or sampled neither empty nor rest.size(); weights
  // neither empty nor default_weights.size(); morph_coverage neither empty nor the mesh count.
  Status validate() const;

  // Validates, then blends (§11). Per joint the output starts at the rest transform; every layer
  // in order whose effective weight w = weight · mask > 0 at a joint it sampled then combines:
  //   Override: out = in if w >= 1, else blend_transforms(out, in, w) (lerp translation and
  //             scale, shortest-arc slerp of the rotation within 3e-7 of the exact one);
  //   Additive: rotation normalize(out.r · slerp(1, in.r, min(w, 1))) (the same slerp; the
  //             identity where the product has no length), translation out.t + w·in.t, scale
  //             out.s ⊙ (1 + w·(in.s − 1)).
  // With rotations = kNlerp every slerp above is the normalised lerp instead (an override
  // rotation whose lerp has no length, which unit inputs never give, becomes the identity); with
  // kLerp the override rotations lerp and are normalised once, as RotationBlend says.
  // So a joint no layer sets is the rest transform and a fading bottom layer eases towards rest.
  // Morph weights start at default_weights; every layer with weights, in order, with its layer
  // weight w (no mask):
  //   Override: per mesh with coverage c > 0, out += min(w, 1)·((in − default) − c·(out −
  //             default)), which is lerp(out, in, min(w, 1)) when c = 1 (a mesh the layer does
  //             not animate, c = 0, keeps the weights below);
  //   Additive: out += w·(in − default) for every weight.
  // Joints go four, eight or sixteen at a time in vertical form (path), every layer of the stack
  // applied to a block of joints in registers. Never throws, logs or allocates.
  Status run() const;
};

}  // namespace critter::anim
