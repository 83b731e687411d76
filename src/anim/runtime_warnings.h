// SPDX-License-Identifier: MIT
// The Controller's runtime-warning log (animation-config.md §0.4): nothing fails at run time, but
// nothing is silent either. Each failing case is recorded once per (field, value) for the life of
// the Controller; the wording and the locations are Controller::runtime_warnings()'s contract.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "critter/anim/controller_program.h"
#include "critter/anim/driver.h"
#include "critter/anim/expression.h"
#include "critter/anim/parameters.h"
#include "critter/core/diagnostics.h"

namespace critter::anim::detail {

// How a field's failure is worded.
enum class FieldKind : std::uint8_t { kNumber, kBool, kCondition };

// Runtime warnings and the cases they recorded. Must not move once drivers report to it: each
// driver instance points at one of its sinks.
class RuntimeLog {
 public:
  // The reporter each driver instance gets: the log and the program driver it reports for.
  struct DriverSink final : DriverReporter {
    void evaluation_failed(const DriverEvalFailure& failure) override;
    RuntimeLog* log = nullptr;
    int driver = -1;
  };

  // One sink per program driver.
  explicit RuntimeLog(const ControllerProgram& program);
  RuntimeLog(const RuntimeLog&) = delete;
  RuntimeLog& operator=(const RuntimeLog&) = delete;

  std::vector<Warning>& warnings() { return warnings_; }
  const std::vector<Warning>& warnings() const { return warnings_; }
  DriverSink& sink(int driver) { return sinks_[static_cast<std::size_t>(driver)]; }

  // An expression field's value, or its static value (with a warning) when it fails.
  float number_field(const Expression* e, const DynamicFloatDesc& field,
                     const ParameterValues& values);
  bool bool_field(const Expression* e, const DynamicBoolDesc& field, const ParameterValues& values);
  // The expression of description field `field` gave `result`, which the field cannot take;
  // `fallback` was used (a bool as 0 or 1).
  void failed(const void* field, const Value& result, FieldKind kind, float fallback);
  // A `[Param]` source (`field`: its parameter name in the description) read `name`, which
  // names no clip.
  void no_clip(const void* field, std::string_view parameter, std::string_view name);

 private:
  // One recorded case: the field and the value that failed.
  struct Case {
    const void* field = nullptr;  // the description field, or the program driver
    std::string driver_field;     // drivers: the field below the driver
    std::uint8_t failure = 0;     // what went wrong (runtime_warnings.cpp's Failure)
    double number = 0.0;          // the non-finite number
    std::string text;             // the string, or the clip name
  };

  // Whether the case was recorded already (no allocation).
  bool known(const void* field, std::string_view driver_field, std::uint8_t failure, double number,
             std::string_view text) const;
  // Records a new case and its warning (the file defaults to ControllerDesc::source), or the
  // one notice once Controller::kMaxRuntimeCases are recorded.
  void add(const void* field, std::string_view driver_field, std::uint8_t failure, double number,
           std::string_view text, std::string_view file, std::string pointer, std::string message);
  // Where the description field `field` was written; null when not recorded.
  const ControllerProgram::Site* site(const void* field) const;

  const ControllerProgram* program_ = nullptr;
  std::vector<Warning> warnings_;
  std::vector<Case> cases_;
  std::vector<DriverSink> sinks_;
  bool full_ = false;  // kMaxRuntimeCases reached and said
};

}  // namespace critter::anim::detail
