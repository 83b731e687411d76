// SPDX-License-Identifier: MIT
#include "critter/anim/ik_options.h"

#include <array>
#include <utility>

#include "critter/core/strings.h"

namespace critter::anim {

namespace {

constexpr std::array<std::pair<std::string_view, IkAlgorithm>, 5> kAlgorithms{{
    {"Auto", IkAlgorithm::kAuto},
    {"SingleBone", IkAlgorithm::kSingleBone},
    {"TwoBone", IkAlgorithm::kTwoBone},
    {"CCD", IkAlgorithm::kCcd},
    {"FABRIK", IkAlgorithm::kFabrik},
}};

constexpr std::array<std::pair<std::string_view, IkUnreachable>, 3> kStrategies{{
    {"ExtendTowardTarget", IkUnreachable::kExtendTowardTarget},
    {"KeepCurrentPose", IkUnreachable::kKeepCurrentPose},
    {"UseLastValidResult", IkUnreachable::kUseLastValidResult},
}};

}  // namespace

std::optional<IkAlgorithm> parse_ik_algorithm(std::string_view text) {
  for (const auto& [name, value] : kAlgorithms) {
    if (iequals(text, name)) return value;
    // The "…IK" spellings (TwoBoneIK, CCDIK, FABRIKIK) name the same solvers; "AutoIK" does not.
    if (value != IkAlgorithm::kAuto && text.size() == name.size() + 2 &&
        iequals(text.substr(0, name.size()), name) && iequals(text.substr(name.size()), "IK"))
      return value;
  }
  return std::nullopt;
}

std::optional<IkUnreachable> parse_ik_unreachable(std::string_view text) {
  for (const auto& [name, value] : kStrategies)
    if (iequals(text, name)) return value;
  return std::nullopt;
}

std::string_view to_string(IkAlgorithm algorithm) {
  for (const auto& [name, value] : kAlgorithms)
    if (value == algorithm) return name;
  return "?";
}

std::string_view to_string(IkUnreachable unreachable) {
  for (const auto& [name, value] : kStrategies)
    if (value == unreachable) return name;
  return "?";
}

IkAlgorithm default_ik_algorithm(int chain_length) {
  if (chain_length <= 2) return IkAlgorithm::kSingleBone;
  if (chain_length == 3) return IkAlgorithm::kTwoBone;
  return IkAlgorithm::kCcd;
}

}  // namespace critter::anim
