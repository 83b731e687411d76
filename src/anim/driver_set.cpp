// SPDX-License-Identifier: MIT
#include "anim/driver_set.h"

#include <algorithm>

#include "anim/runtime_warnings.h"

namespace critter::anim::detail {

DriverSet::DriverSet(const ControllerProgram& program, RuntimeLog& log) {
  instances_.reserve(program.drivers_.size());
  for (std::size_t i = 0; i < program.drivers_.size(); ++i) {
    const auto& d = program.drivers_[i];
    instances_.push_back(d.program ? d.program->instantiate() : nullptr);
    if (instances_.back()) instances_.back()->set_reporter(&log.sink(static_cast<int>(i)));
  }
}

void DriverSet::update(int driver, float dt, const ParameterValues& values) {
  instances_[static_cast<std::size_t>(driver)]->update(dt, values);
}

bool DriverSet::sample(int driver, std::span<Transform> pose, std::span<std::uint8_t> touched,
                       bool additive) {
  std::fill(touched.begin(), touched.end(), std::uint8_t{0});
  return instances_[static_cast<std::size_t>(driver)]->sample(pose, touched, additive);
}

}  // namespace critter::anim::detail
