// SPDX-License-Identifier: MIT
// Expressions of animation configs (animation-config.md §15): the NCalc dialect Survivalcraft's
// state rules are written in, compiled once into a compact stack program and evaluated against a
// creature's ParameterValues.
//
// Dialect summary (the spec is the contract):
//   literals   12, 0.5, 1e-3, true/false (any case), 'text' with \' \\ \n \t \r \uXXXX escapes
//   parameters [Name] (any characters but ']'), [Name.x|y|z] (a Vec component), bare identifiers
//              [A-Za-z_][A-Za-z0-9_]* not followed by '('; a bare `pi` that names no parameter is π
//   operators  lowest first: ?: (right-assoc.); or ||; and &&; |; ^; &; = == != <>;
//              < <= > >=; << >>; + -; * / %; unary not ! - ~
//   functions  name(args), names case-insensitive, arity checked at compile time:
//              lerp(a,b,t) smoothstep(t) clamp(v,lo,hi) degtorad(x) radtodeg(x) pi()
//              Abs Acos Asin Atan Ceiling Cos Exp Floor IEEERemainder(x,y) Log(x,base) Log10
//              Max(a,b) Min(a,b) Pow(x,y) Round(x[,digits]) Sign Sin Sqrt Tan Truncate
//              if(c,a,b) in(v,a,...)
//
// Semantics: numbers are doubles; `/` is real division; `%` is fmod (sign of the dividend);
// bitwise operators (& | ^ ~ << >>) truncate their operands toward zero to 64-bit integers (a NaN
// or an operand outside the int64 range is a failure; shift counts use their low 6 bits).
// and/or, ?: and if() short-circuit: the branch not taken is never evaluated, so its failures do
// not matter. Bool <-> number: true = 1, non-zero = true. `+` with a string operand concatenates
// (numbers in shortest round-trip form, bools as True/False, unset as ''). Strings compare
// ordinally (bytewise) and case-sensitively; `==` between a string and a non-string is false (and
// `!=` true); ordering a string against a number is a failure. An unset parameter reads as 0,
// false or '' (so `[Gait] = ''` and `[Speed] = 0` both hold while unset). Vec values are read only
// through components; a whole Vec (or a component of a non-Vec value) is a failure. Logical and
// comparison operators give bools; in() compares with `==`.
//
// Failures never throw: evaluate() returns a Value of kind kError and evaluate_bool /
// evaluate_float return the caller's fallback (§15 "Results").
//
// Evaluation allocates nothing: the program, its constants and its string pool live in the
// Expression; strings read from parameters are views into ParameterValues; the operand stack is a
// fixed array on the C++ stack (compile rejects programs deeper than kMaxStack); concatenation
// writes into an EvalScratch (kScratchBytes; more is a failure).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "critter/anim/parameters.h"
#include "critter/core/error.h"

namespace critter::anim {

enum class ValueKind : std::uint8_t {
  kUnset,   // an unset parameter's value (0 / false / '')
  kBool,    // number is 0 or 1
  kNumber,  // number
  kString,  // text
  kError,   // evaluation failed (type mismatch, bad operand); see Value::error
};

// Why an evaluation failed.
enum class EvalError : std::uint8_t {
  kNone,
  kTypeMismatch,     // e.g. 'a' * 2, 'a' < 1, a whole Vec, a component of a number
  kBadOperand,       // a bitwise operand that is NaN or outside the int64 range
  kScratchOverflow,  // concatenations needed more than kScratchBytes
};

// A result (and operand) of evaluation. Not owning: `text` views the Expression's string pool, a
// ParameterValues string or an EvalScratch, so a Value is valid only while those are unchanged.
struct Value {
  ValueKind kind = ValueKind::kUnset;
  EvalError error = EvalError::kNone;  // kError only
  double number = 0.0;                 // kNumber; kBool 0 or 1
  std::string_view text;               // kString

  static Value unset() { return {}; }
  static Value of_bool(bool b) { return {ValueKind::kBool, EvalError::kNone, b ? 1.0 : 0.0, {}}; }
  static Value of_number(double n) { return {ValueKind::kNumber, EvalError::kNone, n, {}}; }
  static Value of_string(std::string_view s) {
    return {ValueKind::kString, EvalError::kNone, 0, s};
  }
  static Value failure(EvalError e) { return {ValueKind::kError, e, 0.0, {}}; }

  bool is_error() const { return kind == ValueKind::kError; }
  // Conversions of §15 "Results". as_bool: bools, numbers != 0 (NaN fails), unset false; strings
  // and errors fail. as_float: numbers and bools (1/0), unset 0; non-finite (after rounding to
  // float), strings and errors fail. Failure is reported as false through `ok`.
  bool as_bool(bool* ok) const;
  float as_float(bool* ok) const;
};

// Scratch memory for string concatenation during one evaluation. Reset at the start of each
// evaluate(); a returned kString Value may view it, so it must outlive that Value's use. Sized
// for rule conditions (short names); longer concatenations fail with kScratchOverflow.
class EvalScratch {
 public:
  static constexpr std::size_t kScratchBytes = 512;

  // Evaluator interface: the buffer and how much of it this evaluation has used.
  char* bytes() { return bytes_; }
  std::size_t used() const { return used_; }
  void set_used(std::size_t used) { used_ = used; }

