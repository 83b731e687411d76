// SPDX-License-Identifier: MIT
#include "critter/anim/expression.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "support/allocation_counter.h"

namespace critter::anim {
namespace {

constexpr double kPi = std::numbers::pi;

// Built-ins of the kind a host's table holds (creature/builtin_parameters.h has critter's).
constexpr BuiltinParameter kBuiltins[] = {{"Speed", ParamType::kFloat, 0.0},
                                          {"IsDead", ParamType::kBool, 0.0},
                                          {"BodyForward", ParamType::kVec3, 0.0},
                                          {"DeathSpeed", ParamType::kFloat, 3.0}};

class ExpressionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    schema_ = ParameterSchema::with_builtins(kBuiltins);
    gait_ = *schema_.declare("Gait", ParameterValue::of_string("walk"));
    a_ = *schema_.declare("A", ParameterValue::of_float(0.0));
    b_ = *schema_.declare("B", ParameterValue::of_float(0.0));
    c_ = *schema_.declare("C", ParameterValue::of_float(0.0));
    s_ = *schema_.declare("S", ParameterValue::of_string("x"));
    t_ = *schema_.declare("T", ParameterValue::of_bool(true));
    f_ = *schema_.declare("F", ParameterValue::of_bool(false));
    v2_ = *schema_.declare("Flat", ParameterValue::of_vec2(vec2(3.0f, 4.0f)));
    unset_ = *schema_.declare("Nothing", ParameterValue::unset());
    values_ = ParameterValues(schema_);
    values_.set_vec3(schema_.find("BodyForward"), vec3(0.5f, -1.0f, 2.0f));
    values_.set_float(schema_.find("Speed"), 0.75);
  }

  Expression compiled(std::string_view text) {
    auto e = compile(text, schema_);
    EXPECT_TRUE(e) << text << ": " << (e ? "" : e.error().to_string());
    return e ? std::move(*e) : Expression();
  }
  Value eval(std::string_view text) {
    holder_ = compiled(text);
    return holder_.evaluate(values_);
  }
  double num(std::string_view text) {
    const Value v = eval(text);
    EXPECT_EQ(v.kind, ValueKind::kNumber) << text;
    return v.number;
  }
  bool truth(std::string_view text) {
    const Value v = eval(text);
    EXPECT_EQ(v.kind, ValueKind::kBool) << text;
    return v.number != 0.0;
  }
  std::string str(std::string_view text) {
    const Value v = eval(text);
    EXPECT_EQ(v.kind, ValueKind::kString) << text;
    return std::string(v.text);
  }
  EvalError failure(std::string_view text) {
    const Value v = eval(text);
    EXPECT_EQ(v.kind, ValueKind::kError) << text;
    return v.error;
  }
  Error compile_error(std::string_view text) {
    auto e = compile(text, schema_);
    EXPECT_FALSE(e) << text;
    return e ? Error{} : e.error();
  }
  // A function call evaluated twice: folded from literals and at run time from parameters.
  double call(std::string_view name, std::vector<double> args) {
    std::string literal = std::string(name) + "(";
    std::string params = literal;
    const ParamIndex slots[] = {a_, b_, c_};
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::string sep = i ? ", " : "";
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", args[i]);
      literal += sep + buf;
      params += sep + "[" + std::string(schema_.name(slots[i])) + "]";
      values_.set_float(slots[i], args[i]);
    }
    literal += ")";
    params += ")";
    const Expression folded = compiled(literal);
    const Expression runtime = compiled(params);
    EXPECT_TRUE(folded.is_constant()) << literal;
    EXPECT_FALSE(runtime.is_constant()) << params;
    const Value x = folded.evaluate(values_);
    const Value y = runtime.evaluate(values_);
    EXPECT_EQ(x.kind, ValueKind::kNumber) << literal;
    EXPECT_EQ(y.kind, ValueKind::kNumber) << params;
    EXPECT_TRUE(x.number == y.number || (std::isnan(x.number) && std::isnan(y.number))) << literal;
    return x.number;
  }

  ParameterSchema schema_;
  ParameterValues values_;
  Expression holder_;
  ParamIndex gait_ = 0, a_ = 0, b_ = 0, c_ = 0, s_ = 0, t_ = 0, f_ = 0, v2_ = 0, unset_ = 0;
};

TEST_F(ExpressionTest, Literals) {
  EXPECT_EQ(num("12"), 12.0);
  EXPECT_EQ(num("0.5"), 0.5);
  EXPECT_EQ(num(".25"), 0.25);
  EXPECT_EQ(num("1e-3"), 0.001);
  EXPECT_EQ(num("2.5E2"), 250.0);
  EXPECT_EQ(num("1e+2"), 100.0);
  EXPECT_TRUE(truth("true"));
  EXPECT_TRUE(truth("TRUE"));
  EXPECT_FALSE(truth("False"));
  EXPECT_EQ(str("'walk'"), "walk");
  EXPECT_EQ(str("''"), "");
  EXPECT_EQ(num("  \t 3 \n"), 3.0);
}

TEST_F(ExpressionTest, StringEscapes) {
  EXPECT_EQ(str(R"('it\'s')"), "it's");
  EXPECT_EQ(str(R"('a\\b')"), "a\\b");
  EXPECT_EQ(str(R"('\n\t\r')"), "\n\t\r");
  EXPECT_EQ(str(R"('\u00e9')"), "\xC3\xA9");
  EXPECT_EQ(str(R"('\u20AC!')"), "\xE2\x82\xAC!");
  EXPECT_EQ(str(R"('\u0041')"), "A");
}

