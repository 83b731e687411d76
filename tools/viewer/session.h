// SPDX-License-Identifier: MIT
// Session: one model open in the viewer and the creature that plays it. It owns the Model, an
// anim::Player (the pose source) and an anim::Instance (the posed matrices) over it, the playback
// choices of the UI (clip, mode, rate, crossfade length, pause) and the morph weights the user
// pinned with sliders, and turns UI actions into Player calls. No OpenGL: the window and the
// renderer read the instance's matrices and weights after update().
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../common/limb_motion.h"
#include "critter/anim/instance.h"
#include "critter/anim/player.h"
#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"
#include "critter/io/load_options.h"
#include "critter/io/texture_override.h"

namespace critter::viewer {

// The seven playback modes in their integer order, with their UI labels.
inline constexpr const char* kModeLabels[] = {"None (scrub)",   "Once forward", "Once backward",
                                              "Once ping-pong", "Loop forward", "Loop backward",
                                              "Loop ping-pong"};

class Session {
 public:
  // How many player records the event log keeps (oldest dropped first).
  static constexpr std::size_t kLogLength = 64;

  // Takes ownership of `model`. Plays nothing until play(); starts in the rest pose.
  explicit Session(Model model);
  // Loads a model file (any format io::load reads) or a built-in model ("builtin:NAME",
  // tools/common/builtin_models.h) with `options` (--clips ranges, ...) and the skins of
  // `textures` applied (io::apply_texture_overrides); warnings go to `diag` when given.
  static Result<std::unique_ptr<Session>> open(std::string_view path, Diagnostics* diag = nullptr,
                                               const io::LoadOptions& options = {},
                                               std::span<const io::TextureOverride> textures = {});

  const Model& model() const { return *model_; }
  anim::Instance& instance() { return *instance_; }
  const anim::Instance& instance() const { return *instance_; }
  const anim::Player& player() const { return *player_; }

  // A clip's display name: its own name, or "clip <index>" when it has none.
  std::string clip_label(int clip) const;

  // Playback choices; they apply to the next play, crossfade or set_mode.
  int clip() const { return clip_; }
  anim::PlaybackMode mode() const { return mode_; }
  float rate() const { return rate_; }
  float crossfade_seconds() const { return crossfade_; }
  void set_crossfade_seconds(float seconds) { crossfade_ = seconds > 0.0f ? seconds : 0.0f; }
  bool paused() const { return paused_; }
  void set_paused(bool paused) { paused_ = paused; }

  // Hard cut to `clip` from its start (cursor 0 of the range) in the current mode and rate.
  Status play(int clip);
  // Blends from what shows now to `clip` over crossfade_seconds() (a hard cut when 0).
  Status crossfade_to(int clip);
  // Restarts the current clip in `mode`, keeping the position on screen (the same cursor), so
  // switching modes does not jump. With no clip it only records the choice.
  Status set_mode(anim::PlaybackMode mode);
  // Rate of the current play and of later plays; negative values count as 0.
  void set_rate(float rate);
  // Jumps the current play to normalised range position `cursor` (clamped to [0, 1]); the pose
  // follows on the next update even when paused. Nothing fires (a jump, playback.md §5.1).
  void scrub(float cursor);

  // Pins target `target` of mesh `mesh` at `weight`; the other targets of that mesh keep the
  // values shown now. Fails (kUsage) on an index outside the model.
  Status set_morph_weight(int mesh, int target, float weight);
  // True when the user pinned mesh `mesh`'s weights.
  bool morph_pinned(int mesh) const;
  // Gives every mesh back to its animation and default weights.
  void clear_morph_weights();

  // Runs the limb animator (creatures.md Part B) with `motion` after the player from the next
  // update() on. A model split earlier (tools::with_limbs) keeps its limbs; any other is split and
  // the player and instance are made anew over it (call before play()). A model without block
  // limbs gets no animator (limbs() stays null; the finder's reasons go to `diag` when given).
  // Errors: split_limbs' errors.
  Status enable_limbs(const tools::LimbMotion& motion, Diagnostics* diag = nullptr);
  // The limb animator, null unless enable_limbs() succeeded.
  const tools::LimbSim* limbs() const { return limbs_.get(); }

  // One frame: advances the player by dt seconds (0 while paused), poses the instance from it
  // (then bends the limbs, with enable_limbs()) and logs the player's records.
  void update(float dt);

  // Readable lines for the player records so far, oldest first ("event step x1 @0.50",
  // "completed Walk", ...).
  const std::deque<std::string>& log() const { return log_; }

 private:
  std::unique_ptr<Model> model_;
  std::unique_ptr<anim::Player> player_;
  std::unique_ptr<anim::Instance> instance_;
  int clip_ = -1;
  anim::PlaybackMode mode_ = anim::PlaybackMode::kLoopForward;
  float rate_ = 1.0f;
  float crossfade_ = 0.25f;
  bool paused_ = false;
  std::vector<std::vector<float>> pinned_;  // per mesh; empty when not pinned
  std::deque<std::string> log_;
  std::unique_ptr<tools::LimbSim> limbs_;
};

}  // namespace critter::viewer
