// SPDX-License-Identifier: MIT
// Drivers (animation-config.md §14): algorithmic pose sources registered by name. A
// DriverRegistry maps a type name to the properties a config may set on it and to a factory that
// builds the type's shared, immutable DriverProgram for one model; a program makes one
// DriverInstance per creature, which the Controller advances with update() and samples into a
// layer's pose every frame. The default registry holds LookAt, Death and Expression (§14.1) and
// declares the creature drivers of §14.2 by name; hosts copy it (or start from an empty one) and
// add their own types.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "critter/anim/expression.h"
#include "critter/anim/parameters.h"
#include "critter/asset/model.h"
#include "critter/core/error.h"
#include "critter/core/math.h"
#include "critter/core/transform.h"

namespace critter::anim {

struct ControllerDriverDesc;  // controller_desc.h

// What a config may write for a driver property and what the driver receives (DriverProperty).
enum class DriverPropertyType : std::uint8_t {
  kNumber,      // a number or a numeric string -> number; an expression string (§15) -> text
                // holds the expression (number 0), for the driver to compile or ignore
  kBool,        // true / false, or the strings "true" / "false" (any case) -> boolean
  kString,      // a string -> text
  kParameter,   // a parameter name -> text; bind warns when it is neither declared nor built in
  kBone,        // a bone name of the model (bone aliases followed) -> index = joint
  kBoneOrNull,  // as kBone, or null -> index = -1
  kVec3,        // [x, y, z] or {"X", "Y", "Z"} (keys any case) -> vector
  kAxis,        // "X", "Y" or "Z" (any case) -> index = 0, 1 or 2
  // The Expression driver's `boneConfigs` list (§14.1). The config binder checks and converts it
  // into ControllerDriverDesc::bones; it never becomes a DriverProperty.
  kBoneConfigs,
};

// One property a driver type accepts. Names match case-insensitively.
struct DriverPropertySpec {
  std::string name;
  DriverPropertyType type = DriverPropertyType::kNumber;
};

// One property value as the driver receives it, names already resolved (see DriverPropertyType
// for which fields hold the value; the others keep their defaults).
struct DriverProperty {
  std::string name;  // the spelling of the type's DriverPropertySpec
  DriverPropertyType type = DriverPropertyType::kNumber;
  float number = 0.0f;
  bool boolean = false;
  std::string text;
  vec3 vector{0.0f};
  int index = -1;
};

// The property named `name` (case-insensitive) in `properties`, or null.
const DriverProperty* find_driver_property(std::span<const DriverProperty> properties,
                                           std::string_view name);

// One failed evaluation of a driver's expression (animation-config.md §0.4: an evaluation
// failure yields the field's default and is reported). Views, valid during the call only.
struct DriverEvalFailure {
  // The value's place in the driver's description, relative to the driver ("boneConfigs/0/
  // rotationX"); with the driver it identifies the field for de-duplication.
  std::string_view field;
  // Where the config wrote the value (a SourceLocation of the description); either may be empty,
  // the Controller then names the field from `field` and the driver's place.
  std::string_view file;
  std::string_view pointer;
  Value result;           // the failed evaluation: kError, or a value that is no finite number
  float fallback = 0.0f;  // the value the driver used instead
};

// Receives a driver instance's evaluation failures. The Controller gives every instance its own
// reporter, which records each (field, failure) once in Controller::runtime_warnings(); a call
// that records nothing new allocates nothing.
class DriverReporter {
 public:
  virtual ~DriverReporter() = default;
  virtual void evaluation_failed(const DriverEvalFailure& failure) = 0;
};

// One creature's state of a driver. Both calls run every frame and never allocate, throw or log.
class DriverInstance {
 public:
  virtual ~DriverInstance() = default;
  // Where update() reports the failures of the expressions the driver evaluates; null: nowhere.
  // The Controller calls it once, before the first update(), with a reporter that outlives the
  // instance. A driver that evaluates no expression may ignore it (the default).
  virtual void set_reporter(DriverReporter* reporter) { (void)reporter; }
  // Advances the driver by `dt` seconds (finite, >= 0; the Controller scales it by the speed of
  // the `driver:` rule that runs it) and reads the parameters it needs.
  virtual void update(float dt, const ParameterValues& parameters) = 0;
  // Writes the local transform of every joint it drives into `locals` (one entry per joint of the
  // model) and sets those joints' `touched` entries to 1, leaving every other entry alone.
  // `additive`: the layer is Additive, so the values are deltas (identity = no change, §11).
  // Returns false when the driver shows nothing this frame; the caller then ignores both spans.
  virtual bool sample(std::span<Transform> locals, std::span<std::uint8_t> touched,
                      bool additive) = 0;
};

// A driver compiled for one model and one controller program: immutable, shared by every
// creature of that program. It may keep pointers into the DriverSetup's model and expression
// cache, so it must not outlive the ControllerProgram that compiled it.
class DriverProgram {
 public:
  virtual ~DriverProgram() = default;
  // One creature's state, sized up front: the instance allocates nothing after this returns.
  virtual std::unique_ptr<DriverInstance> instantiate() const = 0;
};

// What a factory gets to build a driver program.
struct DriverSetup {
  // The driver as described: `type`, the typed fields the built-in drivers read and the generic
  // `properties` (bones resolved to joints) that every driver may read.
  const ControllerDriverDesc& desc;
  const Model& model;
  // The program's parameter schema: the factory resolves the parameters it reads with
  // declare_or_find() (a name not declared yet is added, unset).
  ParameterSchema& schema;
  // The program's expression cache (compiles against `schema`), for expression properties.
  ExpressionCache& expressions;
};

// Builds a driver program, or fails with an Error whose `location` names the offending property
// ("Amplitude", "bones/2/rotationX"; empty for the driver as a whole) and whose `message` says
// which rule broke; ControllerProgram::compile prefixes the location with the driver's place in
// the description. Called once per driver of a description, on the compiling thread.
using DriverFactory =
    std::function<Result<std::shared_ptr<const DriverProgram>>(const DriverSetup& setup)>;

// A registered driver type.
struct DriverType {
  std::string name;                            // as registered ("LookAt")
  std::vector<DriverPropertySpec> properties;  // what a config may set; see accepts()
  DriverFactory factory;                       // empty: declared, not implemented