TEST_F(ExpressionTest, PrecedenceTable) {
  EXPECT_EQ(num("1 + 2 * 3"), 7.0);
  EXPECT_EQ(num("(1 + 2) * 3"), 9.0);
  EXPECT_EQ(num("10 - 4 - 3"), 3.0);
  EXPECT_EQ(num("2 * 3 % 4"), 2.0);
  EXPECT_EQ(num("8 / 2 / 2"), 2.0);
  EXPECT_EQ(num("1 << 2 + 1"), 8.0);  // + binds tighter than <<
  EXPECT_EQ(num("2 + 3 << 1"), 10.0);
  EXPECT_TRUE(truth("1 << 3 > 7"));  // << tighter than >
  EXPECT_TRUE(truth("1 + 1 < 3"));
  EXPECT_TRUE(truth("1 < 2 = true"));    // relational tighter than equality
  EXPECT_EQ(num("6 & 3 = 2"), 0.0);      // = tighter than &: 6 & false
  EXPECT_EQ(num("1 | 2 = 3"), 1.0);      // 1 | (2 = 3)
  EXPECT_EQ(num("1 | 2 ^ 3 & 1"), 3.0);  // 1 | (2 ^ (3 & 1))
  EXPECT_EQ(num("5 ^ 1 | 2"), 6.0);      // (5 ^ 1) | 2
  EXPECT_EQ(num("12 & 10 ^ 6"), 14.0);   // (12 & 10) ^ 6
  EXPECT_TRUE(truth("true or false and false"));
  EXPECT_TRUE(truth("false and false or true"));
  EXPECT_FALSE(truth("false and (false or true)"));
  EXPECT_TRUE(truth("1 = 1 and 2 = 2"));
  EXPECT_TRUE(truth("1 | 0 and 0 | 1"));  // | tighter than and
  EXPECT_EQ(num("true ? 1 : false ? 2 : 3"), 1.0);
  EXPECT_EQ(num("false ? 1 : false ? 2 : 3"), 3.0);
  EXPECT_EQ(num("false ? 1 : true ? 2 : 3"), 2.0);
  EXPECT_EQ(num("true or false ? 4 : 5"), 4.0);  // ?: is the lowest
  EXPECT_EQ(num("-2 * 3"), -6.0);
  EXPECT_EQ(num("-2 - -3"), 1.0);
  EXPECT_TRUE(truth("~0 = -1"));
  EXPECT_FALSE(truth("not 1 = 1"));  // (not 1) = 1
  EXPECT_TRUE(truth("!false && !!true"));
}

TEST_F(ExpressionTest, EachOperator) {
  EXPECT_EQ(num("7 / 2"), 3.5);
  EXPECT_EQ(num("-7 % 3"), -1.0);
  EXPECT_EQ(num("7 % -3"), 1.0);
  EXPECT_EQ(num("5.5 % 2"), 1.5);
  EXPECT_EQ(num("6 & 3"), 2.0);
  EXPECT_EQ(num("6 | 3"), 7.0);
  EXPECT_EQ(num("6 ^ 3"), 5.0);
  EXPECT_EQ(num("~5"), -6.0);
  EXPECT_EQ(num("1 << 40"), 1099511627776.0);
  EXPECT_EQ(num("-16 >> 2"), -4.0);
  EXPECT_EQ(num("1 << 64"), 1.0);  // shift counts use their low 6 bits
  EXPECT_EQ(num("7.9 & 7"), 7.0);  // truncation toward zero
  EXPECT_EQ(num("-7.9 & -1"), -7.0);
  EXPECT_EQ(failure("1e300 & 1"), EvalError::kBadOperand);
  EXPECT_TRUE(truth("1 = 1"));
  EXPECT_TRUE(truth("1 == 1"));
  EXPECT_TRUE(truth("1 != 2"));
  EXPECT_FALSE(truth("1 <> 1"));
  EXPECT_TRUE(truth("2 <= 2"));
  EXPECT_FALSE(truth("3 >= 4"));
  EXPECT_TRUE(truth("3 > 2"));
  EXPECT_FALSE(truth("3 < 2"));
  EXPECT_TRUE(truth("true && true"));
  EXPECT_FALSE(truth("false || false"));
  EXPECT_TRUE(truth("not false"));
  EXPECT_TRUE(truth("NOT false AND true OR false"));
  EXPECT_FALSE(truth("0 / 0 = 0 / 0"));  // NaN equals nothing
  EXPECT_FALSE(truth("0 / 0 < 1"));
}

TEST_F(ExpressionTest, OperatorsAtRunTime) {
  values_.set_float(a_, 7.0);
  values_.set_float(b_, -3.0);
  EXPECT_EQ(num("[A] % [B]"), 1.0);
  EXPECT_EQ(num("[A] / [B] * 3"), -7.0);
  EXPECT_EQ(num("[A] & 3"), 3.0);
  EXPECT_EQ(num("[B] >> 1"), -2.0);
  EXPECT_EQ(num("~[A]"), -8.0);
  EXPECT_EQ(num("-[A]"), -7.0);
  EXPECT_TRUE(truth("[A] > [B] and not [F] && [T]"));
  EXPECT_EQ(num("[T] ? [A] : [B]"), 7.0);
  EXPECT_EQ(num("[F] ? [A] : [B]"), -3.0);
}

