// SPDX-License-Identifier: MIT
// The `--param NAME=VALUE` syntax shared by the command-line tool and the viewer: one argument
// parsed into a controller parameter value, and the close-name suggestions for a name the
// program's schema lacks. Header-only and free of any option-parsing library, so every tool under
// tools/ can include it without linking another tool.
#pragma once

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "critter/anim/parameters.h"
#include "critter/core/error.h"
#include "critter/core/math.h"
#include "critter/core/strings.h"

namespace critter::tools {

// One --param argument: the name as written and its value.
struct ParamArg {
  std::string name;
  anim::ParameterValue value;
};

namespace param_arg_detail {

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// A whole-string number; std::nullopt when `s` is not one. Non-finite values parse (the caller
// rejects them with a message rather than taking "inf" as a string).
inline std::optional<double> parse_number(std::string_view s) {
  s = trim(s);
  if (s.empty()) return std::nullopt;
  // from_chars does not take a leading '+'; a modder may write one.
  if (s.front() == '+' && s.size() > 1 && s[1] != '-') s.remove_prefix(1);
  double v = 0.0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace param_arg_detail

// Parses VALUE alone (spaces around it are ignored): `true` / `false` (any case) -> bool; a
// finite number -> float; `[x,y]` / `[x,y,z]` of finite numbers -> Vec2 / Vec3; `'text'` or
// `"text"` -> the text between the quotes; anything else -> that string as written (so `Jump` is
// the string 'Jump'). Errors (kUsage, path `path`, location `location`, the message quoting
// `quoted`): a non-finite number, a malformed vector.
inline Result<anim::ParameterValue> parse_param_value(std::string_view text,
                                                      const std::string& path,
                                                      const std::string& location = "--param",
                                                      std::string_view quoted = {}) {
  using param_arg_detail::parse_number;
  auto usage = [&](std::string message) {
    const std::string_view shown = quoted.empty() ? text : quoted;
    return fail(Error::at(ErrorCode::kUsage, path, location,
                          "'" + std::string(shown) + "': " + std::move(message)));
  };
  const std::string_view value = param_arg_detail::trim(text);
  if (iequals(value, "true") || iequals(value, "false"))
    return anim::ParameterValue::of_bool(iequals(value, "true"));
  if (const std::optional<double> number = parse_number(value)) {
    if (!std::isfinite(*number)) return usage("a number must be finite");
    return anim::ParameterValue::of_float(*number);
  }
  if (value.size() >= 2 && value.front() == '[' && value.back() == ']') {
    std::vector<float> parts;
    std::string_view rest = value.substr(1, value.size() - 2);
    bool ok = true;
    while (ok) {
      const std::size_t comma = std::min(rest.find(','), rest.size());
      const std::optional<double> v = parse_number(rest.substr(0, comma));
      ok = v && std::isfinite(*v) && std::abs(*v) <= 3.0e38;
      if (ok) parts.push_back(static_cast<float>(*v));
      if (comma == rest.size()) break;
      rest.remove_prefix(comma + 1);
    }
    if (!ok || parts.size() < 2 || parts.size() > 3) {
      return usage("expected a vector [x,y] or [x,y,z] of finite numbers");
    }
    return parts.size() == 2 ? anim::ParameterValue::of_vec2(vec2(parts[0], parts[1]))
                             : anim::ParameterValue::of_vec3(vec3(parts[0], parts[1], parts[2]));
  }
  if (value.size() >= 2 && (value.front() == '\'' || value.front() == '"') &&
      value.back() == value.front()) {
    return anim::ParameterValue::of_string(value.substr(1, value.size() - 2));
  }
  return anim::ParameterValue::of_string(value);
}

// Parses NAME=VALUE (split at the first '='; spaces around NAME and VALUE are ignored), VALUE as
// parse_param_value() reads it. Errors (kUsage, path `path`, location "--param"): no '=', an
// empty name, and those of parse_param_value().
inline Result<ParamArg> parse_param_arg(std::string_view text, const std::string& path) {
  auto usage = [&](std::string message) {
    return fail(Error::at(ErrorCode::kUsage, path, "--param",
                          "'" + std::string(text) + "': " + std::move(message)));
  };
  const std::size_t eq = text.find('=');
  if (eq == std::string_view::npos) return usage("expected NAME=VALUE");
  ParamArg arg;
  arg.name = std::string(param_arg_detail::trim(text.substr(0, eq)));
  if (arg.name.empty()) return usage("the parameter name is empty");
  Result<anim::ParameterValue> value =
      parse_param_value(text.substr(eq + 1), path, "--param", text);
  if (!value) return fail(std::move(value.error()));
  arg.value = std::move(*value);
  return arg;
}

using critter::closest_names;
using critter::did_you_mean;

// The schema's names closest to `name`, as closest_names() picks them (ties in schema order).
inline std::vector<std::string> closest_parameter_names(const anim::ParameterSchema& schema,
                                                        std::string_view name,
                                                        std::size_t limit = 3) {
  std::vector<std::string_view> names;
  names.reserve(schema.size());
  for (anim::ParamIndex i = 0; i < schema.size(); ++i) names.push_back(schema.name(i));
  return closest_names(names, name, limit);
}

}  // namespace critter::tools
