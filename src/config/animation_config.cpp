// SPDX-License-Identifier: MIT
// Animation config PARSE stage: files, `extends`, templates and the typed fields of
// specs/animation-config.md. The reader keeps going after an error in one element so that a
// checker can list every problem; the first error is what load_animation_config() returns.
#include "critter/config/animation_config.h"
#include "critter/config/config_paths.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>

#include "critter/anim/expression.h"
#include "critter/core/strings.h"
#include "relaxed_json.h"

namespace critter::config {

using detail::Problems;
using Kind = ConfigValue::Kind;

quat root_bone_rotation_from_degrees(const vec3& degrees) {
  const vec3 r = glm::radians(degrees);
  return glm::normalize(glm::angleAxis(r.y, vec3(0, 1, 0)) * glm::angleAxis(r.x, vec3(1, 0, 0)) *
                        glm::angleAxis(r.z, vec3(0, 0, 1)));
}

namespace {

template <class T>
const T* find_named(const std::vector<T>& items, std::string_view name, std::string T::*field) {
  for (const T& item : items) {
    if (iequals(item.*field, name)) return &item;
  }
  return nullptr;
}

}  // namespace

const AnimationAlias* AnimationConfig::find_animation(std::string_view alias) const {
  return find_named(animations, alias, &AnimationAlias::name);
}
const LayerConfig* AnimationConfig::find_layer(std::string_view name) const {
  return find_named(layers, name, &LayerConfig::name);
}
const ParameterConfig* AnimationConfig::find_parameter(std::string_view name) const {
  return find_named(parameters, name, &ParameterConfig::name);
}

std::string AnimationConfig::resolve_bone_alias(std::string_view name) const {
  std::string current(name);
  // A chain longer than the alias count is a cycle; parse already rejected those.
  for (std::size_t step = 0; step <= bone_aliases.size(); ++step) {
    const BoneAlias* alias = find_named(bone_aliases, current, &BoneAlias::alias);
    if (alias == nullptr) return current;
    current = alias->bone;
  }
  return current;
}

namespace {

constexpr int kMaxExtendsDepth = 16;

std::string kind_name(const ConfigValue& v) {
  switch (v.kind) {
    case Kind::kNull:
      return "null";
    case Kind::kBool:
      return "a bool";
    case Kind::kNumber:
      return "a number";
    case Kind::kString:
      return "a string";
    case Kind::kArray:
      return "an array";
    case Kind::kObject:
      return "an object";
  }
  return "?";
}

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b])) != 0) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])) != 0) --e;
  return std::string(s.substr(b, e - b));
}

// §15: outside conditions a string is an expression when it holds both '[' and ']' or starts
// with "expr:" (the expression compiler's rule). Returns the expression text or empty.
std::string expression_text(const std::string& s) {
  const anim::ClassifiedText c = anim::classify_text(s, anim::ExpressionField::kValue);
  return c.kind == anim::TextKind::kExpression ? std::string(c.text) : std::string();
}

// Reads the properties of one object and warns about the ones nobody asked for.
class Fields {
 public:
  Fields(const ConfigValue& object, Problems& problems) : object_(object), problems_(problems) {}
  Fields(const Fields&) = delete;
  Fields& operator=(const Fields&) = delete;
  ~Fields() {
    for (const auto& [key, value] : object_.members) {
      const bool known = std::any_of(used_.begin(), used_.end(),
                                     [&](std::string_view u) { return iequals(u, key); });
      if (!known) {
        problems_.warn(value.where,
                       "unknown property '" + key + "'" + did_you_mean(closest_names(used_, key)));
      }
    }
  }
  const ConfigValue* get(std::string_view name) {
    used_.push_back(name);
    return object_.find(name);
  }
  // A property that is accepted and ignored with its own warning.
  void obsolete(std::string_view name, std::string_view why) {
    if (const ConfigValue* v = get(name)) problems_.warn(v->where, std::string(why));
  }

 private:
  const ConfigValue& object_;
  Problems& problems_;
  std::vector<std::string_view> used_;
};

// ---- scalar conversions: each reports its own error and returns false on failure ----------------

bool wrong_type(const ConfigValue& v, Problems& p, std::string_view expected) {
  p.error(ErrorCode::kInvalid, v.where,
          "expected " + std::string(expected) + ", got " + kind_name(v));
  return false;
}

bool parse_number_literal(const std::string& text, double& out) {
  const std::string t = trim(text);
  if (t.empty()) return false;
  char* end = nullptr;
  out = std::strtod(t.c_str(), &end);
  return end == t.c_str() + t.size();
}

bool finite_or_error(const ConfigValue& v, double d, Problems& p) {
  if (std::isfinite(d) && std::isfinite(static_cast<float>(d))) return true;
  p.error(ErrorCode::kInvalid, v.where, "non-finite number");
  return false;
}

bool to_double(const ConfigValue& v, Problems& p, double& out) {
  if (v.is_number()) {
    out = v.number;
    return finite_or_error(v, out, p);
  }
  if (v.is_string()) {
    if (!parse_number_literal(v.string, out)) {
      p.error(ErrorCode::kInvalid, v.where, "expected a number, got string '" + v.string + "'");
      return false;
    }
    return finite_or_error(v, out, p);
  }
  return wrong_type(v, p, "a number");
}

bool to_float(const ConfigValue& v, Problems& p, float& out) {
  double d = 0.0;
  if (!to_double(v, p, d)) return false;
  out = static_cast<float>(d);
  return true;
}

bool to_int(const ConfigValue& v, Problems& p, int& out) {
  double d = 0.0;
  if (!to_double(v, p, d)) return false;
  if (d != std::floor(d) || d < -2147483648.0 || d > 2147483647.0) {
    p.error(ErrorCode::kInvalid, v.where, "expected an integer");
    return false;
  }
  out = static_cast<int>(d);
  return true;
}

bool to_bool(const ConfigValue& v, Problems& p, bool& out) {
  if (v.is_bool()) {
    out = v.boolean;
    return true;
  }
  if (v.is_string()) {
    const std::string t = trim(v.string);
    if (iequals(t, "true") || iequals(t, "false")) {
      out = iequals(t, "true");
      return true;
    }
    p.error(ErrorCode::kInvalid, v.where, "expected a bool, got string '" + v.string + "'");
    return false;
  }
  return wrong_type(v, p, "a bool");
}

bool to_string_value(const ConfigValue& v, Problems& p, std::string& out) {
  if (!v.is_string()) return wrong_type(v, p, "a string");
  out = v.string;
  return true;
}

// [x, y(, z)] or {X, Y(, Z)} (keys case-insensitive, missing components 0).
bool to_vec(const ConfigValue& v, Problems& p, int n, vec3& out) {
  const std::string what = n == 2 ? "a Vec2 ([x, y] or {X, Y})" : "a Vec3 ([x, y, z] or {X, Y, Z})";
  out = vec3(0.0f);
  if (v.is_array()) {
    if (static_cast<int>(v.items.size()) != n) return wrong_type(v, p, what);
    bool ok = true;
    for (int i = 0; i < n; ++i)
      ok = to_float(v.items[static_cast<std::size_t>(i)], p, out[i]) && ok;
    return ok;
  }
  if (v.is_object()) {
    static constexpr std::string_view kAxes[] = {"X", "Y", "Z"};
    bool ok = true;
    for (const auto& [key, value] : v.members) {
      int axis = -1;
      for (int i = 0; i < n; ++i) {
        if (iequals(key, kAxes[i])) axis = i;
      }
      if (axis < 0) {
        p.warn(value.where, "unknown property '" + key + "'");
        continue;
      }
      ok = to_float(value, p, out[axis]) && ok;
    }
    return ok;
  }
  return wrong_type(v, p, what);
}

