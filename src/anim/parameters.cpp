// SPDX-License-Identifier: MIT
#include "critter/anim/parameters.h"

#include <cmath>
#include <utility>

#include "critter/core/strings.h"

namespace critter::anim {

namespace {

bool same_number(double a, double b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}

bool same_vec(vec3 a, vec3 b) {
  for (int i = 0; i < 3; ++i) {
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
  }
  return true;
}

}  // namespace

std::string_view to_string(ParamType type) {
  switch (type) {
    case ParamType::kUnset:
      return "unset";
    case ParamType::kFloat:
      return "float";
    case ParamType::kInt:
      return "int";
    case ParamType::kBool:
      return "bool";
    case ParamType::kString:
      return "string";
    case ParamType::kVec2:
      return "Vec2";
    case ParamType::kVec3:
      return "Vec3";
    case ParamType::kTrigger:
      return "trigger";
  }
  return "unknown";
}

ParameterValue ParameterValue::of_float(double v) {
  ParameterValue p;
  p.type = ParamType::kFloat;
  p.number = v;
  return p;
}
ParameterValue ParameterValue::of_int(std::int64_t v) {
  ParameterValue p;
  p.type = ParamType::kInt;
  p.integer = v;
  return p;
}
ParameterValue ParameterValue::of_bool(bool v) {
  ParameterValue p;
  p.type = ParamType::kBool;
  p.number = v ? 1.0 : 0.0;
  return p;
}
ParameterValue ParameterValue::of_trigger(bool fired) {
  ParameterValue p;
  p.type = ParamType::kTrigger;
  p.number = fired ? 1.0 : 0.0;
  return p;
}
ParameterValue ParameterValue::of_string(std::string_view v) {
  ParameterValue p;
  p.type = ParamType::kString;
  p.text = std::string(v);
  return p;
}
ParameterValue ParameterValue::of_vec2(vec2 v) {
  ParameterValue p;
  p.type = ParamType::kVec2;
  p.vec = vec3(v, 0.0f);
  return p;
}
ParameterValue ParameterValue::of_vec3(vec3 v) {
  ParameterValue p;
  p.type = ParamType::kVec3;
  p.vec = v;
  return p;
}

bool operator==(const ParameterValue& a, const ParameterValue& b) {
  if (a.type != b.type) return false;
  switch (a.type) {
    case ParamType::kUnset:
      return true;
    case ParamType::kFloat:
    case ParamType::kBool:
    case ParamType::kTrigger:
      return same_number(a.number, b.number);
    case ParamType::kInt:
      return a.integer == b.integer;
    case ParamType::kString:
      return a.text == b.text;
    case ParamType::kVec2:
    case ParamType::kVec3:
      return same_vec(a.vec, b.vec);
  }
  return false;
}

ParameterSchema ParameterSchema::with_builtins(std::span<const BuiltinParameter> table) {
  ParameterSchema schema;
  for (const BuiltinParameter& b : table) {
    ParameterValue initial;
    switch (b.type) {
      case ParamType::kBool:
        initial = ParameterValue::of_bool(b.initial != 0.0);
        break;
      case ParamType::kVec3:
        initial = ParameterValue::of_vec3(vec3(0.0f));
        break;
      default:
        initial = ParameterValue::of_float(b.initial);
        break;
    }
    (void)schema.declare(b.name, std::move(initial));  // a duplicate or empty name is skipped
  }
  schema.builtin_count_ = schema.size();
  return schema;
}

Result<ParamIndex> ParameterSchema::declare(std::string_view name, ParameterValue initial) {
  if (name.empty()) {
    return fail(Error::at(ErrorCode::kInvalid, "", "", "parameter name is empty"));
  }
  std::string folded = to_lower(name);
  if (by_folded_name_.contains(folded)) {
    return fail(Error::at(ErrorCode::kInvalid, "", std::string(name),
                          "parameter '" + std::string(name) + "' is already declared"));
  }
  const auto index = static_cast<ParamIndex>(names_.size());
  by_folded_name_.emplace(std::move(folded), index);
  names_.emplace_back(name);
  initials_.push_back(std::move(initial));
  return index;
}

ParamIndex ParameterSchema::declare_or_find(std::string_view name) {
  const ParamIndex found = find(name);
  if (found != kNoParam) return found;
  auto declared = declare(name, ParameterValue::unset());
  return declared ? *declared : kNoParam;
}

bool ParameterSchema::set_initial(ParamIndex index, ParameterValue initial) {
  if (index >= initials_.size()) return false;
  initials_[index] = std::move(initial);
  return true;
}

ParamIndex ParameterSchema::find(std::string_view name) const {
  const auto it = by_folded_name_.find(to_lower(name));
  return it == by_folded_name_.end() ? kNoParam : it->second;
}

ParameterValues::ParameterValues(const ParameterSchema& schema) : schema_(&schema) {
  grow_to_schema();
  changed_ = true;
}

void ParameterValues::grow_to_schema() {
  if (schema_ == nullptr) return;
  for (std::size_t i = slots_.size(); i < schema_->size(); ++i) {
    slots_.emplace_back();
    texts_.emplace_back();
    set(static_cast<ParamIndex>(i), schema_->initial(static_cast<ParamIndex>(i)));
  }
}

// Inlined into each setter (forced: the hint alone leaves it to the compiler), which builds `slot`
// field by field: called out of line, the whole-struct copy below read those narrow writes back
// with 16-byte loads, a store-forwarding stall per set.
[[gnu::always_inline]] inline bool ParameterValues::store(ParamIndex index, const Slot& slot) {
  if (index >= slots_.size()) return false;
  Slot& s = slots_[index];
  bool same = s.type == slot.type;
  if (same) {
    switch (slot.type) {
      case ParamType::kUnset:
        break;
      case ParamType::kFloat:
      case ParamType::kBool:
      case ParamType::kTrigger:
        same = same_number(s.number, slot.number);
        break;
      case ParamType::kInt:
        same = s.integer == slot.integer;
        break;
      case ParamType::kString:
        same = true;
        break;  // the caller compares the text
      case ParamType::kVec2:
      case ParamType::kVec3:
        same = same_vec(s.vec, slot.vec);
        break;
    }
  }
  if (same) return false;
  // A slot's text is read only while its type is kString (text(), set_string()): leaving it in
  // place spares a write to a second, usually cold, cache line per change.
  s = slot;
  if (slot.type == ParamType::kTrigger && slot.number != 0.0) triggers_fired_ = true;
  changed_ = true;
  return true;
}

bool ParameterValues::set(ParamIndex index, const ParameterValue& value) {
  switch (value.type) {
    case ParamType::kUnset:
      return unset(index);
    case ParamType::kFloat:
      return set_float(index, value.number);
    case ParamType::kInt:
      return set_int(index, value.integer);
    case ParamType::kBool:
      return set_bool(index, value.number != 0.0);
    case ParamType::kTrigger: {
      Slot s;
      s.type = ParamType::kTrigger;
      s.number = value.number != 0.0 ? 1.0 : 0.0;
      return store(index, s);
    }
    case ParamType::kString:
      return set_string(index, value.text);
    case ParamType::kVec2:
      return set_vec2(index, vec2(value.vec));
    case ParamType::kVec3:
      return set_vec3(index, value.vec);
  }
  return false;
}

bool ParameterValues::set_float(ParamIndex index, double value) {
  Slot s;
  s.type = ParamType::kFloat;
  s.number = value;
  return store(index, s);
}

bool ParameterValues::set_int(ParamIndex index, std::int64_t value) {
  Slot s;
  s.type = ParamType::kInt;
  s.integer = value;
  return store(index, s);
}

bool ParameterValues::set_bool(ParamIndex index, bool value) {
  Slot s;
  s.type = ParamType::kBool;
  s.number = value ? 1.0 : 0.0;
  return store(index, s);
}

bool ParameterValues::set_string(ParamIndex index, std::string_view value) {
  if (index >= slots_.size()) return false;
  if (slots_[index].type == ParamType::kString && texts_[index] == value) return false;
  Slot s;
  s.type = ParamType::kString;
  slots_[index] = s;
  texts_[index].assign(value);
  changed_ = true;
  return true;
}

bool ParameterValues::set_vec2(ParamIndex index, vec2 value) {
  Slot s;
  s.type = ParamType::kVec2;
  s.vec = vec3(value, 0.0f);
  return store(index, s);
}

bool ParameterValues::set_vec3(ParamIndex index, vec3 value) {
  Slot s;
  s.type = ParamType::kVec3;
  s.vec = value;
  return store(index, s);
}

bool ParameterValues::fire_trigger(ParamIndex index) {
  Slot s;
  s.type = ParamType::kTrigger;
  s.number = 1.0;
  return store(index, s);
}

bool ParameterValues::unset(ParamIndex index) {
  return store(index, Slot{});
}

void ParameterValues::reset_triggers() {
  // Every trigger that reads true was fired through store() since the last reset: without one,
  // the slots (read every frame, mostly cold across a crowd) are not walked.
  if (!triggers_fired_) return;
  triggers_fired_ = false;
  for (Slot& s : slots_) {
    if (s.type == ParamType::kTrigger && s.number != 0.0) {
      s.number = 0.0;
      changed_ = true;
    }
  }
}

void ParameterValues::reset_to_initial() {
  if (schema_ == nullptr) return;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    set(static_cast<ParamIndex>(i), schema_->initial(static_cast<ParamIndex>(i)));
  }
}