TEST_F(ExpressionTest, ShortCircuitNeverEvaluatesTheOtherSide) {
  // [S] holds a string, so [S] * 2 fails whenever it is evaluated.
  EXPECT_EQ(failure("[S] * 2 > 1"), EvalError::kTypeMismatch);
  EXPECT_FALSE(truth("[F] and [S] * 2 > 1"));
  EXPECT_TRUE(truth("[T] or [S] * 2 > 1"));
  EXPECT_EQ(num("[T] ? 1 : [S] * 2"), 1.0);
  EXPECT_EQ(num("[F] ? [S] * 2 : 5"), 5.0);
  EXPECT_EQ(num("if([F], [S] * 2, 5)"), 5.0);
  EXPECT_EQ(num("if([T], 6, [S] * 2)"), 6.0);
  EXPECT_FALSE(truth("[F] && [BodyForward]"));  // a whole Vec fails when read
  // Constant folding keeps the failing side out as well.
  EXPECT_FALSE(truth("false and 'a' * 2"));
  EXPECT_TRUE(truth("true or 'a' * 2"));
  // The side that is taken does fail.
  EXPECT_EQ(failure("[T] and [S] * 2 > 1"), EvalError::kTypeMismatch);
  EXPECT_EQ(failure("[F] or 'a' * 2"), EvalError::kTypeMismatch);
}

TEST_F(ExpressionTest, TypesAndConversions) {
  EXPECT_EQ(num("true + 1"), 2.0);
  EXPECT_EQ(num("true + true"), 2.0);
  EXPECT_EQ(num("[T] * 5"), 5.0);
  EXPECT_TRUE(truth("1 and 2"));
  EXPECT_FALSE(truth("0 or 0"));
  EXPECT_TRUE(truth("0.5 ? true : false"));
  EXPECT_TRUE(truth("true = 1"));
  EXPECT_FALSE(truth("false = 2"));
  EXPECT_EQ(str("'a' + 1"), "a1");
  EXPECT_EQ(str("'a' + 1.5"), "a1.5");
  EXPECT_EQ(str("1 + 'a'"), "1a");
  EXPECT_EQ(str("'x' + true"), "xTrue");
  EXPECT_EQ(str("'x' + (1 = 2)"), "xFalse");
  EXPECT_EQ(str("'n' + 0.1 * 3"), "n0.30000000000000004");
  EXPECT_EQ(str("'a' + 'b' + 'c'"), "abc");
  EXPECT_EQ(str("[S] + [Gait] + 2"), "xwalk2");
  EXPECT_FALSE(truth("'a' = 1"));
  EXPECT_TRUE(truth("'a' != 1"));
  EXPECT_FALSE(truth("'1' = 1"));
  EXPECT_FALSE(truth("'true' == true"));
  EXPECT_TRUE(truth("'abc' < 'abd'"));
  EXPECT_TRUE(truth("'B' < 'a'"));  // ordinal: 'B' is 0x42, 'a' 0x61
  EXPECT_FALSE(truth("'a' = 'A'"));
  EXPECT_TRUE(truth("'ab' > 'a'"));
  EXPECT_TRUE(truth("[Gait] = 'walk'"));
  EXPECT_EQ(failure("'a' < 1"), EvalError::kTypeMismatch);
  EXPECT_EQ(failure("'a' * 2"), EvalError::kTypeMismatch);
  EXPECT_EQ(failure("-'a'"), EvalError::kTypeMismatch);
  EXPECT_EQ(failure("not 'a'"), EvalError::kTypeMismatch);
  EXPECT_EQ(failure("Abs('a')"), EvalError::kTypeMismatch);
}

TEST_F(ExpressionTest, UnsetReadsAsZeroFalseOrEmpty) {
  EXPECT_EQ(eval("[Nothing]").kind, ValueKind::kUnset);
  EXPECT_TRUE(truth("[Nothing] = 0"));
  EXPECT_TRUE(truth("[Nothing] = ''"));
  EXPECT_TRUE(truth("[Nothing] = false"));
  EXPECT_FALSE(truth("[Nothing] = 'walk'"));
  EXPECT_TRUE(truth("[Nothing] < 'a'"));
  EXPECT_EQ(num("[Nothing] + 1"), 1.0);
  EXPECT_EQ(str("[Nothing] + 'x'"), "x");
  EXPECT_TRUE(truth("not [Nothing]"));
  EXPECT_FALSE(compiled("[Nothing]").evaluate_bool(values_, true));
  EXPECT_EQ(compiled("[Nothing]").evaluate_float(values_, 9.0f), 0.0f);
}

TEST_F(ExpressionTest, ResultConversionsFallBack) {
  EXPECT_EQ(compiled("'a'").evaluate_float(values_, 7.0f), 7.0f);
  EXPECT_TRUE(compiled("'a'").evaluate_bool(values_, true));
  EXPECT_FALSE(compiled("'a'").evaluate_bool(values_));
  EXPECT_EQ(compiled("1 / 0").evaluate_float(values_, 2.0f), 2.0f);
  EXPECT_EQ(compiled("1e39").evaluate_float(values_, 2.0f), 2.0f);  // beyond float
  EXPECT_TRUE(compiled("0 / 0").evaluate_bool(values_, true));
  EXPECT_FALSE(compiled("0 / 0").evaluate_bool(values_, false));
  EXPECT_TRUE(compiled("1 / 0").evaluate_bool(values_));  // infinity is non-zero
  EXPECT_EQ(compiled("true").evaluate_float(values_, 5.0f), 1.0f);
  EXPECT_EQ(compiled("[Speed] * 2").evaluate_float(values_, 5.0f), 1.5f);
  EXPECT_TRUE(compiled("[Speed]").evaluate_bool(values_));
  EXPECT_EQ(compiled("[S] * 2").evaluate_float(values_, -1.0f), -1.0f);
  EXPECT_FALSE(Expression().evaluate_bool(values_, true));  // an empty expression reads unset
}

