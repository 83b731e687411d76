// SPDX-License-Identifier: MIT
// Player: plays one clip of a Model, or crossfades between two, on one creature instance
// (playback.md). It times the clip with a Playhead (modes, range, cursor, rate, offset, events,
// completion), samples it with SamplingJob (CompactSamplingJob for a clip of the model when the
// model has compact clips: Model::compact_clips()), blends crossfades, and applies morph-weight
// overrides. Per-instance state (DESIGN.md): it refers to a shared, immutable Model that must
// outlive it, and owns every buffer it writes; update() does not allocate once constructed, as
// long as the caller drains or clears the record list after each update.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "critter/anim/blending_job.h"
#include "critter/anim/compact_sampling_job.h"
#include "critter/anim/playhead.h"
#include "critter/anim/pose.h"
#include "critter/anim/sampling_job.h"
#include "critter/asset/model.h"
#include "critter/core/error.h"
#include "critter/core/transform.h"

namespace critter::anim {

// Shape of a crossfade's weight over its normalised time x in [0, 1].
enum class BlendCurve : std::uint8_t {
  kLinear,      // f = x (Defold)
  kSmoothstep,  // f = x^2 (3 - 2x)
};

// f = curve(x) for x clamped to [0, 1].
float blend_curve(BlendCurve curve, float x);

// Options of one play() (playback.md §8). Defaults give a hard cut to the start of the whole clip
// at rate 1.
struct PlayOptions {
  float blend_duration = 0.0f;  // seconds of crossfade from the current pose; <= 0: hard cut
  float offset = 0.0f;          // normalised initial cursor (§5.3); must be finite
  float rate = 1.0f;            // must not be NaN or infinite; negative values play at rate 0
  float start_phase = 0.0f;     // [0, 1] of the clip duration
  float end_phase = 1.0f;       // [0, 1]; below start_phase plays the range in reverse
  BlendCurve curve = BlendCurve::kLinear;
  // Events at phases of the whole clip. Not copied: must outlive the play and its records.
  std::span<const ClipEvent> events;
  // One-shot: invoked by drain() with the play's Completed or Interrupted record (Once modes
  // only), never during update(). Dropped unused for loops and None.
  std::function<void(const PlayerRecord&)> on_done;
};

class Player {
 public:
  // Sizes every buffer for `model`, which must outlive the Player. The pose starts at rest with
  // the default morph weights; nothing plays until play().
  explicit Player(const Model& model);

  // Starts `clip_index` of the model (or `clip`, which must have been built for this model's
  // skeleton and meshes) in `mode`. A Once play still running reports Interrupted. With
  // blend_duration > 0 the current play becomes the crossfade source and keeps advancing at its
  // own rate, silently; when a crossfade is already running, or the current play is not playing
  // (completed, cancelled, stopped, none yet), the pose shown by the last update is frozen and
  // used as the source instead. Fails (kUsage) on a bad clip index, a mode outside 0..6, a phase
  // outside [0, 1] or any non-finite option; nothing changes then. May allocate (the on_done copy,
  // an event list longer than any before); update() does not.
  Status play(int clip_index, PlaybackMode mode, const PlayOptions& options = {});
  Status play(const Clip& clip, PlaybackMode mode, const PlayOptions& options = {});

  // Advances the crossfade timer, the source, then the current play (events and completion go to
  // records()), samples, blends and applies morph overrides (playback.md §4). dt in seconds; a
  // negative, NaN or infinite dt counts as 0 (the pose is still refreshed).
  void update(float dt);

  // Ends the current play and holds the pose shown by the last update (a crossfade in progress is
  // frozen as it is). A Once play that had not completed reports Interrupted.
  void cancel();
  // Ends the current play like cancel(), then forgets the clip: the pose returns to rest with the
  // default morph weights (overrides still apply) and cursor()/rate() read 0/1.
  void stop();

  // The current play's normalised range position (playback.md §5.1); 0 with no clip.
  float cursor() const { return current_.head.cursor(); }
  // Moves the current play (a jump: nothing fires, §6). On a finished play it re-samples the held
  // pose at the next update without restarting or completing again. Ignored with no clip.
  void set_cursor(float v);
  // The current play's rate; 1 with no clip. Negative values are clamped to 0 (pause in place).
  float rate() const { return current_.head.rate(); }
  void set_rate(float rate) { current_.head.set_rate(rate); }
  // Switches the current play to `mode` without restarting it (Playhead::set_mode): the range
  // position and direction are kept, so the pose does not change and nothing fires. From then on
  // completion and interruption follow the new mode; the play's on_done runs only if it ends in
  // a Once mode (one given to a loop play() was dropped). The crossfade source is not affected.
  // Fails (kUsage) on a mode outside 0..6; ignored with no clip or when the current play has
  // ended (completed, cancelled, stopped).
  Status set_mode(PlaybackMode mode);

