// SPDX-License-Identifier: MIT
// Timing rules of playback.md §3 to §7, driven without sampling: modes, cursor get/set, rate,
// offset, ranges, events (segments, wraps, turns, counted whole cycles) and completion.
#include "critter/anim/playhead.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace critter::anim {
namespace {

using Mode = PlaybackMode;

PlayheadSetup setup(float duration, Mode mode, std::span<const ClipEvent> events = {}) {
  PlayheadSetup s;
  s.duration = duration;
  s.mode = mode;
  s.events = events;
  return s;
}

Playhead started(const PlayheadSetup& s) {
  Playhead p;
  p.start(s);
  return p;
}

// "name" for an event, "name*count" when counted, "!done" / "!interrupted" for completions.
std::vector<std::string> names(const std::vector<PlayerRecord>& records) {
  std::vector<std::string> out;
  for (const PlayerRecord& r : records) {
    if (r.kind == RecordKind::kCompleted) {
      out.push_back("!done");
    } else if (r.kind == RecordKind::kInterrupted) {
      out.push_back("!interrupted");
    } else {
      out.push_back(std::string(r.name) + (r.count > 1 ? "*" + std::to_string(r.count) : ""));
    }
  }
  return out;
}

std::vector<std::string> step(Playhead& p, float dt) {
  std::vector<PlayerRecord> records;
  p.advance(dt, &records);
  return names(records);
}

using Names = std::vector<std::string>;

const std::vector<ClipEvent> kEnds = {{0.0f, "e0", ""}, {0.5f, "e5", ""}, {1.0f, "e1", ""}};

// --- §3 cursor mapping per mode ---------------------------------------------------------------

TEST(PlayheadModes, OnceForwardMapsCursorToRangeAndHoldsTheEnd) {
  Playhead p = started(setup(2.0f, Mode::kOnceForward));
  EXPECT_FLOAT_EQ(p.cursor(), 0.0f);
  EXPECT_EQ(step(p, 0.5f), Names{});
  EXPECT_FLOAT_EQ(p.cursor(), 0.25f);
  EXPECT_FLOAT_EQ(p.clip_time(), 0.5f);
  EXPECT_EQ(step(p, 1.75f), Names{"!done"});  // 2.25 s >= C = 2 s: clamp and complete
  EXPECT_FALSE(p.playing());
  EXPECT_FLOAT_EQ(p.cursor(), 1.0f);
  EXPECT_FLOAT_EQ(p.clip_time(), 2.0f);
  EXPECT_EQ(step(p, 1.0f), Names{});  // later updates do nothing: the last pose is held
  EXPECT_FLOAT_EQ(p.clip_time(), 2.0f);
}

TEST(PlayheadModes, OnceBackwardRunsFromEndToStart) {
  Playhead p = started(setup(2.0f, Mode::kOnceBackward));
  EXPECT_FLOAT_EQ(p.cursor(), 1.0f);
  EXPECT_FLOAT_EQ(p.clip_time(), 2.0f);
  step(p, 0.5f);
  EXPECT_FLOAT_EQ(p.cursor(), 0.75f);
  EXPECT_FLOAT_EQ(p.clip_time(), 1.5f);
  EXPECT_EQ(step(p, 1.5f), Names{"!done"});
  EXPECT_FLOAT_EQ(p.clip_time(), 0.0f);
}

TEST(PlayheadModes, OncePingPongReportsTheSameCursorOnBothHalves) {
  // §13: cursor 0.5 at 0.25 * 2L and at 0.75 * 2L of run time (L = 2 s, so 1 s and 3 s).
  Playhead p = started(setup(2.0f, Mode::kOncePingPong));
  step(p, 1.0f);
  EXPECT_FLOAT_EQ(p.cursor(), 0.5f);
  step(p, 1.0f);
  EXPECT_FLOAT_EQ(p.cursor(), 1.0f);
  step(p, 1.0f);
  EXPECT_FLOAT_EQ(p.cursor(), 0.5f);
  EXPECT_DOUBLE_EQ(p.cursor_seconds(), 3.0);
  EXPECT_TRUE(p.playing());
  EXPECT_EQ(step(p, 1.0f), Names{"!done"});  // 2L / rate = 4 s in all, ends on u = 0
  EXPECT_FLOAT_EQ(p.cursor(), 0.0f);
}

TEST(PlayheadModes, LoopForwardWraps) {
  Playhead p = started(setup(1.0f, Mode::kLoopForward));
  step(p, 2.25f);
  EXPECT_FLOAT_EQ(p.cursor(), 0.25f);
  step(p, 0.75f);
  EXPECT_FLOAT_EQ(p.cursor(), 0.0f);  // exactly at the wrap: back at the start
  EXPECT_TRUE(p.playing());
}

TEST(PlayheadModes, LoopBackwardWrapsFromStartToEnd) {
  Playhead p = started(setup(1.0f, Mode::kLoopBackward));
  EXPECT_FLOAT_EQ(p.cursor(), 1.0f);
  step(p, 0.25f);
  EXPECT_FLOAT_EQ(p.cursor(), 0.75f);
  step(p, 1.0f);
  EXPECT_FLOAT_EQ(p.cursor(), 0.75f);
  EXPECT_TRUE(p.backwards());
}

TEST(PlayheadModes, LoopPingPongTogglesDirectionEachPass) {
  Playhead p = started(setup(1.0f, Mode::kLoopPingPong));
  step(p, 0.25f);
  EXPECT_FLOAT_EQ(p.cursor(), 0.25f);
  EXPECT_FALSE(p.backwards());
  step(p, 1.0f);  // 1.25 s: backward pass, 0.25 s after the turn at u = 1
  EXPECT_FLOAT_EQ(p.cursor(), 0.75f);
  EXPECT_TRUE(p.backwards());
  step(p, 1.0f);  // 2.25 s: forward again
  EXPECT_FLOAT_EQ(p.cursor(), 0.25f);
  EXPECT_FALSE(p.backwards());
  step(p, 3.25f);  // 5.5 s: three more passes, so backward, 0.5 s into the pass
  EXPECT_FLOAT_EQ(p.cursor(), 0.5f);
  EXPECT_TRUE(p.backwards());
  step(p, 100.0f);  // an even number of passes keeps the phase
  EXPECT_FLOAT_EQ(p.cursor(), 0.5f);
  EXPECT_TRUE(p.backwards());
  EXPECT_TRUE(p.playing());
}

TEST(PlayheadModes, NoneNeverAdvancesNorFires) {
  Playhead p = started(setup(1.0f, Mode::kNone, kEnds));
  EXPECT_EQ(step(p, 0.5f), Names{});
  EXPECT_FLOAT_EQ(p.cursor(), 0.0f);
  p.set_cursor(0.4f);
  EXPECT_EQ(step(p, 10.0f), Names{});
  EXPECT_FLOAT_EQ(p.cursor(), 0.4f);
  EXPECT_FLOAT_EQ(p.clip_time(), 0.4f);
  EXPECT_TRUE(p.playing());  // None never completes
}

TEST(PlayheadModes, LoopsNeverComplete) {
  for (Mode m : {Mode::kLoopForward, Mode::kLoopBackward, Mode::kLoopPingPong}) {
    Playhead p = started(setup(0.5f, m));
    for (int i = 0; i < 50; ++i) EXPECT_EQ(step(p, 0.37f), Names{});
    EXPECT_TRUE(p.playing());
  }
}

// --- §5.1 cursor set ------------------------------------------------------------------------

TEST(PlayheadCursor, SetInForwardModesMapsValueToPosition) {
  Playhead p = started(setup(2.0f, Mode::kLoopForward));
  p.set_cursor(0.25f);
  EXPECT_FLOAT_EQ(p.cursor(), 0.25f);
  EXPECT_FLOAT_EQ(p.clip_time(), 0.5f);
  p.set_cursor(1.25f);  // wraps: fmod(2.5 s, 2 s) = 0.5 s
  EXPECT_FLOAT_EQ(p.cursor(), 0.25f);
  p.set_cursor(-0.25f);  // negative: from the end
  EXPECT_FLOAT_EQ(p.cursor(), 0.75f);
  p.set_cursor(-1.25f);  // fmod(-2.5, 2) = -0.5, then L - 0.5
  EXPECT_FLOAT_EQ(p.cursor(), 0.75f);
  p.set_cursor(2.0f);  // an exact multiple lands on the end, not the start
  EXPECT_FLOAT_EQ(p.cursor(), 1.0f);
  p.set_cursor(-2.0f);
  EXPECT_FLOAT_EQ(p.cursor(), 1.0f);
  p.set_cursor(1.0f);
  EXPECT_FLOAT_EQ(p.cursor(), 1.0f);
}

TEST(PlayheadCursor, BackwardModesKeepTheCursorInverted) {
  Playhead p = started(setup(2.0f, Mode::kLoopBackward));
  p.set_cursor(0.3f);
  EXPECT_FLOAT_EQ(p.cursor(), 0.3f);
  EXPECT_NEAR(p.cursor_seconds(), 1.4, 1e-6);  // c = L - 0.3 L
  EXPECT_NEAR(p.clip_time(), 0.6f, 1e-6f);
  step(p, 0.2f);  // backward: u falls by 0.1
  EXPECT_NEAR(p.cursor(), 0.2f, 1e-6f);
}

TEST(PlayheadCursor, LoopBackwardOffsetAndSetToTwo) {
  // §13: offset 0.25 starts at clip time 0.75 D; set_cursor(2.0) lands on the last frame.
  PlayheadSetup s = setup(4.0f, Mode::kLoopBackward);
  s.offset = 0.25f;
  Playhead p = started(s);
  EXPECT_FLOAT_EQ(p.clip_time(), 3.0f);
  EXPECT_FLOAT_EQ(p.cursor(), 0.75f);
  p.set_cursor(2.0f);
  EXPECT_FLOAT_EQ(p.cursor(), 1.0f);
  EXPECT_FLOAT_EQ(p.clip_time(), 4.0f);
}

TEST(PlayheadCursor, LoopPingPongSetSwitchesToTheForwardPhase) {
  Playhead p = started(setup(1.0f, Mode::kLoopPingPong));
  step(p, 1.5f);
  ASSERT_TRUE(p.backwards());
  p.set_cursor(0.2f);
  EXPECT_FALSE(p.backwards());
  EXPECT_FLOAT_EQ(p.cursor(), 0.2f);
  step(p, 0.1f);
  EXPECT_NEAR(p.cursor(), 0.3f, 1e-6f);  // moving forward now
}

TEST(PlayheadCursor, OncePingPongSetReachesOnlyTheForwardHalf) {
  Playhead p = started(setup(1.0f, Mode::kOncePingPong));
  step(p, 1.5f);
  ASSERT_DOUBLE_EQ(p.cursor_seconds(), 1.5);
  p.set_cursor(0.3f);  // t' = v L, not 2L
  EXPECT_NEAR(p.cursor_seconds(), 0.3, 1e-6);
  EXPECT_FLOAT_EQ(p.cursor(), 0.3f);
}

TEST(PlayheadCursor, SetOnCompletedPlayMovesWithoutRestarting) {
  Playhead p = started(setup(1.0f, Mode::kOnceForward));
  EXPECT_EQ(step(p, 2.0f), Names{"!done"});
  p.set_cursor(0.5f);
  EXPECT_FLOAT_EQ(p.clip_time(), 0.5f);
  EXPECT_FALSE(p.playing());
  EXPECT_EQ(step(p, 2.0f), Names{});  // no second completion, no movement
  EXPECT_FLOAT_EQ(p.clip_time(), 0.5f);
}

TEST(PlayheadCursor, SetDoesNotStopPlayback) {
  Playhead p = started(setup(1.0f, Mode::kOnceForward));
  p.set_cursor(0.9f);
  EXPECT_EQ(step(p, 0.2f), Names{"!done"});
}

TEST(PlayheadCursor, NoPlayReadsZeroCursorAndUnitRate) {
  Playhead p;
  EXPECT_FLOAT_EQ(p.cursor(), 0.0f);
  EXPECT_FLOAT_EQ(p.rate(), 1.0f);
  p.set_cursor(0.5f);
  EXPECT_FLOAT_EQ(p.cursor(), 0.0f);
  EXPECT_FALSE(p.assigned());
}

// --- §5.2 rate, §5.3 offset -------------------------------------------------------------------

TEST(PlayheadRate, NegativeRateBehavesAsZero) {
  PlayheadSetup s = setup(1.0f, Mode::kLoopForward, kEnds);
  s.rate = -1.0f;
  Playhead p = started(s);
  EXPECT_FLOAT_EQ(p.rate(), 0.0f);
  EXPECT_EQ(step(p, 0.5f), Names{});  // no move, not even the start event
  EXPECT_FLOAT_EQ(p.cursor(), 0.0f);
  p.set_rate(2.0f);
  EXPECT_EQ(step(p, 0.25f), Names({"e0", "e5"}));
  EXPECT_FLOAT_EQ(p.cursor(), 0.5f);
  p.set_rate(-3.0f);
  EXPECT_FLOAT_EQ(p.rate(), 0.0f);
  EXPECT_EQ(step(p, 5.0f), Names{});
  EXPECT_FLOAT_EQ(p.cursor(), 0.5f);
}

TEST(PlayheadRate, RateScalesTime) {
  PlayheadSetup s = setup(2.0f, Mode::kOnceForward);
  s.rate = 0.5f;
  Playhead p = started(s);
  step(p, 2.0f);
  EXPECT_FLOAT_EQ(p.clip_time(), 1.0f);
}

TEST(PlayheadRate, ZeroRateOncePausesAndFiresNothing) {
  PlayheadSetup s = setup(1.0f, Mode::kOnceForward, kEnds);
  s.rate = 0.0f;
  Playhead p = started(s);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(step(p, 1.0f), Names{});
  EXPECT_TRUE(p.playing());
}

TEST(PlayheadOffset, ForwardOffsetsWrap) {
  PlayheadSetup s = setup(1.0f, Mode::kLoopForward);
  s.offset = 1.25f;
  EXPECT_FLOAT_EQ(started(s).cursor(), 0.25f);
  s.offset = -0.25f;
  EXPECT_FLOAT_EQ(started(s).cursor(), 0.75f);
}

TEST(PlayheadOffset, BackwardOffsetIsClampedAndFlipped) {
  PlayheadSetup s = setup(1.0f, Mode::kOnceBackward);
  s.offset = 0.0f;
  EXPECT_FLOAT_EQ(started(s).cursor(), 1.0f);
  s.offset = 0.25f;
  EXPECT_FLOAT_EQ(started(s).cursor(), 0.75f);
  s.offset = 3.0f;  // clamped to 1: starts at u = 0
  EXPECT_FLOAT_EQ(started(s).cursor(), 0.0f);
  s.offset = -1.0f;  // clamped to 0: starts at u = 1
  EXPECT_FLOAT_EQ(started(s).cursor(), 1.0f);
}

TEST(PlayheadOffset, OncePingPongOffsetLeavesTwoMinusOffsetToPlay) {
  PlayheadSetup s = setup(1.0f, Mode::kOncePingPong);
  s.offset = 0.25f;
  Playhead p = started(s);
  EXPECT_FLOAT_EQ(p.cursor(), 0.25f);
  EXPECT_EQ(step(p, 1.7f), Names{});
  EXPECT_EQ(step(p, 0.05f), Names{"!done"});  // (2 - 0.25) L = 1.75 s
}

TEST(PlayheadOffset, RateIsAppliedAfterOffset) {
  PlayheadSetup s = setup(1.0f, Mode::kLoopForward);
  s.offset = 0.5f;
  s.rate = 2.0f;
  Playhead p = started(s);
  step(p, 0.125f);
  EXPECT_FLOAT_EQ(p.cursor(), 0.75f);
}

// --- ranges ---------------------------------------------------------------------------------

TEST(PlayheadRange, SubRangeStartsAtStartPhaseAndIgnoresOutsideEvents) {
  // §13: range 0.25..0.75 starts at 0.25 D, cursor 0 <-> 0.25 D, an event at 0.1 never fires.
  const std::vector<ClipEvent> events = {{0.1f, "out", ""}, {0.5f, "mid", ""}, {0.75f, "end", ""}};
  PlayheadSetup s = setup(4.0f, Mode::kLoopForward, events);
  s.start_phase = 0.25f;
  s.end_phase = 0.75f;
  Playhead p = started(s);
  EXPECT_FLOAT_EQ(p.clip_time(), 1.0f);
  EXPECT_DOUBLE_EQ(p.range_length(), 2.0);
  p.set_cursor(0.0f);
  EXPECT_FLOAT_EQ(p.clip_time(), 1.0f);
  p.set_cursor(1.0f);
  EXPECT_FLOAT_EQ(p.clip_time(), 3.0f);
  p.set_cursor(0.5f);
  EXPECT_FLOAT_EQ(p.clip_time(), 2.0f);

  Playhead q = started(s);
  std::map<std::string, std::uint64_t> fired;
  for (int i = 0; i < 40; ++i) {
    std::vector<PlayerRecord> records;
    q.advance(0.3f, &records);
    for (const PlayerRecord& r : records) fired[std::string(r.name)] += r.count;
  }
  EXPECT_EQ(fired.count("out"), 0u);
  // 12 s over a 2 s range: "mid" (u = 0.5) at 1, 3, ..., 11 s; "end" (u = 1) at 2, 4, ..., 12 s
  // minus float drift at the very end, so check the sure part.
  EXPECT_EQ(fired["mid"], 6u);
  EXPECT_GE(fired["end"], 5u);
}

TEST(PlayheadRange, ReverseRangePlaysBackwardInClipTime) {
  // §13: range 0.75..0.25 plays in reverse.
  const std::vector<ClipEvent> events = {{0.7f, "a", ""}, {0.3f, "b", ""}};
  PlayheadSetup s = setup(2.0f, Mode::kOnceForward, events);
  s.start_phase = 0.75f;
  s.end_phase = 0.25f;
  Playhead p = started(s);
  EXPECT_FLOAT_EQ(p.clip_time(), 1.5f);
  EXPECT_EQ(step(p, 0.25f), Names{"a"});  // clip time 1.5 -> 1.25 passes 1.4 (phase 0.7)
  EXPECT_FLOAT_EQ(p.clip_time(), 1.25f);
  EXPECT_EQ(step(p, 0.75f), Names({"b", "!done"}));
  EXPECT_FLOAT_EQ(p.clip_time(), 0.5f);
}

TEST(PlayheadRange, ZeroLengthOnceCompletesOnFirstUpdate) {
  // §13 and §3: whatever the rate, with the events at that point first.
  const std::vector<ClipEvent> events = {{0.5f, "at", ""}, {0.6f, "off", ""}};
  PlayheadSetup s = setup(2.0f, Mode::kOnceForward, events);
  s.start_phase = s.end_phase = 0.5f;
  s.rate = 0.0f;
  Playhead p = started(s);
  EXPECT_EQ(step(p, 0.0f), Names({"at", "!done"}));
  EXPECT_FLOAT_EQ(p.clip_time(), 1.0f);
  EXPECT_EQ(step(p, 1.0f), Names{});
}

TEST(PlayheadRange, ZeroDurationClipCompletesAndLoopsHold) {
  Playhead once = started(setup(0.0f, Mode::kOncePingPong, kEnds));
  EXPECT_EQ(step(once, 0.1f), Names({"e0", "e5", "e1", "!done"}));
  Playhead loop = started(setup(0.0f, Mode::kLoopForward, kEnds));
  EXPECT_EQ(step(loop, 0.1f), Names({"e0", "e5", "e1"}));
  EXPECT_EQ(step(loop, 0.1f), Names{});
  EXPECT_TRUE(loop.playing());
  EXPECT_FLOAT_EQ(loop.cursor(), 0.0f);
}

// --- §6 events ------------------------------------------------------------------------------

TEST(PlayheadEvents, StartPointFiresOnFirstAdvancingUpdateOnly) {
  Playhead p = started(setup(1.0f, Mode::kLoopForward, kEnds));
  EXPECT_EQ(step(p, 0.0f), Names{});  // does not advance: not yet the start of playback
  EXPECT_EQ(step(p, 0.25f), Names{"e0"});
  EXPECT_EQ(step(p, 0.25f), Names{"e5"});  // reaching u = 0.5 exactly fires it
  EXPECT_EQ(step(p, 0.25f), Names{});
  EXPECT_EQ(step(p, 0.25f), Names({"e1", "e0"}));  // at a wrap: u = 1, then u = 0
  EXPECT_EQ(step(p, 0.25f), Names{});              // u = 0 is not reached twice
  EXPECT_EQ(step(p, 1.0f), Names({"e5", "e1", "e0"}));
}

TEST(PlayheadEvents, BackwardLoopFiresInReverseOrder) {
  Playhead p = started(setup(1.0f, Mode::kLoopBackward, kEnds));
  EXPECT_EQ(step(p, 0.6f), Names({"e1", "e5"}));  // starts at u = 1
  EXPECT_EQ(step(p, 0.4f), Names({"e0", "e1"}));  // wrap: u = 0, then u = 1
  EXPECT_EQ(step(p, 0.5f), Names({"e5"}));
}

TEST(PlayheadEvents, LoopPingPongFiresTurnsOnce) {
  Playhead p = started(setup(1.0f, Mode::kLoopPingPong, kEnds));
  Names all;
  for (int i = 0; i < 16; ++i) {  // 4 s in quarter steps: two full cycles
    for (const std::string& n : step(p, 0.25f)) all.push_back(n);
  }
  EXPECT_EQ(all, Names({"e0", "e5", "e1", "e5", "e0", "e5", "e1", "e5", "e0"}));
}

TEST(PlayheadEvents, LoopPingPongOneUpdateCountsWholeCycles) {
  // 0.25 -> 7.75 s of unrolled travel: first partial pass (0.25, 1], six more passes (three whole
  // cycles: backward then forward), then a last backward pass from 1 down to 0.25.
  const std::vector<ClipEvent> events = {{0.0f, "e0", ""}, {0.5f, "e5", ""}, {1.0f, "e1", ""}};
  PlayheadSetup s = setup(1.0f, Mode::kLoopPingPong, events);
  s.offset = 0.25f;
  Playhead p = started(s);
  p.set_cursor(0.25f);  // a jump: u = 0.25 itself is not reached
  EXPECT_EQ(step(p, 7.5f), Names({"e5", "e1", "e5*3", "e0*3", "e5*3", "e1*3", "e5"}));
  EXPECT_FLOAT_EQ(p.cursor(), 0.25f);
  EXPECT_TRUE(p.backwards());
}

TEST(PlayheadEvents, OncePingPongFiresEachPassThenCompletes) {
  Playhead p = started(setup(1.0f, Mode::kOncePingPong, kEnds));
  Names all;
  for (int i = 0; i < 10; ++i) {
    for (const std::string& n : step(p, 0.25f)) all.push_back(n);
  }
  EXPECT_EQ(all, Names({"e0", "e5", "e1", "e5", "e0", "!done"}));
  Playhead q = started(setup(1.0f, Mode::kOncePingPong, kEnds));
  EXPECT_EQ(step(q, 9.0f), Names({"e0", "e5", "e1", "e5", "e0", "!done"}));
}

TEST(PlayheadEvents, OnceEndEventsFireBeforeCompleted) {
  Playhead p = started(setup(1.0f, Mode::kOnceForward, kEnds));
  EXPECT_EQ(step(p, 5.0f), Names({"e0", "e5", "e1", "!done"}));
  Playhead q = started(setup(1.0f, Mode::kOnceBackward, kEnds));
  EXPECT_EQ(step(q, 0.5f), Names({"e1", "e5"}));
  EXPECT_EQ(step(q, 0.5f), Names({"e0", "!done"}));
}

TEST(PlayheadEvents, ManyWrapsInOneUpdateAreCounted) {
  // §13: LoopForward, events at 0, 0.5 and 1, one update of 3.7 L from the start of playback:
  // three whole cycles [0, 1] (the first begins playback, so it includes u = 0), each event once
  // with count 3 in cycle order, then the partial last cycle [0, 0.7].
  Playhead p = started(setup(2.0f, Mode::kLoopForward, kEnds));
  std::vector<PlayerRecord> records;
  p.advance(7.4f, &records);
  EXPECT_EQ(names(records), Names({"e0*3", "e5*3", "e1*3", "e0", "e5"}));
  std::map<std::string, std::uint64_t> total;
  for (const PlayerRecord& r : records) total[std::string(r.name)] += r.count;
  EXPECT_EQ(total["e0"], 4u);  // start + 3 wraps
  EXPECT_EQ(total["e5"], 4u);  // 0.5, 1.5, 2.5, 3.5 L
  EXPECT_EQ(total["e1"], 3u);  // 1, 2, 3 L
  EXPECT_NEAR(p.cursor(), 0.7f, 1e-5f);
  EXPECT_EQ(records[0].phase, 0.0f);
  EXPECT_EQ(records[1].phase, 0.5f);
}

TEST(PlayheadEvents, ManyWrapsFromMidCycleKeepPartialStartAndEnd) {
  Playhead p = started(setup(1.0f, Mode::kLoopForward, kEnds));
  p.set_cursor(0.25f);
  // 0.25 -> 4.0: partial (0.25, 1], whole cycles starting at 1, 2, 3, then the wrap point 4.
  EXPECT_EQ(step(p, 3.75f), Names({"e5", "e1", "e0*3", "e5*3", "e1*3", "e0"}));
  EXPECT_FLOAT_EQ(p.cursor(), 0.0f);
}

TEST(PlayheadEvents, HugeDeltaReturnsBoundedCountedRecords) {
  Playhead p = started(setup(1.0f, Mode::kLoopForward, kEnds));
  std::vector<PlayerRecord> records;
  p.advance(1.0e6f, &records);
  EXPECT_LE(records.size(), 5 * kEnds.size() + 1);
  std::map<std::string, std::uint64_t> total;
  for (const PlayerRecord& r : records) total[std::string(r.name)] += r.count;
  EXPECT_EQ(total["e0"], 1000001u);
  EXPECT_EQ(total["e5"], 1000000u);
  EXPECT_EQ(total["e1"], 1000000u);

  Playhead q = started(setup(1.0f, Mode::kLoopPingPong, kEnds));
  records.clear();
  q.advance(1.0e6f, &records);  // 10^6 passes = 5 * 10^5 cycles
  EXPECT_LE(records.size(), 5 * kEnds.size() + 1);
  total.clear();
  for (const PlayerRecord& r : records) total[std::string(r.name)] += r.count;
  EXPECT_EQ(total["e0"], 500001u);  // start + each return to u = 0
  EXPECT_EQ(total["e5"], 1000000u);
  EXPECT_EQ(total["e1"], 500000u);
}

TEST(PlayheadEvents, CursorSetIsAJump) {
  const std::vector<ClipEvent> events = {{0.5f, "mid", ""}};
  Playhead p = started(setup(1.0f, Mode::kLoopForward, events));
  step(p, 0.1f);
  p.set_cursor(0.9f);
  EXPECT_EQ(step(p, 0.05f), Names{});  // skipped span (0.1, 0.9): nothing
  p.set_cursor(0.5f);
  EXPECT_EQ(step(p, 0.1f), Names{});  // the landing point is not reached
  p.set_cursor(0.4f);
  EXPECT_EQ(step(p, 0.1f), Names{"mid"});
}

TEST(PlayheadEvents, NegativeAndNonFiniteDeltaCountAsZero) {
  Playhead p = started(setup(1.0f, Mode::kLoopForward, kEnds));
  step(p, 0.25f);
  EXPECT_EQ(step(p, -0.2f), Names{});
  EXPECT_FLOAT_EQ(p.cursor(), 0.25f);
  EXPECT_EQ(step(p, std::nanf("")), Names{});
  EXPECT_EQ(step(p, INFINITY), Names{});
  EXPECT_FLOAT_EQ(p.cursor(), 0.25f);
}

TEST(PlayheadEvents, RecordsCarryNamePhaseDataAndPlayId) {
  const std::vector<ClipEvent> events = {{0.25f, "Footstep", "left"}};
  PlayheadSetup s = setup(2.0f, Mode::kOnceForward, events);
  s.play_id = 42;
  Playhead p = started(s);
  std::vector<PlayerRecord> records;
  p.advance(3.0f, &records);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].name, "Footstep");
  EXPECT_EQ(records[0].data, "left");
  EXPECT_EQ(records[0].phase, 0.25f);
  EXPECT_EQ(records[0].count, 1u);
  EXPECT_EQ(records[0].kind, RecordKind::kEvent);
  EXPECT_EQ(records[0].play_id, 42u);
  EXPECT_EQ(records[1].kind, RecordKind::kCompleted);
  EXPECT_EQ(records[1].phase, 1.0f);
  EXPECT_EQ(records[1].play_id, 42u);
}

