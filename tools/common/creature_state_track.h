// SPDX-License-Identifier: MIT
// CreatureStateTrack: the state of a simulated creature over time, as a tool feeds it to the rig
// before every step: the command line's values with each timeline key merged over them from the
// key's time on, through with_creature_defaults(). Header-only, like creature_state_args.h.
//
//   CreatureStateTrack track(state_from_flags, {{2.0, walking}, {5.0, dead}});
//   for (double t = 0; t < end; t += dt) sim.set_state(track.at(t)), sim.step(dt, pose);
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "creature_state_args.h"

namespace critter::tools {

class CreatureStateTrack {
 public:
  // One key: its time (seconds) and the values it sets.
  using Key = std::pair<double, CreatureStateArgs>;
  // A key takes effect at a step starting this close before its time (summed 60 Hz steps fall
  // a rounding error short of a time on their grid).
  static constexpr double kTimeTolerance = 1e-7;

  CreatureStateTrack() = default;
  // `keys` must be in increasing time order (a Timeline's are).
  CreatureStateTrack(CreatureStateArgs base, std::vector<Key> keys)
      : base_(std::move(base)), keys_(std::move(keys)) {
    restart();
  }

  // Back to time 0: only the base values.
  void restart() {
    merged_ = base_;
    shown_ = with_creature_defaults(merged_);
    next_ = 0;
  }

  // The state at time `t` seconds: the base with every key of time <= t (+ kTimeTolerance)
  // merged over it in key order, through with_creature_defaults(). `t` must not decrease between
  // restarts. The reference stays valid until the next call.
  const CreatureStateArgs& at(double t) {
    bool changed = false;
    while (next_ < keys_.size() && keys_[next_].first <= t + kTimeTolerance) {
      merge_state(merged_, keys_[next_].second);
      ++next_;
      changed = true;
    }
    if (changed) shown_ = with_creature_defaults(merged_);
    return shown_;
  }

  // The state of the last at() (of the base before any).
  const CreatureStateArgs& current() const { return shown_; }

 private:
  CreatureStateArgs base_;
  std::vector<Key> keys_;
  CreatureStateArgs merged_;  // base_ with the keys applied so far
  CreatureStateArgs shown_;   // merged_ through with_creature_defaults()
  std::size_t next_ = 0;      // first key not applied yet
};

}  // namespace critter::tools
