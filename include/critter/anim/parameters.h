// SPDX-License-Identifier: MIT
// Controller parameters (animation-config.md §16): a schema of named, typed parameters shared by
// every instance of a controller, and the per-instance values that state rules read.
//
// Names are looked up case-insensitively (ASCII folding) and resolved to an index once, when a
// config is bound or an expression compiled; per-frame code uses indices only. Indices are dense
// (0..size()-1), stable, and only ever appended, so a schema may grow after expressions were
// compiled against it.
//
// Values are dynamically typed, like the reference's parameter dictionary: the schema gives each
// parameter its initial value (and so its initial type); a setter may store a value of another
// type (a host that sets `Gait` to 'walk' where a config declared 0). A parameter with no value is
// "unset" and reads as 0, false or '' as the reading context requires (§0.2 quirk 18).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "critter/core/error.h"
#include "critter/core/math.h"

namespace critter::anim {

// Index of a parameter in its schema.
using ParamIndex = std::uint32_t;
inline constexpr ParamIndex kNoParam = 0xFFFFFFFFu;

enum class ParamType : std::uint8_t {
  kUnset,    // no value: reads as 0 / false / ''
  kFloat,    // stored as double
  kInt,      // 64-bit signed; reads as a number (double) in expressions
  kBool,     // reads as true/false; as a number 1/0
  kString,   // UTF-8 bytes, compared ordinally
  kVec2,     // x, y (z reads 0); expressions read it only through [Name.x] / [Name.y]
  kVec3,     // x, y, z; expressions read it only through components
  kTrigger,  // a bool that ParameterValues::reset_triggers() sets back to false
};

std::string_view to_string(ParamType type);

// An owned parameter value: a schema's initial value, or a copy read back from an instance.
struct ParameterValue {
  ParamType type = ParamType::kUnset;
  double number = 0.0;       // kFloat; kBool and kTrigger: 0 or 1
  std::int64_t integer = 0;  // kInt
  vec3 vec{0.0f};            // kVec2 (z = 0) and kVec3
  std::string text;          // kString

  static ParameterValue unset() { return {}; }
  static ParameterValue of_float(double v);
  static ParameterValue of_int(std::int64_t v);
  static ParameterValue of_bool(bool v);
  static ParameterValue of_trigger(bool fired = false);
  static ParameterValue of_string(std::string_view v);
  static ParameterValue of_vec2(vec2 v);
  static ParameterValue of_vec3(vec3 v);

  // Same type and same value (NaN equals NaN here: setting NaN twice is not a change).
  friend bool operator==(const ParameterValue& a, const ParameterValue& b);
};

// A parameter a schema holds without a declaration: an entry of a table of built-ins such as the
// creature module's (creature/builtin_parameters.h, §16).
struct BuiltinParameter {
  std::string_view name;
  ParamType type;  // kFloat, kBool or kVec3
  double initial;  // numbers and bools (non-zero: true); vectors start at zero
};

// Names, types and initial values. Not thread-safe while it grows; read-only use is.
class ParameterSchema {
 public:
  ParameterSchema() = default;

  // A schema holding every entry of `table`, in table order, as built-ins (is_builtin()). The
  // names must be distinct and not empty (a later duplicate is skipped).
  static ParameterSchema with_builtins(std::span<const BuiltinParameter> table);

  // Declares a new parameter. Fails (kInvalid, location = the name) when the name is empty or
  // already declared (case-insensitively).
  Result<ParamIndex> declare(std::string_view name, ParameterValue initial);
  // The existing index of `name`, or a new unset parameter of that name.
  ParamIndex declare_or_find(std::string_view name);
  // Replaces the initial value of an existing parameter (a config overriding a built-in default).
  // Returns false for an index out of range.
  bool set_initial(ParamIndex index, ParameterValue initial);

  // Case-insensitive lookup; kNoParam when absent.
  ParamIndex find(std::string_view name) const;
  bool contains(std::string_view name) const { return find(name) != kNoParam; }