bool ParameterValues::set(std::string_view name, const ParameterValue& value) {
  return schema_ != nullptr && set(schema_->find(name), value);
}
bool ParameterValues::set_float(std::string_view name, double value) {
  return schema_ != nullptr && set_float(schema_->find(name), value);
}
bool ParameterValues::set_bool(std::string_view name, bool value) {
  return schema_ != nullptr && set_bool(schema_->find(name), value);
}
bool ParameterValues::set_string(std::string_view name, std::string_view value) {
  return schema_ != nullptr && set_string(schema_->find(name), value);
}

ParamType ParameterValues::type(ParamIndex index) const {
  return index < slots_.size() ? slots_[index].type : ParamType::kUnset;
}

double ParameterValues::number(ParamIndex index) const {
  if (index >= slots_.size()) return 0.0;
  const Slot& s = slots_[index];
  switch (s.type) {
    case ParamType::kFloat:
    case ParamType::kBool:
    case ParamType::kTrigger:
      return s.number;
    case ParamType::kInt:
      return static_cast<double>(s.integer);
    default:
      return 0.0;
  }
}

std::int64_t ParameterValues::integer(ParamIndex index) const {
  if (index < slots_.size() && slots_[index].type == ParamType::kInt) return slots_[index].integer;
  const double n = number(index);
  // Saturate instead of converting out of range (undefined behaviour).
  if (!(n > -9.2e18)) return std::isnan(n) ? 0 : INT64_MIN;
  if (!(n < 9.2e18)) return INT64_MAX;
  return static_cast<std::int64_t>(n);
}

bool ParameterValues::boolean(ParamIndex index) const {
  if (index >= slots_.size()) return false;
  const Slot& s = slots_[index];
  switch (s.type) {
    case ParamType::kFloat:
    case ParamType::kBool:
    case ParamType::kTrigger:
      return s.number != 0.0 && !std::isnan(s.number);
    case ParamType::kInt:
      return s.integer != 0;
    default:
      return false;
  }
}

std::string_view ParameterValues::text(ParamIndex index) const {
  if (index >= slots_.size() || slots_[index].type != ParamType::kString) return {};
  return texts_[index];
}

vec3 ParameterValues::vec(ParamIndex index) const {
  if (index >= slots_.size()) return vec3(0.0f);
  const Slot& s = slots_[index];
  return (s.type == ParamType::kVec2 || s.type == ParamType::kVec3) ? s.vec : vec3(0.0f);
}

ParameterValue ParameterValues::get(ParamIndex index) const {
  ParameterValue v;
  if (index >= slots_.size()) return v;
  const Slot& s = slots_[index];
  v.type = s.type;
  v.number = s.number;
  v.integer = s.integer;
  v.vec = s.vec;
  if (s.type == ParamType::kString) v.text = texts_[index];
  return v;
}

}  // namespace critter::anim
