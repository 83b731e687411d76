// SPDX-License-Identifier: MIT
// Playhead: the timing half of a Player (playback.md §1, §3 to §7). It knows a clip's duration,
// a range, a playback mode, a cursor, a rate and a list of normalised-time events, and turns each
// update into a new range position plus the event, completion and interrupt records of that
// update. It never samples keys: the Player maps range_position() to clip time and samples there.
// Per-instance state (DESIGN.md); advance() never allocates when `out` has room for the records of
// one update (at most 5 * event count + 1, see advance()).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace critter {
class Clip;
}

namespace critter::anim {

// Playback modes; the integer values are Defold's go.PLAYBACK_* (playback.md §3).
enum class PlaybackMode : std::uint8_t {
  kNone = 0,          // never advances; the cursor is set by hand (scrubbing)
  kOnceForward = 1,   // range start to end, then completes holding u = 1
  kOnceBackward = 2,  // range end to start, then completes holding u = 0
  kOncePingPong = 3,  // start to end and back (2L seconds at rate 1), completes on u = 0
  kLoopForward = 4,   // start to end, wrapping; never completes
  kLoopBackward = 5,  // end to start, wrapping; never completes
  kLoopPingPong = 6,  // start to end to start ...; never completes
};

// True for the three Once modes (the ones that complete and report Completed/Interrupted).
constexpr bool is_once(PlaybackMode m) {
  return m == PlaybackMode::kOnceForward || m == PlaybackMode::kOnceBackward ||
         m == PlaybackMode::kOncePingPong;
}

// An event at a normalised phase of the WHOLE clip (clip time phase * duration), not of the range.
// Events whose clip time lies outside the played range never fire; a non-finite phase never fires.
struct ClipEvent {
  float phase = 0.0f;  // [0, 1] over the whole clip
  std::string name;
  std::string data;  // free payload, may be empty
};

enum class RecordKind : std::uint8_t {
  kEvent,        // an event was reached `count` times
  kCompleted,    // a Once play reached its end (exactly once per play)
  kInterrupted,  // a Once play ended any other way: replaced, cancelled, stopped
};

// One entry of a player's output list. `name` and `data` view the ClipEvent array passed to
// play(), which must outlive the records. Completion records have empty name and data, count 1,
// and `phase` = the clip phase (clip time / duration, 0 for a zero-length clip) where the play
// stopped. `play_id` identifies the play() that produced the record.
struct PlayerRecord {
  const Clip* clip = nullptr;
  std::string_view name;
  float phase = 0.0f;
  std::string_view data;
  std::uint64_t count = 1;  // > 1 only for the whole cycles of a long update (playback.md §6)
  RecordKind kind = RecordKind::kEvent;
  std::uint32_t play_id = 0;
};

// Everything a Playhead needs to start a play.
struct PlayheadSetup {
  const Clip* clip = nullptr;  // copied into records only; may be null
  float duration = 0.0f;       // D, seconds (>= 0, finite)
  PlaybackMode mode = PlaybackMode::kLoopForward;
  float start_phase = 0.0f;           // [0, 1]; a = start_phase * D
  float end_phase = 1.0f;             // [0, 1]; b = end_phase * D; b < a plays the clip in reverse
  float offset = 0.0f;                // normalised initial cursor (playback.md §5.3)
  float rate = 1.0f;                  // >= 0; negative and NaN become 0
  std::span<const ClipEvent> events;  // must outlive the play and its records
  std::uint32_t play_id = 0;
};

class Playhead {
 public:
  Playhead() = default;
  // Pre-sizes the event table so that start() with up to `max_events` events never allocates.
  explicit Playhead(std::size_t max_events) { order_.reserve(max_events); }

  // Starts a play: range, mode, offset through set_cursor's steps (§5.3), then the rate. The next
  // update that moves the playhead (or completes, or any first update of a zero-length range)
  // includes its start point. Allocates only when `events` is longer than any earlier list.
  void start(const PlayheadSetup& setup);