bool to_string_list(const ConfigValue& v, Problems& p, std::vector<std::string>& out,
                    std::vector<SourceLocation>* where = nullptr) {
  if (!v.is_array()) return wrong_type(v, p, "an array of strings");
  bool ok = true;
  for (const ConfigValue& item : v.items) {
    std::string s;
    if (!to_string_value(item, p, s)) {
      ok = false;
      continue;
    }
    out.push_back(std::move(s));
    if (where != nullptr) where->push_back(item.where);
  }
  return ok;
}

template <class E>
struct EnumName {
  std::string_view name;
  E value;
};

template <class E, std::size_t N>
bool to_enum(const ConfigValue& v, Problems& p, const EnumName<E> (&names)[N], E& out) {
  if (!v.is_string()) return wrong_type(v, p, "a string");
  for (const auto& n : names) {
    if (iequals(n.name, trim(v.string))) {
      out = n.value;
      return true;
    }
  }
  std::string expected;
  for (std::size_t i = 0; i < N; ++i) {
    // Spellings that only alias another (e.g. "TwoBoneIK") are not listed.
    if (i > 0 && names[i].value == names[i - 1].value) continue;
    expected += (expected.empty() ? "" : ", ") + std::string(names[i].name);
  }
  p.error(ErrorCode::kInvalid, v.where,
          "unknown value '" + v.string + "'; expected one of " + expected);
  return false;
}

void read_dynamic(const ConfigValue& v, Problems& p, DynamicFloat& out) {
  out.written = true;
  out.where = v.where;
  if (v.is_string()) {
    std::string expr = expression_text(v.string);
    if (!expr.empty()) {
      out.expression = std::move(expr);
      return;
    }
  }
  to_float(v, p, out.value);
}

void read_dynamic(const ConfigValue& v, Problems& p, DynamicBool& out) {
  out.written = true;
  out.where = v.where;
  if (v.is_string()) {
    std::string expr = expression_text(v.string);
    if (!expr.empty()) {
      out.expression = std::move(expr);
      return;
    }
  }
  to_bool(v, p, out.value);
}

// Helpers reading an optional property straight into a field.
template <class T, class F>
void opt(Fields& f, std::string_view name, F convert, T& out) {
  if (const ConfigValue* v = f.get(name)) {
    T value = out;
    if (convert(*v, value)) out = value;
  }
}

// ---- files and paths
// -----------------------------------------------------------------------------

