// SPDX-License-Identifier: MIT
#include "critter/anim/expression.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <numbers>

#include "anim/expression_ops.h"
#include "critter/core/strings.h"

namespace critter::anim {

namespace expr {

namespace {

constexpr std::array<FuncInfo, 28> kFunctions = {{
    {"lerp", Func::kLerp, 3, 3},
    {"smoothstep", Func::kSmoothstep, 1, 1},
    {"clamp", Func::kClamp, 3, 3},
    {"degtorad", Func::kDegToRad, 1, 1},
    {"radtodeg", Func::kRadToDeg, 1, 1},
    {"pi", Func::kPi, 0, 0},
    {"abs", Func::kAbs, 1, 1},
    {"acos", Func::kAcos, 1, 1},
    {"asin", Func::kAsin, 1, 1},
    {"atan", Func::kAtan, 1, 1},
    {"ceiling", Func::kCeiling, 1, 1},
    {"cos", Func::kCos, 1, 1},
    {"exp", Func::kExp, 1, 1},
    {"floor", Func::kFloor, 1, 1},
    {"ieeeremainder", Func::kIeeeRemainder, 2, 2},
    {"log", Func::kLog, 2, 2},
    {"log10", Func::kLog10, 1, 1},
    {"max", Func::kMax, 2, 2},
    {"min", Func::kMin, 2, 2},
    {"pow", Func::kPow, 2, 2},
    {"round", Func::kRound, 1, 2},
    {"sign", Func::kSign, 1, 1},
    {"sin", Func::kSin, 1, 1},
    {"sqrt", Func::kSqrt, 1, 1},
    {"tan", Func::kTan, 1, 1},
    {"truncate", Func::kTruncate, 1, 1},
    {"if", Func::kIf, 3, 3},
    {"in", Func::kIn, 2, -1},
}};

bool is_numeric(const Value& v) {
  return v.kind == ValueKind::kNumber || v.kind == ValueKind::kBool || v.kind == ValueKind::kUnset;
}

// Unset reads 0; bools read 1/0 (number already holds it).
double num(const Value& v) {
  return v.kind == ValueKind::kUnset ? 0.0 : v.number;
}

std::string_view str(const Value& v) {
  return v.kind == ValueKind::kString ? v.text : std::string_view();
}

// Truncation toward zero into int64; false for NaN or values outside the range.
bool to_int64(const Value& v, std::int64_t* out) {
  const double d = std::trunc(num(v));
  // 2^63 is exactly representable; every double below it (and >= -2^63) converts safely.
  constexpr double kLimit = 9223372036854775808.0;
  if (!(d >= -kLimit && d < kLimit)) return false;
  *out = static_cast<std::int64_t>(d);
  return true;
}

// Appends the text form of `v` (as `+` concatenation writes it) to the scratch buffer.
bool append_text(const Value& v, char* bytes, std::size_t* used) {
  char* const end = bytes + EvalScratch::kScratchBytes;
  char* at = bytes + *used;
  auto put = [&](std::string_view s) {
    if (s.size() > static_cast<std::size_t>(end - at)) return false;
    if (!s.empty()) std::memcpy(at, s.data(), s.size());
    at += s.size();
    return true;
  };
  bool ok = true;
  switch (v.kind) {
    case ValueKind::kString:
      ok = put(v.text);
      break;
    case ValueKind::kBool:
      ok = put(v.number != 0.0 ? "True" : "False");
      break;
    case ValueKind::kUnset:
      break;
    case ValueKind::kError:
      ok = false;
      break;
    case ValueKind::kNumber:
      if (std::isnan(v.number)) {
        ok = put("NaN");
      } else if (std::isinf(v.number)) {
        ok = put(v.number > 0 ? "Infinity" : "-Infinity");
      } else {
        const auto r = std::to_chars(at, end, v.number);
        ok = r.ec == std::errc();
        if (ok) at = r.ptr;
      }
      break;
  }
  if (!ok) return false;
  *used = static_cast<std::size_t>(at - bytes);
  return true;
}

// Three-way ordinal comparison for relational operators; false when the kinds cannot be ordered.
bool compare(const Value& a, const Value& b, int* order) {
  const bool a_text = a.kind == ValueKind::kString;
  const bool b_text = b.kind == ValueKind::kString;
  if (a_text || b_text) {
    if ((!a_text && a.kind != ValueKind::kUnset) || (!b_text && b.kind != ValueKind::kUnset)) {
      return false;
    }
    const int c = str(a).compare(str(b));
    *order = c < 0 ? -1 : (c > 0 ? 1 : 0);
    return true;
  }
  const double x = num(a);
  const double y = num(b);
  // NaN orders as "unordered": every relational operator gives false.
  *order = x < y ? -1 : (x > y ? 1 : (x == y ? 0 : 2));
  return true;
}

}  // namespace

const FuncInfo* find_function(std::string_view name) {
  for (const FuncInfo& f : kFunctions) {
    if (iequals(f.name, name)) return &f;
  }
  return nullptr;
}

double round_half_even(double x, int digits) {
  if (!std::isfinite(x)) return x;
  const double scale = std::pow(10.0, digits);
  const double y = x * scale;
  // Beyond 2^52 every double is an integer already.
  if (std::fabs(y) >= 4503599627370496.0) return x;
  double r = std::round(y);  // half away from zero
  if (std::fabs(y - std::trunc(y)) == 0.5) r = 2.0 * std::round(y / 2.0);
  return r / scale;
}

bool equal(const Value& a, const Value& b) {
  const bool a_text = a.kind == ValueKind::kString;
  const bool b_text = b.kind == ValueKind::kString;
  if (a_text || b_text) {
    // Unset reads '' beside a string; any other non-string never equals a string.
    if ((!a_text && a.kind != ValueKind::kUnset) || (!b_text && b.kind != ValueKind::kUnset)) {
      return false;
    }
    return str(a) == str(b);
  }
  return num(a) == num(b);
}

Value to_bool(const Value& a) {
  bool ok = false;
  const bool b = a.as_bool(&ok);
  return ok ? Value::of_bool(b) : (a.is_error() ? a : Value::failure(EvalError::kTypeMismatch));
}

Value unary(Op op, const Value& a) {
  if (a.is_error()) return a;
  switch (op) {
    case Op::kNeg:
      if (!is_numeric(a)) return Value::failure(EvalError::kTypeMismatch);
      return Value::of_number(-num(a));
    case Op::kNot: {
      const Value b = to_bool(a);
      return b.is_error() ? b : Value::of_bool(b.number == 0.0);
    }
    case Op::kBitNot: {
      if (!is_numeric(a)) return Value::failure(EvalError::kTypeMismatch);
      std::int64_t i = 0;
      if (!to_int64(a, &i)) return Value::failure(EvalError::kBadOperand);
      return Value::of_number(static_cast<double>(~i));
    }
    case Op::kToBool:
      return to_bool(a);
    default:
      return Value::failure(EvalError::kTypeMismatch);
  }
}

Value binary(Op op, const Value& a, const Value& b, EvalScratch& scratch) {
  if (a.is_error()) return a;
  if (b.is_error()) return b;
  switch (op) {
    case Op::kEq:
      return Value::of_bool(equal(a, b));
    case Op::kNe:
      return Value::of_bool(!equal(a, b));
    case Op::kLt:
    case Op::kLe:
    case Op::kGt:
    case Op::kGe: {
      int order = 0;
      if (!compare(a, b, &order)) return Value::failure(EvalError::kTypeMismatch);
      if (order == 2) return Value::of_bool(false);
      switch (op) {
        case Op::kLt:
          return Value::of_bool(order < 0);
        case Op::kLe:
          return Value::of_bool(order <= 0);
        case Op::kGt:
          return Value::of_bool(order > 0);
        default:
          return Value::of_bool(order >= 0);
      }
    }
    case Op::kAdd:
      if (a.kind == ValueKind::kString || b.kind == ValueKind::kString) {
        // Copy both texts first: either may already view this scratch buffer, and appending
        // behind them never overwrites them.
        const std::size_t start = scratch.used();
        std::size_t used = start;
        if (!append_text(a, scratch.bytes(), &used) || !append_text(b, scratch.bytes(), &used)) {
          return Value::failure(EvalError::kScratchOverflow);
        }
        scratch.set_used(used);
        return Value::of_string(std::string_view(scratch.bytes() + start, used - start));
      }
      return Value::of_number(num(a) + num(b));
    default:
      break;
  }
  if (!is_numeric(a) || !is_numeric(b)) return Value::failure(EvalError::kTypeMismatch);
  const double x = num(a);
  const double y = num(b);
  switch (op) {
    case Op::kSub:
      return Value::of_number(x - y);
    case Op::kMul:
      return Value::of_number(x * y);
    case Op::kDiv:
      return Value::of_number(x / y);
    case Op::kMod:
      return Value::of_number(std::fmod(x, y));
    case Op::kBitAnd:
    case Op::kBitOr:
    case Op::kBitXor:
    case Op::kShl:
    case Op::kShr: {
      std::int64_t i = 0;
      std::int64_t j = 0;
      if (!to_int64(a, &i) || !to_int64(b, &j)) return Value::failure(EvalError::kBadOperand);
      const int shift = static_cast<int>(j & 63);
      switch (op) {
        case Op::kBitAnd:
          return Value::of_number(static_cast<double>(i & j));
        case Op::kBitOr:
          return Value::of_number(static_cast<double>(i | j));
        case Op::kBitXor:
          return Value::of_number(static_cast<double>(i ^ j));
        case Op::kShl:
          return Value::of_number(static_cast<double>(
              static_cast<std::int64_t>(static_cast<std::uint64_t>(i) << shift)));
        default:
          return Value::of_number(static_cast<double>(i >> shift));
      }
    }
    default:
      return Value::failure(EvalError::kTypeMismatch);
  }
}

Value call(Func func, const Value* args, int count) {
  for (int i = 0; i < count; ++i) {
    if (args[i].is_error()) return args[i];
    if (func != Func::kIn && !is_numeric(args[i])) {
      return Value::failure(EvalError::kTypeMismatch);
    }
  }
  auto arg = [&](int i) { return num(args[i]); };
  using std::numbers::pi;
  switch (func) {
    case Func::kLerp:
      return Value::of_number(arg(0) + (arg(1) - arg(0)) * arg(2));
    case Func::kSmoothstep: {
      const double t = arg(0);
      return Value::of_number(t * t * (3.0 - 2.0 * t));
    }
    case Func::kClamp: {
      const double v = arg(0);
      const double lo = arg(1);
      const double hi = arg(2);
      return Value::of_number(v < lo ? lo : (v > hi ? hi : v));
    }
    case Func::kDegToRad:
      return Value::of_number(arg(0) * (pi / 180.0));
    case Func::kRadToDeg:
      return Value::of_number(arg(0) * (180.0 / pi));
    case Func::kPi:
      return Value::of_number(pi);
    case Func::kAbs:
      return Value::of_number(std::fabs(arg(0)));
    case Func::kAcos:
      return Value::of_number(std::acos(arg(0)));
    case Func::kAsin:
      return Value::of_number(std::asin(arg(0)));
    case Func::kAtan:
      return Value::of_number(std::atan(arg(0)));
    case Func::kCeiling:
      return Value::of_number(std::ceil(arg(0)));
    case Func::kCos:
      return Value::of_number(std::cos(arg(0)));
    case Func::kExp:
      return Value::of_number(std::exp(arg(0)));
    case Func::kFloor:
      return Value::of_number(std::floor(arg(0)));
    case Func::kIeeeRemainder: {
      const double x = arg(0);
      const double y = arg(1);
      return Value::of_number(x - y * round_half_even(x / y, 0));
    }
    case Func::kLog:
      return Value::of_number(std::log(arg(0)) / std::log(arg(1)));
    case Func::kLog10:
      return Value::of_number(std::log10(arg(0)));
    case Func::kMax:
      return Value::of_number(std::fmax(arg(0), arg(1)));
    case Func::kMin:
      return Value::of_number(std::fmin(arg(0), arg(1)));
    case Func::kPow:
      return Value::of_number(std::pow(arg(0), arg(1)));
    case Func::kRound: {
      if (count == 1) return Value::of_number(round_half_even(arg(0), 0));
      // C# accepts 0..15 digits.
      const double d = arg(1);
      if (!(d >= 0.0 && d <= 15.0)) return Value::failure(EvalError::kBadOperand);
      return Value::of_number(round_half_even(arg(0), static_cast<int>(d)));
    }
    case Func::kSign: {
      const double x = arg(0);
      if (std::isnan(x)) return Value::failure(EvalError::kBadOperand);
      return Value::of_number(x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0));
    }
    case Func::kSin:
      return Value::of_number(std::sin(arg(0)));
    case Func::kSqrt:
      return Value::of_number(std::sqrt(arg(0)));
    case Func::kTan:
      return Value::of_number(std::tan(arg(0)));
    case Func::kTruncate:
      return Value::of_number(std::trunc(arg(0)));
    case Func::kIn:
      for (int i = 1; i < count; ++i) {
        if (equal(args[0], args[i])) return Value::of_bool(true);
      }
      return Value::of_bool(false);
    case Func::kIf:
      if (count != 3) break;
      {
        const Value c = to_bool(args[0]);
        if (c.is_error()) return c;
        return c.number != 0.0 ? args[1] : args[2];
      }
  }
  return Value::failure(EvalError::kTypeMismatch);
}

}  // namespace expr

