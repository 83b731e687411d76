// SPDX-License-Identifier: MIT
// Expression compiler: text -> tokens -> tree (in one vector) -> folded tree -> stack program.
// Everything here runs once per distinct text when a config is bound, so it favours clear error
// reporting over speed.

#include <charconv>
#include <cmath>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "anim/expression_ops.h"
#include "critter/anim/expression.h"
#include "critter/core/strings.h"

namespace critter::anim {

using expr::Func;
using expr::Op;

namespace {

constexpr std::size_t kMaxTextBytes = 64 * 1024;
constexpr int kMaxNesting = 100;

enum class Tok : std::uint8_t {
  kNumber,
  kString,
  kParam,  // [Name]
  kIdent,
  kOp,  // operators and punctuation: raw holds the spelling
  kEnd,
};

struct Token {
  Tok type = Tok::kEnd;
  std::string_view raw;
  std::string text;  // decoded string literal, or the bracketed name
  double number = 0.0;
  int column = 1;
};

Error error_at(ErrorCode code, int column, std::string message) {
  return Error::at(code, "", "column " + std::to_string(column), std::move(message));
}

bool is_ident_start(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_ident_char(char c) {
  return is_ident_start(c) || is_digit(c);
}
int hex_value(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_utf8(std::string& out, unsigned cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

Result<std::vector<Token>> tokenize(std::string_view s) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  const std::size_t n = s.size();
  auto column = [](std::size_t at) { return static_cast<int>(at) + 1; };
  while (i < n) {
    const char c = s[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    Token t;
    t.column = column(i);
    const std::size_t start = i;
    if (is_digit(c) || (c == '.' && i + 1 < n && is_digit(s[i + 1]))) {
      while (i < n && is_digit(s[i])) ++i;
      if (i < n && s[i] == '.') {
        ++i;
        if (i >= n || !is_digit(s[i])) {
          return fail(
              error_at(ErrorCode::kParse, t.column, "malformed number: digits must follow '.'"));
        }
        while (i < n && is_digit(s[i])) ++i;
      }
      if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
        if (i >= n || !is_digit(s[i])) {
          return fail(
              error_at(ErrorCode::kParse, t.column, "malformed number: exponent without digits"));
        }
        while (i < n && is_digit(s[i])) ++i;
      }
      t.type = Tok::kNumber;
      t.raw = s.substr(start, i - start);
      const auto r = std::from_chars(t.raw.data(), t.raw.data() + t.raw.size(), t.number);
      if (r.ec != std::errc() || r.ptr != t.raw.data() + t.raw.size() || !std::isfinite(t.number)) {
        return fail(error_at(ErrorCode::kParse, t.column,
                             "number '" + std::string(t.raw) + "' is out of range"));
      }
    } else if (c == '\'') {
      ++i;
      bool closed = false;
      while (i < n) {
        const char d = s[i];
        if (d == '\'') {
          closed = true;
          ++i;
          break;
        }
        if (d != '\\') {
          t.text += d;
          ++i;
          continue;
        }
        const int escape_column = column(i);
        if (i + 1 >= n) break;
        const char e = s[i + 1];
        i += 2;
        switch (e) {
          case '\'':
            t.text += '\'';
            break;
          case '\\':
            t.text += '\\';
            break;
          case 'n':
            t.text += '\n';
            break;
          case 't':
            t.text += '\t';
            break;
          case 'r':
            t.text += '\r';
            break;
          case 'u': {
            unsigned cp = 0;
            for (int k = 0; k < 4; ++k) {
              const int h = i < n ? hex_value(s[i]) : -1;
              if (h < 0) {
                return fail(error_at(ErrorCode::kParse, escape_column,
                                     "\\u must be followed by four hexadecimal digits"));
              }
              cp = cp * 16 + static_cast<unsigned>(h);
              ++i;
            }
            append_utf8(t.text, cp);
            break;
          }
          default:
            return fail(error_at(ErrorCode::kParse, escape_column,
                                 std::string("unknown escape '\\") + e + "' in a string"));
        }
      }
      if (!closed) return fail(error_at(ErrorCode::kParse, t.column, "unterminated string"));
      t.type = Tok::kString;
      t.raw = s.substr(start, i - start);
    } else if (c == '[') {
      const std::size_t close = s.find(']', i + 1);
      if (close == std::string_view::npos) {
        return fail(error_at(ErrorCode::kParse, t.column, "'[' without a closing ']'"));
      }
      if (close == i + 1) {
        return fail(error_at(ErrorCode::kParse, t.column, "empty parameter name '[]'"));
      }
      t.type = Tok::kParam;
      t.text = std::string(s.substr(i + 1, close - i - 1));
      i = close + 1;
      t.raw = s.substr(start, i - start);
    } else if (is_ident_start(c)) {
      while (i < n && is_ident_char(s[i])) ++i;
      t.type = Tok::kIdent;
      t.raw = s.substr(start, i - start);
    } else if (c == '#') {
      return fail(error_at(ErrorCode::kParse, t.column, "date literals (#...#) are not supported"));
    } else {
      static constexpr std::string_view kTwo[] = {"||", "&&", "==", "!=", "<>",
                                                  "<=", ">=", "<<", ">>"};
      static constexpr std::string_view kOne = "|^&=<>+-*/%!~(),?:";
      t.type = Tok::kOp;
      for (std::string_view op : kTwo) {
        if (s.substr(i, 2) == op) {
          t.raw = op;
          break;
        }
      }
      if (t.raw.empty()) {
        if (kOne.find(c) == std::string_view::npos) {
          std::string shown =
              (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7F)
                  ? "byte " + std::to_string(static_cast<unsigned char>(c))
                  : std::string("'") + c + "'";
          return fail(error_at(ErrorCode::kParse, t.column, "unexpected character " + shown));
        }
        t.raw = s.substr(i, 1);
      }
      i += t.raw.size();
    }
    tokens.push_back(std::move(t));
  }
  Token end;
  end.type = Tok::kEnd;
  end.column = column(n);
  tokens.push_back(std::move(end));
  return tokens;
}

enum class NodeKind : std::uint8_t {
  kConst,
  kLoad,
  kLoadComponent,
  kUnary,
  kBinary,
  kAnd,
  kOr,
  kCond,  // ?: and if()
  kCall,
  kIn,
};

struct Node {
  NodeKind kind = NodeKind::kConst;
  Op op = Op::kConst;
  Func func = Func::kPi;
  ParamIndex param = 0;
  std::uint8_t component = 0;
  ValueKind value_kind = ValueKind::kUnset;  // kConst
  double number = 0.0;
  std::string text;
  std::vector<int> kids;
};

Value node_value(const Node& n) {
  Value v;
  v.kind = n.value_kind;
  v.number = n.number;
  if (n.value_kind == ValueKind::kString) v.text = n.text;
  return v;
}

void make_const(Node& n, const Value& v) {
  std::string text(v.kind == ValueKind::kString ? v.text : std::string_view());
  n.kind = NodeKind::kConst;
  n.value_kind = v.kind;
  n.number = v.number;
  n.text = std::move(text);
  n.kids.clear();
}

}  // namespace

class ExpressionCompiler {
 public:
  ExpressionCompiler(std::string_view text, const ParameterSchema& schema,
                     const CompileOptions& options)
      : text_(text), schema_(schema), options_(options) {}

  Result<Expression> compile() {
    if (text_.size() > kMaxTextBytes) {
      return fail(error_at(ErrorCode::kLimit, 1, "expression longer than 64 KiB"));
    }
    auto tokens = tokenize(text_);
    if (!tokens) return fail(std::move(tokens.error()));
    tokens_ = std::move(*tokens);
    auto root = parse_ternary();
    if (!root) return fail(std::move(root.error()));
    if (peek().type != Tok::kEnd) {
      return fail(error_at(ErrorCode::kParse, peek().column,
                           "unexpected '" + std::string(peek().raw) + "' after the expression"));
    }
    const int folded = fold(*root);
    Expression e;
    e.text_ = std::string(text_);
    e.unknown_ = std::move(unknown_);
    out_ = &e;
    emit(folded);
    if (static_cast<std::size_t>(max_depth_) > Expression::kMaxStack) {
      return fail(error_at(ErrorCode::kLimit, 1,
                           "expression needs an operand stack deeper than " +
                               std::to_string(Expression::kMaxStack)));
    }
    return e;
  }

 private:
  const Token& peek() const { return tokens_[pos_]; }
  const Token& next() { return tokens_[pos_ < tokens_.size() - 1 ? pos_++ : pos_]; }
  bool peek_op(std::string_view op) const { return peek().type == Tok::kOp && peek().raw == op; }
  bool peek_keyword(std::string_view word) const {
    return peek().type == Tok::kIdent && iequals(peek().raw, word);
  }

  int add(Node n) {
    nodes_.push_back(std::move(n));
    return static_cast<int>(nodes_.size()) - 1;
  }
  int add_const(const Value& v) {
    Node n;
    make_const(n, v);
    return add(std::move(n));
  }

  Error expected(std::string_view what) const {
    const Token& t = peek();
    std::string found = t.type == Tok::kEnd ? "the end" : "'" + std::string(t.raw) + "'";
    return error_at(ErrorCode::kParse, t.column,
                    "expected " + std::string(what) + ", found " + found);
  }

  Result<int> parse_ternary() {
    if (++nesting_ > kMaxNesting) {
      return fail(error_at(ErrorCode::kLimit, peek().column,
                           "expression nests deeper than " + std::to_string(kMaxNesting)));
    }
    auto cond = parse_level(0);
    if (!cond) return cond;
    if (peek_op("?")) {
      next();
      auto a = parse_ternary();
      if (!a) return a;
      if (!peek_op(":")) return fail(expected("':'"));
      next();
      auto b = parse_ternary();
      if (!b) return b;
      Node n;
      n.kind = NodeKind::kCond;
      n.kids = {*cond, *a, *b};
      cond = add(std::move(n));
    }
    --nesting_;
    return cond;
  }

  // Binary levels, lowest first (§15): or, and, |, ^, &, equality, relational, shift, additive,
  // multiplicative. Returns the operator at `level` under the cursor, or nothing.
  bool match_level(int level, Op* op, NodeKind* kind) const {
    *kind = NodeKind::kBinary;
    const Token& t = peek();
    if (level == 0 && (peek_op("||") || peek_keyword("or"))) {
      *kind = NodeKind::kOr;
      return true;
    }
    if (level == 1 && (peek_op("&&") || peek_keyword("and"))) {
      *kind = NodeKind::kAnd;
      return true;
    }
    if (t.type != Tok::kOp) return false;
    struct Entry {
      int level;
      std::string_view spelling;
      Op op;
    };
    static constexpr Entry kTable[] = {
        {2, "|", Op::kBitOr}, {3, "^", Op::kBitXor}, {4, "&", Op::kBitAnd}, {5, "=", Op::kEq},
        {5, "==", Op::kEq},   {5, "!=", Op::kNe},    {5, "<>", Op::kNe},    {6, "<", Op::kLt},
        {6, "<=", Op::kLe},   {6, ">", Op::kGt},     {6, ">=", Op::kGe},    {7, "<<", Op::kShl},
        {7, ">>", Op::kShr},  {8, "+", Op::kAdd},    {8, "-", Op::kSub},    {9, "*", Op::kMul},
        {9, "/", Op::kDiv},   {9, "%", Op::kMod},
    };
    for (const Entry& e : kTable) {
      if (e.level == level && t.raw == e.spelling) {
        *op = e.op;
        return true;
      }
    }
    return false;
  }

  Result<int> parse_level(int level) {
    if (level == 10) return parse_unary();
    auto left = parse_level(level + 1);
    if (!left) return left;
    Op op = Op::kConst;
    NodeKind kind = NodeKind::kBinary;
    while (match_level(level, &op, &kind)) {
      next();
      auto right = parse_level(level + 1);
      if (!right) return right;
      Node n;
      n.kind = kind;
      n.op = op;
      n.kids = {*left, *right};
      left = add(std::move(n));
    }
    return left;
  }

  Result<int> parse_unary() {
    Op op = Op::kConst;
    if (peek_op("-")) {
      op = Op::kNeg;
    } else if (peek_op("!") || peek_keyword("not")) {
      op = Op::kNot;
    } else if (peek_op("~")) {
      op = Op::kBitNot;
    } else {
      return parse_primary();
    }
    if (++nesting_ > kMaxNesting) {
      return fail(error_at(ErrorCode::kLimit, peek().column,
                           "expression nests deeper than " + std::to_string(kMaxNesting)));
    }
    next();
    auto operand = parse_unary();
    if (!operand) return operand;
    --nesting_;
    Node n;
    n.kind = NodeKind::kUnary;
    n.op = op;
    n.kids = {*operand};
    return add(std::move(n));
  }

  void report_unknown(std::string_view name) {
    for (const std::string& u : unknown_) {
      if (iequals(u, name)) return;
    }
    unknown_.emplace_back(name);
  }

  Result<int> parameter(std::string_view name, int column) {
    Node n;
    n.kind = NodeKind::kLoad;
    n.param = schema_.find(name);
    if (n.param == kNoParam && name.size() > 2 && name[name.size() - 2] == '.') {
      const char c = name.back();
      const int component = (c == 'x' || c == 'X')   ? 0
                            : (c == 'y' || c == 'Y') ? 1
                            : (c == 'z' || c == 'Z') ? 2
                                                     : -1;
      if (component >= 0) {
        name.remove_suffix(2);
        n.kind = NodeKind::kLoadComponent;
        n.component = static_cast<std::uint8_t>(component);
        n.param = schema_.find(name);
      }
    }
    if (n.param == kNoParam) {
      if (options_.unknown_parameters_are_errors) {
        return fail(
            error_at(ErrorCode::kInvalid, column, "unknown parameter '" + std::string(name) + "'"));
      }
      report_unknown(name);
      return add_const(Value::unset());
    }
    return add(std::move(n));
  }

  Result<int> parse_primary() {
    const Token& t = peek();
    switch (t.type) {
      case Tok::kNumber: {
        const double v = t.number;
        next();
        return add_const(Value::of_number(v));
      }
      case Tok::kString: {
        Node n;
        n.value_kind = ValueKind::kString;
        n.text = t.text;
        next();
        return add(std::move(n));
      }
      case Tok::kParam: {
        const std::string name = t.text;
        const int column = t.column;
        next();
        return parameter(name, column);
      }
      case Tok::kIdent:
        break;
      case Tok::kOp:
        if (t.raw == "(") {
          next();
          auto inner = parse_ternary();
          if (!inner) return inner;
          if (!peek_op(")")) return fail(expected("')'"));
          next();
          return inner;
        }
        return fail(expected("an expression"));
      case Tok::kEnd:
        return fail(expected("an expression"));
    }
    const std::string_view word = t.raw;
    const int column = t.column;
    if (iequals(word, "true") || iequals(word, "false")) {
      next();
      return add_const(Value::of_bool(iequals(word, "true")));
    }
    if (iequals(word, "and") || iequals(word, "or")) {
      return fail(expected("an expression"));
    }
    next();
    if (peek_op("(")) return parse_call(word, column);
    if (iequals(word, "pi") && !schema_.contains(word)) {
      return add_const(Value::of_number(std::numbers::pi));
    }
    return parameter(word, column);
  }

  Result<int> parse_call(std::string_view name, int column) {
    const expr::FuncInfo* info = expr::find_function(name);
    if (info == nullptr) {
      return fail(
          error_at(ErrorCode::kInvalid, column, "unknown function '" + std::string(name) + "'"));
    }
    next();  // '('
    std::vector<int> args;
    if (!peek_op(")")) {
      while (true) {
        auto arg = parse_ternary();
        if (!arg) return arg;
        args.push_back(*arg);
        if (peek_op(",")) {
          next();
          continue;
        }
        if (peek_op(")")) break;
        return fail(expected("',' or ')'"));
      }
    }
    next();  // ')'
    const int count = static_cast<int>(args.size());
    if (count < info->min_args || (info->max_args >= 0 && count > info->max_args)) {
      std::string want = std::to_string(info->min_args);
      if (info->max_args < 0) {
        want = "at least " + want;
      } else if (info->max_args != info->min_args) {
        want += " or " + std::to_string(info->max_args);
      }
      return fail(error_at(ErrorCode::kInvalid, column,
                           "function '" + std::string(name) + "' takes " + want + " argument" +
                               (want == "1" ? "" : "s") + ", got " + std::to_string(count)));
    }
    Node n;
    n.func = info->func;
    n.kind = info->func == Func::kIf   ? NodeKind::kCond
             : info->func == Func::kIn ? NodeKind::kIn
                                       : NodeKind::kCall;
    n.kids = std::move(args);
    return add(std::move(n));
  }

  // Folds constant subtrees bottom-up (in place); returns the index of the folded node. A
  // subtree whose evaluation fails stays unfolded: it may sit in a branch never taken.
  int fold(int index) {
    for (std::size_t k = 0; k < nodes_[index].kids.size(); ++k) {
      const int kid = fold(nodes_[index].kids[k]);
      nodes_[index].kids[k] = kid;
    }
    Node& n = nodes_[index];
    auto is_const = [&](int kid) { return nodes_[kid].kind == NodeKind::kConst; };
    auto value = [&](int kid) { return node_value(nodes_[kid]); };
    bool all_const = true;
    for (int kid : n.kids) all_const = all_const && is_const(kid);
    switch (n.kind) {
      case NodeKind::kConst:
      case NodeKind::kLoad:
      case NodeKind::kLoadComponent:
        return index;
      case NodeKind::kUnary:
        if (all_const) {
          const Value v = expr::unary(n.op, value(n.kids[0]));
          if (!v.is_error()) make_const(n, v);
        }
        return index;
      case NodeKind::kBinary:
        if (all_const) {
          scratch_.set_used(0);
          const Value v = expr::binary(n.op, value(n.kids[0]), value(n.kids[1]), scratch_);
          if (!v.is_error()) make_const(n, v);
        }
        return index;
      case NodeKind::kAnd:
      case NodeKind::kOr: {
        if (!is_const(n.kids[0])) return index;
        const Value left = expr::to_bool(value(n.kids[0]));
        if (left.is_error()) return index;
        if ((left.number != 0.0) == (n.kind == NodeKind::kOr)) {
          make_const(n, left);
          return index;
        }
        const int right = n.kids[1];
        if (is_const(right)) {
          const Value v = expr::to_bool(value(right));
          if (!v.is_error()) make_const(n, v);
          if (!v.is_error()) return index;
        }
        n.kind = NodeKind::kUnary;
        n.op = Op::kToBool;
        n.kids = {right};
        return index;
      }
      case NodeKind::kCond: {
        if (!is_const(n.kids[0])) return index;
        const Value c = expr::to_bool(value(n.kids[0]));
        if (c.is_error()) return index;
        return c.number != 0.0 ? n.kids[1] : n.kids[2];
      }
      case NodeKind::kCall:
      case NodeKind::kIn:
        if (all_const) {
          Value args[Expression::kMaxStack];
          const std::size_t count = n.kids.size();
          if (count > Expression::kMaxStack) return index;
          for (std::size_t k = 0; k < count; ++k) args[k] = value(n.kids[k]);
          const Func f = n.kind == NodeKind::kIn ? Func::kIn : n.func;
          const Value v = expr::call(f, args, static_cast<int>(count));
          if (!v.is_error()) make_const(n, v);
        }
        return index;
    }
    return index;
  }

  void push_depth(int delta) {
    depth_ += delta;
    if (depth_ > max_depth_) max_depth_ = depth_;
  }

  std::uint32_t instr(Op op, std::uint32_t a = 0, std::uint8_t b = 0) {
    out_->code_.push_back(Expression::Instr{static_cast<std::uint8_t>(op), b, a});
    return static_cast<std::uint32_t>(out_->code_.size() - 1);
  }
  std::uint32_t here() const { return static_cast<std::uint32_t>(out_->code_.size()); }

  void emit(int index) {
    const Node& n = nodes_[index];
    switch (n.kind) {
      case NodeKind::kConst: {
        Expression::Constant c;
        c.kind = n.value_kind;
        c.number = n.number;
        if (n.value_kind == ValueKind::kString) {
          c.offset = static_cast<std::uint32_t>(out_->pool_.size());
          c.length = static_cast<std::uint32_t>(n.text.size());
          out_->pool_ += n.text;
        }
        out_->constants_.push_back(c);
        instr(Op::kConst, static_cast<std::uint32_t>(out_->constants_.size() - 1));
        push_depth(1);
        return;
      }
      case NodeKind::kLoad:
        instr(Op::kLoad, n.param);
        push_depth(1);
        return;
      case NodeKind::kLoadComponent:
        instr(Op::kLoadComponent, n.param, n.component);
        push_depth(1);
        return;
      case NodeKind::kUnary:
        emit(n.kids[0]);
        instr(n.op);
        return;
      case NodeKind::kBinary:
        emit(n.kids[0]);
        emit(n.kids[1]);
        instr(n.op);
        push_depth(-1);
        return;
      case NodeKind::kAnd:
      case NodeKind::kOr: {
        emit(n.kids[0]);
        const std::uint32_t jump = instr(n.kind == NodeKind::kAnd ? Op::kAnd : Op::kOr);
        push_depth(-1);
        emit(n.kids[1]);
        instr(Op::kToBool);
        out_->code_[jump].a = here();
        return;
      }
      case NodeKind::kCond: {
        emit(n.kids[0]);
        const std::uint32_t to_else = instr(Op::kJumpIfFalse);
        push_depth(-1);
        emit(n.kids[1]);
        const std::uint32_t to_end = instr(Op::kJump);
        push_depth(-1);
        out_->code_[to_else].a = here();
        emit(n.kids[2]);
        out_->code_[to_end].a = here();
        return;
      }
      case NodeKind::kCall:
      case NodeKind::kIn: {
        for (int kid : n.kids) emit(kid);
        const auto count = static_cast<int>(n.kids.size());
        // More arguments than the stack holds are rejected through max_depth_.
        const auto b = static_cast<std::uint8_t>(count > 255 ? 255 : count);
        if (n.kind == NodeKind::kIn) {
          instr(Op::kIn, 0, b);
        } else {
          instr(Op::kCall, static_cast<std::uint32_t>(n.func), b);
        }
        push_depth(1 - count);
        return;
      }
    }
  }

  std::string_view text_;
  const ParameterSchema& schema_;
  const CompileOptions& options_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  int nesting_ = 0;
  std::vector<Node> nodes_;
  std::vector<std::string> unknown_;
  EvalScratch scratch_;
  Expression* out_ = nullptr;
  int depth_ = 0;
  int max_depth_ = 0;
};

Result<Expression> compile(std::string_view text, const ParameterSchema& schema,
                           const CompileOptions& options) {
  return ExpressionCompiler(text, schema, options).compile();
}

}  // namespace critter::anim
