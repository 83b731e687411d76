// SPDX-License-Identifier: MIT
#include "critter/creature/default_drivers.h"

#include "critter/creature/legacy/legacy_drivers.h"

namespace critter::creature {

anim::DriverRegistry with_default_drivers() {
  anim::DriverRegistry r = anim::DriverRegistry::with_builtins();
  // The legacy names are only declared by the builtins and registered once here, so adding
  // their implementations cannot fail.
  (void)legacy::register_legacy_drivers(r);
  return r;
}

const anim::DriverRegistry& default_drivers() {
  static const anim::DriverRegistry registry = with_default_drivers();
  return registry;
}

}  // namespace critter::creature
