// SPDX-License-Identifier: MIT
// The Controller's layer stack (animation-config.md §10, §11): one Player per layer, the layer
// weights and their fades, and the blend of the active layers into one local pose and one set of
// morph weights through the BlendingJob. Sized at construction; nothing here allocates after.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "critter/anim/blending_job.h"
#include "critter/anim/controller_program.h"
#include "critter/anim/player.h"
#include "critter/core/transform.h"

namespace critter::anim::detail {

class DriverSet;
struct ControllerState;

// §10: deactivation and re-enable fades always take 0.2 s.
inline constexpr float kDeactivateSeconds = 0.2f;

// The smoothstep curve 3x² − 2x³ of x clamped to [0, 1] (§10 weight fades, §12, §13 eases).
inline float smoothstep01(float x) {
  x = std::clamp(x, 0.0f, 1.0f);
  return x * x * (3.0f - 2.0f * x);
}

// One layer's state.
struct Layer {
  explicit Layer(const Model& model) : player(model) {}
  Player player;
  float weight = 0.0f;
  float fade_from = 0.0f;
  float fade_to = 0.0f;
  float fade_time = 0.0f;
  float fade_duration = 0.0f;
  bool fading = false;
  bool deactivating = false;  // fading to 0; the clip is dropped at the end
  int animation = -1;         // program animation playing (or fading out)
  int driver = -1;            // program driver running (no clip then)
  int last_driver = -1;       // the driver running or last run, else the preset; -1: none
  std::uint32_t play_id = 0;
  bool once = false;
  bool completed = false;    // completion tracking of the current play is over
  bool manual = false;       // under play_animation() control: rules skip the layer
  float start_phase = 0.0f;  // of the current play
  float end_phase = 1.0f;
  std::vector<Transform> pose;        // the layer's pose when it is not the player's own
  std::vector<std::uint8_t> touched;  // per joint: the driver sampled it this frame
  // Per mesh: how much the player's crossfade source animates the mesh's weights, in [0, 1]
  // (its clip's weights tracks, or the coverage of the pose a crossfade froze).
  std::vector<float> morph_source;
  std::vector<float> morph_coverage;  // per mesh, this frame's (BlendingLayer::morph_coverage)
};

class LayerStack {
 public:
  // Every layer empty at weight 0, except a layer with a preset driver that runs: active at its
  // configured weight.
  LayerStack(const ControllerProgram& program, const DriverSet& drivers);

  std::size_t size() const { return layers_.size(); }
  Layer& operator[](int index) { return layers_[static_cast<std::size_t>(index)]; }
  const Layer& operator[](int index) const { return layers_[static_cast<std::size_t>(index)]; }

  // True when the layer contributes to the pose (weight > 0 and a clip or a driver to sample).
  bool active(int index) const;
  // Starts a weight fade of `layer` to `to` over `duration` seconds (<= 0: at once).
  static void start_weight_fade(Layer& layer, float to, float duration);
  // §19 steps 3 and 4, layer by layer in index order: re-evaluates speed and `loop`
  // expressions, advances the weight fade, then the driver or the player; events, completions
  // (with their onComplete and the fade-out) and the end of a fade-out follow.
  void advance(ControllerState& s, float dt);
  // After a play(): records what the crossfade source animates, from the play that was current
  // (`old_clip`, -1 when none) at crossfade progress `old_progress` (1 when none ran).
  void set_morph_source(Layer& layer, int old_clip, float old_progress) const;
  // Index of the model clip `clip` points at, or -1.
  int clip_index(const Clip* clip) const;

  // Blends the active layers in index order (§11) into pose() and weights(): driver layers over
  // the bones they sampled, the Base layer stripped of its root motion (§13), Additive layers with
  // identity for the channels their clip lacks.
  void blend(DriverSet& drivers);
  std::span<Transform> pose() { return output_; }
  std::span<const Transform> pose() const { return output_; }
  std::span<const float> weights() const { return weights_; }
  // How blend() and every layer's player blend rotations (Controller::set_rotation_blend); any
  // value but kNlerp and kLerp is kSlerp (a cast value would make the stack's BlendingJob refuse
  // to run).
  void set_rotations(RotationBlend rotations);
  RotationBlend rotations() const { return rotations_; }

 private:
  // The layer's pose for this frame (its player's, or prepared in layer.pose); empty when the
  // layer shows nothing.
  std::span<const Transform> layer_pose(int index, DriverSet& drivers);
  // How much the layer's player, playing model clip `clip` (-1: none), animates mesh `mesh`'s
  // weights now, in [0, 1].
  float morph_coverage(const Layer& layer, int clip, std::size_t mesh) const;

  const ControllerProgram* program_ = nullptr;
  std::vector<Layer> layers_;
  std::vector<BlendingLayer> inputs_;  // this frame's active layers, in order
  std::vector<Transform> output_;
  std::vector<float> weights_;  // morph weights of the last blend
  RotationBlend rotations_ = RotationBlend::kSlerp;
};

}  // namespace critter::anim::detail
