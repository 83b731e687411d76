// SPDX-License-Identifier: MIT
#include "anim/runtime_warnings.h"

#include <charconv>
#include <cmath>
#include <string>
#include <utility>

#include "critter/anim/controller.h"
#include "critter/core/strings.h"

namespace critter::anim::detail {
namespace {

// What went wrong in a runtime case (RuntimeLog::Case::failure).
enum Failure : std::uint8_t {
  kTypeMismatch,     // EvalError::kTypeMismatch
  kBadOperand,       // EvalError::kBadOperand
  kScratchOverflow,  // EvalError::kScratchOverflow
  kString,           // the result is a string
  kNumber,           // the result is a number the field cannot take (non-finite, NaN)
  kNoClip,           // a [Param] source names no clip
  kTooMany,          // the kMaxRuntimeCases notice
};

Failure failure_of(const Value& v) {
  if (v.is_error()) {
    switch (v.error) {
      case EvalError::kBadOperand:
        return kBadOperand;
      case EvalError::kScratchOverflow:
        return kScratchOverflow;
      case EvalError::kNone:
      case EvalError::kTypeMismatch:
        break;
    }
    return kTypeMismatch;
  }
  return v.kind == ValueKind::kString ? kString : kNumber;
}

// Shortest round-trip form, so a float default reads as written ("0.3", not 0.30000001...).
template <class T>
std::string format_number(T v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buffer[32];
  const auto r = std::to_chars(buffer, buffer + sizeof(buffer), v);
  return std::string(buffer, r.ptr);
}

// How much of a string value a message shows before cutting it.
constexpr std::size_t kShownChars = 64;
}  // namespace

RuntimeLog::RuntimeLog(const ControllerProgram& program) : program_(&program) {
  sinks_.resize(program.drivers_.size());
  for (std::size_t i = 0; i < sinks_.size(); ++i) {
    sinks_[i].log = this;
    sinks_[i].driver = static_cast<int>(i);
  }
}

bool RuntimeLog::known(const void* field, std::string_view driver_field, std::uint8_t failure,
                       double number, std::string_view text) const {
  for (const Case& c : cases_) {
    if (c.field == field && c.failure == failure && c.driver_field == driver_field &&
        c.text == text && (c.number == number || (std::isnan(c.number) && std::isnan(number)))) {
      return true;
    }
  }
  return false;
}

void RuntimeLog::add(const void* field, std::string_view driver_field, std::uint8_t failure,
                     double number, std::string_view text, std::string_view file,
                     std::string pointer, std::string message) {
  if (cases_.size() >= Controller::kMaxRuntimeCases) {
    if (!full_) {
      full_ = true;
      warnings_.push_back(Warning{program_->desc().source,
                                  {},
                                  "more than " + std::to_string(Controller::kMaxRuntimeCases) +
                                      " distinct runtime failures: further ones are not reported"});
    }
    return;
  }
  Case c;
  c.field = field;
  c.driver_field = std::string(driver_field);
  c.failure = failure;
  c.number = number;
  c.text = std::string(text);
  cases_.push_back(std::move(c));
  warnings_.push_back(Warning{std::string(file.empty() ? program_->desc().source : file),
                              std::move(pointer), std::move(message)});
}

const ControllerProgram::Site* RuntimeLog::site(const void* field) const {
  for (const ControllerProgram::Site& s : program_->sites_) {
    if (s.field == field) return &s;
  }
  return nullptr;
}

namespace {

// What the evaluation gave, for a failed result of a number or a bool field.
std::string what_failed(const Value& result, bool number_field) {
  switch (failure_of(result)) {
    case kTypeMismatch:
      return "fails with a type mismatch";
    case kBadOperand:
      return "fails: a bitwise operand is NaN or outside the 64-bit integer range";
    case kScratchOverflow:
      return "fails: its text needs more than " + std::to_string(EvalScratch::kScratchBytes) +
             " bytes";
    case kString:
      return "evaluates to the string " + in_quotes(result.text, kShownChars) + ", not " +
             (number_field ? "a number" : "a bool");
    default:
      return "evaluates to " + format_number(result.number) + ", not " +
             (number_field ? "a finite number" : "a bool");
  }
}

}  // namespace

void RuntimeLog::failed(const void* field, const Value& result, FieldKind kind, float fallback) {
  const Failure failure = failure_of(result);
  const double number = failure == kNumber ? result.number : 0.0;
  const std::string_view text = failure == kString ? result.text : std::string_view();
  if (known(field, {}, failure, number, text)) return;
  std::string message = what_failed(result, kind == FieldKind::kNumber);
  switch (kind) {
    case FieldKind::kNumber:
      message += ": used the default " + format_number(fallback);
      break;
    case FieldKind::kBool:
      message += std::string(": used the default ") + (fallback != 0.0f ? "true" : "false");
      break;
    case FieldKind::kCondition:
      message += ": the condition counts as false";
      break;
  }
  const ControllerProgram::Site* s = site(field);
  add(field, {}, failure, number, text, s ? s->file : std::string_view(),
      s ? s->pointer : std::string(), std::move(message));
}

void RuntimeLog::no_clip(const void* field, std::string_view parameter, std::string_view name) {
  if (known(field, {}, kNoClip, 0.0, name)) return;
  const ControllerProgram::Site* s = site(field);
  add(field, {}, kNoClip, 0.0, name, s ? s->file : std::string_view(),
      s ? s->pointer : std::string(),
      "[" + std::string(parameter) + "] names no clip " + in_quotes(name, kShownChars) +
          ": the layer keeps its animation");
}

void RuntimeLog::DriverSink::evaluation_failed(const DriverEvalFailure& f) {
  const ControllerProgram::Driver& d = log->program_->drivers_[static_cast<std::size_t>(driver)];
  const Failure failure = failure_of(f.result);
  const double number = failure == kNumber ? f.result.number : 0.0;
  const std::string_view text = failure == kString ? f.result.text : std::string_view();
  if (log->known(&d, f.field, failure, number, text)) return;
  log->add(&d, f.field, failure, number, text, f.file,
           f.pointer.empty() ? d.pointer + "/" + std::string(f.field) : std::string(f.pointer),
           what_failed(f.result, true) + ": used the default " + format_number(f.fallback));
}

float RuntimeLog::number_field(const Expression* e, const DynamicFloatDesc& field,
                               const ParameterValues& values) {
  if (e == nullptr) return field.value;
  const Value v = e->evaluate(values);
  bool ok = false;
  const float f = v.as_float(&ok);
  if (ok) return f;
  failed(&field, v, FieldKind::kNumber, field.value);
  return field.value;
}

bool RuntimeLog::bool_field(const Expression* e, const DynamicBoolDesc& field,
                            const ParameterValues& values) {
  if (e == nullptr) return field.value;
  const Value v = e->evaluate(values);
  bool ok = false;
  const bool b = v.as_bool(&ok);
  if (ok) return b;
  failed(&field, v, FieldKind::kBool, field.value ? 1.0f : 0.0f);
  return field.value;
}

}  // namespace critter::anim::detail