  // Implemented types run; declared ones keep their name valid in configs (bind accepts any
  // property for them) and leave their layer untouched at run time.
  bool implemented() const { return static_cast<bool>(factory); }
  // The spec of property `name` (case-insensitive), or null.
  const DriverPropertySpec* property(std::string_view property_name) const;
};

// "X" and "XDriver" name the same driver type: the name without a trailing "Driver" (any case),
// unless nothing would be left.
std::string_view driver_base_name(std::string_view name);
// True when `a` and `b` name the same driver type (base names equal, case-insensitive).
bool same_driver_name(std::string_view a, std::string_view b);

// Driver types by name. Copyable: a copy is an independent registry. Not synchronised: register
// everything before binding or compiling with it, then share it read-only.
class DriverRegistry {
 public:
  DriverRegistry() = default;  // empty

  // LookAt, Death and Expression implemented (§14.1); the creature drivers of §14.2 declared.
  static DriverRegistry with_builtins();
  // The process-wide default: with_builtins(), immutable. Used wherever a registry is optional
  // and none is given.
  static const DriverRegistry& builtin();

  // Registers an implemented type. Errors (kUsage, path "DriverRegistry", location the name): an
  // empty name or factory, a property spec named twice (case-insensitive), or a name whose type
  // is already implemented here. A type only declared under that name is replaced.
  Status add(std::string name, std::vector<DriverPropertySpec> properties, DriverFactory factory);
  // Declares a type by name only (accepts any property, runs nothing). Errors (kUsage): an empty
  // name, or one already registered (declared or implemented).
  Status declare(std::string name);

  // The type `name` names (case-insensitive; "X" and "XDriver" both match), or null.
  const DriverType* find(std::string_view name) const;
  std::span<const DriverType> types() const { return types_; }

 private:
  std::vector<DriverType> types_;
};

}  // namespace critter::anim