TEST_F(ExpressionTest, Functions) {
  EXPECT_EQ(call("lerp", {2, 4, 0.25}), 2.5);
  EXPECT_EQ(call("smoothstep", {0.5}), 0.5);
  EXPECT_EQ(call("smoothstep", {2}), -4.0);  // 4 * (3 - 4): no clamping
  EXPECT_EQ(call("clamp", {5, 0, 1}), 1.0);
  EXPECT_EQ(call("clamp", {-1, 0, 1}), 0.0);
  EXPECT_EQ(call("clamp", {0.5, 0, 1}), 0.5);
  EXPECT_DOUBLE_EQ(call("degtorad", {180}), kPi);
  EXPECT_DOUBLE_EQ(call("radtodeg", {kPi / 2}), 90.0);
  EXPECT_EQ(call("Abs", {-3}), 3.0);
  EXPECT_EQ(call("Acos", {1}), 0.0);
  EXPECT_DOUBLE_EQ(call("Asin", {1}), kPi / 2);
  EXPECT_DOUBLE_EQ(call("Atan", {1}), kPi / 4);
  EXPECT_EQ(call("Ceiling", {1.2}), 2.0);
  EXPECT_EQ(call("Ceiling", {-1.2}), -1.0);
  EXPECT_EQ(call("Cos", {0}), 1.0);
  EXPECT_EQ(call("Exp", {0}), 1.0);
  EXPECT_EQ(call("Floor", {-1.5}), -2.0);
  EXPECT_EQ(call("IEEERemainder", {3, 2}), -1.0);   // 3 - 2 * round(1.5) = 3 - 4
  EXPECT_EQ(call("IEEERemainder", {5, 2}), 1.0);    // 5 - 2 * round(2.5) = 5 - 4
  EXPECT_EQ(call("IEEERemainder", {10, 3}), 1.0);   // 10 - 3 * 3
  EXPECT_EQ(call("IEEERemainder", {11, 3}), -1.0);  // 11 - 3 * 4
  EXPECT_EQ(call("IEEERemainder", {-7, 2}), 1.0);   // -7 - 2 * round(-3.5) = -7 + 8
  EXPECT_DOUBLE_EQ(call("Log", {8, 2}), 3.0);
  EXPECT_DOUBLE_EQ(call("Log", {100, 10}), 2.0);
  EXPECT_DOUBLE_EQ(call("Log", {1, 10}), 0.0);
  EXPECT_DOUBLE_EQ(call("Log10", {1000}), 3.0);
  EXPECT_EQ(call("Max", {2, 3}), 3.0);
  EXPECT_EQ(call("Min", {2, 3}), 2.0);
  EXPECT_EQ(call("Pow", {2, 10}), 1024.0);
  EXPECT_EQ(call("Round", {2.5}), 2.0);
  EXPECT_EQ(call("Round", {3.5}), 4.0);
  EXPECT_EQ(call("Round", {-2.5}), -2.0);
  EXPECT_EQ(call("Round", {0.5}), 0.0);
  EXPECT_EQ(call("Round", {1.5}), 2.0);
  EXPECT_EQ(call("Round", {2.6}), 3.0);
  EXPECT_EQ(call("Round", {0.125, 2}), 0.12);  // 12.5 -> 12
  EXPECT_EQ(call("Round", {0.375, 2}), 0.38);  // 37.5 -> 38
  EXPECT_EQ(call("Round", {-0.625, 2}), -0.62);
  EXPECT_EQ(call("Round", {1234.5, 0}), 1234.0);
  EXPECT_EQ(call("Sign", {-3}), -1.0);
  EXPECT_EQ(call("Sign", {0}), 0.0);
  EXPECT_EQ(call("Sign", {2.5}), 1.0);
  EXPECT_EQ(call("Sin", {0}), 0.0);
  EXPECT_DOUBLE_EQ(call("Sin", {kPi / 2}), 1.0);
  EXPECT_EQ(call("Sqrt", {16}), 4.0);
  EXPECT_EQ(call("Tan", {0}), 0.0);
  EXPECT_EQ(call("Truncate", {-2.7}), -2.0);
  EXPECT_EQ(call("Truncate", {2.7}), 2.0);
  EXPECT_TRUE(std::isnan(call("Sqrt", {-1})));
}

TEST_F(ExpressionTest, FunctionNamesAreCaseInsensitiveAndPiIsConstant) {
  EXPECT_EQ(num("MAX(1, 2)"), 2.0);
  EXPECT_EQ(num("round(2.5)"), 2.0);
  EXPECT_EQ(num("ieeeremainder(3, 2)"), -1.0);
  EXPECT_EQ(num("LERP(0, 10, 0.5)"), 5.0);
  EXPECT_EQ(num("pi()"), kPi);
  EXPECT_EQ(num("pi"), kPi);
  EXPECT_EQ(num("PI * 2"), 2 * kPi);
  EXPECT_EQ(num("if(1 > 0, 'a', 'b') = 'a' ? 1 : 2"), 1.0);
  EXPECT_EQ(failure("Round(1.5, 16)"), EvalError::kBadOperand);
  EXPECT_EQ(failure("Sign(0 / 0)"), EvalError::kBadOperand);
}