TEST(PlayheadEvents, SilentAdvanceStillMoves) {
  Playhead p = started(setup(1.0f, Mode::kOnceForward, kEnds));
  p.advance(2.0f, nullptr);
  EXPECT_FALSE(p.playing());
  EXPECT_FLOAT_EQ(p.cursor(), 1.0f);
}

// Reach count of an event at range position e after T seconds of LoopForward from the start of
// playback (offset 0, rate 1, range length L): the start point counts once, and each reach of u
// happens at unrolled time (j + e) L; e = 0 is also reached at every wrap j L.
std::uint64_t loop_forward_reaches(double e, double total, double length) {
  if (total <= 0.0) return 0;
  const double x = total / length;
  if (e == 0.0) return 1 + static_cast<std::uint64_t>(std::floor(x));
  return x >= e ? static_cast<std::uint64_t>(std::floor(x - e)) + 1 : 0;
}

// The same for LoopPingPong: forward passes reach e at (2j + e) L, backward passes at (2j + 2 -
// e) L; a turn point (e = 0 or 1) is reached once per turn, and e = 0 also at the start.
std::uint64_t loop_pingpong_reaches(double e, double total, double length) {
  if (total <= 0.0) return 0;
  const double x = total / length;
  const auto times_in = [&](double first) {  // count of first + 2j <= x
    return x >= first ? static_cast<std::uint64_t>(std::floor((x - first) / 2.0)) + 1 : 0;
  };
  if (e == 0.0) return 1 + times_in(2.0);
  if (e == 1.0) return times_in(1.0);
  return times_in(e) + times_in(2.0 - e);
}