Result<std::string> read_file(const std::string& path, const SourceLocation& from) {
  // A directory opens and reads as no text, which would be reported as a JSON syntax error.
  if (std::error_code ec; std::filesystem::is_directory(path, ec))
    return fail(Error::at(
        ErrorCode::kIo, from.file.empty() ? path : from.file, from.pointer,
        (from.file.empty() ? "" : "'" + path + "' ") + "is a directory, not a config file"));
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return fail(Error::at(ErrorCode::kIo, from.file.empty() ? path : from.file, from.pointer,
                          "cannot open '" + path + "'"));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string canonical_key(const std::string& path) {
  std::error_code ec;
  const auto c = std::filesystem::weakly_canonical(path, ec);
  return ec ? path : c.string();
}

const std::vector<std::string_view> kConfigMaps = {"layers", "animations", "states", "parameters",
                                                   "boneAliases"};

class Loader {
 public:
  Loader(const AnimationConfigOptions& options, const std::string& path, Problems& problems)
      : problems_(problems) {
    rules_.asset_roots = options.asset_roots;
    rules_.home = std::filesystem::path(path).parent_path().string();
    rules_.allow_outside = options.allow_outside;
  }

  // Reads `file` (from `text` when given) and its `extends` chain, merged. Null on a fatal error.
  std::optional<ConfigValue> load_chain(const std::string& file, const std::string* text,
                                        const SourceLocation& from,
                                        std::vector<std::string>& chain) {
    std::string owned;
    if (text == nullptr) {
      auto read = read_file(file, from);
      if (!read) {
        problems_.errors.push_back(std::move(read.error()));
        return std::nullopt;
      }
      owned = std::move(*read);
      text = &owned;
    }
    auto parsed = detail::parse_relaxed_json(*text, file);
    if (!parsed) {
      problems_.errors.push_back(std::move(parsed.error()));
      return std::nullopt;
    }
    files_.push_back(file);
    if (!parsed->is_object()) {
      root_not_object(*parsed, *text, file);
      return std::nullopt;
    }
    detail::check_duplicate_keys(*parsed, kConfigMaps, problems_);
    chain.push_back(canonical_key(file));

    ConfigValue child = std::move(*parsed);
    const ConfigValue* extends = child.find("extends");
    std::optional<ConfigValue> parent;
    if (extends != nullptr && !extends->is_null()) {
      std::string written;
      if (!to_string_value(*extends, problems_, written)) return std::nullopt;
      const ConfigFileLookup resolved = resolve_config_file(written, file, rules_, ".json");
      if (!resolved.refusal.empty()) {
        problems_.error(ErrorCode::kInvalid, extends->where, resolved.refusal);
        return std::nullopt;
      }
      if (!resolved.found()) {
        problems_.error(ErrorCode::kIo, extends->where,
                        "parent config '" + written + "' not found");
        return std::nullopt;
      }
      const std::string key = canonical_key(resolved.path);
      if (std::find(chain.begin(), chain.end(), key) != chain.end()) {
        std::string names;
        for (const std::string& c : chain)
          names += std::filesystem::path(c).filename().string() + " -> ";
        names += std::filesystem::path(key).filename().string();
        problems_.error(ErrorCode::kInvalid, extends->where, "extends cycle: " + names);
        return std::nullopt;
      }
      if (static_cast<int>(chain.size()) > kMaxExtendsDepth) {
        problems_.error(ErrorCode::kLimit, extends->where,
                        "extends chain deeper than " + std::to_string(kMaxExtendsDepth));
        return std::nullopt;
      }
      parent = load_chain(resolved.path, nullptr, extends->where, chain);
      if (!parent) return std::nullopt;
      // `extends` is not inherited.
      std::erase_if(parent->members, [](const auto& m) { return iequals(m.first, "extends"); });
    }
    std::erase_if(child.members, [](const auto& m) { return iequals(m.first, "extends"); });
    return detail::merge_values(parent ? &*parent : nullptr, child, problems_);
  }

  std::optional<AnimationTemplate> load_template(const std::string& written,
                                                 const SourceLocation& from) {
    const ConfigFileLookup lookup =
        resolve_config_file(written, from.file, rules_, ".template.json");
    if (!lookup.refusal.empty()) {
      problems_.error(ErrorCode::kInvalid, from, lookup.refusal);
      return std::nullopt;
    }
    const std::optional<std::string> resolved =
        lookup.found() ? std::optional<std::string>(lookup.path) : std::nullopt;
    if (!resolved) {
      const std::vector<std::string_view> builtins = builtin_template_names();
      problems_.error(ErrorCode::kInvalid, from,
                      "unknown template '" + written + "' (neither built in nor a template file)" +
                          did_you_mean(closest_names(builtins, trim(written))));
      return std::nullopt;
    }
    auto text = read_file(*resolved, from);
    if (!text) {
      problems_.errors.push_back(std::move(text.error()));
      return std::nullopt;
    }
    auto parsed = detail::parse_relaxed_json(*text, *resolved);
    if (!parsed) {
      problems_.errors.push_back(std::move(parsed.error()));
      return std::nullopt;
    }
    files_.push_back(*resolved);
    if (!parsed->is_object()) {
      root_not_object(*parsed, *text, *resolved);
      return std::nullopt;
    }
    detail::check_duplicate_keys(*parsed, {"layers"}, problems_);
    const ConfigValue root = detail::merge_values(nullptr, *parsed, problems_);
    return read_template(root);
  }

  std::vector<std::string> take_files() { return std::move(files_); }

 private:
  AnimationTemplate read_template(const ConfigValue& root) {
    AnimationTemplate t;
    t.where = root.where;
    Fields f(root, problems_);
    if (const ConfigValue* name = f.get("name")) {
      to_string_value(*name, problems_, t.name);
    } else {
      problems_.error(ErrorCode::kInvalid, root.where, "template has no 'name'");
    }
    if (const ConfigValue* req = f.get("requiredBones")) {
      to_string_list(*req, problems_, t.required_bones);
    }
    f.obsolete("stateTracks", "'stateTracks' is obsolete and ignored");
    if (const ConfigValue* layers = f.get("layers")) {
      if (!layers->is_object()) {
        wrong_type(*layers, problems_, "an object of layers");
      } else {
        for (const auto& [name, value] : layers->members) {
          if (!value.is_object()) {
            wrong_type(value, problems_, "an object");
            continue;
          }
          TemplateLayer l;
          l.name = name;
          Fields lf(value, problems_);
          if (const ConfigValue* index = lf.get("index")) {
            to_int(*index, problems_, l.index);
          } else {
            problems_.error(ErrorCode::kInvalid, value.where, "template layer has no 'index'");
          }
          for (const TemplateLayer& other : t.layers) {
            if (other.index == l.index) {
              problems_.error(ErrorCode::kInvalid, value.where,
                              "layer index " + std::to_string(l.index) + " is also used by '" +
                                  other.name + "'");
            }
          }
          if (const ConfigValue* mode = lf.get("blendMode")) {
            static constexpr EnumName<LayerBlendMode> kModes[] = {
                {"Override", LayerBlendMode::kOverride}, {"Additive", LayerBlendMode::kAdditive}};
            to_enum(*mode, problems_, kModes, l.blend_mode);
          }
          if (const ConfigValue* mask = lf.get("boneMask")) {
            to_string_list(*mask, problems_, l.bone_mask);
          }
          if (const ConfigValue* mask = lf.get("boneMaskExclude")) {
            to_string_list(*mask, problems_, l.bone_mask_exclude);
          }
          if (const ConfigValue* w = lf.get("weight"); w != nullptr && !w->is_null()) {
            float weight = 1.0f;
            if (to_float(*w, problems_, weight)) l.weight = weight;
          }
          t.layers.push_back(std::move(l));
        }
      }
    }
    return t;
  }

  // A document whose root is not an object, located at the line and column where the root starts.
  void root_not_object(const ConfigValue& root, std::string_view text, const std::string& file) {
    problems_.error(ErrorCode::kInvalid, {file, detail::root_line_column(text)},
                    "expected an object at the top level, got " + kind_name(root));
  }

  ConfigPathRules rules_;
  Problems& problems_;
  std::vector<std::string> files_;
};

// ---- typed sections ----------------------------------------------------------------------------

class Reader {
 public:
  explicit Reader(Problems& problems) : p_(problems) {}

  void read_source(const ConfigValue& v, AnimationReference& ref) {
    ref.source_where = v.where;
    if (v.is_null()) {
      ref.source = "";
      ref.kind = SourceKind::kNone;
      return;
    }
    std::string s;
    if (!to_string_value(v, p_, s)) return;
    ref.source = s;
    const std::string t = trim(s);
    if (t.empty()) {
      ref.kind = SourceKind::kNone;
    } else if (istarts_with(t, "animation://")) {
      ref.kind = SourceKind::kClip;
      ref.target = t.substr(12);
    } else if (istarts_with(t, "driver:")) {
      ref.kind = SourceKind::kDriver;
      ref.target = trim(std::string_view(t).substr(7));
    } else if (istarts_with(t, "file:")) {
      ref.kind = SourceKind::kFile;
      const std::string rest = t.substr(5);
      const std::size_t hash = rest.find('#');
      ref.target = rest.substr(0, hash);
      if (hash != std::string::npos) ref.file_clip = rest.substr(hash + 1);
    } else if (t.size() >= 2 && t.front() == '[' && t.back() == ']') {
      ref.kind = SourceKind::kParameter;
      ref.target = t.substr(1, t.size() - 2);
    } else {
      ref.kind = SourceKind::kName;
      ref.target = t;
    }
    const bool empty_target =
        ref.kind != SourceKind::kNone && ref.kind != SourceKind::kFile && ref.target.empty();
    if (empty_target || (ref.kind == SourceKind::kFile && ref.target.empty())) {
      p_.error(ErrorCode::kInvalid, v.where, "source '" + s + "' names nothing");
    }
  }

  std::optional<ActionConfig> read_action(const ConfigValue& v) {
    if (v.is_null()) return std::nullopt;
    if (!v.is_object()) {
      wrong_type(v, p_, "an object {type, name, data}");
      return std::nullopt;
    }
    ActionConfig a;
    a.where = v.where;
    Fields f(v, p_);
    if (const ConfigValue* type = f.get("type")) {
      static constexpr EnumName<ActionConfig::Type> kTypes[] = {
          {"trigger", ActionConfig::Type::kTrigger}, {"setState", ActionConfig::Type::kSetState}};
      to_enum(*type, p_, kTypes, a.type);
    }
    if (const ConfigValue* name = f.get("name")) to_string_value(*name, p_, a.name);
    if (const ConfigValue* data = f.get("data"); data != nullptr && !data->is_null()) {
      to_string_value(*data, p_, a.data);
    }
    if (const ConfigValue* state = f.get("state")) to_string_value(*state, p_, a.state);
    if (const ConfigValue* value = f.get("value")) a.value = *value;
    if (a.type == ActionConfig::Type::kTrigger && a.name.empty()) {
      p_.error(ErrorCode::kInvalid, v.where, "a trigger action needs a 'name'");
    }
    if (a.type == ActionConfig::Type::kSetState && a.state.empty()) {
      p_.error(ErrorCode::kInvalid, v.where, "a setState action needs a 'state'");
    }
    return a;
  }

  std::vector<EventConfig> read_events(const ConfigValue& v) {
    std::vector<EventConfig> events;
    if (v.is_null()) return events;
    if (!v.is_array()) {
      wrong_type(v, p_, "an array of events");
      return events;
    }
    for (const ConfigValue& item : v.items) {
      if (!item.is_object()) {
        wrong_type(item, p_, "an event object {time, name, data}");
        continue;
      }
      EventConfig e;
      e.where = item.where;
      Fields f(item, p_);
      if (const ConfigValue* time = f.get("time")) {
        if (to_float(*time, p_, e.time) && (e.time < 0.0f || e.time > 1.0f)) {
          p_.error(ErrorCode::kOutOfRange, time->where, "event time is outside [0, 1]");
        }
      } else {
        p_.error(ErrorCode::kInvalid, item.where, "event has no 'time'");
      }
      if (const ConfigValue* name = f.get("name")) {
        to_string_value(*name, p_, e.name);
      } else {
        p_.error(ErrorCode::kInvalid, item.where, "event has no 'name'");
      }
      if (const ConfigValue* data = f.get("data"); data != nullptr && !data->is_null()) {
        to_string_value(*data, p_, e.data);
      }
      events.push_back(std::move(e));
    }
    return events;
  }

  std::optional<quat> read_rotation(const ConfigValue& v) {
    if (v.is_null()) return std::nullopt;
    vec3 degrees(0.0f);
    if (v.is_number() || v.is_string()) {
      if (!to_float(v, p_, degrees.y)) return std::nullopt;
    } else if (!to_vec(v, p_, 3, degrees)) {
      return std::nullopt;
    }
    return root_bone_rotation_from_degrees(degrees);
  }

  std::optional<vec3> read_translation(const ConfigValue& v) {
    if (v.is_null()) return std::nullopt;
    vec3 t(0.0f);
    if (!to_vec(v, p_, 3, t)) return std::nullopt;
    return t;
  }

  std::optional<RootMotionConfig> read_root_motion(const ConfigValue& v) {
    if (v.is_null()) return std::nullopt;
    if (!v.is_object()) {
      wrong_type(v, p_, "a rootMotion object");
      return std::nullopt;
    }
    RootMotionConfig rm;
    rm.where = v.where;
    Fields f(v, p_);
    if (const ConfigValue* bone = f.get("sourceBone"); bone != nullptr && !bone->is_null()) {
      std::string s;
      if (to_string_value(*bone, p_, s)) {
        rm.source_bone = s;
        rm.source_bone_where = bone->where;
      }
    }
    auto number = [&](const ConfigValue& x, float& out) { return to_float(x, p_, out); };
    // Smooth times and spring constants: a negative one would make the spring diverge.
    auto non_negative_number = [&](const ConfigValue& x, float& out) {
      if (!to_float(x, p_, out)) return false;
      if (out >= 0.0f) return true;
      p_.error(ErrorCode::kOutOfRange, x.where, "must be >= 0");
      return false;
    };
    auto vec = [&](const ConfigValue& x, vec3& out) { return to_vec(x, p_, 3, out); };
    auto opt_vec = [&](const ConfigValue& x, std::optional<vec3>& out) {
      if (x.is_null()) return true;
      vec3 value(0.0f);
      if (!to_vec(x, p_, 3, value)) return false;
      out = value;
      return true;
    };
    auto opt_number = [&](const ConfigValue& x, std::optional<float>& out) {
      if (x.is_null()) return true;
      float value = 0.0f;
      if (!to_float(x, p_, value)) return false;
      out = value;
      return true;
    };
    if (const ConfigValue* t = f.get("translation"); t != nullptr && !t->is_null()) {
      if (!t->is_object()) {
        wrong_type(*t, p_, "a translation object");
      } else {
        RootMotionTranslation& tr = rm.translation;
        Fields tf(*t, p_);
        static constexpr EnumName<RootMotionMode> kModes[] = {
            {"None", RootMotionMode::kNone},
            {"Blend", RootMotionMode::kBlend},
            {"AddImpulse", RootMotionMode::kAddImpulse},
            {"Override", RootMotionMode::kOverride}};
        static constexpr EnumName<RootMotionBlendMethod> kMethods[] = {
            {"SmoothDamp", RootMotionBlendMethod::kSmoothDamp},
            {"WeightedAverage", RootMotionBlendMethod::kWeightedAverage},
            {"SpringDamper", RootMotionBlendMethod::kSpringDamper}};
        static constexpr EnumName<RootMotionImpulseMethod> kImpulse[] = {
            {"Average", RootMotionImpulseMethod::kAverage},
            {"Peak", RootMotionImpulseMethod::kPeak},
            {"Weighted", RootMotionImpulseMethod::kWeighted}};
        opt(
            tf, "mode",
            [&](const ConfigValue& x, RootMotionMode& o) { return to_enum(x, p_, kModes, o); },
            tr.mode);
        opt(
            tf, "blendMethod",
            [&](const ConfigValue& x, RootMotionBlendMethod& o) {
              return to_enum(x, p_, kMethods, o);
            },
            tr.blend_method);
        opt(tf, "smoothTime", non_negative_number, tr.smooth_time);
        opt(tf, "blendWeight", number, tr.blend_weight);
        opt(tf, "springStiffness", non_negative_number, tr.spring_stiffness);
        opt(tf, "springDamping", non_negative_number, tr.spring_damping);
        opt(
            tf, "impulseMethod",
            [&](const ConfigValue& x, RootMotionImpulseMethod& o) {
              return to_enum(x, p_, kImpulse, o);
            },
            tr.impulse_method);
        opt(tf, "impulseScale", number, tr.impulse_scale);
        opt(tf, "impulsePhase", number, tr.impulse_phase);
        opt(tf, "impulseOverride", opt_vec, tr.impulse_override);
        opt(tf, "impulseSpeedOverride", opt_vec, tr.impulse_speed_override);
        opt(tf, "velocityMask", vec, tr.velocity_mask);
        opt(tf, "maxSpeed", number, tr.max_speed);
        opt(tf, "maxImpulse", number, tr.max_impulse);
      }
    }
    if (const ConfigValue* s = f.get("scale"); s != nullptr && !s->is_null()) {
      if (!s->is_object()) {
        wrong_type(*s, p_, "a scale object");
      } else {
        RootMotionScale& sc = rm.scale;
        Fields sf(*s, p_);
        static constexpr EnumName<RootScaleMode> kModes[] = {
            {"None", RootScaleMode::kNone}, {"Override", RootScaleMode::kOverride}};
        static constexpr EnumName<RootScaleSource> kSources[] = {
            {"Animation", RootScaleSource::kAnimation}, {"Fixed", RootScaleSource::kFixed}};
        opt(
            sf, "mode",
            [&](const ConfigValue& x, RootScaleMode& o) { return to_enum(x, p_, kModes, o); },
            sc.mode);
        opt(
            sf, "source",
            [&](const ConfigValue& x, RootScaleSource& o) { return to_enum(x, p_, kSources, o); },
            sc.source);
        opt(sf, "value", opt_number, sc.value);
        opt(sf, "blendDuration", number, sc.blend_duration);
        opt(sf, "minScale", opt_number, sc.min_scale);
      }
    }
    if (const ConfigValue* ph = f.get("physics"); ph != nullptr && !ph->is_null()) {
      if (!ph->is_object()) {
        wrong_type(*ph, p_, "a physics object");
      } else {
        RootMotionPhysics physics;
        Fields pf(*ph, p_);
        auto flag = [&](const ConfigValue& x, bool& o) { return to_bool(x, p_, o); };
        opt(pf, "disableGravity", flag, physics.disable_gravity);
        opt(pf, "disableTerrainCollision", flag, physics.disable_terrain_collision);
        opt(pf, "disableInputMovement", flag, physics.disable_input_movement);
        opt(pf, "clearVelocityOnExit", flag, physics.clear_velocity_on_exit);
        opt(pf, "disableAirDrag", flag, physics.disable_air_drag);
        opt(pf, "disableWaterDrag", flag, physics.disable_water_drag);
        opt(pf, "disableGroundDrag", flag, physics.disable_ground_drag);
        opt(pf, "disableAll", flag, physics.disable_all);
        rm.physics = physics;
      }
    }
    return rm;
  }

  // `animations.<alias>` (source required) or a rule's `animation` (string and null shorthands).
  std::optional<AnimationReference> read_reference(const ConfigValue& v, bool in_animations) {
    AnimationReference ref;
    ref.where = v.where;
    if (v.is_null() || v.is_string()) {
      read_source(v, ref);
      return ref;
    }
    if (!v.is_object()) {
      wrong_type(v, p_, "an animation (a name, null or an object)");
      return std::nullopt;
    }
    Fields f(v, p_);
    if (const ConfigValue* source = f.get("source")) {
      read_source(*source, ref);
    } else if (in_animations) {
      p_.error(ErrorCode::kInvalid, v.where, "animation has no 'source'");
    }
    if (const ConfigValue* x = f.get("speed")) {
      read_dynamic(*x, p_, ref.speed);
      if (!ref.speed.is_expression() && ref.speed.value <= 0.0f && x->kind != Kind::kNull) {
        p_.error(ErrorCode::kOutOfRange, x->where, "speed must be > 0");
      }
    }
    if (const ConfigValue* x = f.get("loop")) read_dynamic(*x, p_, ref.loop);
    if (const ConfigValue* x = f.get("startPhase")) read_dynamic(*x, p_, ref.start_phase);
    if (const ConfigValue* x = f.get("endPhase")) read_dynamic(*x, p_, ref.end_phase);
    if (const ConfigValue* x = f.get("blendDuration")) {
      read_dynamic(*x, p_, ref.blend_duration);
      if (!ref.blend_duration.is_expression() && ref.blend_duration.value < 0.0f) {
        p_.error(ErrorCode::kOutOfRange, x->where, "blendDuration must be >= 0");
      }
    }
    if (const ConfigValue* x = f.get("preservePose"); x != nullptr && !x->is_null()) {
      bool b = false;
      if (to_bool(*x, p_, b)) ref.preserve_pose = b;
    }
    if (const ConfigValue* x = f.get("events"); x != nullptr && !x->is_null()) {
      ref.events = read_events(*x);
    }
    if (const ConfigValue* x = f.get("onComplete")) ref.on_complete = read_action(*x);
    if (const ConfigValue* x = f.get("onInterrupt")) ref.on_interrupt = read_action(*x);
    if (const ConfigValue* x = f.get("driverArgs"); x != nullptr && !x->is_null()) {
      if (x->is_object()) {
        ref.driver_args = *x;
      } else {
        wrong_type(*x, p_, "an object");
      }
    }
    if (const ConfigValue* x = f.get("rootMotion")) ref.root_motion = read_root_motion(*x);
    if (const ConfigValue* x = f.get("rootBoneRotation"))
      ref.root_bone_rotation = read_rotation(*x);
    if (const ConfigValue* x = f.get("rootBoneTranslation")) {
      ref.root_bone_translation = read_translation(*x);
    }
    return ref;
  }

  std::vector<RuleConfig> read_rules(const ConfigValue& v) {
    std::vector<RuleConfig> rules;
    if (!v.is_array()) {
      wrong_type(v, p_, "an array of rules");
      return rules;
    }
    if (v.items.empty()) p_.error(ErrorCode::kInvalid, v.where, "rules is empty");
    // The index of the first rule that always matches: an index, as `rules` grows and moves.
    std::optional<std::size_t> unconditional;
    for (const ConfigValue& item : v.items) {
      if (!item.is_object()) {
        wrong_type(item, p_, "a rule object {condition, animation | rules}");
        continue;
      }
      RuleConfig rule;
      rule.where = item.where;
      Fields f(item, p_);
      if (const ConfigValue* c = f.get("condition")) {
        rule.condition_where = c->where;
        if (c->is_bool()) {
          rule.condition = c->boolean ? "true" : "false";
        } else if (to_string_value(*c, p_, rule.condition) && trim(rule.condition).empty()) {
          p_.error(ErrorCode::kInvalid, c->where, "condition is empty");
        }
      } else {
        p_.error(ErrorCode::kInvalid, item.where, "rule has no 'condition'");
      }
      const ConfigValue* animation = f.get("animation");
      const ConfigValue* children = f.get("rules");
      if (animation != nullptr && children != nullptr) {
        p_.error(ErrorCode::kInvalid, item.where, "rule has both 'animation' and 'rules'");
      } else if (animation == nullptr && children == nullptr) {
        p_.error(ErrorCode::kInvalid, item.where, "rule has neither 'animation' nor 'rules'");
      } else if (animation != nullptr) {
        rule.animation = read_reference(*animation, false);
      } else {
        rule.is_group = true;
        rule.rules = read_rules(*children);
      }
      if (unconditional) {
        p_.warn(item.where, "rule is unreachable: an earlier rule at " +
                                rules[*unconditional].where.pointer + " always matches");
      } else if (!rule.is_group && iequals(trim(rule.condition), "true")) {
        unconditional = rules.size();
      }
      rules.push_back(std::move(rule));
    }
    return rules;
  }

  std::optional<DriverConfig> read_driver(const ConfigValue& v) {
    if (v.is_null()) return std::nullopt;
    if (!v.is_object()) {
      wrong_type(v, p_, "a driver object {type, properties}");
      return std::nullopt;
    }
    DriverConfig d;
    d.where = v.where;
    d.properties.kind = Kind::kObject;
    d.properties.where = v.where;
    Fields f(v, p_);
    if (const ConfigValue* type = f.get("type")) {
      d.type_where = type->where;
      to_string_value(*type, p_, d.type);
    } else {
      p_.error(ErrorCode::kInvalid, v.where, "driver has no 'type'");
    }
    if (const ConfigValue* props = f.get("properties"); props != nullptr && !props->is_null()) {
      if (props->is_object()) {
        d.properties = *props;
      } else {
        wrong_type(*props, p_, "an object of properties");
      }
    }
    return d;
  }

  LayerConfig read_layer(const std::string& name, const ConfigValue& v) {
    LayerConfig l;
    l.name = name;
    l.where = v.where;
    if (!v.is_object()) {
      wrong_type(v, p_, "a layer object");
      return l;
    }
    Fields f(v, p_);
    if (const ConfigValue* x = f.get("bones"); x != nullptr && !x->is_null()) {
      std::vector<std::string> bones;
      to_string_list(*x, p_, bones, &l.bones_where);
      l.bones = std::move(bones);
    }
    if (const ConfigValue* x = f.get("bonesExclude"); x != nullptr && !x->is_null()) {
      std::vector<std::string> bones;
      to_string_list(*x, p_, bones, &l.bones_exclude_where);
      l.bones_exclude = std::move(bones);
    }
    if (const ConfigValue* x = f.get("weight"); x != nullptr && !x->is_null()) {
      float w = 1.0f;
      if (to_float(*x, p_, w)) {
        l.weight = w;
        if (w <= 0.0f) p_.warn(x->where, "weight <= 0 counts as 1");
      }
    }
    if (const ConfigValue* x = f.get("blendCurve"); x != nullptr && !x->is_null()) {
      static constexpr EnumName<BlendCurve> kCurves[] = {{"linear", BlendCurve::kLinear},
                                                         {"smoothstep", BlendCurve::kSmoothstep}};
      BlendCurve c{};
      if (to_enum(*x, p_, kCurves, c)) l.blend_curve = c;
    }
    if (const ConfigValue* x = f.get("driver")) l.driver = read_driver(*x);
    if (const ConfigValue* x = f.get("blendMode"); x != nullptr && !x->is_null()) {
      static constexpr EnumName<LayerBlendMode> kModes[] = {
          {"Override", LayerBlendMode::kOverride}, {"Additive", LayerBlendMode::kAdditive}};
      LayerBlendMode m{};
      if (to_enum(*x, p_, kModes, m)) l.blend_mode = m;
    }
    return l;
  }

  std::optional<ParameterConfig> read_parameter(const std::string& name, const ConfigValue& v) {
    ParameterConfig param;
    param.name = name;
    param.where = v.where;
    switch (v.kind) {
      case Kind::kNumber:
        param.type = anim::ParamType::kFloat;
        if (!to_float(v, p_, param.number)) return std::nullopt;
        return param;
      case Kind::kBool:
        param.type = anim::ParamType::kBool;
        param.boolean = v.boolean;
        return param;
      case Kind::kString:
        param.type = anim::ParamType::kString;
        param.string = v.string;
        return param;
      case Kind::kArray:
        if (v.items.size() == 2 || v.items.size() == 3) {
          const int n = static_cast<int>(v.items.size());
          param.type = n == 2 ? anim::ParamType::kVec2 : anim::ParamType::kVec3;
          if (!to_vec(v, p_, n, param.vec)) return std::nullopt;
          return param;
        }
        break;
      case Kind::kObject:
        if (v.find("type") != nullptr) return read_typed_parameter(std::move(param), v);
        if (v.find("x") != nullptr && v.find("y") != nullptr &&
            v.members.size() == (v.find("z") != nullptr ? 3u : 2u)) {
          const int n = static_cast<int>(v.members.size());
          param.type = n == 2 ? anim::ParamType::kVec2 : anim::ParamType::kVec3;
          if (!to_vec(v, p_, n, param.vec)) return std::nullopt;
          return param;
        }
        break;
      case Kind::kNull:
        break;
    }
    p_.error(ErrorCode::kInvalid, v.where,
             "parameter '" + name + "' has an unsupported initial value (" + kind_name(v) +
                 "); expected a number, bool, string, Vec2 or Vec3");
    return std::nullopt;
  }

  std::optional<ParameterConfig> read_typed_parameter(ParameterConfig param, const ConfigValue& v) {
    Fields f(v, p_);
    static constexpr EnumName<anim::ParamType> kTypes[] = {
        {"float", anim::ParamType::kFloat},    {"int", anim::ParamType::kInt},
        {"bool", anim::ParamType::kBool},      {"string", anim::ParamType::kString},
        {"Vec2", anim::ParamType::kVec2},      {"Vec3", anim::ParamType::kVec3},
        {"trigger", anim::ParamType::kTrigger}};
    if (!to_enum(*f.get("type"), p_, kTypes, param.type)) return std::nullopt;
    const ConfigValue* value = f.get("value");
    if (value == nullptr || value->is_null()) return param;
    bool ok = true;
    switch (param.type) {
      case anim::ParamType::kFloat:
        ok = to_float(*value, p_, param.number);
        break;
      case anim::ParamType::kInt: {
        int i = 0;
        ok = to_int(*value, p_, i);
        param.number = static_cast<float>(i);
        break;
      }
      case anim::ParamType::kBool:
        ok = to_bool(*value, p_, param.boolean);
        break;
      case anim::ParamType::kString:
        ok = to_string_value(*value, p_, param.string);
        break;
      case anim::ParamType::kVec2:
        ok = to_vec(*value, p_, 2, param.vec);
        break;
      case anim::ParamType::kVec3:
        ok = to_vec(*value, p_, 3, param.vec);
        break;
      case anim::ParamType::kTrigger:
        p_.error(ErrorCode::kInvalid, value->where, "a trigger parameter has no value");
        ok = false;
        break;
      case anim::ParamType::kUnset:  // not a type kTypes names
        break;
    }
    if (!ok) return std::nullopt;
    return param;
  }

  IkConfig read_ik(const ConfigValue& v) {
    IkConfig ik;
    if (!v.is_object()) {
      wrong_type(v, p_, "an ik object {chains, lookAt}");
      return ik;
    }
    Fields f(v, p_);
    if (const ConfigValue* chains = f.get("chains"); chains != nullptr && !chains->is_null()) {
      if (!chains->is_array()) {
        wrong_type(*chains, p_, "an array of chains");
      } else {
        for (const ConfigValue& c : chains->items) {
          if (auto chain = read_chain(c)) {
            for (const IkChainConfig& other : ik.chains) {
              if (iequals(other.name, chain->name)) {
                p_.error(ErrorCode::kInvalid, chain->where,
                         "chain name '" + chain->name + "' is used twice");
              }
            }
            ik.chains.push_back(std::move(*chain));
          }
        }
      }
    }
    if (const ConfigValue* looks = f.get("lookAt"); looks != nullptr && !looks->is_null()) {
      if (!looks->is_array()) {
        wrong_type(*looks, p_, "an array of look-at entries");
      } else {
        for (const ConfigValue& l : looks->items) {
          if (auto look = read_look_at(l)) ik.look_ats.push_back(std::move(*look));
        }
      }
    }
    return ik;
  }

  std::optional<IkChainConfig> read_chain(const ConfigValue& v) {
    if (!v.is_object()) {
      wrong_type(v, p_, "a chain object");
      return std::nullopt;
    }
    IkChainConfig c;
    c.where = v.where;
    Fields f(v, p_);
    auto str = [&](const ConfigValue& x, std::string& o) { return to_string_value(x, p_, o); };
    opt(f, "name", str, c.name);
    if (const ConfigValue* end = f.get("endBone")) {
      c.end_bone_where = end->where;
      to_string_value(*end, p_, c.end_bone);
    } else {
      p_.error(ErrorCode::kInvalid, v.where, "chain has no 'endBone'");
    }
    anim::IkChainSettings& s = c.settings;
    if (const ConfigValue* x = f.get("algorithm"); x != nullptr && !x->is_null()) {
      std::string text;
      if (to_string_value(*x, p_, text)) {
        if (auto a = anim::parse_ik_algorithm(trim(text))) {
          s.algorithm = *a;
        } else {
          p_.error(
              ErrorCode::kInvalid, x->where,
              "unknown value '" + text + "'; expected one of SingleBone, TwoBone, CCD, FABRIK");
        }
      }
    }
    if (const ConfigValue* x = f.get("maxChainLength")) {
      if (to_int(*x, p_, c.max_chain_length) &&
          (c.max_chain_length < 2 || c.max_chain_length > anim::kMaxIkChainLength)) {
        p_.error(ErrorCode::kOutOfRange, x->where, "maxChainLength must be in 2..32");
      }
    }
    opt(f, "target", str, c.target);
    opt(f, "aim", str, c.aim);
    opt(f, "hint", str, c.hint);
    if (const ConfigValue* x = f.get("aimAxis")) {
      if (to_vec(*x, p_, 3, s.aim_axis) && s.aim_axis == vec3(0.0f)) {
        p_.error(ErrorCode::kInvalid, x->where, "aimAxis must not be zero");
      }
    }
    if (const ConfigValue* x = f.get("enabled")) read_dynamic(*x, p_, c.enabled);
    if (const ConfigValue* x = f.get("weight")) read_dynamic(*x, p_, c.weight);
    if (const ConfigValue* x = f.get("positionWeight")) read_dynamic(*x, p_, c.position_weight);
    if (const ConfigValue* x = f.get("aimWeight")) read_dynamic(*x, p_, c.aim_weight);
    non_negative(f, "positionSmoothTime", s.position_smooth_time);
    non_negative(f, "aimSmoothTime", s.aim_smooth_time);
    if (const ConfigValue* x = f.get("unreachable")) {
      std::string text;
      if (to_string_value(*x, p_, text)) {
        if (auto u = anim::parse_ik_unreachable(trim(text))) {
          s.unreachable = *u;
        } else {
          p_.error(
              ErrorCode::kInvalid, x->where,
              "unknown value '" + text +
                  "'; expected one of ExtendTowardTarget, KeepCurrentPose, UseLastValidResult");
        }
      }
    }
    if (const ConfigValue* x = f.get("iterations")) {
      if (to_int(*x, p_, s.iterations) && (s.iterations < 1 || s.iterations > 1000)) {
        p_.error(ErrorCode::kOutOfRange, x->where, "iterations must be in 1..1000");
      }
    }
    non_negative(f, "tolerance", s.tolerance);
    if (const ConfigValue* x = f.get("maxStepDegrees")) {
      if (to_float(*x, p_, s.max_step_degrees) && s.max_step_degrees <= 0.0f) {
        p_.error(ErrorCode::kOutOfRange, x->where, "maxStepDegrees must be > 0");
      }
    }
    if (const ConfigValue* x = f.get("jointLimits"); x != nullptr && !x->is_null()) {
      if (!x->is_array()) {
        wrong_type(*x, p_, "an array of joint limits");
      } else {
        for (const ConfigValue& item : x->items) {
          if (auto limit = read_joint_limit(item)) c.joint_limits.push_back(std::move(*limit));
        }
      }
    }
    return c;
  }

  void non_negative(Fields& f, std::string_view name, float& out) {
    if (const ConfigValue* x = f.get(name)) {
      if (to_float(*x, p_, out) && out < 0.0f) {
        p_.error(ErrorCode::kOutOfRange, x->where, std::string(name) + " must be >= 0");
      }
    }
  }

  std::optional<JointLimitConfig> read_joint_limit(const ConfigValue& v) {
    if (!v.is_object()) {
      wrong_type(v, p_, "a joint limit object {bone, order, min, max}");
      return std::nullopt;
    }
    JointLimitConfig j;
    j.where = v.where;
    Fields f(v, p_);
    if (const ConfigValue* bone = f.get("bone")) {
      j.bone_where = bone->where;
      to_string_value(*bone, p_, j.bone);
    } else {
      p_.error(ErrorCode::kInvalid, v.where, "joint limit has no 'bone'");
    }
    if (const ConfigValue* order = f.get("order")) {
      std::string o;
      if (to_string_value(*order, p_, o)) {
        if (auto parsed = anim::parse_euler_order(trim(o))) {
          j.order = *parsed;
        } else {
          p_.error(ErrorCode::kInvalid, order->where,
                   "order '" + o + "' is not a permutation of XYZ");
        }
      }
    }
    bool ok = true;
    if (const ConfigValue* x = f.get("min")) ok = to_vec(*x, p_, 3, j.min_degrees) && ok;
    if (const ConfigValue* x = f.get("max")) ok = to_vec(*x, p_, 3, j.max_degrees) && ok;
    if (ok) {
      for (int i = 0; i < 3; ++i) {
        if (j.min_degrees[i] < -180.0f || j.max_degrees[i] > 180.0f ||
            j.min_degrees[i] > j.max_degrees[i]) {
          p_.error(ErrorCode::kOutOfRange, v.where,
                   "joint limits need -180 <= min <= max <= 180 on every axis");
          break;
        }
      }
    }
    return j;
  }

  std::optional<LookAtConfig> read_look_at(const ConfigValue& v) {
    if (!v.is_object()) {
      wrong_type(v, p_, "a look-at object");
      return std::nullopt;
    }
    LookAtConfig l;
    l.where = v.where;
    Fields f(v, p_);
    auto str = [&](const ConfigValue& x, std::string& o) { return to_string_value(x, p_, o); };
    opt(f, "name", str, l.name);
    if (const ConfigValue* bones = f.get("bones")) {
      to_string_list(*bones, p_, l.bones, &l.bones_where);
      if (l.bones.empty()) p_.error(ErrorCode::kInvalid, bones->where, "look-at has no bones");
    } else {
      p_.error(ErrorCode::kInvalid, v.where, "look-at has no 'bones'");
    }
    if (const ConfigValue* shares = f.get("shares"); shares != nullptr && !shares->is_null()) {
      if (!shares->is_array()) {
        wrong_type(*shares, p_, "an array of numbers");
      } else {
        float sum = 0.0f;
        for (const ConfigValue& s : shares->items) {
          float share = 0.0f;
          if (to_float(s, p_, share)) {
            l.shares.push_back(share);
            sum += share;
          }
        }
        if (l.shares.size() != l.bones.size()) {
          p_.error(ErrorCode::kInvalid, shares->where, "shares needs one value per bone");
        } else if (sum > 1.0f + 1e-5f) {
          p_.error(ErrorCode::kOutOfRange, shares->where, "shares add up to more than 1");
        }
      }
    }
    opt(f, "target", str, l.target);
    if (const ConfigValue* x = f.get("yaw")) read_dynamic(*x, p_, l.yaw);
    if (const ConfigValue* x = f.get("pitch")) read_dynamic(*x, p_, l.pitch);
    auto vec = [&](const ConfigValue& x, vec3& o) { return to_vec(x, p_, 3, o); };
    anim::LookAtSettings& s = l.settings;
    opt(f, "forwardAxis", vec, s.forward_axis);
    opt(f, "upAxis", vec, s.up_axis);
    if (glm::length(glm::cross(s.forward_axis, s.up_axis)) < 1e-6f) {
      p_.error(ErrorCode::kInvalid, v.where,
               "forwardAxis and upAxis must be non-zero and not parallel");
    }
    for (auto [name, out] : {std::pair{"maxYawDegrees", &s.max_yaw_degrees},
                             std::pair{"maxPitchDegrees", &s.max_pitch_degrees}}) {
      if (const ConfigValue* x = f.get(name)) {
        if (to_float(*x, p_, *out) && (*out < 0.0f || *out > 180.0f)) {
          p_.error(ErrorCode::kOutOfRange, x->where, std::string(name) + " must be in [0, 180]");
        }
      }
    }
    if (const ConfigValue* x = f.get("weight")) read_dynamic(*x, p_, l.weight);
    non_negative(f, "smoothTime", s.smooth_time);
    return l;
  }

 private:
  Problems& p_;
};

// Checks that a map section is an object; reports otherwise.
const ConfigValue* map_section(Fields& f, std::string_view name, Problems& p) {
  const ConfigValue* v = f.get(name);
  if (v == nullptr || v->is_null()) return nullptr;
  if (!v->is_object()) {
    wrong_type(*v, p, "an object");
    return nullptr;
  }
  return v;
}

void check_bone_alias_cycles(const AnimationConfig& config, Problems& p) {
  for (const BoneAlias& start : config.bone_aliases) {
    std::string current = start.bone;
    for (std::size_t step = 0; step <= config.bone_aliases.size(); ++step) {
      const BoneAlias* next = nullptr;
      for (const BoneAlias& a : config.bone_aliases) {
        if (iequals(a.alias, current)) next = &a;
      }
      if (next == nullptr) break;
      if (iequals(next->alias, start.alias)) {
        p.error(ErrorCode::kInvalid, start.where, "bone alias cycle through '" + start.alias + "'");
        break;
      }
      current = next->bone;
    }
  }
}

void read_config(const ConfigValue& root, Loader& loader, Problems& p, AnimationConfig& config) {
  Reader reader(p);
  Fields f(root, p);
  f.get("extends");  // consumed by the loader

  config.template_config = *find_builtin_template("Simple");
  // Without the template the config meant, its layer names cannot be checked: the template's
  // error is reported and the layer names are left to it.
  bool template_known = true;
  if (const ConfigValue* t = f.get("template"); t != nullptr && !t->is_null()) {
    config.template_where = t->where;
    std::string name;
    template_known = false;
    if (to_string_value(*t, p, name)) {
      if (const AnimationTemplate* builtin = find_builtin_template(trim(name))) {
        config.template_config = *builtin;
        template_known = true;
      } else if (auto custom = loader.load_template(name, t->where)) {
        config.template_config = std::move(*custom);
        template_known = true;
      }
    }
  }
  std::vector<std::string_view> template_layers;
  for (const TemplateLayer& l : config.template_config.layers) template_layers.push_back(l.name);
  if (const ConfigValue* x = f.get("rootBoneRotation")) {
    config.root_bone_rotation = reader.read_rotation(*x);
  }
  if (const ConfigValue* x = f.get("rootBoneTranslation")) {
    config.root_bone_translation = reader.read_translation(*x);
  }
  if (const ConfigValue* x = f.get("modelScale"); x != nullptr && !x->is_null()) {
    if (to_float(*x, p, config.model_scale) && config.model_scale <= 0.0f) {
      p.error(ErrorCode::kOutOfRange, x->where, "modelScale must be > 0");
    }
  }
  if (const ConfigValue* aliases = map_section(f, "boneAliases", p)) {
    for (const auto& [alias, bone] : aliases->members) {
      BoneAlias a;
      a.alias = alias;
      a.where = bone.where;
      if (to_string_value(bone, p, a.bone)) config.bone_aliases.push_back(std::move(a));
    }
    check_bone_alias_cycles(config, p);
  }
  if (const ConfigValue* layers = map_section(f, "layers", p)) {
    for (const auto& [name, value] : layers->members) {
      const bool in_template =
          std::any_of(config.template_config.layers.begin(), config.template_config.layers.end(),
                      [&](const TemplateLayer& l) { return iequals(l.name, name); });
      if (!in_template && template_known) {
        p.warn(value.where, "template '" + config.template_config.name + "' has no layer '" + name +
                                "'" + did_you_mean(closest_names(template_layers, name)) +
                                "; the entry is ignored");
      }
      config.layers.push_back(reader.read_layer(name, value));
    }
  }
  if (const ConfigValue* animations = map_section(f, "animations", p)) {
    for (const auto& [alias, value] : animations->members) {
      if (auto ref = reader.read_reference(value, true)) {
        config.animations.push_back(AnimationAlias{alias, std::move(*ref)});
      }
    }
  }
  if (const ConfigValue* states = map_section(f, "states", p)) {
    for (const auto& [name, value] : states->members) {
      if (!value.is_object()) {
        wrong_type(value, p, "a state object {layer, rules}");
        continue;
      }
      StateConfig s;
      s.name = name;
      s.where = value.where;
      Fields sf(value, p);
      if (const ConfigValue* layer = sf.get("layer")) {
        s.layer_where = layer->where;
        if (to_string_value(*layer, p, s.layer) && template_known) {
          const auto& tl = config.template_config.layers;
          if (std::none_of(tl.begin(), tl.end(),
                           [&](const TemplateLayer& l) { return iequals(l.name, s.layer); })) {
            p.error(ErrorCode::kInvalid, layer->where,
                    "template '" + config.template_config.name + "' has no layer '" + s.layer +
                        "'" + did_you_mean(closest_names(template_layers, s.layer)));
          }
        }
      } else {
        p.error(ErrorCode::kInvalid, value.where, "state has no 'layer'");
      }
      if (const ConfigValue* rules = sf.get("rules")) {
        s.rules = reader.read_rules(*rules);
      } else {
        p.error(ErrorCode::kInvalid, value.where, "state has no 'rules'");
      }
      config.states.push_back(std::move(s));
    }
  }
  if (const ConfigValue* params = map_section(f, "parameters", p)) {
    for (const auto& [name, value] : params->members) {
      if (auto param = reader.read_parameter(name, value)) {
        config.parameters.push_back(std::move(*param));
      }
    }
  }
  if (const ConfigValue* ik = f.get("ik"); ik != nullptr && !ik->is_null()) {
    config.ik = reader.read_ik(*ik);
  }
}

Result<AnimationConfig> finish(AnimationConfig config, bool read, Problems& problems,
                               std::vector<Error>* all_errors, AnimationConfig* partial) {
  if (all_errors != nullptr) {
    all_errors->insert(all_errors->end(), problems.errors.begin(), problems.errors.end());
  }
  if (!problems.errors.empty()) {
    if (partial != nullptr && read) *partial = std::move(config);
    return fail(problems.errors.front());
  }
  return config;
}

Result<AnimationConfig> load_impl(const std::string& path, const std::string* text,
                                  const AnimationConfigOptions& options, Diagnostics* diag,
                                  std::vector<Error>* all_errors, AnimationConfig* partial) {
  Problems problems{diag, {}};
  Loader loader(options, path, problems);
  AnimationConfig config;
  config.path = path;
  std::vector<std::string> chain;
  std::optional<ConfigValue> root = loader.load_chain(path, text, SourceLocation{}, chain);
  if (root) read_config(*root, loader, problems, config);
  config.files = loader.take_files();
  std::reverse(config.files.begin(), config.files.end());
  return finish(std::move(config), root.has_value(), problems, all_errors, partial);
}

}  // namespace

Result<AnimationConfig> load_animation_config(std::string_view path,
                                              const AnimationConfigOptions& options,
                                              Diagnostics* diag, std::vector<Error>* all_errors,
                                              AnimationConfig* partial) {
  return load_impl(std::string(path), nullptr, options, diag, all_errors, partial);
}

Result<AnimationConfig> parse_animation_config(std::string_view text, std::string_view path,
                                               const AnimationConfigOptions& options,
                                               Diagnostics* diag, std::vector<Error>* all_errors,
                                               AnimationConfig* partial) {
  const std::string owned(text);
  return load_impl(std::string(path), &owned, options, diag, all_errors, partial);
}

}  // namespace critter::config
