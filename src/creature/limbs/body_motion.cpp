// SPDX-License-Identifier: MIT
#include "critter/creature/limbs/body_motion.h"

namespace critter::creature {

Status validate(const BodyMotion& motion) {
  const struct {
    float value;
    const char* name;
  } fields[] = {{motion.y, "y"},
                {motion.speed, "speed"},
                {motion.vy, "vy"},
                {motion.accel, "accel"},
                {motion.yaw_rate, "yaw_rate"}};
  for (const auto& f : fields) {
    if (!std::isfinite(f.value)) {
      return fail(Error::at(ErrorCode::kUsage, "BodyMotion", f.name,
                            std::string(f.name) + " is not a finite number"));
    }
  }
  return {};
}

std::string_view to_string(WaterPose pose) {
  switch (pose) {
    case WaterPose::kNone:
      return "none";
    case WaterPose::kSwim:
      return "swim";
    case WaterPose::kTread:
      return "tread";
    case WaterPose::kPaddle:
      return "paddle";
    case WaterPose::kClimb:
      return "climb";
  }
  return "none";
}

}  // namespace critter::creature