TEST(PlayheadEvents, RandomStepsFireEveryReachExactlyOnce) {
  // dt are whole multiples of 1/256 s and L = 1 s, so every sum is exact in float and double and
  // the analytic counts have no rounding ambiguity; steps up to 5 s cross several wraps at once.
  const std::vector<ClipEvent> events = {{0.0f, "a", ""},  {0.125f, "b", ""}, {0.5f, "c", ""},
                                         {0.75f, "d", ""}, {1.0f, "e", ""},   {0.5f, "c2", ""}};
  std::mt19937 rng(1234);
  for (int seq = 0; seq < 100; ++seq) {
    const Mode mode = seq % 2 == 0 ? Mode::kLoopForward : Mode::kLoopPingPong;
    Playhead p = started(setup(1.0f, mode, events));
    std::map<std::string, std::uint64_t> fired;
    double total = 0.0;
    std::uniform_int_distribution<int> big(0, 3);
    for (int i = 0; i < 60; ++i) {
      const int ticks = big(rng) == 0 ? std::uniform_int_distribution<int>(0, 1280)(rng)
                                      : std::uniform_int_distribution<int>(0, 64)(rng);
      const float dt = static_cast<float>(ticks) / 256.0f;
      total += dt;
      std::vector<PlayerRecord> records;
      p.advance(dt, &records);
      ASSERT_LE(records.size(), 5 * events.size() + 1);
      for (const PlayerRecord& r : records) fired[std::string(r.name)] += r.count;
    }
    for (const ClipEvent& e : events) {
      const std::uint64_t expected = mode == Mode::kLoopForward
                                         ? loop_forward_reaches(e.phase, total, 1.0)
                                         : loop_pingpong_reaches(e.phase, total, 1.0);
      EXPECT_EQ(fired[e.name], expected) << "sequence " << seq << " event " << e.name;
    }
  }
}

