// SPDX-License-Identifier: MIT
#include "critter/anim/driver.h"

#include <algorithm>
#include <utility>

#include "builtin_drivers.h"
#include "critter/core/strings.h"

namespace critter::anim {
namespace {

Error registry_error(std::string name, std::string message) {
  return Error::at(ErrorCode::kUsage, "DriverRegistry", std::move(name), std::move(message));
}

}  // namespace

const DriverProperty* find_driver_property(std::span<const DriverProperty> properties,
                                           std::string_view name) {
  for (const DriverProperty& p : properties) {
    if (iequals(p.name, name)) return &p;
  }
  return nullptr;
}

const DriverPropertySpec* DriverType::property(std::string_view property_name) const {
  for (const DriverPropertySpec& s : properties) {
    if (iequals(s.name, property_name)) return &s;
  }
  return nullptr;
}

std::string_view driver_base_name(std::string_view name) {
  constexpr std::string_view kSuffix = "Driver";
  if (name.size() > kSuffix.size() && iequals(name.substr(name.size() - kSuffix.size()), kSuffix)) {
    name.remove_suffix(kSuffix.size());
  }
  return name;
}

bool same_driver_name(std::string_view a, std::string_view b) {
  return iequals(driver_base_name(a), driver_base_name(b));
}

DriverRegistry DriverRegistry::with_builtins() {
  DriverRegistry r;
  register_builtin_drivers(r);
  return r;
}

const DriverRegistry& DriverRegistry::builtin() {
  static const DriverRegistry registry = with_builtins();
  return registry;
}

Status DriverRegistry::add(std::string name, std::vector<DriverPropertySpec> properties,
                           DriverFactory factory) {
  if (name.empty()) return fail(registry_error(name, "a driver type needs a name"));
  if (!factory) return fail(registry_error(name, "an implemented driver type needs a factory"));
  for (std::size_t i = 0; i < properties.size(); ++i) {
    for (std::size_t k = 0; k < i; ++k) {
      if (iequals(properties[i].name, properties[k].name)) {
        return fail(registry_error(name, "property '" + properties[i].name + "' named twice"));
      }
    }
  }
  DriverType type{std::move(name), std::move(properties), std::move(factory)};
  for (DriverType& existing : types_) {
    if (!same_driver_name(existing.name, type.name)) continue;
    if (existing.implemented()) {
      return fail(
          registry_error(type.name, "driver type '" + existing.name + "' is already registered"));
    }
    existing = std::move(type);  // a declared name gets its implementation
    return {};
  }
  types_.push_back(std::move(type));
  return {};
}

Status DriverRegistry::declare(std::string name) {
  if (name.empty()) return fail(registry_error(name, "a driver type needs a name"));
  if (const DriverType* existing = find(name)) {
    return fail(registry_error(name, "driver type '" + existing->name + "' is already registered"));
  }
  types_.push_back(DriverType{std::move(name), {}, {}});
  return {};
}

const DriverType* DriverRegistry::find(std::string_view name) const {
  const auto it = std::find_if(types_.begin(), types_.end(),
                               [&](const DriverType& t) { return same_driver_name(t.name, name); });
  return it == types_.end() ? nullptr : &*it;
}

}  // namespace critter::anim
