// SPDX-License-Identifier: MIT
// Relaxed JSON reader and `extends` merge for animation configs. nlohmann-json's SAX parser does
// the tokenising (it skips comments itself); this file adds trailing commas, locations and the
// merge rules.
#include "relaxed_json.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "critter/core/strings.h"

namespace critter::config {

const ConfigValue* ConfigValue::find(std::string_view key) const {
  if (kind != Kind::kObject) return nullptr;
  for (auto it = members.rbegin(); it != members.rend(); ++it) {
    if (iequals(it->first, key)) return &it->second;
  }
  return nullptr;
}

bool ConfigValue::equals(const ConfigValue& other) const {
  if (kind != other.kind) return false;
  switch (kind) {
    case Kind::kNull:
      return true;
    case Kind::kBool:
      return boolean == other.boolean;
    case Kind::kNumber:
      return number == other.number;
    case Kind::kString:
      return string == other.string;
    case Kind::kArray:
      if (items.size() != other.items.size()) return false;
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (!items[i].equals(other.items[i])) return false;
      }
      return true;
    case Kind::kObject: {
      if (members.size() != other.members.size()) return false;
      for (const auto& [key, value] : members) {
        const ConfigValue* o = other.find(key);
        if (o == nullptr || !value.equals(*o)) return false;
      }
      return true;
    }
  }
  return false;
}

namespace detail {

void Problems::error(ErrorCode code, const SourceLocation& where, std::string message) {
  errors.push_back(Error::at(code, where.file, where.pointer, std::move(message)));
}

void Problems::warn(const SourceLocation& where, std::string message) {
  if (diag != nullptr) diag->warn(where.file, where.pointer, std::move(message));
}

namespace {

// Skips whitespace and comments from `i`; returns the index of the next significant byte.
std::size_t skip_blank(std::string_view t, std::size_t i) {
  while (i < t.size()) {
    const char c = t[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
    } else if (c == '/' && i + 1 < t.size() && t[i + 1] == '/') {
      while (i < t.size() && t[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < t.size() && t[i + 1] == '*') {
      const std::size_t end = t.find("*/", i + 2);
      i = end == std::string_view::npos ? t.size() : end + 2;
    } else {
      break;
    }
  }
  return i;
}

}  // namespace

std::string blank_trailing_commas(std::string_view text) {
  std::string out(text);
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '"') {
      // Strings: skip to the closing quote, honouring backslash escapes.
      ++i;
      while (i < text.size() && text[i] != '"') i += text[i] == '\\' ? 2 : 1;
      ++i;
    } else if (c == '/' && i + 1 < text.size() && (text[i + 1] == '/' || text[i + 1] == '*')) {
      i = skip_blank(text, i);
    } else if (c == ',') {
      const std::size_t next = skip_blank(text, i + 1);
      if (next < text.size() && (text[next] == '}' || text[next] == ']')) out[i] = ' ';
      ++i;
    } else {
      ++i;
    }
  }
  return out;
}

std::string line_column(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return std::to_string(line) + ":" + std::to_string(column);
}

std::string root_line_column(std::string_view text) {
  return line_column(text, skip_blank(text, 0));
}

namespace {

// Builds ConfigValue trees from nlohmann's SAX events.
class TreeBuilder {
 public:
  using json = nlohmann::json;
  using number_integer_t = json::number_integer_t;
  using number_unsigned_t = json::number_unsigned_t;
  using number_float_t = json::number_float_t;
  using string_t = json::string_t;
  using binary_t = json::binary_t;