TEST_F(ExpressionTest, InComparesWithEquality) {
  EXPECT_TRUE(truth("in(2, 1, 2, 3)"));
  EXPECT_FALSE(truth("in(4, 1, 2, 3)"));
  EXPECT_TRUE(truth("in([Gait], 'run', 'walk')"));
  EXPECT_FALSE(truth("in('b', 'a', 'c')"));
  EXPECT_FALSE(truth("in('1', 1)"));
  EXPECT_TRUE(truth("in(true, 0, 1)"));
  EXPECT_TRUE(truth("IN([Nothing], 'x', '')"));
}

TEST_F(ExpressionTest, ParameterForms) {
  EXPECT_EQ(num("[Speed]"), 0.75);
  EXPECT_EQ(num("[speed]"), 0.75);
  EXPECT_EQ(num("SPEED * 2"), 1.5);
  EXPECT_EQ(num("DeathSpeed"), 3.0);
  EXPECT_TRUE(truth("IsDead = false"));
  EXPECT_TRUE(truth("[Gait] = 'walk'"));
  values_.set_string(gait_, "run");
  EXPECT_FALSE(holder_.evaluate_bool(values_));
  // A parameter named pi hides the constant for the bare name only.
  ASSERT_TRUE(schema_.declare("pi", ParameterValue::of_float(3.0)));
  values_.grow_to_schema();
  EXPECT_EQ(num("pi"), 3.0);
  EXPECT_EQ(num("[PI]"), 3.0);
  EXPECT_EQ(num("pi()"), kPi);
}

TEST_F(ExpressionTest, VecComponents) {
  EXPECT_EQ(num("[BodyForward.x]"), 0.5);
  EXPECT_EQ(num("[BodyForward.y]"), -1.0);
  EXPECT_EQ(num("[bodyforward.Z] * 2"), 4.0);
  EXPECT_EQ(num("[Flat.x] + [Flat.y]"), 7.0);
  EXPECT_EQ(num("[Flat.z]"), 0.0);
  EXPECT_EQ(failure("[BodyForward]"), EvalError::kTypeMismatch);
  EXPECT_EQ(failure("[BodyForward] = 1"), EvalError::kTypeMismatch);
  EXPECT_EQ(failure("[Speed.x]"), EvalError::kTypeMismatch);
  EXPECT_EQ(eval("[Nothing.x]").kind, ValueKind::kUnset);
  // Not a component suffix: the whole text names an (unknown) parameter.
  auto e = compile("[BodyForward.w]", schema_);
  ASSERT_TRUE(e);
  ASSERT_EQ(e->unknown_parameters().size(), 1u);
  EXPECT_EQ(e->unknown_parameters()[0], "BodyForward.w");
}

TEST_F(ExpressionTest, UnknownParametersAreReportedAndReadUnset) {
  auto e = compile("[Mood] = 'happy' or Hunger > 2 or [mood.x] > 0 or [MOOD] = ''", schema_);
  ASSERT_TRUE(e);
  ASSERT_EQ(e->unknown_parameters().size(), 2u);
  EXPECT_EQ(e->unknown_parameters()[0], "Mood");
  EXPECT_EQ(e->unknown_parameters()[1], "Hunger");
  EXPECT_TRUE(e->evaluate_bool(values_));  // [MOOD] = '' holds
  EXPECT_TRUE(e->is_constant());           // unknown names fold as unset constants

  auto strict =
      compile("1 + [Mood]", schema_, CompileOptions{.unknown_parameters_are_errors = true});
  ASSERT_FALSE(strict);
  EXPECT_EQ(strict.error().code, ErrorCode::kInvalid);
  EXPECT_EQ(strict.error().location, "column 5");
  EXPECT_EQ(strict.error().message, "unknown parameter 'Mood'");
}

struct ErrorCase {
  std::string_view text;
  ErrorCode code;
  int column;
  std::string_view message;
};

