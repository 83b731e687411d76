// SPDX-License-Identifier: MIT
// Named settings of a rig's Settings struct: one table per rig maps database names to members.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "critter/core/strings.h"

namespace critter::creature::legacy {

template <class S>
struct SettingField {
  std::string_view name;
  float S::*number = nullptr;
  bool S::*flag = nullptr;
};

// Reads (`read` not null) or writes (`write` not null) the setting `name` of `s`; false when the
// table has no such name.
template <class S>
bool access_field(std::span<const SettingField<S>> table, S& s, std::string_view name, float* read,
                  const float* write) {
  for (const SettingField<S>& f : table) {
    if (!iequals(f.name, name)) continue;
    if (f.number != nullptr) {
      if (write != nullptr) s.*f.number = *write;
      if (read != nullptr) *read = s.*f.number;
    } else {
      if (write != nullptr) s.*f.flag = *write != 0.0f;
      if (read != nullptr) *read = s.*f.flag ? 1.0f : 0.0f;
    }
    return true;
  }
  return false;
}

}  // namespace critter::creature::legacy