  TreeBuilder(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  bool null() { return place(ConfigValue{}); }
  bool boolean(bool b) {
    ConfigValue v;
    v.kind = ConfigValue::Kind::kBool;
    v.boolean = b;
    return place(std::move(v));
  }
  bool number_integer(number_integer_t n) { return number(static_cast<double>(n)); }
  bool number_unsigned(number_unsigned_t n) { return number(static_cast<double>(n)); }
  bool number_float(number_float_t n, const string_t&) { return number(n); }
  bool string(string_t& s) {
    ConfigValue v;
    v.kind = ConfigValue::Kind::kString;
    v.string = std::move(s);
    return place(std::move(v));
  }
  bool binary(binary_t&) { return false; }
  bool start_object(std::size_t) { return open(ConfigValue::Kind::kObject); }
  bool key(string_t& k) {
    key_ = std::move(k);
    return true;
  }
  bool end_object() {
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) { return open(ConfigValue::Kind::kArray); }
  bool end_array() {
    stack_.pop_back();
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::json::exception& e) {
    // nlohmann's message starts with its id and repeats its own position; keep the rule.
    std::string message = e.what();
    if (const std::size_t id_end = message.find("] "); id_end != std::string::npos) {
      message = message.substr(id_end + 2);
    }
    if (const std::size_t colon = message.find(": "); message.starts_with("parse error")) {
      message = message.substr(colon + 2);
    }
    const std::size_t offset = token_start(position == 0 ? 0 : position - 1);
    const std::string line_col = line_column(text_, offset);
    if (e.id == 406) {
      // A number too large for a double (1e999): the JSON is well formed, the value is not
      // finite. Located at the value the parser was reading; the root value has the empty
      // pointer, so it is located by its line and column instead.
      const std::string pointer = pending_pointer();
      error_ = Error::at(ErrorCode::kInvalid, file_, pointer.empty() ? line_col : pointer,
                         "non-finite number (" + message + ", at " + line_col + ")");
      return false;
    }
    error_ = Error::at(ErrorCode::kParse, file_, line_col, "JSON syntax: " + message);
    return false;
  }

  ConfigValue take_root() { return std::move(root_); }
  const Error& error() const { return error_; }

 private:
  // `last` is the last byte of the token the parser stopped at (nlohmann reports the position just
  // past it); errors point at the token's first byte.
  std::size_t token_start(std::size_t last) const {
    if (last >= text_.size()) return last;
    auto word = [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '+' || c == '-';
    };
    if (text_[last] == '"') {
      std::size_t i = last;
      while (i > 0) {
        --i;
        if (text_[i] == '"' && (i == 0 || text_[i - 1] != '\\')) return i;
      }
      return last;
    }
    std::size_t i = last;
    while (i > 0 && word(text_[last]) && word(text_[i - 1])) --i;
    return i;
  }

  // Pointer of the value being read when the parser stopped.
  std::string pending_pointer() const {
    if (stack_.empty()) return {};
    const ConfigValue& parent = *stack_.back();
    if (parent.kind == ConfigValue::Kind::kObject) {
      return parent.where.pointer + "/" + json_pointer_token(key_);
    }
    return parent.where.pointer + "/" + std::to_string(parent.items.size());
  }
  bool number(double n) {
    ConfigValue v;
    v.kind = ConfigValue::Kind::kNumber;
    v.number = n;
    return place(std::move(v));
  }
  bool open(ConfigValue::Kind kind) {
    if (stack_.size() >= kMaxConfigNesting) {
      error_ = Error::at(
          ErrorCode::kLimit, file_, pending_pointer(),
          "arrays and objects nested deeper than " + std::to_string(kMaxConfigNesting) + " levels");
      return false;
    }
    ConfigValue v;
    v.kind = kind;
    ConfigValue* placed = place_ptr(std::move(v));
    stack_.push_back(placed);
    return true;
  }
  bool place(ConfigValue v) {
    place_ptr(std::move(v));
    return true;
  }
  // Stores `v` in the open container (or as the root) and gives it its location. Containers below
  // the top of the stack are not modified while a child is open, so the stack's pointers stay
  // valid.
  ConfigValue* place_ptr(ConfigValue v) {
    v.where.file = file_;
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    ConfigValue& parent = *stack_.back();
    if (parent.kind == ConfigValue::Kind::kObject) {
      v.where.pointer = parent.where.pointer + "/" + json_pointer_token(key_);
      parent.members.emplace_back(std::move(key_), std::move(v));
      return &parent.members.back().second;
    }
    v.where.pointer = parent.where.pointer + "/" + std::to_string(parent.items.size());
    parent.items.push_back(std::move(v));
    return &parent.items.back();
  }

  std::string_view text_;
  const std::string& file_;
  ConfigValue root_;
  std::vector<ConfigValue*> stack_;
  std::string key_;
  Error error_;
};

}  // namespace

Result<ConfigValue> parse_relaxed_json(std::string_view text, const std::string& file) {
  const std::string cleaned = blank_trailing_commas(text);
  TreeBuilder builder(text, file);
  const bool ok = nlohmann::json::sax_parse(cleaned, &builder, nlohmann::json::input_format_t::json,
                                            /*strict=*/true, /*ignore_comments=*/true);
  if (!ok) return fail(builder.error());
  return builder.take_root();
}

namespace {

void check_object_keys(const ConfigValue& v, bool is_map, Problems& problems) {
  for (std::size_t j = 1; j < v.members.size(); ++j) {
    const auto& [key_j, value_j] = v.members[j];
    for (std::size_t i = 0; i < j; ++i) {
      const std::string& key_i = v.members[i].first;
      if (!iequals(key_i, key_j)) continue;
      if (key_i == key_j || !is_map) {
        problems.warn(value_j.where, "'" + key_j + "' is written twice; the last one wins");
      } else {
        problems.error(ErrorCode::kInvalid, value_j.where,
                       "keys '" + key_i + "' and '" + key_j + "' differ only in case");
      }
      break;
    }
  }
}

void check_keys_recursive(const ConfigValue& v, bool is_map, Problems& problems) {
  if (v.is_object()) {
    check_object_keys(v, is_map, problems);
    for (const auto& member : v.members) check_keys_recursive(member.second, false, problems);
  } else if (v.is_array()) {
    for (const ConfigValue& item : v.items) check_keys_recursive(item, false, problems);
  }
}

}  // namespace

void check_duplicate_keys(const ConfigValue& root, const std::vector<std::string_view>& map_keys,
                          Problems& problems) {
  if (!root.is_object()) return;
  check_object_keys(root, false, problems);
  for (const auto& [key, value] : root.members) {
    const bool is_map = std::any_of(map_keys.begin(), map_keys.end(),
                                    [&](std::string_view m) { return iequals(m, key); });
    check_keys_recursive(value, is_map && value.is_object(), problems);
  }
}

namespace {

constexpr std::string_view kDirectives[] = {"$replace", "$remove", "$prepend", "$append"};

bool is_directive_object(const ConfigValue& v) {
  if (!v.is_object() || v.members.empty()) return false;
  return std::all_of(v.members.begin(), v.members.end(), [](const auto& m) {
    return std::any_of(std::begin(kDirectives), std::end(kDirectives),
                       [&](std::string_view d) { return iequals(d, m.first); });
  });
}

// Applies a directive object to the parent's array (empty when the parent has none).
ConfigValue apply_directives(const ConfigValue* parent, const ConfigValue& child,
                             Problems& problems) {
  ConfigValue out;
  out.kind = ConfigValue::Kind::kArray;
  out.where = child.where;
  if (parent != nullptr && parent->is_array()) out.items = parent->items;

  const ConfigValue* replace = child.find("$replace");
  if (replace != nullptr && child.members.size() > 1) {
    problems.error(ErrorCode::kInvalid, child.where,
                   "$replace stands alone; it cannot be combined with other directives");
    return out;
  }
  auto list = [&](std::string_view name) -> const ConfigValue* {
    const ConfigValue* v = child.find(name);
    if (v != nullptr && !v->is_array()) {
      problems.error(ErrorCode::kInvalid, v->where, std::string(name) + " expects an array");
      return nullptr;
    }
    return v;
  };
  auto resolved = [&](const ConfigValue& items) {
    std::vector<ConfigValue> r;
    r.reserve(items.items.size());
    for (const ConfigValue& item : items.items) r.push_back(merge_values(nullptr, item, problems));
    return r;
  };
  if (replace != nullptr) {
    if (const ConfigValue* r = list("$replace")) out.items = resolved(*r);
    return out;
  }
  if (const ConfigValue* remove = list("$remove")) {
    for (const ConfigValue& victim : remove->items) {
      const auto before = out.items.size();
      std::erase_if(out.items, [&](const ConfigValue& e) { return e.equals(victim); });
      if (out.items.size() == before) {
        problems.warn(victim.where, "$remove entry matched nothing in the parent array");
      }
    }
  }
  if (const ConfigValue* prepend = list("$prepend")) {
    std::vector<ConfigValue> front = resolved(*prepend);
    out.items.insert(out.items.begin(), std::make_move_iterator(front.begin()),
                     std::make_move_iterator(front.end()));
  }
  if (const ConfigValue* append = list("$append")) {
    std::vector<ConfigValue> back = resolved(*append);
    out.items.insert(out.items.end(), std::make_move_iterator(back.begin()),
                     std::make_move_iterator(back.end()));
  }
  return out;
}

}  // namespace

ConfigValue merge_values(const ConfigValue* parent, const ConfigValue& child, Problems& problems) {
  if (is_directive_object(child)) return apply_directives(parent, child, problems);
  if (child.is_object()) {
    ConfigValue out;
    if (parent != nullptr && parent->is_object()) out = *parent;
    out.kind = ConfigValue::Kind::kObject;
    out.where = child.where;
    // Names this child already wrote: a second spelling in the same object replaces (last wins)
    // instead of merging over the first.
    std::vector<std::size_t> written;
    for (const auto& [key, value] : child.members) {
      std::size_t slot = out.members.size();
      for (std::size_t i = 0; i < out.members.size(); ++i) {
        if (iequals(out.members[i].first, key)) slot = i;
      }
      if (slot == out.members.size()) {
        out.members.emplace_back(key, merge_values(nullptr, value, problems));
        written.push_back(slot);
        continue;
      }
      const bool again = std::find(written.begin(), written.end(), slot) != written.end();
      ConfigValue merged =
          merge_values(again ? nullptr : &out.members[slot].second, value, problems);
      out.members[slot] = {key, std::move(merged)};
      if (!again) written.push_back(slot);
    }
    return out;
  }
  if (child.is_array()) {
    ConfigValue out = child;
    for (ConfigValue& item : out.items) item = merge_values(nullptr, item, problems);
    return out;
  }
  return child;
}

}  // namespace detail
}  // namespace critter::config