  std::size_t size() const { return names_.size(); }
  // Name as first declared. `index` must be < size().
  std::string_view name(ParamIndex index) const { return names_[index]; }
  const ParameterValue& initial(ParamIndex index) const { return initials_[index]; }
  // True for parameters added by with_builtins() (not by declare / declare_or_find).
  bool is_builtin(ParamIndex index) const { return index < builtin_count_; }

 private:
  std::vector<std::string> names_;
  std::vector<ParameterValue> initials_;
  std::unordered_map<std::string, ParamIndex> by_folded_name_;
  std::size_t builtin_count_ = 0;
};

// Per-instance parameter values (DESIGN.md: per-instance state), one slot per schema entry.
// Setters return true when the stored value really changed (type or value) and then raise the
// changed() flag; setting an equal value leaves it alone (§16). Setters never allocate except
// set_string() growing a slot's text beyond its capacity. Readers never allocate.
// An index out of range (a schema that grew after these values were made) reads as unset and
// ignores setters (they return false).
class ParameterValues {
 public:
  ParameterValues() = default;
  // Initial values of every schema entry; changed() starts true so the first update evaluates.
  // Keeps a pointer to `schema` for the by-name setters: the schema must outlive these values.
  explicit ParameterValues(const ParameterSchema& schema);

  std::size_t size() const { return slots_.size(); }
  const ParameterSchema* schema() const { return schema_; }
  // Adds slots (with their initial values) for schema entries declared after construction.
  void grow_to_schema();

  bool set(ParamIndex index, const ParameterValue& value);
  bool set_float(ParamIndex index, double value);
  bool set_int(ParamIndex index, std::int64_t value);
  bool set_bool(ParamIndex index, bool value);
  bool set_string(ParamIndex index, std::string_view value);
  bool set_vec2(ParamIndex index, vec2 value);
  bool set_vec3(ParamIndex index, vec3 value);
  // Fires a trigger: the slot becomes a kTrigger reading true until reset_triggers().
  bool fire_trigger(ParamIndex index);
  // Makes the slot unset.
  bool unset(ParamIndex index);
  // Every kTrigger slot that reads true goes back to false (a change).
  void reset_triggers();
  // Back to the schema's initial values (changed() is raised when anything differed).
  void reset_to_initial();

  // By name through the schema (case-insensitive); false when the name is unknown.
  bool set(std::string_view name, const ParameterValue& value);
  bool set_float(std::string_view name, double value);
  bool set_bool(std::string_view name, bool value);
  bool set_string(std::string_view name, std::string_view value);

  // Readers. type() is kUnset out of range. number(): kFloat/kInt as double, kBool/kTrigger 1 or
  // 0, others 0. boolean(): kBool/kTrigger, numbers != 0, others false. text(): kString's bytes
  // (a view into this object, valid until that slot is next set), else ''. vec(): kVec2/kVec3,
  // else zero.
  ParamType type(ParamIndex index) const;
  double number(ParamIndex index) const;
  std::int64_t integer(ParamIndex index) const;  // kInt exactly; others truncated number()
  bool boolean(ParamIndex index) const;
  std::string_view text(ParamIndex index) const;
  vec3 vec(ParamIndex index) const;
  ParameterValue get(ParamIndex index) const;  // an owned copy (allocates for strings)

  // Raised by any real change since the last clear_changed().
  bool changed() const { return changed_; }
  void clear_changed() { changed_ = false; }

 private:
  // One value, without its text (kept in texts_ so slots stay small for the evaluator).
  struct Slot {
    ParamType type = ParamType::kUnset;
    double number = 0.0;       // kFloat, kBool, kTrigger
    std::int64_t integer = 0;  // kInt
    vec3 vec{0.0f};            // kVec2, kVec3
  };
  friend class Expression;  // reads slots_ / texts_ directly in the evaluation loop

  bool store(ParamIndex index, const Slot& slot);

  const ParameterSchema* schema_ = nullptr;
  std::vector<Slot> slots_;
  std::vector<std::string> texts_;
  bool changed_ = false;
  bool triggers_fired_ = false;  // some kTrigger slot may read true (reset_triggers())
};

}  // namespace critter::anim
