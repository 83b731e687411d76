// SPDX-License-Identifier: MIT
#include "critter/anim/player.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "critter/anim/transform_blend.h"

namespace critter::anim {

namespace {

// Records one update can append per event (playback.md §6: partial start, two passes of whole
// cycles, a leftover pass and the partial end), plus completion and interrupt records.
constexpr std::size_t kRecordsPerEvent = 5;
constexpr std::size_t kRecordSlack = 8;
constexpr std::size_t kInitialRecords = 64;
constexpr std::size_t kInitialEvents = 16;

Status usage(std::string location, std::string message) {
  return fail(Error::at(ErrorCode::kUsage, "Player", std::move(location), std::move(message)));
}

}  // namespace

float blend_curve(BlendCurve curve, float x) {
  x = std::isfinite(x) ? std::clamp(x, 0.0f, 1.0f) : 0.0f;
  return curve == BlendCurve::kSmoothstep ? x * x * (3.0f - 2.0f * x) : x;
}

Player::Player(const Model& model) : model_(&model), layout_(MorphLayout::of(model)) {
  const auto rest = model.skeleton().rest_pose();
  rest_.assign(rest.begin(), rest.end());
  for (const Clip& clip : model.clips()) max_tracks_ = std::max(max_tracks_, clip.tracks().size());
  std::size_t max_compact_tracks = 0;
  for (const CompactClip& clip : model.compact_clips())
    max_compact_tracks = std::max(max_compact_tracks, clip.tracks().size());
  for (Slot* slot : {&current_, &source_}) {
    slot->head = Playhead(kInitialEvents);
    slot->context = SamplingContext(max_tracks_);
    slot->compact_context = CompactSamplingContext(max_compact_tracks);
    slot->locals = rest_;
    slot->weights = layout_.defaults;
  }
  frozen_locals_ = rest_;
  frozen_weights_ = layout_.defaults;
  locals_ = rest_;
  anim_weights_ = layout_.defaults;
  weights_ = layout_.defaults;

  std::size_t max_targets = 0;
  for (std::size_t m = 0; m < layout_.mesh_count(); ++m) {
    const std::size_t n = layout_.offsets[m + 1] - layout_.offsets[m];
    max_targets = std::max(max_targets, n);
    if (n > 0 && first_morphed_mesh_ < 0) first_morphed_mesh_ = static_cast<int>(m);
  }
  all_override_.reserve(max_targets);
  mesh_override_.assign(layout_.weight_count(), 0.0f);
  mesh_override_set_.assign(layout_.mesh_count(), 0);
  records_.reserve(kInitialRecords);
  pending_done_.reserve(kInitialRecords / 8);
}

Status Player::play(int clip_index, PlaybackMode mode, const PlayOptions& options) {
  const auto clips = model_->clips();
  if (clip_index < 0 || static_cast<std::size_t>(clip_index) >= clips.size())
    return usage("clip_index", "clip " + std::to_string(clip_index) +
                                   " does not exist; the model has " +
                                   std::to_string(clips.size()) + " clips");
  return start(clips[static_cast<std::size_t>(clip_index)], mode, options);
}

Status Player::play(const Clip& clip, PlaybackMode mode, const PlayOptions& options) {
  return start(clip, mode, options);
}

Status Player::start(const Clip& clip, PlaybackMode mode, const PlayOptions& options) {
  if (static_cast<unsigned>(mode) > static_cast<unsigned>(PlaybackMode::kLoopPingPong))
    return usage("mode", "playback mode " + std::to_string(static_cast<unsigned>(mode)) +
                             " is not one of 0..6");
  const auto phase_ok = [](float p) { return std::isfinite(p) && p >= 0.0f && p <= 1.0f; };
  if (!phase_ok(options.start_phase))
    return usage("options.start_phase", "start phase must be a number in [0, 1]");
  if (!phase_ok(options.end_phase))
    return usage("options.end_phase", "end phase must be a number in [0, 1]");
  if (!std::isfinite(options.offset)) return usage("options.offset", "offset is not finite");
  if (!std::isfinite(options.rate)) return usage("options.rate", "rate is not finite");
  if (!std::isfinite(options.blend_duration))
    return usage("options.blend_duration", "blend duration is not finite");
  // Checking the clip against this model once here lets update() sample without failing.
  const SamplingJob check{.clip = &clip,
                          .time = 0.0f,
                          .context = &current_.context,
                          .rest = rest_,
                          .default_weights = layout_.defaults,
                          .weight_offsets = layout_.offsets,
                          .output = current_.locals,
                          .output_weights = current_.weights};
  if (auto ok = check.validate(); !ok) return ok;

  if (clip.tracks().size() > max_tracks_) {
    max_tracks_ = clip.tracks().size();
    current_.context = SamplingContext(max_tracks_);
    source_.context = SamplingContext(max_tracks_);
  }

  // What the last update showed stays the output pose until the next update, whatever the
  // slots do now.
  keep_shown_pose();
  const bool was_playing = current_.head.playing();
  const bool blend = options.blend_duration > 0.0f;
  const bool live_source = blend && fade_ == Fade::kNone && was_playing && !hold_;
  // A live source keeps advancing (silently) after its Interrupted record; otherwise it stops.
  current_.head.interrupt(&records_, live_source);
  if (was_playing) end_current();

  if (live_source) {
    std::swap(current_, source_);
    fade_ = Fade::kLive;
  } else if (blend) {
    // Nothing live to fade from, or a crossfade already running: freeze what the last update
    // showed (pre-override weights, so overrides keep applying on top) and fade from that.
    std::copy(locals_.begin(), locals_.end(), frozen_locals_.begin());
    std::copy(anim_weights_.begin(), anim_weights_.end(), frozen_weights_.begin());
    source_.head.clear();
    fade_ = Fade::kFrozen;
  } else {
    source_.head.clear();
    fade_ = Fade::kNone;
  }
  fade_time_ = 0.0f;
  fade_duration_ = blend ? options.blend_duration : 0.0f;
  fade_curve_ = options.curve;
  blend_weight_ = blend ? 0.0f : 1.0f;
  hold_ = false;

  const std::size_t needed =
      records_.size() + kRecordsPerEvent * options.events.size() + kRecordSlack;
  if (records_.capacity() < needed) records_.reserve(std::max(needed, 2 * records_.capacity()));
  if (pending_done_.size() == pending_done_.capacity())
    pending_done_.reserve(2 * pending_done_.capacity() + 1);

  current_.head.start(PlayheadSetup{.clip = &clip,
                                    .duration = clip.duration(),
                                    .mode = mode,
                                    .start_phase = options.start_phase,
                                    .end_phase = options.end_phase,
                                    .offset = options.offset,
                                    .rate = options.rate,
                                    .events = options.events,
                                    .play_id = next_play_id_++});
  current_.dirty = true;
  current_on_done_ = is_once(mode) ? options.on_done : nullptr;
  return {};
}

Status Player::set_mode(PlaybackMode mode) {
  if (static_cast<unsigned>(mode) > static_cast<unsigned>(PlaybackMode::kLoopPingPong))
    return usage("mode", "playback mode " + std::to_string(static_cast<unsigned>(mode)) +
                             " is not one of 0..6");
  current_.head.set_mode(mode);
  return {};
}

void Player::keep_shown_pose() {
  if (!shows_current_) return;
  std::copy(current_.locals.begin(), current_.locals.end(), locals_.begin());
  shows_current_ = false;
}

void Player::end_current() {
  // The current play just reported Completed or Interrupted (Once) or stopped silently (loops,
  // None): its one-shot callback waits for drain(), or is dropped.
  if (is_once(current_.head.mode()) && current_on_done_)
    pending_done_.emplace_back(current_.head.play_id(), std::move(current_on_done_));
  current_on_done_ = nullptr;
}

void Player::sample(Slot& slot) {
  // A clip of the model plays from its compact form when the model has one.
  const Clip* clip = slot.head.clip();
  const auto clips = model_->clips();
  const auto compact = model_->compact_clips();
  const std::less<const Clip*> before;
  if (!compact.empty() && !before(clip, clips.data()) &&
      before(clip, clips.data() + clips.size())) {
    const CompactSamplingJob job{.clip = &compact[static_cast<std::size_t>(clip - clips.data())],
                                 .time = slot.head.clip_time(),
                                 .context = &slot.compact_context,
                                 .rest = rest_,
                                 .default_weights = layout_.defaults,
                                 .weight_offsets = layout_.offsets,
                                 .output = slot.locals,
                                 .output_weights = slot.weights,
                                 .output_untouched = true};
    if (job.run()) slot.dirty = false;
    // The pose is no longer the one the exact context last wrote (a clip from outside the model
    // samples exactly into the same pose).
    slot.context.invalidate();
    return;
  }
  // Nor the one the compact context last wrote.
  if (!compact.empty()) slot.compact_context.invalidate();
  const SamplingJob job{.clip = slot.head.clip(),
                        .time = slot.head.clip_time(),
                        .context = &slot.context,
                        .rest = rest_,
                        .default_weights = layout_.defaults,
                        .weight_offsets = layout_.offsets,
                        .output = slot.locals,
                        .output_weights = slot.weights,
                        // Only sampling writes a slot's pose (its context moves with it).
                        .output_untouched = true};
  // The clip was validated by play(); a failure here would leave the previous pose, never a
  // partly written one.
  if (job.run()) slot.dirty = false;
}

void Player::update(float dt) {
  const float seconds = std::isfinite(dt) && dt > 0.0f ? dt : 0.0f;
  // playback.md §4 frame order: blend timer, source, then the current play.
  if (fade_ != Fade::kNone) fade_time_ += seconds;
  // A play that was playing has moved (possibly onto its end, where it stops): sample it.
  if (fade_ == Fade::kLive && source_.head.playing()) {
    source_.head.advance(seconds, nullptr);
    source_.dirty = true;
  }
  const bool was_playing = current_.head.playing();
  current_.head.advance(seconds, &records_);
  if (was_playing) {
    current_.dirty = true;
    if (!current_.head.playing()) end_current();
  }

  if (!hold_ && current_.head.assigned()) {
    if (current_.dirty) sample(current_);
    if (fade_ != Fade::kNone && fade_time_ >= fade_duration_) {
      fade_ = Fade::kNone;
      source_.head.clear();
    }
    if (fade_ == Fade::kNone) {
      blend_weight_ = 1.0f;
      shows_current_ = true;
      std::copy(current_.weights.begin(), current_.weights.end(), anim_weights_.begin());
    } else {
      blend_weight_ = blend_curve(fade_curve_, fade_time_ / fade_duration_);
      std::span<const Transform> from = frozen_locals_;
      std::span<const float> from_weights = frozen_weights_;
      if (fade_ == Fade::kLive) {
        if (source_.dirty) sample(source_);
        from = source_.locals;
        from_weights = source_.weights;
      }
      // The crossfade as a one-layer stack over the source: the blending kernels, several joints
      // at a time, with blend_transforms()'s bits (sizes match by construction: cannot fail).
      BlendingLayer target;
      target.pose = current_.locals;
      target.weight = blend_weight_;
      BlendingJob job;
      job.layers = {&target, 1};
      job.rest = from;
      job.output = locals_;
      job.rotations = rotations_;
      (void)job.run();
      shows_current_ = false;
      (void)blend_weights(from_weights, current_.weights, blend_weight_, anim_weights_);
    }
  }
  apply_overrides();
}

void Player::set_cursor(float v) {
  if (!current_.head.assigned()) return;
  current_.head.set_cursor(v);
  current_.dirty = true;
  hold_ = false;
}

void Player::cancel() {
  const bool was_playing = current_.head.playing();
  current_.head.interrupt(&records_);
  if (was_playing) end_current();
  // §7: the pose shown (a crossfade frozen half-way included) is held as it is.
  fade_ = Fade::kNone;
  source_.head.clear();
  blend_weight_ = 1.0f;
  hold_ = current_.head.assigned();
}

void Player::stop() {
  cancel();
  current_.head.clear();
  hold_ = false;
  std::copy(rest_.begin(), rest_.end(), locals_.begin());
  shows_current_ = false;
  std::copy(layout_.defaults.begin(), layout_.defaults.end(), anim_weights_.begin());
  apply_overrides();
}

std::span<const float> Player::morph_weights() const {
  if (first_morphed_mesh_ < 0) return {};
  return morph_weights(first_morphed_mesh_);
}

std::span<const float> Player::morph_weights(int mesh) const {
  if (mesh < 0 || static_cast<std::size_t>(mesh) >= layout_.mesh_count()) return {};
  return layout_.mesh_weights(std::span<const float>(weights_), static_cast<std::size_t>(mesh));
}

void Player::set_morph_weights(std::span<const float> values) {
  // Entries beyond the largest target count would be ignored by every mesh, so they are not kept
  // (and the reserved capacity is never exceeded).
  const std::size_t kept = std::min(values.size(), all_override_.capacity());
  all_override_.assign(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(kept));
  has_all_override_ = true;
  apply_overrides();
}

Status Player::set_morph_weights(int mesh, std::span<const float> values) {
  if (mesh < 0 || static_cast<std::size_t>(mesh) >= layout_.mesh_count())
    return usage("mesh", "mesh " + std::to_string(mesh) + " does not exist; the model has " +
                             std::to_string(layout_.mesh_count()) + " meshes");
  const auto m = static_cast<std::size_t>(mesh);
  auto dst = layout_.mesh_weights(std::span<float>(mesh_override_), m);
  for (std::size_t i = 0; i < dst.size(); ++i) dst[i] = i < values.size() ? values[i] : 0.0f;
  mesh_override_set_[m] = 1;
  apply_overrides();
  return {};
}

void Player::clear_morph_weights() {
  has_all_override_ = false;
  all_override_.clear();
  std::fill(mesh_override_set_.begin(), mesh_override_set_.end(), std::uint8_t{0});
  apply_overrides();
}

void Player::clear_morph_weights(int mesh) {
  if (mesh < 0 || static_cast<std::size_t>(mesh) >= layout_.mesh_count()) return;
  mesh_override_set_[static_cast<std::size_t>(mesh)] = 0;
  apply_overrides();
}

void Player::apply_overrides() {
  // §10: base -> animation -> override; a per-mesh override beats the all-mesh array, and
  // missing entries of either count as 0 (Defold's rule).
  for (std::size_t m = 0; m < layout_.mesh_count(); ++m) {
    const std::size_t begin = layout_.offsets[m];
    const std::size_t n = layout_.offsets[m + 1] - begin;
    for (std::size_t i = 0; i < n; ++i) {
      float w = anim_weights_[begin + i];
      if (mesh_override_set_[m]) {
        w = mesh_override_[begin + i];
      } else if (has_all_override_) {
        w = i < all_override_.size() ? all_override_[i] : 0.0f;
      }
      weights_[begin + i] = w;
    }
  }
}

void Player::clear_records() {
  records_.clear();
  pending_done_.clear();
}

void Player::run_on_done(const PlayerRecord& record) {
  for (std::size_t i = 0; i < pending_done_.size(); ++i) {
    if (pending_done_[i].first != record.play_id) continue;
    // Taken out before the call: the callback may start another play, which can append here.
    auto fn = std::move(pending_done_[i].second);
    pending_done_.erase(pending_done_.begin() + static_cast<std::ptrdiff_t>(i));
    if (fn) fn(record);
    return;
  }
}

}  // namespace critter::anim