using expr::Op;

bool Value::as_bool(bool* ok) const {
  *ok = true;
  switch (kind) {
    case ValueKind::kUnset:
      return false;
    case ValueKind::kBool:
    case ValueKind::kNumber:
      if (std::isnan(number)) break;
      return number != 0.0;
    case ValueKind::kString:
    case ValueKind::kError:
      break;
  }
  *ok = false;
  return false;
}

float Value::as_float(bool* ok) const {
  *ok = true;
  switch (kind) {
    case ValueKind::kUnset:
      return 0.0f;
    case ValueKind::kBool:
    case ValueKind::kNumber: {
      const auto f = static_cast<float>(number);
      if (std::isfinite(f)) return f;
      break;
    }
    case ValueKind::kString:
    case ValueKind::kError:
      break;
  }
  *ok = false;
  return 0.0f;
}

Value Expression::evaluate(const ParameterValues& values) const {
  thread_local EvalScratch scratch;
  return run(values, scratch);
}

Value Expression::evaluate(const ParameterValues& values, EvalScratch& scratch) const {
  return run(values, scratch);
}

bool Expression::evaluate_bool(const ParameterValues& values, bool fallback) const {
  const Value v = evaluate(values);
  bool ok = false;
  const bool b = v.as_bool(&ok);
  return ok ? b : fallback;
}