TEST_F(ExpressionTest, CompileErrorsAreLocated) {
  const ErrorCase cases[] = {
      {"foo(1)", ErrorCode::kInvalid, 1, "unknown function 'foo'"},
      {"1 + Max(1)", ErrorCode::kInvalid, 5, "function 'Max' takes 2 arguments, got 1"},
      {"Round(1, 2, 3)", ErrorCode::kInvalid, 1, "function 'Round' takes 1 or 2 arguments, got 3"},
      {"2 * in(1)", ErrorCode::kInvalid, 5, "function 'in' takes at least 2 arguments, got 1"},
      {"Abs()", ErrorCode::kInvalid, 1, "function 'Abs' takes 1 argument, got 0"},
      {"pi(1)", ErrorCode::kInvalid, 1, "function 'pi' takes 0 arguments, got 1"},
      {"[Speed] > 1 and Speed (2)", ErrorCode::kInvalid, 17, "unknown function 'Speed'"},
      {"1 +", ErrorCode::kParse, 4, "expected an expression, found the end"},
      {"(1 + 2", ErrorCode::kParse, 7, "expected ')', found the end"},
      {"1 2", ErrorCode::kParse, 3, "unexpected '2' after the expression"},
      {"[Speed] > 0.5 and", ErrorCode::kParse, 18, "expected an expression, found the end"},
      {"[Speed > 1", ErrorCode::kParse, 1, "'[' without a closing ']'"},
      {"1 + []", ErrorCode::kParse, 5, "empty parameter name '[]'"},
      {"'abc", ErrorCode::kParse, 1, "unterminated string"},
      {"'a' + 'b\\qc'", ErrorCode::kParse, 9, "unknown escape '\\q' in a string"},
      {"'\\u12'", ErrorCode::kParse, 2, "\\u must be followed by four hexadecimal digits"},
      {"#2020-01-01#", ErrorCode::kParse, 1, "date literals (#...#) are not supported"},
      {"1 $ 2", ErrorCode::kParse, 3, "unexpected character '$'"},
      {"\"walk\"", ErrorCode::kParse, 1, "unexpected character '\"'"},
      {"", ErrorCode::kParse, 1, "expected an expression, found the end"},
      {"   ", ErrorCode::kParse, 4, "expected an expression, found the end"},
      {"1.", ErrorCode::kParse, 1, "malformed number: digits must follow '.'"},
      {"2 * 1e", ErrorCode::kParse, 5, "malformed number: exponent without digits"},
      {"1e999", ErrorCode::kParse, 1, "number '1e999' is out of range"},
      {"true ? 1", ErrorCode::kParse, 9, "expected ':', found the end"},
      {"Max(1 2)", ErrorCode::kParse, 7, "expected ',' or ')', found '2'"},
      {"and 1", ErrorCode::kParse, 1, "expected an expression, found 'and'"},
      {"1 * * 2", ErrorCode::kParse, 5, "expected an expression, found '*'"},
      {")", ErrorCode::kParse, 1, "expected an expression, found ')'"},
  };
  for (const ErrorCase& c : cases) {
    const Error e = compile_error(c.text);
    EXPECT_EQ(e.code, c.code) << c.text;
    EXPECT_EQ(e.location, "column " + std::to_string(c.column)) << c.text;
    EXPECT_EQ(error_column(e), c.column) << c.text;
    EXPECT_EQ(e.message, c.message) << c.text;
    EXPECT_TRUE(e.path.empty());
  }
}

TEST_F(ExpressionTest, LimitsAreErrors) {
  const Error deep = compile_error(std::string(150, '(') + "1" + std::string(150, ')'));
  EXPECT_EQ(deep.code, ErrorCode::kLimit);
  EXPECT_EQ(deep.location, "column 101");
  const Error unary = compile_error(std::string(150, '-') + "1");
  EXPECT_EQ(unary.code, ErrorCode::kLimit);
  std::string wide = "in([A]";
  for (int i = 0; i < 70; ++i) wide += ", [B]";
  wide += ")";
  EXPECT_EQ(compile_error(wide).code, ErrorCode::kLimit);
  EXPECT_EQ(compile_error(std::string(70 * 1024, ' ') + "1").code, ErrorCode::kLimit);
  // Within the limits.
  EXPECT_EQ(num(std::string(90, '(') + "1" + std::string(90, ')')), 1.0);
  EXPECT_EQ(error_column(Error{}), 0);
}

TEST_F(ExpressionTest, ConstantsAreFolded) {
  EXPECT_TRUE(compiled("1 + 2 * 3").is_constant());
  EXPECT_TRUE(compiled("Round(2.5) = 2 and 'a' + 'b' = 'ab'").is_constant());
  EXPECT_TRUE(compiled("false and [Speed] > 1").is_constant());
  EXPECT_TRUE(compiled("true or [Speed] > 1").is_constant());
  EXPECT_EQ(compiled("true and [Speed]").instruction_count(), 2u);  // load, to-bool
  EXPECT_EQ(compiled("if(1 > 0, [Speed], 0)").instruction_count(), 1u);
  EXPECT_EQ(compiled("[Speed] * (2 + 3)").instruction_count(), 3u);
  EXPECT_FALSE(compiled("[Speed] > 0.5").is_constant());
  EXPECT_EQ(compiled("'a' * 2").instruction_count(), 3u);  // a failure is left to run time
  EXPECT_EQ(eval("true and [Speed]").kind, ValueKind::kBool);
}

TEST_F(ExpressionTest, ConcatenationUsesTheScratchAndReportsOverflow) {
  // Each concatenation copies both operands: 200 + 200 bytes fit in 512, 200 + 300 + 400 do not.
  values_.set_string(s_, std::string(100, 'z'));
  EvalScratch scratch;
  const Expression e = compiled("[S] + [S] = [S] + [S]");
  const Value equal = e.evaluate(values_, scratch);
  EXPECT_EQ(equal.kind, ValueKind::kBool);
  EXPECT_EQ(equal.number, 1.0);
  const Expression big = compiled("[S] + [S] + [S] + [S]");
  const Value v = big.evaluate(values_, scratch);
  EXPECT_EQ(v.kind, ValueKind::kError);
  EXPECT_EQ(v.error, EvalError::kScratchOverflow);
  const Expression two = compiled("[S] + 1");
  const Value w = two.evaluate(values_, scratch);
  ASSERT_EQ(w.kind, ValueKind::kString);
  EXPECT_EQ(w.text, std::string(100, 'z') + "1");
  EXPECT_EQ(w.text.data(), scratch.bytes());
}

