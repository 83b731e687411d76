// SPDX-License-Identifier: MIT
#include "critter/core/diagnostics.h"

namespace critter {

std::string Warning::to_string() const {
  std::string out = path.empty() ? std::string("<memory>") : path;
  if (!location.empty()) out += ":" + location;
  out += ": warning: " + message;
  return out;
}

}  // namespace critter
