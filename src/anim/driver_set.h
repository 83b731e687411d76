// SPDX-License-Identifier: MIT
// One creature's instances of every driver its ControllerProgram may run (animation-config.md §9,
// §14), made at construction so that an update never allocates, each reporting its evaluation
// failures to the runtime-warning log.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "critter/anim/controller_program.h"
#include "critter/anim/driver.h"
#include "critter/core/transform.h"

namespace critter::anim::detail {

class RuntimeLog;

class DriverSet {
 public:
  // `log` must outlive the set and stay put (the instances keep its sinks).
  DriverSet(const ControllerProgram& program, RuntimeLog& log);

  // False for a declared type, whose layer runs nothing.
  bool runs(int driver) const { return instances_[static_cast<std::size_t>(driver)] != nullptr; }
  // Advances program driver `driver` (which runs()) by dt seconds.
  void update(int driver, float dt, const ParameterValues& values);
  // Samples program driver `driver` into `pose`, marking the joints it wrote in `touched` (cleared
  // first); false when it shows nothing this frame.
  bool sample(int driver, std::span<Transform> pose, std::span<std::uint8_t> touched,
              bool additive);

 private:
  std::vector<std::unique_ptr<DriverInstance>> instances_;  // null for a declared type
};

}  // namespace critter::anim::detail
