// SPDX-License-Identifier: MIT
#include "critter/anim/playhead.h"

#include <algorithm>
#include <cmath>

namespace critter::anim {

namespace {

// An update may in principle cover more cycles than any counter holds (a huge dt on a tiny
// range); counts saturate here, far beyond anything a frame loop reaches.
constexpr double kMaxWraps = 4.0e18;

// §5.1 step 3: exact multiples of the range land on its end when |t'| falls under this (seconds).
constexpr double kLandOnEnd = 1e-4;

bool is_backward_mode(PlaybackMode m) {
  return m == PlaybackMode::kOnceBackward || m == PlaybackMode::kLoopBackward;
}

}  // namespace

void Playhead::start(const PlayheadSetup& setup) {
  clip_ = setup.clip;
  events_ = setup.events;
  mode_ = setup.mode;
  play_id_ = setup.play_id;
  duration_ = std::isfinite(setup.duration) && setup.duration > 0.0f ? setup.duration : 0.0;
  const auto phase = [](float p) { return std::isfinite(p) ? std::clamp(p, 0.0f, 1.0f) : 0.0f; };
  a_ = phase(setup.start_phase) * duration_;
  b_ = phase(setup.end_phase) * duration_;
  length_ = std::abs(b_ - a_);
  backwards_ = is_backward_mode(mode_);
  assigned_ = true;
  playing_ = true;
  started_ = false;
  c_ = 0.0;

  // Event positions are computed with the same products as a and b, so an event exactly at a
  // range end gets u = 0 or 1 exactly (x / x == 1 in IEEE arithmetic).
  order_.clear();
  const double lo = std::min(a_, b_);
  const double hi = std::max(a_, b_);
  for (std::size_t i = 0; i < events_.size(); ++i) {
    const float e = events_[i].phase;
    if (!std::isfinite(e)) continue;
    const double t = e * duration_;
    if (t < lo || t > hi) continue;
    const double u = length_ > 0.0 ? (t - a_) / (b_ - a_) : 0.0;
    order_.push_back(Slot{std::clamp(u, 0.0, 1.0), static_cast<std::uint32_t>(i)});
  }
  // Ties keep the caller's order: the index breaks them, so no stable (allocating) sort is needed.
  std::sort(order_.begin(), order_.end(), [](const Slot& x, const Slot& y) {
    return x.u < y.u || (x.u == y.u && x.index < y.index);
  });

  float offset = std::isfinite(setup.offset) ? setup.offset : 0.0f;
  // §5.3: backward modes clamp the offset and flip it, so that it means "fraction already played".
  if (backwards_) offset = 1.0f - std::clamp(offset, 0.0f, 1.0f);
  set_cursor_raw(offset);
  set_rate(setup.rate);
}

void Playhead::clear() {
  clip_ = nullptr;
  events_ = {};
  order_.clear();
  mode_ = PlaybackMode::kNone;
  duration_ = a_ = b_ = length_ = c_ = 0.0;
  rate_ = 1.0f;
  play_id_ = 0;
  backwards_ = playing_ = assigned_ = started_ = false;
}

void Playhead::set_rate(float rate) {
  // §5.2: negative rates clamp to 0; NaN is treated the same way so the cursor stays finite.
  rate_ = rate > 0.0f ? rate : 0.0f;
  if (!std::isfinite(rate_)) rate_ = 0.0f;
}

void Playhead::set_cursor_raw(float v) {
  const double len = length_;
  if (len <= 0.0) {
    c_ = 0.0;
    return;
  }
  double t = static_cast<double>(v) * len;                                     // step 1
  if (mode_ == PlaybackMode::kLoopPingPong && backwards_) backwards_ = false;  // step 2
  if (std::abs(t) > len) {                                                     // step 3
    t = std::fmod(t, len);
    if (std::abs(t) < kLandOnEnd) t = len;
  }
  if (t < 0.0) t = len - std::fmod(std::abs(t), len);  // step 4
  if (backwards_) t = len - t;                         // step 5
  c_ = std::clamp(t, 0.0, len);                        // step 6
}

void Playhead::set_cursor(float v) {
  if (!assigned_ || !std::isfinite(v)) return;
  set_cursor_raw(v);
  // A jump: the landing point is not reached, so the next segment excludes its start.
  started_ = true;
}

void Playhead::set_mode(PlaybackMode mode) {
  if (!assigned_ || !playing_ || mode == mode_ ||
      static_cast<unsigned>(mode) > static_cast<unsigned>(PlaybackMode::kLoopPingPong)) {
    return;
  }
  const double len = length_;
  const double u = cursor();
  // The direction the play was moving in: backward modes, the backward phase of LoopPingPong
  // (`backwards_`) and the second half of OncePingPong.
  const bool moving_back =
      backwards_ || (mode_ == PlaybackMode::kOncePingPong && c_ > len && len > 0.0);
  mode_ = mode;
  switch (mode) {
    case PlaybackMode::kOnceBackward:
    case PlaybackMode::kLoopBackward:
      backwards_ = true;
      c_ = len - u * len;
      break;
    case PlaybackMode::kOncePingPong:
      backwards_ = false;
      c_ = moving_back ? 2.0 * len - u * len : u * len;
      break;
    case PlaybackMode::kLoopPingPong:
      backwards_ = moving_back;
      c_ = moving_back ? len - u * len : u * len;
      break;
    default:  // None and the forward modes
      backwards_ = false;
      c_ = u * len;
      break;
  }
}

float Playhead::cursor() const {
  if (!assigned_ || length_ <= 0.0) return 0.0f;
  double t = c_;
  if (mode_ == PlaybackMode::kOncePingPong && t > length_) t = 2.0 * length_ - t;
  if (backwards_) t = length_ - t;
  return static_cast<float>(t / length_);
}

float Playhead::clip_time() const {
  if (!assigned_) return 0.0f;
  if (length_ <= 0.0) return static_cast<float>(a_);
  const double u = cursor();
  if (u >= 1.0) return static_cast<float>(b_);
  return static_cast<float>(a_ + u * (b_ - a_));
}

float Playhead::clip_phase() const {
  return duration_ > 0.0 ? static_cast<float>(clip_time() / duration_) : 0.0f;
}

double Playhead::position(double c, bool forward) const {
  return forward ? c / length_ : 1.0 - c / length_;
}

void Playhead::fire(double u_from, double u_to, bool forward, bool include_start,
                    std::uint64_t count, std::vector<PlayerRecord>* out) const {
  if (out == nullptr || order_.empty() || count == 0) return;
  const auto below = [](const Slot& s, double u) { return s.u < u; };
  const auto above = [](double u, const Slot& s) { return u < s.u; };
  const auto emit = [&](const Slot& s) {
    const ClipEvent& e = events_[s.index];
    out->push_back(
        PlayerRecord{clip_, e.name, e.phase, e.data, count, RecordKind::kEvent, play_id_});
  };
  if (forward) {
    // Events with u in (u_from, u_to], or [u_from, u_to] when the start point is included.
    auto lo = include_start ? std::lower_bound(order_.begin(), order_.end(), u_from, below)
                            : std::upper_bound(order_.begin(), order_.end(), u_from, above);
    const auto hi = std::upper_bound(order_.begin(), order_.end(), u_to, above);
    for (; lo < hi; ++lo) emit(*lo);
  } else {
    // Events with u in [u_to, u_from), or [u_to, u_from] with the start, by descending u.
    const auto lo = std::lower_bound(order_.begin(), order_.end(), u_to, below);
    auto hi = include_start ? std::upper_bound(order_.begin(), order_.end(), u_from, above)
                            : std::lower_bound(order_.begin(), order_.end(), u_from, below);
    for (; hi > lo; --hi) emit(*(hi - 1));
  }
}

void Playhead::advance(float dt, std::vector<PlayerRecord>* out) {
  if (!assigned_ || !playing_ || mode_ == PlaybackMode::kNone) return;
  // A negative dt would run time backwards through events already reported; it counts as 0, as do
  // NaN and infinity, which have no position.
  const double seconds = std::isfinite(dt) && dt > 0.0f ? dt : 0.0;
  const double delta = seconds * rate_;
  const bool include_start = !started_;

  if (length_ <= 0.0) {
    // §3: a zero-length range holds its single pose; its first update reaches that point, and a
    // Once play completes there whatever the rate.
    c_ = 0.0;
    if (!started_) {
      started_ = true;
      fire(0.0, 0.0, true, true, 1, out);
    }
    if (is_once(mode_)) {
      playing_ = false;
      if (out != nullptr)
        out->push_back(
            PlayerRecord{clip_, {}, clip_phase(), {}, 1, RecordKind::kCompleted, play_id_});
    }
    return;
  }
  if (is_once(mode_)) {
    advance_once(delta, include_start, out);
  } else {
    advance_loop(delta, include_start, out);
  }
}

void Playhead::advance_once(double delta, bool include_start, std::vector<PlayerRecord>* out) {
  const double len = length_;
  const double end = mode_ == PlaybackMode::kOncePingPong ? 2.0 * len : len;
  const double s = c_ + delta;
  const bool completes = s >= end;
  if (delta <= 0.0 && !completes) return;  // rate 0: nothing moves, nothing fires
  const double c1 = completes ? end : s;
  started_ = true;

  switch (mode_) {
    case PlaybackMode::kOnceForward:
      fire(c_ / len, c1 / len, true, include_start, 1, out);
      break;
    case PlaybackMode::kOnceBackward:
      fire(1.0 - c_ / len, 1.0 - c1 / len, false, include_start, 1, out);
      break;
    default:  // kOncePingPong: forward half [0, L], then the backward half (L, 2L]
      if (c_ < len) {
        fire(c_ / len, std::min(c1, len) / len, true, include_start, 1, out);
        // The turn at u = 1 was reached by the forward segment, so the backward one excludes it.
        if (c1 > len) fire(1.0, 2.0 - c1 / len, false, false, 1, out);
      } else {
        fire(2.0 - c_ / len, 2.0 - c1 / len, false, include_start, 1, out);
      }
      break;
  }
  c_ = c1;
  if (completes) {
    playing_ = false;
    if (out != nullptr)
      out->push_back(
          PlayerRecord{clip_, {}, clip_phase(), {}, 1, RecordKind::kCompleted, play_id_});
  }
}

void Playhead::advance_loop(double delta, bool include_start, std::vector<PlayerRecord>* out) {
  if (delta <= 0.0) return;  // rate 0 pauses in place and fires nothing
  const double len = length_;
  const double s = c_ + delta;
  // §3 computes the wrap count directly instead of Defold's while loop, so any dt costs the same.
  double wraps = std::floor(s / len);
  double rest = s - wraps * len;
  if (rest < 0.0) {
    rest += len;
    wraps -= 1.0;
  } else if (rest >= len) {
    rest -= len;
    wraps += 1.0;
  }
  if (!(rest >= 0.0 && rest < len)) rest = 0.0;
  started_ = true;

  const bool forward = !backwards_;
  if (wraps < 1.0) {
    fire(position(c_, forward), position(rest, forward), forward, include_start, 1, out);
    c_ = rest;
    return;
  }
  const auto n = static_cast<std::uint64_t>(std::min(wraps, kMaxWraps));
  const double start_u = forward ? 0.0 : 1.0;
  const double end_u = forward ? 1.0 : 0.0;

  if (mode_ != PlaybackMode::kLoopPingPong) {
    // Each pass is one cycle and begins after a wrap, so it includes its start point. A first
    // pass that starts playback at the very start of the range is a whole cycle too.
    std::uint64_t whole = n - 1;
    if (include_start && c_ == 0.0) {
      ++whole;
    } else {
      fire(position(c_, forward), end_u, forward, include_start, 1, out);
    }
    fire(start_u, end_u, forward, true, whole, out);
    fire(start_u, position(rest, forward), forward, true, 1, out);
  } else {
    // Passes alternate direction and begin at a turn, which the previous pass already reached.
    // A whole cycle is two passes: the one after the first partial pass, then its reverse.
    fire(position(c_, forward), end_u, forward, include_start, 1, out);
    const std::uint64_t passes = n - 1;
    const std::uint64_t cycles = passes / 2;
    fire(end_u, start_u, !forward, false, cycles, out);
    fire(start_u, end_u, forward, false, cycles, out);
    if (passes % 2 == 1) fire(end_u, start_u, !forward, false, 1, out);
    const bool last_forward = (n % 2 == 0) ? forward : !forward;
    fire(last_forward ? 0.0 : 1.0, position(rest, last_forward), last_forward, false, 1, out);
    if (n % 2 == 1) backwards_ = !backwards_;
  }
  c_ = rest;
}

void Playhead::interrupt(std::vector<PlayerRecord>* out, bool keep_advancing) {
  if (!assigned_ || !playing_) return;
  playing_ = keep_advancing;
  if (is_once(mode_) && out != nullptr)
    out->push_back(
        PlayerRecord{clip_, {}, clip_phase(), {}, 1, RecordKind::kInterrupted, play_id_});
}

}  // namespace critter::anim