 private:
  char bytes_[kScratchBytes];
  std::size_t used_ = 0;
};

struct CompileOptions {
  // When true a parameter the schema lacks is a compile error (kInvalid) instead of a reported
  // unknown name that reads as unset.
  bool unknown_parameters_are_errors = false;
};

// A compiled expression: immutable after compile, cheap to evaluate from any number of threads
// at once (each with its own ParameterValues and EvalScratch).
class Expression {
 public:
  // Operand stack depth limit; deeper programs are rejected by compile (kLimit).
  static constexpr std::size_t kMaxStack = 64;

  // An empty expression evaluates to unset.
  Expression() = default;

  // Evaluates with a scratch buffer owned by the calling thread (thread_local, no allocation);
  // a kString result that views it is valid until that thread's next evaluate().
  Value evaluate(const ParameterValues& values) const;
  Value evaluate(const ParameterValues& values, EvalScratch& scratch) const;
  // The result as a bool (conditions, `loop`), or `fallback` when evaluation or conversion fails.
  bool evaluate_bool(const ParameterValues& values, bool fallback = false) const;
  // The result as a float, or `fallback` when evaluation or conversion fails (non-finite too).
  float evaluate_float(const ParameterValues& values, float fallback) const;

  // The source text as given to compile.
  std::string_view text() const { return text_; }
  // Parameter names the expression reads that the schema lacked, as written (`[Gait.x]` reports
  // "Gait"), each once, in order of appearance. They read as unset.
  std::span<const std::string> unknown_parameters() const { return unknown_; }
  // True when constant folding reduced the program to one constant.
  bool is_constant() const;
  // Number of instructions after folding (tests and tools).
  std::size_t instruction_count() const { return code_.size(); }

 private:
  friend class ExpressionCompiler;  // src/anim/expression_compile.cpp

  // One instruction of the stack program.
  struct Instr {
    std::uint8_t op = 0;
    std::uint8_t b = 0;   // component, argument count
    std::uint32_t a = 0;  // constant, parameter, function or jump target
  };
  struct Constant {
    ValueKind kind = ValueKind::kUnset;
    double number = 0.0;
    std::uint32_t offset = 0;  // kString: bytes in pool_
    std::uint32_t length = 0;
  };

  Value run(const ParameterValues& values, EvalScratch& scratch) const;

  std::string text_;
  std::vector<Instr> code_;
  std::vector<Constant> constants_;
  std::string pool_;  // string constants' bytes (referred to by offset: survives copies/moves)
  std::vector<std::string> unknown_;
};

// Compiles `text` against `schema`. Errors:
//   kParse   malformed syntax: unexpected or missing token, unterminated string or [name], bad
//            escape, bad number, date literal (#...#), empty expression
//   kInvalid unknown function name, wrong argument count (or, with the option, an unknown
//            parameter); a bad [Name.c] component is not an error: it names a parameter "Name.c"
//   kLimit   text over 64 KiB, nesting over 100 levels, or a program needing over kMaxStack
// Error::location is "column N" (1-based byte column of the offending token; one past the end
// for a missing token at the end of the text); Error::path is empty (the caller adds the file
// and JSON pointer). error_column() reads N back.
Result<Expression> compile(std::string_view text, const ParameterSchema& schema,
                           const CompileOptions& options = {});

// The 1-based column of a compile error, or 0 when the location is not a column.
int error_column(const Error& error);

// Where a config string sits, for deciding whether it is an expression (§15).
enum class ExpressionField : std::uint8_t {
  kCondition,  // a rule condition: always an expression ("true" and a bare name compile as such)
  kValue,      // a number/bool field (speed, loop, phases, blendDuration): an expression only
               // with both '[' and ']' or the `expr:` prefix; otherwise a literal
  kSource,     // an animation source: "[Param]" is a string-parameter lookup, never an expression
};

enum class TextKind : std::uint8_t {
  kLiteral,     // not an expression: parse the text as a literal (or a clip name for sources)
  kExpression,  // compile `text`
  kParameter,   // kSource only: `text` is the parameter name inside the brackets
};

struct ClassifiedText {
  TextKind kind = TextKind::kLiteral;
  std::string_view text;  // a view into the input: `expr:` stripped, or the bracketed name
};

// Classifies a config string (§15 "When a string is an expression"). `expr:` is matched
// case-sensitively at the very start and stripped for conditions and values.
ClassifiedText classify_text(std::string_view text, ExpressionField field);

// Compiles each distinct text once for one config (§15 "Compiled expressions are cached by
// text"). Names that the schema lacks are declared in it (unset, so the host may set them later,
// e.g. `Gait`) and listed by undeclared_parameters() for the caller's warnings; the expression is
// compiled after that, so it reads the new slot. Returned pointers stay valid for the cache's
// lifetime. Failures are not cached.
class ExpressionCache {
 public:
  explicit ExpressionCache(ParameterSchema& schema, CompileOptions options = {})
      : schema_(&schema), options_(options) {}

  Result<const Expression*> get(std::string_view text);

  // Names declared by this cache, as first written, in order of first use.
  std::span<const std::string> undeclared_parameters() const { return undeclared_; }
  std::size_t size() const { return expressions_.size(); }

 private:
  ParameterSchema* schema_;
  CompileOptions options_;
  std::vector<std::unique_ptr<Expression>> expressions_;
  std::unordered_map<std::string, std::size_t> by_text_;
  std::vector<std::string> undeclared_;
};

}  // namespace critter::anim
