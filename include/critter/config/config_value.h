// SPDX-License-Identifier: MIT
// ConfigValue: one JSON value of an animation config as read from its file, with the place it
// came from. The config loader keeps open-ended parts of a config (driver properties, driverArgs,
// an old onComplete's value) in this form; bind converts them into the
// driver properties and parameter values of the controller description.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "critter/core/source_location.h"

namespace critter::config {

struct ConfigMember;

struct ConfigValue {
  enum class Kind : unsigned char { kNull, kBool, kNumber, kString, kArray, kObject };

  Kind kind = Kind::kNull;
  bool boolean = false;
  double number = 0.0;  // JSON numbers are read as doubles (may be non-finite, e.g. 1e999)
  std::string string;
  std::vector<ConfigValue> items;     // array elements
  std::vector<ConfigMember> members;  // object members, in file order
  SourceLocation where;

  bool is_null() const { return kind == Kind::kNull; }
  bool is_object() const { return kind == Kind::kObject; }
  bool is_array() const { return kind == Kind::kArray; }
  bool is_string() const { return kind == Kind::kString; }
  bool is_number() const { return kind == Kind::kNumber; }
  bool is_bool() const { return kind == Kind::kBool; }

  // The member whose name equals `key` under ASCII case folding; the last one when the name was
  // written more than once. Null when absent or when this is not an object.
  const ConfigValue* find(std::string_view key) const;

  // JSON equality with object keys compared case-insensitively (member order ignored) and strings
  // compared case-sensitively; locations are ignored.
  bool equals(const ConfigValue& other) const;
};

// One member of an object: its name as written and its value. A named aggregate rather than a
// std::pair, which needs ConfigValue complete where the member vector above is declared.
struct ConfigMember {
  std::string first;
  ConfigValue second;
};

}  // namespace critter::config
