// SPDX-License-Identifier: MIT
// Instruction set and operator semantics shared by the expression compiler (which folds
// constants with them) and the evaluator, so a folded constant and a run-time result can never
// disagree.
#pragma once

#include <cstdint>
#include <string_view>

#include "critter/anim/expression.h"

namespace critter::anim::expr {

enum class Op : std::uint8_t {
  kConst,          // push constants[a]
  kLoad,           // push parameter a
  kLoadComponent,  // push component b (0 x, 1 y, 2 z) of Vec parameter a
  kNeg,
  kNot,
  kBitNot,
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMod,
  kBitAnd,
  kBitOr,
  kBitXor,
  kShl,
  kShr,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kAnd,          // top as bool: false -> replace by false and jump to a; true -> pop
  kOr,           // top as bool: true -> replace by true and jump to a; false -> pop
  kToBool,       // replace top by its bool value
  kJump,         // to a
  kJumpIfFalse,  // pop, as bool; false -> jump to a
  kCall,         // function a with b arguments (popped, result pushed)
  kIn,           // b values: true when the first equals any other
};

enum class Func : std::uint8_t {
  kLerp,
  kSmoothstep,
  kClamp,
  kDegToRad,
  kRadToDeg,
  kPi,
  kAbs,
  kAcos,
  kAsin,
  kAtan,
  kCeiling,
  kCos,
  kExp,
  kFloor,
  kIeeeRemainder,
  kLog,
  kLog10,
  kMax,
  kMin,
  kPow,
  kRound,
  kSign,
  kSin,
  kSqrt,
  kTan,
  kTruncate,
  kIf,  // compiled into jumps
  kIn,  // compiled into Op::kIn
};

struct FuncInfo {
  std::string_view name;  // lower case
  Func func;
  int min_args;
  int max_args;  // -1: unbounded
};

// The function table; lookup by case-insensitive name. nullptr when unknown.
const FuncInfo* find_function(std::string_view name);

// Operator semantics (expression.h header comment). Results of kind kError carry the reason.
// String results of kAdd are written to `scratch`; `text` of the result views it.
Value unary(Op op, const Value& a);
Value binary(Op op, const Value& a, const Value& b, EvalScratch& scratch);
Value call(Func func, const Value* args, int count);
bool equal(const Value& a, const Value& b);
// as_bool as a Value (kBool or kError).
Value to_bool(const Value& a);

// Round half to even at `digits` decimals (C#'s Math.Round(x, digits)).
double round_half_even(double x, int digits);

}  // namespace critter::anim::expr