// --- §7 completion and interruption ---------------------------------------------------------

TEST(PlayheadCompletion, CompletedIsReportedOnce) {
  Playhead p = started(setup(1.0f, Mode::kOnceForward));
  int done = 0;
  for (int i = 0; i < 10; ++i) {
    std::vector<PlayerRecord> records;
    p.advance(0.3f, &records);
    for (const PlayerRecord& r : records) done += r.kind == RecordKind::kCompleted;
  }
  EXPECT_EQ(done, 1);
  std::vector<PlayerRecord> records;
  p.interrupt(&records);  // already complete: no Interrupted on top
  EXPECT_TRUE(records.empty());
}

TEST(PlayheadCompletion, InterruptReportsOnlyForRunningOncePlays) {
  Playhead p = started(setup(1.0f, Mode::kOncePingPong));
  step(p, 0.5f);
  std::vector<PlayerRecord> records;
  p.interrupt(&records);
  EXPECT_EQ(names(records), Names{"!interrupted"});
  EXPECT_FALSE(p.playing());
  EXPECT_FLOAT_EQ(p.cursor(), 0.5f);  // the position is held
  records.clear();
  p.interrupt(&records);
  EXPECT_TRUE(records.empty());

  Playhead loop = started(setup(1.0f, Mode::kLoopForward));
  loop.interrupt(&records);
  EXPECT_TRUE(records.empty());
  EXPECT_FALSE(loop.playing());
}

