// SPDX-License-Identifier: MIT
#include "critter/creature/legacy/rest_translation.h"

#include <string>

namespace critter::creature {

Status apply_legacy_rest_translation(const Skeleton& skeleton, std::span<Transform> locals) {
  const auto rest = skeleton.rest_pose();
  if (locals.size() != rest.size()) {
    return fail(Error::at(ErrorCode::kUsage, "apply_legacy_rest_translation", "locals",
                          std::to_string(locals.size()) + " transforms for a skeleton of " +
                              std::to_string(rest.size()) + " joints"));
  }
  for (std::size_t i = 0; i < locals.size(); ++i) locals[i].translation = rest[i].translation;
  return {};
}

}  // namespace critter::creature