float Expression::evaluate_float(const ParameterValues& values, float fallback) const {
  const Value v = evaluate(values);
  bool ok = false;
  const float f = v.as_float(&ok);
  return ok ? f : fallback;
}

bool Expression::is_constant() const {
  return code_.size() == 1 && static_cast<Op>(code_[0].op) == Op::kConst;
}

Value Expression::run(const ParameterValues& values, EvalScratch& scratch) const {
  scratch.set_used(0);
  if (code_.empty()) return Value::unset();
  // Uninitialised operand storage: a Value array would construct kMaxStack values per call.
  alignas(Value) std::byte storage[sizeof(Value) * kMaxStack];
  Value* const stack = std::launder(reinterpret_cast<Value*>(storage));
  std::size_t sp = 0;
  const std::span<const ParameterValues::Slot> slots = values.slots_;
  const std::span<const std::string> texts = values.texts_;
  const Instr* const code = code_.data();
  const std::size_t n = code_.size();
  std::size_t pc = 0;
  // Values go onto the stack and come off it field by field. A Value built in a local and then
  // copied as a whole is written with narrow stores and read back with 16-byte loads, which the
  // store buffer cannot forward: a stall of about a dozen cycles per operand, measured as most
  // of the time of a short rule condition.
  const auto set = [](Value& to, const Value& from) {
    to.kind = from.kind;
    to.error = from.error;
    to.number = from.number;
    to.text = from.text;
  };
  const auto put = [&](ValueKind kind, double number, std::string_view text = {}) {
    Value* v = std::construct_at(stack + sp++);
    v->kind = kind;
    v->number = number;
    v->text = text;
  };
  // The result: the fields its kind uses, each read on its own (a compiler joins adjacent reads
  // into one wider load, which meets the same stall).
  const auto result = [](const Value& v) {
    Value out;
    out.kind = v.kind;
    out.number = v.number;
    if (v.kind == ValueKind::kString) out.text = v.text;
    if (v.kind == ValueKind::kError) out.error = v.error;
    return out;
  };
  while (pc < n) {
    const Instr in = code[pc++];
    switch (static_cast<Op>(in.op)) {
      case Op::kConst: {
        const Constant& c = constants_[in.a];
        put(c.kind, c.number,
            c.kind == ValueKind::kString ? std::string_view(pool_.data() + c.offset, c.length)
                                         : std::string_view{});
        continue;
      }
      case Op::kLoad: {
        if (in.a >= slots.size()) {
          put(ValueKind::kUnset, 0.0);
          continue;
        }
        const ParameterValues::Slot& s = slots[in.a];
        switch (s.type) {
          case ParamType::kUnset:
            put(ValueKind::kUnset, 0.0);
            break;
          case ParamType::kFloat:
            put(ValueKind::kNumber, s.number);
            break;
          case ParamType::kInt:
            put(ValueKind::kNumber, static_cast<double>(s.integer));
            break;
          case ParamType::kBool:
          case ParamType::kTrigger:
            put(ValueKind::kBool, s.number != 0.0 ? 1.0 : 0.0);
            break;
          case ParamType::kString:
            put(ValueKind::kString, 0.0, texts[in.a]);
            break;
          case ParamType::kVec2:
          case ParamType::kVec3:
            return Value::failure(EvalError::kTypeMismatch);
        }
        continue;
      }
      case Op::kLoadComponent: {
        double component = 0.0;
        ValueKind kind = ValueKind::kUnset;
        if (in.a < slots.size()) {
          const ParameterValues::Slot& s = slots[in.a];
          if (s.type == ParamType::kVec2 || s.type == ParamType::kVec3) {
            kind = ValueKind::kNumber;
            component = static_cast<double>(s.vec[in.b]);
          } else if (s.type != ParamType::kUnset) {
            return Value::failure(EvalError::kTypeMismatch);
          }
        }
        put(kind, component);
        continue;
      }
      case Op::kToBool:
        if (stack[sp - 1].kind == ValueKind::kBool) continue;
        [[fallthrough]];
      case Op::kNeg:
      case Op::kNot:
      case Op::kBitNot: {
        if (static_cast<Op>(in.op) == Op::kNot && stack[sp - 1].kind == ValueKind::kBool) {
          stack[sp - 1].number = stack[sp - 1].number != 0.0 ? 0.0 : 1.0;
          continue;
        }
        const Value r = expr::unary(static_cast<Op>(in.op), stack[sp - 1]);
        if (r.is_error()) return r;
        set(stack[sp - 1], r);
        continue;
      }
      case Op::kAnd:
      case Op::kOr: {
        Value& top = stack[sp - 1];
        if (top.kind != ValueKind::kBool) {
          const Value b = expr::to_bool(top);
          if (b.is_error()) return b;
          set(top, b);
        }
        const bool stop = (top.number != 0.0) == (static_cast<Op>(in.op) == Op::kOr);
        if (stop) {
          pc = in.a;
        } else {
          --sp;
        }
        continue;
      }
      case Op::kJump:
        pc = in.a;
        continue;
      case Op::kJumpIfFalse: {
        const Value& top = stack[--sp];
        double truth = top.number;
        if (top.kind != ValueKind::kBool) {
          const Value b = expr::to_bool(top);
          if (b.is_error()) return b;
          truth = b.number;
        }
        if (truth == 0.0) pc = in.a;
        continue;
      }
      case Op::kCall:
      case Op::kIn: {
        sp -= in.b;
        const auto func =
            static_cast<Op>(in.op) == Op::kIn ? expr::Func::kIn : static_cast<expr::Func>(in.a);
        const Value r = expr::call(func, stack + sp, in.b);
        if (r.is_error()) return r;
        set(*std::construct_at(stack + sp++), r);
        continue;
      }
      default: {
        --sp;
        // Fast path for two numbers; everything else takes the reference semantics (the same
        // functions constant folding uses, which the random-tree tests compare against).
        Value& x = stack[sp - 1];
        if (x.kind == ValueKind::kNumber && stack[sp].kind == ValueKind::kNumber) {
          const double q = stack[sp].number;
          // A comparison's bool, written over the two fields of the left operand it changes.
          const auto to_bool = [&x](bool b) {
            x.kind = ValueKind::kBool;
            x.number = b ? 1.0 : 0.0;
          };
          switch (static_cast<Op>(in.op)) {
            case Op::kAdd:
              x.number += q;
              continue;
            case Op::kSub:
              x.number -= q;
              continue;
            case Op::kMul:
              x.number *= q;
              continue;
            case Op::kDiv:
              x.number /= q;
              continue;
            case Op::kEq:
              to_bool(x.number == q);
              continue;
            case Op::kNe:
              to_bool(!(x.number == q));
              continue;
            case Op::kLt:
              to_bool(x.number < q);
              continue;
            case Op::kLe:
              to_bool(x.number <= q);
              continue;
            case Op::kGt:
              to_bool(x.number > q);
              continue;
            case Op::kGe:
              to_bool(x.number >= q);
              continue;
            default:
              break;
          }
        }
        const Value r = expr::binary(static_cast<Op>(in.op), x, stack[sp], scratch);
        if (r.is_error()) return r;
        set(x, r);
        continue;
      }
    }
  }
  return result(stack[sp - 1]);
}