TEST_F(ExpressionTest, EvaluateAllocatesNothing) {
  const char* texts[] = {
      "[Speed] > 0.5 and not [IsDead] and [Gait] = 'walk'",
      "[S] + [Gait] + 1.25 + true = 'xwalk1.25True'",
      "in([Gait], 'run', 'walk') ? lerp([A], [B], 0.5) : Round([Speed], 1)",
      "[BodyForward.y] * 2 + Log([Speed] + 1, 2) + IEEERemainder([A], 3)",
      "[BodyForward] = 1",
      "[Unknown] = ''",
  };
  std::vector<Expression> compiled_texts;
  for (const char* t : texts) compiled_texts.push_back(compiled(t));
  EvalScratch scratch;
  // Raise the thread's counter only around evaluation; prove it counts first.
  ASSERT_TRUE(critter::testing::AllocationCounter::works());
  double sum = 0.0;
  long allocations = -1;
  {
    const critter::testing::AllocationCounter counter;
    for (int i = 0; i < 100; ++i) {
      for (const Expression& e : compiled_texts) {
        sum += e.evaluate(values_).number;
        sum += e.evaluate(values_, scratch).number;
        sum += e.evaluate_bool(values_) ? 1.0 : 0.0;
        sum += e.evaluate_float(values_, 0.0f);
      }
    }
    allocations = counter.count();
  }
  EXPECT_EQ(allocations, 0);
  EXPECT_TRUE(std::isfinite(sum));
}

TEST(ClassifyText, FollowsTheExpressionRules) {
  auto c = classify_text("IsDead", ExpressionField::kCondition);
  EXPECT_EQ(c.kind, TextKind::kExpression);
  EXPECT_EQ(c.text, "IsDead");
  EXPECT_EQ(classify_text("true", ExpressionField::kCondition).kind, TextKind::kExpression);
  c = classify_text("expr:[A] > 1", ExpressionField::kCondition);
  EXPECT_EQ(c.text, "[A] > 1");

  c = classify_text("0.5", ExpressionField::kValue);
  EXPECT_EQ(c.kind, TextKind::kLiteral);
  EXPECT_EQ(c.text, "0.5");
  EXPECT_EQ(classify_text("true", ExpressionField::kValue).kind, TextKind::kLiteral);
  EXPECT_EQ(classify_text("Speed * 2", ExpressionField::kValue).kind, TextKind::kLiteral);
  EXPECT_EQ(classify_text("[Speed] * 2", ExpressionField::kValue).kind, TextKind::kExpression);
  EXPECT_EQ(classify_text("[Speed", ExpressionField::kValue).kind, TextKind::kLiteral);
  c = classify_text("expr:Speed * 2", ExpressionField::kValue);
  EXPECT_EQ(c.kind, TextKind::kExpression);
  EXPECT_EQ(c.text, "Speed * 2");

  c = classify_text("[Anim]", ExpressionField::kSource);
  EXPECT_EQ(c.kind, TextKind::kParameter);
  EXPECT_EQ(c.text, "Anim");
  EXPECT_EQ(classify_text("walk", ExpressionField::kSource).kind, TextKind::kLiteral);
  EXPECT_EQ(classify_text("[A] + [B]", ExpressionField::kSource).kind, TextKind::kLiteral);
  EXPECT_EQ(classify_text("driver:Walk", ExpressionField::kSource).kind, TextKind::kLiteral);
}

TEST(ExpressionCache, CompilesOnceAndDeclaresUnknownNames) {
  ParameterSchema schema = ParameterSchema::with_builtins(kBuiltins);
  const std::size_t builtins = schema.size();
  ExpressionCache cache(schema);
  auto a = cache.get("[Gait] = 'walk' and [Speed] > 0.5");
  ASSERT_TRUE(a);
  auto b = cache.get("[Gait] = 'walk' and [Speed] > 0.5");
  ASSERT_TRUE(b);
  EXPECT_EQ(*a, *b);
  EXPECT_EQ(cache.size(), 1u);
  ASSERT_EQ(cache.undeclared_parameters().size(), 1u);
  EXPECT_EQ(cache.undeclared_parameters()[0], "Gait");
  EXPECT_EQ(schema.size(), builtins + 1);
  // The expression reads the declared slot, so the host can set it.
  EXPECT_TRUE((*a)->unknown_parameters().empty());
  ParameterValues values(schema);
  values.set_float("Speed", 1.0);
  EXPECT_FALSE((*a)->evaluate_bool(values));
  values.set_string("gait", "walk");
  EXPECT_TRUE((*a)->evaluate_bool(values));
  // Another text naming it again does not list it twice.
  ASSERT_TRUE(cache.get("[GAIT] = 'run'"));
  EXPECT_EQ(cache.undeclared_parameters().size(), 1u);
  auto bad = cache.get("Max(1)");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().location, "column 1");
  EXPECT_EQ(cache.size(), 2u);
}

// Fuzz-style robustness: random token soup and random well-formed trees.
class ExpressionFuzz : public ExpressionTest {};

TEST_F(ExpressionFuzz, RandomTokenStringsCompileOrFailWithALocation) {
  static const char* kTokens[] = {
      "1",   "0.5",   "1e3", "'a'",  "'b\\'c'", "[Speed]", "[Gait]", "[BodyForward.y]",
      "[S]", "Speed", "pi",  "true", "false",   "and",     "or",     "not",
      "&&",  "||",    "!",   "=",    "==",      "!=",      "<>",     "<",
      "<=",  ">",     ">=",  "<<",   ">>",      "+",       "-",      "*",
      "/",   "%",     "&",   "|",    "^",       "~",       "?",      ":",
      "(",   ")",     ",",   "Max(", "Round(",  "in(",     "if(",    "lerp(",
      "[",   "]",     "'",   "#",    "foo(",    "\\",      "1.",     "$",
      " ",   "Abs(",  "e",   ".",    "[X",      "@",       "\"",     "Sign(",
  };
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int> pick(0, static_cast<int>(std::size(kTokens)) - 1);
  std::uniform_int_distribution<int> length(0, 14);
  int compiled_count = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string text;
    const int n = length(rng);
    for (int k = 0; k < n; ++k) {
      text += kTokens[pick(rng)];
      if (rng() % 2) text += ' ';
    }
    auto e = compile(text, schema_);
    if (e) {
      ++compiled_count;
      const Value v = e->evaluate(values_);
      (void)e->evaluate_bool(values_);
      (void)e->evaluate_float(values_, 0.0f);
      EXPECT_TRUE(v.kind != ValueKind::kString || v.text.size() < 4096) << text;
    } else {
      const Error& err = e.error();
      const int column = error_column(err);
      EXPECT_GE(column, 1) << text;
      EXPECT_LE(column, static_cast<int>(text.size()) + 1) << text;
      EXPECT_TRUE(err.code == ErrorCode::kParse || err.code == ErrorCode::kInvalid ||
                  err.code == ErrorCode::kLimit)
          << text;
      EXPECT_FALSE(err.message.empty());
    }
  }
  EXPECT_GT(compiled_count, 100);  // the soup does produce valid expressions too
}

