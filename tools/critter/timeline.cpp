// SPDX-License-Identifier: MIT
#include "timeline.h"

#include <cmath>
#include <fstream>
#include <iterator>
#include <optional>
#include <utility>

#include <nlohmann/json.hpp>

#include "describe.h"

namespace critter::cli {
namespace {

using Json = nlohmann::json;

Error invalid(const std::string& path, std::string pointer, std::string message) {
  return Error::at(ErrorCode::kInvalid, path, std::move(pointer), std::move(message));
}

std::optional<double> finite_number(const Json& j) {
  if (!j.is_number()) return std::nullopt;
  const double v = j.get<double>();
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

// A JSON value as a parameter value; nullopt for a shape no state name or parameter takes.
std::optional<anim::ParameterValue> value_of(const Json& j) {
  if (j.is_boolean()) return anim::ParameterValue::of_bool(j.get<bool>());
  if (j.is_string()) return anim::ParameterValue::of_string(j.get<std::string>());
  if (j.is_number()) {
    const std::optional<double> v = finite_number(j);
    if (!v) return std::nullopt;
    return anim::ParameterValue::of_float(*v);
  }
  if (j.is_array() && (j.size() == 2 || j.size() == 3)) {
    float c[3] = {0.0f, 0.0f, 0.0f};
    for (std::size_t i = 0; i < j.size(); ++i) {
      const std::optional<double> v = finite_number(j[i]);
      if (!v || std::abs(*v) > 3.0e38) return std::nullopt;
      c[i] = static_cast<float>(*v);
    }
    return j.size() == 2 ? anim::ParameterValue::of_vec2(vec2(c[0], c[1]))
                         : anim::ParameterValue::of_vec3(vec3(c[0], c[1], c[2]));
  }
  return std::nullopt;
}

Result<std::vector<TimelineValue>> values_of(const Json& object, const std::string& pointer,
                                             const std::string& path) {
  if (!object.is_object()) {
    return fail(invalid(path, pointer, "expected an object of NAME: VALUE"));
  }
  std::vector<TimelineValue> out;
  for (const auto& [name, j] : object.items()) {
    TimelineValue v;
    v.name = name;
    v.pointer = pointer + "/" + json_pointer_token(name);
    std::optional<anim::ParameterValue> value = value_of(j);
    if (!value) {
      return fail(invalid(path, v.pointer,
                          "expected a finite number, true/false, [x,y], [x,y,z] of finite "
                          "numbers or a string"));
    }
    v.value = std::move(*value);
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace

Result<Timeline> Timeline::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(Error::at(ErrorCode::kIo, path, "", "cannot open the timeline"));
  std::string text;
  char buffer[65536];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxTimelineBytes) {
      return fail(
          Error::at(ErrorCode::kLimit, path, "",
                    "a timeline is at most " + std::to_string(kMaxTimelineBytes) + " bytes"));
    }
  }
  if (in.bad()) return fail(Error::at(ErrorCode::kIo, path, "", "cannot read the timeline"));
  return parse(text, path);
}

Result<Timeline> Timeline::parse(std::string_view text, const std::string& path) {
  Json doc;
  try {
    doc = Json::parse(text);
  } catch (const Json::parse_error& e) {
    // The parser's message starts with its own "[json.exception.parse_error.N] " tag.
    std::string message = e.what();
    if (const std::size_t tag = message.find("] "); tag != std::string::npos) {
      message.erase(0, tag + 2);
    }
    const std::uint64_t offset = e.byte > 0 ? e.byte - 1 : 0;
    return fail(Error::at_offset(ErrorCode::kParse, path, offset, "malformed JSON: " + message));
  } catch (const Json::exception& e) {
    // A number too large for a double ("number overflow parsing '1e999'"): the parser gives no
    // position, so the first occurrence of the quoted literal locates it.
    std::string message = e.what();
    if (const std::size_t tag = message.find("] "); tag != std::string::npos) {
      message.erase(0, tag + 2);
    }
    const std::size_t open = message.find('\'');
    const std::size_t close = message.rfind('\'');
    const std::size_t at = open < close ? text.find(message.substr(open + 1, close - open - 1))
                                        : std::string_view::npos;
    if (at == std::string_view::npos) {
      return fail(Error::at(ErrorCode::kParse, path, "", "malformed JSON: " + message));
    }
    return fail(Error::at_offset(ErrorCode::kParse, path, at, "malformed JSON: " + message));
  }
  if (!doc.is_object() || !doc.contains("keys")) {
    return fail(invalid(path, "", R"(expected an object {"keys": [...]})"));
  }
  for (const auto& [name, j] : doc.items()) {
    if (name != "keys") {
      return fail(invalid(path, "/" + json_pointer_token(name),
                          "unknown member '" + name + "' (a timeline holds \"keys\")"));
    }
  }
  const Json& keys = doc["keys"];
  if (!keys.is_array()) {
    return fail(invalid(path, "/keys", R"(expected an array of keys {"t": T, "state": {...}})"));
  }
  if (keys.size() > kMaxTimelineKeys) {
    return fail(Error::at(ErrorCode::kLimit, path, "/keys",
                          "a timeline has at most " + std::to_string(kMaxTimelineKeys) + " keys"));
  }
  Timeline timeline;
  timeline.path = path;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const Json& k = keys[i];
    TimelineKey key;
    key.pointer = "/keys/" + std::to_string(i);
    if (!k.is_object()) {
      return fail(
          invalid(path, key.pointer,
                  R"(expected a key {"t": T, "state": {...}} or {"t": T, "params": {...}})"));
    }
    for (const auto& [name, j] : k.items()) {
      if (name != "t" && name != "state" && name != "params") {
        return fail(invalid(path, key.pointer + "/" + json_pointer_token(name),
                            "unknown member '" + name + "' (a key holds t, state and params)"));
      }
    }
    if (!k.contains("t")) {
      return fail(invalid(path, key.pointer, "the key has no time \"t\""));
    }
    const std::optional<double> t = finite_number(k["t"]);
    if (!t || *t < 0.0) {
      return fail(invalid(path, key.pointer + "/t", "t must be a finite number >= 0, in seconds"));
    }
    if (!timeline.keys.empty() && *t <= timeline.keys.back().t) {
      return fail(invalid(path, key.pointer + "/t",
                          "keys must be in time order: t " + format_number(static_cast<float>(*t)) +
                              " does not come after the previous key's t " +
                              format_number(static_cast<float>(timeline.keys.back().t))));
    }
    key.t = *t;
    if (k.contains("state")) {
      Result<std::vector<TimelineValue>> v = values_of(k["state"], key.pointer + "/state", path);
      if (!v) return fail(std::move(v.error()));
      key.has_state = true;
      key.state = std::move(*v);
    }
    if (k.contains("params")) {
      Result<std::vector<TimelineValue>> v = values_of(k["params"], key.pointer + "/params", path);
      if (!v) return fail(std::move(v.error()));
      key.has_params = true;
      key.params = std::move(*v);
    }
    timeline.keys.push_back(std::move(key));
  }
  return timeline;
}

void add_timeline_flag(CLI::App* app, std::string& path) {
  app->add_option("--timeline", path,
                  "JSON file of keys that change --creature state or --config parameters over "
                  "the simulated time (format below)");
}

std::string timeline_help() {
  return "Timeline (--timeline FILE.json, strict JSON):\n"
         "  {\"keys\": [{\"t\": 0, \"state\": {\"speed\": 1}}, {\"t\": 2, \"state\": {\"health\": "
         "0}}]}\n"
         "  Each key has a time t (seconds, >= 0, greater than the previous key's) and sets\n"
         "  \"state\" (state names, with --creature) or \"params\" (the config's parameters, with\n"
         "  --config) to numbers, true/false, [x,y], [x,y,z] or \"text\". A value holds from its\n"
         "  key's time on, until a later key sets it again; before that the --state or --param\n"
         "  value holds. A trigger parameter set true fires once, at its key's time.\n";
}

}  // namespace critter::cli