  // True while the current play advances (None counts; completed, cancelled, stopped do not).
  bool playing() const { return current_.head.playing(); }
  // The current clip, or null after stop() or before the first play().
  const Clip* clip() const { return current_.head.clip(); }
  PlaybackMode mode() const { return current_.head.mode(); }
  // Clip time (seconds) of the current play's position.
  float clip_time() const { return current_.head.clip_time(); }
  // True while a crossfade runs; blend_weight() is the target's weight f of the last update (1
  // when no crossfade runs).
  bool crossfading() const { return fade_ != Fade::kNone; }
  float blend_weight() const { return blend_weight_; }
  // How a crossfade blends rotations from the next update() on: kSlerp (the default, playback.md
  // §8), kNlerp or kLerp (BlendingJob's RotationBlend says how they differ; on a crossfade's one
  // layer the two give the same bits). Other values are taken as kSlerp.
  void set_rotation_blend(RotationBlend rotations) { rotations_ = known_or_slerp(rotations); }
  RotationBlend rotation_blend() const { return rotations_; }
  // The timing state of the current play, for tools and tests.
  const Playhead& playhead() const { return current_.head; }

  // The local pose of the last update: one Transform per skeleton joint. The span may point to
  // other memory after the next update(), play() or stop(): ask again after each.
  std::span<const Transform> local_pose() const {
    return shows_current_ ? std::span<const Transform>(current_.locals)
                          : std::span<const Transform>(locals_);
  }
  // All morph weights of the last update, after animation and overrides, laid out by layout().
  std::span<const float> weights() const { return weights_; }
  const MorphLayout& layout() const { return layout_; }
  // Weights of the first mesh that has morph targets (empty if none), or of mesh `mesh` (empty
  // when out of range or without targets). Indices are 0-based.
  std::span<const float> morph_weights() const;
  std::span<const float> morph_weights(int mesh) const;

  // Morph overrides (playback.md §10): applied after animation on every update until cleared.
  // The all-mesh array feeds every morphed mesh; the per-mesh array takes precedence for its
  // mesh. Per mesh, at most its target count entries are used and missing entries count as 0 (an
  // empty span sets every target to 0). Applied to weights() at once and after each update.
  void set_morph_weights(std::span<const float> values);
  // Fails (kUsage) when `mesh` is not a mesh of the model.
  Status set_morph_weights(int mesh, std::span<const float> values);
  // Clears every override (all-mesh and per-mesh), or only mesh `mesh`'s per-mesh override.
  void clear_morph_weights();
  void clear_morph_weights(int mesh);

  // Events, completions and interrupts since the last drain()/clear_records(), in order.
  std::span<const PlayerRecord> records() const { return records_; }
  // Forgets the records and the on_done callbacks waiting for them.
  void clear_records();
  // Calls fn(record) for each record in order and, after it, the on_done callback of each
  // Completed/Interrupted record; then removes those records. Records appended by the callbacks
  // (a play() from on_done reporting Interrupted) stay for the next drain.
  template <class F>
  void drain(F&& fn) {
    const std::size_t n = records_.size();
    for (std::size_t i = 0; i < n; ++i) {
      const PlayerRecord record = records_[i];
      fn(record);
      if (record.kind != RecordKind::kEvent) run_on_done(record);
    }
    records_.erase(records_.begin(), records_.begin() + static_cast<std::ptrdiff_t>(n));
  }
  void drain() {
    drain([](const PlayerRecord&) {});
  }

 private:
  // One timed, sampled play: the current one, or a live crossfade source.
  struct Slot {
    Playhead head;
    SamplingContext context;
    CompactSamplingContext compact_context;
    std::vector<Transform> locals;
    std::vector<float> weights;
    bool dirty = false;  // needs sampling although not playing (new play, cursor set)
  };
  enum class Fade : std::uint8_t { kNone, kLive, kFrozen };

  Status start(const Clip& clip, PlaybackMode mode, const PlayOptions& options);
  void sample(Slot& slot);
  void end_current();
  void apply_overrides();
  void run_on_done(const PlayerRecord& record);
  void keep_shown_pose();

  const Model* model_;
  MorphLayout layout_;
  std::vector<Transform> rest_;
  Slot current_;
  Slot source_;
  Fade fade_ = Fade::kNone;
  float fade_time_ = 0.0f;
  float fade_duration_ = 0.0f;
  BlendCurve fade_curve_ = BlendCurve::kLinear;
  float blend_weight_ = 1.0f;
  bool hold_ = false;  // cancel(): keep the animated pose as it is
  // The last update showed current_.locals as it was sampled (no crossfade), which is then the
  // output pose; locals_ holds it only after a crossfade, stop() or a new play (no per-frame copy).
  bool shows_current_ = false;
  RotationBlend rotations_ = RotationBlend::kSlerp;  // in the padding before the vectors
  std::vector<Transform> frozen_locals_;
  std::vector<float> frozen_weights_;
  std::vector<Transform> locals_;    // output pose, unless shows_current_
  std::vector<float> anim_weights_;  // output weights before overrides
  std::vector<float> weights_;       // output weights after overrides
  std::vector<float> all_override_;  // capacity: the largest target count
  bool has_all_override_ = false;
  std::vector<float> mesh_override_;  // laid out by layout_
  std::vector<std::uint8_t> mesh_override_set_;
  int first_morphed_mesh_ = -1;
  std::size_t max_tracks_ = 0;
  std::uint32_t next_play_id_ = 1;
  std::vector<PlayerRecord> records_;
  std::function<void(const PlayerRecord&)> current_on_done_;
  std::vector<std::pair<std::uint32_t, std::function<void(const PlayerRecord&)>>> pending_done_;
};

}  // namespace critter::anim