  // Advances by dt seconds of real time (§4): the cursor moves by dt * rate, wraps or clamps by
  // mode, and every event reached is appended to `out` in travel order, then Completed when a Once
  // play ends. A negative, NaN or infinite dt counts as 0. `out` may be null (a silent crossfade
  // source: no events, no completion record; the state still changes). Whole cycles inside one
  // update are reported as one record per event reach with count = k, so an update appends at
  // most 5 * event count + 1 records whatever dt is.
  void advance(float dt, std::vector<PlayerRecord>* out);

  // Ends the play: a Once play that is still playing appends Interrupted to `out` (if not null).
  // The position is kept (the pose is held). With keep_advancing the record is appended but the
  // play goes on, for a crossfade source that keeps moving silently (playback.md §8).
  void interrupt(std::vector<PlayerRecord>* out, bool keep_advancing = false);
  // Forgets the play entirely (no clip): cursor() reads 0 and rate() reads 1.
  void clear();

  // True after start() until the play completes, is interrupted or cleared. kNone plays count as
  // playing (they never complete).
  bool playing() const { return playing_; }
  // True after start() until clear(): there is a clip position to sample.
  bool assigned() const { return assigned_; }
  PlaybackMode mode() const { return mode_; }
  const Clip* clip() const { return clip_; }
  std::uint32_t play_id() const { return play_id_; }

  // Normalised position in the range (§5.1 get): 0 at the start phase, 1 at the end phase,
  // whatever the mode, direction or ping-pong half. 0 with no play or a zero-length range.
  float cursor() const;
  // Sets the normalised cursor (§5.1 set, all six steps). A jump: nothing fires for the skipped
  // span and the landing point does not count as reached. Does not restart a finished play.
  // Ignored with no play or a non-finite v.
  void set_cursor(float v);

  // Switches the current play to `mode` without restarting it (animation-config.md §19 step 3:
  // a `loop` expression that changes value). The range position u and the direction of travel
  // are kept: forward and backward modes take the matching cursor for u, OncePingPong continues
  // in its backward half when the play was moving backward, LoopPingPong keeps the direction.
  // Nothing fires and the start point is not reached again; events, wraps and completion follow
  // the new mode from the next advance(), so a play switched to a Once mode completes in the
  // advance that reaches its end. Ignored with no play, on a play that has ended (completed,
  // interrupted) and for a mode outside 0..6.
  void set_mode(PlaybackMode mode);

  // Seconds of cursor per second of update; 1 with no play.
  float rate() const { return assigned_ ? rate_ : 1.0f; }
  // Negative and NaN rates become 0 (pause in place).
  void set_rate(float rate);

  // Clip time in seconds of the current position: a + u * (b - a).
  float clip_time() const;
  // Clip phase of the current position: clip_time() / D, or 0 when D = 0.
  float clip_phase() const;
  // Raw cursor seconds c in [0, C] and the `backwards` flag (§1), for tests and tools.
  double cursor_seconds() const { return c_; }
  bool backwards() const { return backwards_; }
  // Range length L = |b - a| in seconds.
  double range_length() const { return length_; }

 private:
  struct Slot {
    double u;             // range position of the event
    std::uint32_t index;  // into events_
  };

  double position(double c, bool forward) const;
  void fire(double u_from, double u_to, bool forward, bool include_start, std::uint64_t count,
            std::vector<PlayerRecord>* out) const;
  void advance_once(double delta, bool include_start, std::vector<PlayerRecord>* out);
  void advance_loop(double delta, bool include_start, std::vector<PlayerRecord>* out);
  void set_cursor_raw(float v);

  const Clip* clip_ = nullptr;
  std::span<const ClipEvent> events_;
  std::vector<Slot> order_;  // events inside the range, by ascending u (stable)
  PlaybackMode mode_ = PlaybackMode::kNone;
  double duration_ = 0.0;
  double a_ = 0.0;
  double b_ = 0.0;
  double length_ = 0.0;  // L
  double c_ = 0.0;       // cursor seconds in [0, C]
  float rate_ = 1.0f;
  std::uint32_t play_id_ = 0;
  bool backwards_ = false;
  bool playing_ = false;
  bool assigned_ = false;
  bool started_ = false;  // the start point has been reached (or jumped over)
};

}  // namespace critter::anim