ClassifiedText classify_text(std::string_view text, ExpressionField field) {
  constexpr std::string_view kPrefix = "expr:";
  switch (field) {
    case ExpressionField::kCondition:
      if (text.starts_with(kPrefix)) text.remove_prefix(kPrefix.size());
      return {TextKind::kExpression, text};
    case ExpressionField::kValue:
      if (text.starts_with(kPrefix)) return {TextKind::kExpression, text.substr(kPrefix.size())};
      if (text.find('[') != std::string_view::npos && text.find(']') != std::string_view::npos) {
        return {TextKind::kExpression, text};
      }
      return {TextKind::kLiteral, text};
    case ExpressionField::kSource:
      if (text.size() >= 2 && text.front() == '[' && text.back() == ']' &&
          text.find(']') == text.size() - 1) {
        return {TextKind::kParameter, text.substr(1, text.size() - 2)};
      }
      return {TextKind::kLiteral, text};
  }
  return {TextKind::kLiteral, text};
}

int error_column(const Error& error) {
  constexpr std::string_view kColumn = "column ";
  const std::string_view loc = error.location;
  if (!loc.starts_with(kColumn)) return 0;
  int column = 0;
  const char* begin = loc.data() + kColumn.size();
  const auto r = std::from_chars(begin, loc.data() + loc.size(), column);
  return (r.ec == std::errc() && r.ptr == loc.data() + loc.size()) ? column : 0;
}

Result<const Expression*> ExpressionCache::get(std::string_view text) {
  const std::string key(text);
  if (const auto it = by_text_.find(key); it != by_text_.end()) {
    return expressions_[it->second].get();
  }
  auto compiled = compile(text, *schema_, options_);
  if (!compiled) return fail(std::move(compiled.error()));
  if (!compiled->unknown_parameters().empty()) {
    for (const std::string& name : compiled->unknown_parameters()) {
      schema_->declare_or_find(name);
      undeclared_.push_back(name);
    }
    // Compile again so the expression reads the slots just declared.
    compiled = compile(text, *schema_, options_);
    if (!compiled) return fail(std::move(compiled.error()));
  }
  expressions_.push_back(std::make_unique<Expression>(std::move(*compiled)));
  by_text_.emplace(key, expressions_.size() - 1);
  return expressions_.back().get();
}

}  // namespace critter::anim