TEST(PlayheadCompletion, InterruptKeepingTheSourceMoving) {
  Playhead p = started(setup(1.0f, Mode::kOnceForward));
  std::vector<PlayerRecord> records;
  p.interrupt(&records, true);
  EXPECT_EQ(names(records), Names{"!interrupted"});
  EXPECT_TRUE(p.playing());
  p.advance(0.5f, nullptr);
  EXPECT_FLOAT_EQ(p.cursor(), 0.5f);
  p.advance(1.0f, nullptr);  // a silent source completes without a record
  EXPECT_FALSE(p.playing());
}

TEST(PlayheadCompletion, ClearForgetsThePlay) {
  Playhead p = started(setup(1.0f, Mode::kLoopForward));
  p.set_rate(3.0f);
  step(p, 0.1f);
  p.clear();
  EXPECT_FALSE(p.assigned());
  EXPECT_FALSE(p.playing());
  EXPECT_FLOAT_EQ(p.cursor(), 0.0f);
  EXPECT_FLOAT_EQ(p.rate(), 1.0f);
}

// --- set_mode: a running play switches mode in place (animation-config.md §19 step 3) --------

TEST(PlayheadSetMode, LoopTurnedOnceKeepsTheCursorAndCompletesAtTheEnd) {
  Playhead p = started(setup(2.0f, Mode::kLoopForward, kEnds));
  EXPECT_EQ(step(p, 0.5f), Names{"e0"});
  EXPECT_EQ(step(p, 1.0f), Names{"e5"});  // c = 1.5 s, u = 0.75
  p.set_mode(Mode::kOnceForward);
  EXPECT_EQ(p.mode(), Mode::kOnceForward);
  EXPECT_FLOAT_EQ(p.cursor(), 0.75f);  // no jump
  EXPECT_FLOAT_EQ(p.clip_time(), 1.5f);
  EXPECT_TRUE(p.playing());
  EXPECT_EQ(step(p, 0.25f), Names{});
  EXPECT_FLOAT_EQ(p.cursor(), 0.875f);
  // 1.75 + 0.5 would wrap a loop to 0.25 s; the Once play clamps at 2 s and completes.
  EXPECT_EQ(step(p, 0.5f), (Names{"e1", "!done"}));
  EXPECT_FALSE(p.playing());
  EXPECT_FLOAT_EQ(p.cursor(), 1.0f);
  EXPECT_EQ(step(p, 1.0f), Names{});
}