// Builds a random well-formed expression twice: with literal leaves (folded at compile time) and
// with the same leaves read from parameters (evaluated at run time).
struct TreeBuilder {
  std::mt19937& rng;
  ParameterValues& values;
  std::vector<ParamIndex> slots;
  std::size_t next_slot = 0;

  void leaf(std::string& lit, std::string& par, const ParameterSchema& schema) {
    static const double kNumbers[] = {0, 1, 2, 0.5, 3, 7, 10, 0.25};
    const ParamIndex slot = slots[next_slot++ % slots.size()];
    const std::string name = "[" + std::string(schema.name(slot)) + "]";
    switch (rng() % 4) {
      case 0:
      case 1: {
        const double v = kNumbers[rng() % std::size(kNumbers)];
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", v);
        lit += buf;
        values.set_float(slot, v);
        break;
      }
      case 2: {
        const bool b = rng() % 2;
        lit += b ? "true" : "false";
        values.set_bool(slot, b);
        break;
      }
      default: {
        const char* s = (rng() % 2) ? "a" : "b";
        lit += std::string("'") + s + "'";
        values.set_string(slot, s);
        break;
      }
    }
    par += name;
  }

  void tree(int depth, std::string& lit, std::string& par, const ParameterSchema& schema) {
    if (depth == 0 || rng() % 4 == 0) {
      leaf(lit, par, schema);
      return;
    }
    static const char* kBinary[] = {" + ", " - ",  " * ", " / ",  " % ",   " & ",  " | ",  " ^ ",
                                    " = ", " != ", " < ", " >= ", " and ", " or ", " << ", " >> "};
    static const char* kFuncs1[] = {"Abs(", "Round(", "Sign(", "Floor(", "smoothstep(", "not ("};
    static const char* kFuncs2[] = {"Max(", "Min(", "IEEERemainder(", "Log(", "Pow(", "in("};
    auto both = [&](const std::string& s) {
      lit += s;
      par += s;
    };
    switch (rng() % 5) {
      case 0:
      case 1:
        both("(");
        tree(depth - 1, lit, par, schema);
        both(kBinary[rng() % std::size(kBinary)]);
        tree(depth - 1, lit, par, schema);
        both(")");
        break;
      case 2:
        both(kFuncs1[rng() % std::size(kFuncs1)]);
        tree(depth - 1, lit, par, schema);
        both(")");
        break;
      case 3:
        both(kFuncs2[rng() % std::size(kFuncs2)]);
        tree(depth - 1, lit, par, schema);
        both(", ");
        tree(depth - 1, lit, par, schema);
        both(")");
        break;
      default:
        both("(");
        tree(depth - 1, lit, par, schema);
        both(" ? ");
        tree(depth - 1, lit, par, schema);
        both(" : ");
        tree(depth - 1, lit, par, schema);
        both(")");
        break;
    }
  }
};

TEST_F(ExpressionFuzz, RandomTreesFoldExactlyAsTheyRun) {
  std::vector<ParamIndex> slots;
  for (int i = 0; i < 256; ++i) {
    slots.push_back(*schema_.declare("P" + std::to_string(i), ParameterValue::unset()));
  }
  values_ = ParameterValues(schema_);
  std::mt19937 rng(777);
  int compared = 0;
  for (int i = 0; i < 3000; ++i) {
    TreeBuilder builder{rng, values_, slots};
    std::string lit;
    std::string par;
    builder.tree(5, lit, par, schema_);
    auto folded = compile(lit, schema_);
    auto runtime = compile(par, schema_);
    ASSERT_TRUE(folded) << lit << ": " << folded.error().to_string();
    ASSERT_TRUE(runtime) << par << ": " << runtime.error().to_string();
    EvalScratch s1;
    EvalScratch s2;
    const Value x = folded->evaluate(values_, s1);
    const Value y = runtime->evaluate(values_, s2);
    if (x.error == EvalError::kScratchOverflow || y.error == EvalError::kScratchOverflow) continue;
    ++compared;
    ASSERT_EQ(x.kind, y.kind) << lit;
    if (x.kind == ValueKind::kError) {
      EXPECT_EQ(x.error, y.error) << lit;
    } else if (x.kind == ValueKind::kString) {
      EXPECT_EQ(x.text, y.text) << lit;
    } else {
      EXPECT_TRUE(x.number == y.number || (std::isnan(x.number) && std::isnan(y.number))) << lit;
    }
  }
  EXPECT_GT(compared, 2900);
}

}  // namespace
}  // namespace critter::anim
