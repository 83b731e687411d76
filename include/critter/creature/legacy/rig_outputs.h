// SPDX-License-Identifier: MIT
// RigOutputs: what a legacy rig reports about its last frame, for hosts and the CLI: the gait,
// the phases, the bob and the events of the frame in a fixed-capacity list (no allocation).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace critter::creature::legacy {

enum class RigEventType : std::uint8_t {
  kFootstep,     // floor(footsteps) increased (§3, §4, §6)
  kCanterSound,  // a canter footstep with UseCanterSound, out of water (§3)
  kAttackHit,    // an attack, butt, punch, kick or bite phase crossed 0.5 while held
  kRowingSound,  // floor(1.1·t) changed while rowing (§4)
};

// "footstep", "canter-sound", "attack-hit", "rowing-sound".
std::string_view to_string(RigEventType type);

struct RigEvent {
  RigEventType type = RigEventType::kFootstep;
  // Seconds into the frame's step where the event happened, 0 .. dt (0 when unknown).
  float time = 0.0f;
};

// At most kCapacity events per frame; further ones are dropped and counted.
class RigEvents {
 public:
  static constexpr std::size_t kCapacity = 8;
  void clear() {
    size_ = 0;
    dropped_ = 0;
  }
  void push(RigEvent e) {
    if (size_ < kCapacity) {
      events_[size_++] = e;
    } else {
      ++dropped_;
    }
  }
  std::span<const RigEvent> events() const { return {events_.data(), size_}; }
  std::size_t dropped() const { return dropped_; }

 private:
  std::array<RigEvent, kCapacity> events_{};
  std::size_t size_ = 0;
  std::size_t dropped_ = 0;
};

struct RigOutputs {
  // "idle", "walk", "trot", "canter" (four-legged); "idle", "walk", "climb", "fly", "ride",
  // "boat", "lie" (human); "idle", "walk", "fly", "glide" (bird); "idle", "walk", "run"
  // (flightless bird); "swim", "drift", "frozen" (fish); "dead" for every rig while dying.
  std::string_view gait = "idle";
  float phase = 0.0f;        // the movement (fish: swim) phase, cycles
  float bob = 0.0f;          // metres, smoothed
  float death_phase = 0.0f;  // 0 (alive) .. 1
  RigEvents events;          // this frame's events
};

}  // namespace critter::creature::legacy