TEST(PlayheadSetMode, OnceTurnedLoopWrapsAndNeverCompletes) {
  Playhead p = started(setup(2.0f, Mode::kOnceForward, kEnds));
  EXPECT_EQ(step(p, 1.5f), (Names{"e0", "e5"}));
  p.set_mode(Mode::kLoopForward);
  EXPECT_FLOAT_EQ(p.cursor(), 0.75f);
  // 1.5 + 1.0 = 2.5 s: the end (e1) and the start (e0) of the next cycle, landing on 0.5 s.
  EXPECT_EQ(step(p, 1.0f), (Names{"e1", "e0"}));
  EXPECT_FLOAT_EQ(p.clip_time(), 0.5f);
  // 0.5 + 4 = 4.5 s: the rest of this cycle, one whole cycle, then the start of the next.
  EXPECT_EQ(step(p, 4.0f), (Names{"e5", "e1", "e0", "e5", "e1", "e0"}));
  EXPECT_TRUE(p.playing());
}

TEST(PlayheadSetMode, BackwardModesKeepTheRangePosition) {
  Playhead p = started(setup(2.0f, Mode::kLoopBackward, kEnds));
  EXPECT_EQ(step(p, 0.5f), Names{"e1"});  // from u = 1 down to 0.75
  p.set_mode(Mode::kOnceBackward);
  EXPECT_FLOAT_EQ(p.cursor(), 0.75f);
  EXPECT_EQ(step(p, 2.0f), (Names{"e5", "e0", "!done"}));
  EXPECT_FLOAT_EQ(p.cursor(), 0.0f);
}

