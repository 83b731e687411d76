// SPDX-License-Identifier: MIT
// StrokeEvent: a hand or foot crossing the water surface (creatures.md §20), found by the limb
// animator through the host's liquid query, and the fixed-capacity queue hosts take them from.
#pragma once

#include <array>
#include <cstddef>
#include <span>

#include "critter/core/math.h"
#include "critter/creature/limbs/limb.h"

namespace critter::creature {

struct StrokeEvent {
  float t = 0.0f;    // the animator's clock at the step that saw it, seconds since construction
  int limb = 0;      // index into LimbAnimator::limbs()
  bool hand = true;  // an arm's hand; false: a leg's foot
  LimbSide side = LimbSide::Right;
  bool into = true;    // true: went into the liquid; false: came out
  float speed = 0.0f;  // how fast the hand or foot moved, model units per second
  vec3 pos{0.0f};      // where, in model space (the limb's far end after every bend)
};

// At most kCapacity events; pushes beyond it are dropped.
class StrokeEvents {
 public:
  static constexpr std::size_t kCapacity = 64;

  std::span<const StrokeEvent> events() const { return {items_.data(), size_}; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ == kCapacity; }
  // False (and nothing stored) when full.
  bool push(const StrokeEvent& event) {
    if (full()) return false;
    items_[size_++] = event;
    return true;
  }
  void clear() { size_ = 0; }

 private:
  std::array<StrokeEvent, kCapacity> items_{};
  std::size_t size_ = 0;
};

}  // namespace critter::creature