TEST(PlayheadSetMode, PingPongKeepsTheDirectionOfTravel) {
  Playhead p = started(setup(2.0f, Mode::kLoopPingPong));
  step(p, 2.5f);  // forward pass, then back to u = 0.75
  EXPECT_TRUE(p.backwards());
  EXPECT_FLOAT_EQ(p.cursor(), 0.75f);
  p.set_mode(Mode::kOncePingPong);  // continues in the backward half: c = 2L - 0.75 L
  EXPECT_FLOAT_EQ(p.cursor(), 0.75f);
  EXPECT_NEAR(p.cursor_seconds(), 2.5, 1e-9);
  step(p, 1.0f);
  EXPECT_FLOAT_EQ(p.cursor(), 0.25f);
  std::vector<PlayerRecord> records;
  p.advance(1.0f, &records);
  EXPECT_EQ(names(records), Names{"!done"});
  EXPECT_FLOAT_EQ(p.cursor(), 0.0f);
}

TEST(PlayheadSetMode, EndedPlaysAndBadModesAreIgnored) {
  Playhead p = started(setup(1.0f, Mode::kOnceForward));
  EXPECT_EQ(step(p, 2.0f), Names{"!done"});
  p.set_mode(Mode::kLoopForward);  // a completed play is not revived
  EXPECT_EQ(p.mode(), Mode::kOnceForward);
  EXPECT_FALSE(p.playing());
  Playhead q = started(setup(1.0f, Mode::kLoopForward));
  q.set_mode(static_cast<Mode>(9));
  EXPECT_EQ(q.mode(), Mode::kLoopForward);
  Playhead none;
  none.set_mode(Mode::kOnceForward);
  EXPECT_FALSE(none.assigned());
}

}  // namespace
}  // namespace critter::anim
