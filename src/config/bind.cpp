// SPDX-License-Identifier: MIT
// Animation config BIND stage: names against a model, drivers against the registry; then the
// description is built (desc_builder.cpp). Errors are collected per element so one bad entry does
// not hide the next. Expressions are left to the one compile (anim::ControllerProgram::compile).
#include "critter/config/bind.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "critter/core/strings.h"
#include "critter/creature/builtin_parameters.h"
#include "critter/creature/default_drivers.h"
#include "desc_builder.h"
#include "relaxed_json.h"

namespace critter::config {

using detail::BoundLayer;
using detail::BoundNames;
using detail::Problems;

namespace {

using anim::DriverPropertyType;

}  // namespace

std::span<const std::string_view> known_drivers() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> out;
    for (const anim::DriverType& t : creature::default_drivers().types()) {
      out.push_back(t.name);
    }
    return out;
  }();
  return names;
}

bool is_known_driver(std::string_view name) {
  return creature::default_drivers().find(name) != nullptr;
}

namespace {

bool numeric_string(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

// A number or numeric string a float property can hold. "inf", "nan" and 1e39 read as numbers
// but would reach the drivers as non-finite angles and offsets, and so the pose.
bool finite_float_value(const ConfigValue& v) {
  const double d = v.is_number() ? v.number : std::strtod(v.string.c_str(), nullptr);
  return std::isfinite(d) && std::fabs(d) <= static_cast<double>(std::numeric_limits<float>::max());
}

// Where an animation source leads once names are resolved.
struct BoundSource {
  SourceKind kind = SourceKind::kNone;   // kName is resolved to kClip (or through an alias)
  int clip = -1;                         // kClip, kFile: index in Model::clips()
  std::string driver;                    // kDriver: the registered name (as the registry spells it)
  std::string file;                      // kFile: the resolved path
  std::string file_clip;                 // kFile: the clip name in that file (first when empty)
  std::string parameter;                 // kParameter
  std::vector<std::string> alias_chain;  // aliases followed, nearest first (empty for none)
};

class Binder {
 public:
  Binder(const AnimationConfig& config, const Model& model, const BindOptions& options,
         Problems& problems, BoundNames& out)
      : config_(config),
        model_(model),
        options_(options),
        registry_(options.drivers != nullptr ? *options.drivers : creature::default_drivers()),
        p_(problems),
        out_(out) {}

  void run() {
    declare_parameters();
    check_bone_aliases();
    check_required_bones();
    bind_layers();
    bind_animations();
    bind_states();
    bind_ik();
  }

 private:
  // Joint index of a config bone name (aliases followed), or -1.
  int bone(std::string_view name) const {
    return model_.find_bone(config_.resolve_bone_alias(name));
  }
  bool require_bone(std::string_view name, const SourceLocation& where, std::string_view what) {
    if (bone(name) >= 0) return true;
    const std::string resolved = config_.resolve_bone_alias(name);
    std::string message = std::string(what) + " '" + std::string(name) + "'";
    if (resolved != name) message += " (alias of '" + resolved + "')";
    p_.error(ErrorCode::kInvalid, where,
             message + " is not a bone of the model" + did_you_mean(bone_suggestions(resolved)));
    return false;
  }
  // The bones and bone aliases nearest to a name the model lacks.
  std::vector<std::string> bone_suggestions(std::string_view name) const {
    std::vector<std::string_view> names;
    for (const std::string& b : model_.skeleton().names()) names.push_back(b);
    for (const BoneAlias& a : config_.bone_aliases) names.push_back(a.alias);
    return closest_names(names, name);
  }
  std::vector<std::string> clip_suggestions(std::string_view name) const {
    std::vector<std::string_view> names;
    for (const Clip& c : model_.clips()) names.push_back(c.name());
    return closest_names(names, name);
  }
  std::vector<std::string> driver_suggestions(std::string_view name) const {
    std::vector<std::string_view> names;
    for (const anim::DriverType& t : registry_.types()) names.push_back(t.name);
    return closest_names(names, name);
  }
  static std::vector<std::string> property_suggestions(const anim::DriverType& type,
                                                       std::string_view name) {
    std::vector<std::string_view> names;
    for (const anim::DriverPropertySpec& p : type.properties) names.push_back(p.name);
    return closest_names(names, name);
  }
  std::vector<std::string> parameter_suggestions(std::string_view name) const {
    std::vector<std::string_view> names;
    for (anim::ParamIndex i = 0; i < out_.schema.size(); ++i) {
      if (!iequals(out_.schema.name(i), name)) names.push_back(out_.schema.name(i));
    }
    return closest_names(names, name);
  }

  void declare_parameters() {
    out_.schema = creature::builtin_schema();
    for (const ParameterConfig& param : config_.parameters) {
      anim::ParameterValue v;
      switch (param.type) {
        case anim::ParamType::kFloat:
          v = anim::ParameterValue::of_float(param.number);
          break;
        case anim::ParamType::kInt:
          v = anim::ParameterValue::of_int(static_cast<std::int64_t>(param.number));
          break;
        case anim::ParamType::kBool:
          v = anim::ParameterValue::of_bool(param.boolean);
          break;
        case anim::ParamType::kString:
          v = anim::ParameterValue::of_string(param.string);
          break;
        case anim::ParamType::kVec2:
          v = anim::ParameterValue::of_vec2(vec2(param.vec));
          break;
        case anim::ParamType::kVec3:
          v = anim::ParameterValue::of_vec3(param.vec);
          break;
        case anim::ParamType::kTrigger:
          v = anim::ParameterValue::of_trigger(false);
          break;
        case anim::ParamType::kUnset:
          break;
      }
      const anim::ParamIndex existing = out_.schema.find(param.name);
      if (existing != anim::kNoParam) {
        out_.schema.set_initial(existing, std::move(v));
      } else if (auto declared = out_.schema.declare(param.name, std::move(v)); !declared) {
        p_.error(ErrorCode::kInvalid, param.where, declared.error().message);
      }
    }
    for (const std::string& name : options_.host_parameters) {
      if (!name.empty()) out_.schema.declare_or_find(name);
    }
  }

  void undeclared_at(const std::string& name, const SourceLocation& where) {
    p_.warn(where, "parameter '" + name + "' is neither declared nor built in" +
                       did_you_mean(parameter_suggestions(name)));
  }
  // A parameter named directly (IK targets, driver parameter properties).
  void parameter_name(const std::string& name, const SourceLocation& where) {
    if (name.empty() || out_.schema.contains(name)) return;
    out_.schema.declare_or_find(name);
    undeclared_at(name, where);
  }

  void check_bone_aliases() {
    for (const BoneAlias& a : config_.bone_aliases) {
      // Only the end of a chain must be a bone; intermediate names are aliases.
      if (config_.find_animation(a.bone) == nullptr &&
          std::none_of(config_.bone_aliases.begin(), config_.bone_aliases.end(),
                       [&](const BoneAlias& b) { return iequals(b.alias, a.bone); })) {
        require_bone(a.bone, a.where, "bone alias target");
      }
    }
  }

  void check_required_bones() {
    const SourceLocation& where = config_.template_where;
    for (const std::string& b : config_.template_config.required_bones) {
      if (bone(b) < 0) {
        p_.error(ErrorCode::kInvalid, where,
                 "template '" + config_.template_config.name + "' requires bone '" + b +
                     "', which the model lacks" + did_you_mean(bone_suggestions(b)));
      }
    }
  }

  void mark_subtree(std::vector<bool>& mask, int root, bool value) const {
    const auto parents = model_.skeleton().parents();
    std::vector<bool> inside(parents.size(), false);
    for (std::size_t j = 0; j < parents.size(); ++j) {
      // Parents come first, so one forward pass finds the subtree.
      inside[j] = static_cast<int>(j) == root ||
                  (parents[j] >= 0 && inside[static_cast<std::size_t>(parents[j])]);
      if (inside[j]) mask[j] = value;
    }
  }

  void bind_layers() {
    const std::size_t joints = static_cast<std::size_t>(model_.skeleton().joint_count());
    std::vector<TemplateLayer> ordered = config_.template_config.layers;
    std::stable_sort(
        ordered.begin(), ordered.end(),
        [](const TemplateLayer& a, const TemplateLayer& b) { return a.index < b.index; });
    for (const TemplateLayer& t : ordered) {
      BoundLayer l;
      l.name = t.name;
      l.index = t.index;
      l.blend_mode = t.blend_mode;
      l.weight = t.weight.value_or(1.0f) <= 0.0f ? 1.0f : t.weight.value_or(1.0f);
      const LayerConfig* c = config_.find_layer(t.name);
      // Mask names: the config's (which must exist) replace the template's (optional bones).
      std::vector<int> include, exclude;
      auto from_template = [&](const std::vector<std::string>& names, std::vector<int>& out) {
        for (const std::string& n : names) {
          const int j = bone(n);
          if (j >= 0) {
            out.push_back(j);
          } else {
            p_.warn(c != nullptr ? c->where : config_.template_where,
                    "template layer '" + t.name + "' masks bone '" + n +
                        "', which the model lacks; skipped");
          }
        }
      };
      auto from_config = [&](const std::vector<std::string>& names,
                             const std::vector<SourceLocation>& where, std::vector<int>& out) {
        for (std::size_t i = 0; i < names.size(); ++i) {
          if (require_bone(names[i], where[i], "bone")) out.push_back(bone(names[i]));
        }
      };
      if (c != nullptr && c->bones && !c->bones->empty()) {
        from_config(*c->bones, c->bones_where, include);
      } else {
        from_template(t.bone_mask, include);
      }
      if (c != nullptr && c->bones_exclude) {
        from_config(*c->bones_exclude, c->bones_exclude_where, exclude);
      } else {
        from_template(t.bone_mask_exclude, exclude);
      }
      const bool has_include =
          (c != nullptr && c->bones && !c->bones->empty()) || !t.bone_mask.empty();
      l.mask.assign(joints, !has_include);
      for (int j : include) mark_subtree(l.mask, j, true);
      for (int j : exclude) mark_subtree(l.mask, j, false);
      if (c != nullptr) {
        if (c->weight) l.weight = *c->weight <= 0.0f ? 1.0f : *c->weight;
        if (c->blend_curve) l.blend_curve = *c->blend_curve;
        if (c->blend_mode) l.blend_mode = *c->blend_mode;
        if (c->driver &&
            check_driver(c->driver->type, c->driver->type_where, &c->driver->properties)) {
          l.driver = c->driver;
        }
      }
      out_.layers.push_back(std::move(l));
    }
  }

  void check_property(const ConfigValue& v, DriverPropertyType type, const std::string& key) {
    bool ok = true;
    switch (type) {
      case DriverPropertyType::kNumber:
        if (v.is_number() || (v.is_string() && numeric_string(v.string))) {
          if (!finite_float_value(v)) {
            p_.error(ErrorCode::kInvalid, v.where,
                     "driver property '" + key + "' is not a finite number");
            return;
          }
          break;
        }
        ok = v.is_string() && anim::classify_text(v.string, anim::ExpressionField::kValue).kind ==
                                  anim::TextKind::kExpression;
        break;
      case DriverPropertyType::kBool:
        ok = v.is_bool() ||
             (v.is_string() && (iequals(v.string, "true") || iequals(v.string, "false")));
        break;
      case DriverPropertyType::kString:
        ok = v.is_string();
        break;
      case DriverPropertyType::kParameter:
        ok = v.is_string();
        if (ok) parameter_name(v.string, v.where);
        break;
      case DriverPropertyType::kAxis:
        ok = v.is_string() &&
             (iequals(v.string, "X") || iequals(v.string, "Y") || iequals(v.string, "Z"));
        break;
      case DriverPropertyType::kVec3:
        ok = is_vec3(v);
        break;
      case DriverPropertyType::kBoneConfigs:
        check_bone_configs(v);
        return;
      case DriverPropertyType::kBoneOrNull:
        if (v.is_null()) return;
        [[fallthrough]];
      case DriverPropertyType::kBone:
        if (!v.is_string()) {
          ok = false;
        } else {
          require_bone(v.string, v.where, "driver property " + key + ": bone");
        }
        break;
    }
    if (!ok) {
      p_.error(ErrorCode::kInvalid, v.where, "driver property '" + key + "' cannot be converted");
    }
  }

  static bool is_vec3(const ConfigValue& v) {
    if (v.is_array()) {
      return v.items.size() == 3 && std::all_of(v.items.begin(), v.items.end(),
                                                [](const ConfigValue& x) { return x.is_number(); });
    }
    if (!v.is_object()) return false;
    for (const char* axis : {"X", "Y", "Z"}) {
      const ConfigValue* c = v.find(axis);
      if (c == nullptr || !c->is_number()) return false;
    }
    return true;
  }

  // A driverArgs value that can become a parameter (§0.2 quirk 4): bool, number, string, or a
  // Vec2 / Vec3 written as an array.
  static bool is_parameter_value(const ConfigValue& v) {
    if (v.is_bool() || v.is_number() || v.is_string()) return true;
    return v.is_array() && (v.items.size() == 2 || v.items.size() == 3) &&
           std::all_of(v.items.begin(), v.items.end(),
                       [](const ConfigValue& x) { return x.is_number(); });
  }

  // Checks a driver name against the registry and, for an implemented type, each property of
  // `properties` against its spec. Returns the type (null when unknown).
  const anim::DriverType* check_driver(const std::string& name, const SourceLocation& where,
                                       const ConfigValue* properties) {
    const anim::DriverType* type = registry_.find(name);
    if (type == nullptr) {
      p_.error(ErrorCode::kInvalid, where,
               "unknown driver type '" + name + "'" + did_you_mean(driver_suggestions(name)));
      return nullptr;
    }
    if (!type->implemented()) {
      // A declared type (GltfBodyTurn in the default registry) is known by name, so its configs
      // load, but it runs nothing; the modder should know.
      p_.warn(where,
              "driver '" + type->name + "' is not implemented yet: its layer is left as it is");
      return type;  // declared types take any property by name
    }
    if (properties == nullptr || !properties->is_object()) return type;
    for (const auto& [key, value] : properties->members) {
      const anim::DriverPropertySpec* spec = type->property(key);
      if (spec == nullptr) {
        p_.error(ErrorCode::kInvalid, value.where,
                 "unknown driver property '" + key + "' for driver '" + type->name + "'" +
                     did_you_mean(property_suggestions(*type, key)));
        continue;
      }
      check_property(value, spec->type, key);
    }
    return type;
  }

  // The driverArgs of a `driver:` rule on layer `layer` (§9 step 6): parameters when the layer's
  // preset is of the same type, else the properties of a new driver.
  void check_driver_args(const std::string& driver, const ConfigValue* args, int layer) {
    if (args == nullptr || !args->is_object()) return;
    const anim::DriverType* type = registry_.find(driver);
    if (type == nullptr || !type->implemented()) return;
    const BoundLayer* l = layer >= 0 ? &out_.layers[static_cast<std::size_t>(layer)] : nullptr;
    const bool to_parameters =
        l != nullptr && l->driver && anim::same_driver_name(l->driver->type, type->name);
    // An alias's driverArgs reached from several rules is reported once per meaning.
    if (!checked_args_.insert({args, to_parameters}).second) return;
    for (const auto& [key, value] : args->members) {
      if (const anim::DriverPropertySpec* spec = type->property(key)) {
        check_property(value, spec->type, key);
      } else if (!to_parameters) {
        p_.error(ErrorCode::kInvalid, value.where,
                 "unknown driver property '" + key + "' for driver '" + type->name + "'" +
                     did_you_mean(property_suggestions(*type, key)));
      } else if (!is_parameter_value(value)) {
        p_.error(ErrorCode::kInvalid, value.where,
                 "driverArgs '" + key + "' cannot be converted to a parameter value");
      }
    }
  }

  void check_bone_configs(const ConfigValue& v) {
    if (!v.is_array()) {
      p_.error(ErrorCode::kInvalid, v.where, "driver property 'boneConfigs' cannot be converted");
      return;
    }
    static constexpr std::string_view kComponents[] = {"positionX", "positionY", "positionZ",
                                                       "rotationX", "rotationY", "rotationZ",
                                                       "scaleX",    "scaleY",    "scaleZ"};
    for (const ConfigValue& item : v.items) {
      if (!item.is_object()) {
        p_.error(ErrorCode::kInvalid, item.where, "a bone config must be an object");
        continue;
      }
      for (const auto& [key, value] : item.members) {
        if (iequals(key, "boneName")) {
          check_property(value, DriverPropertyType::kBone, key);
          continue;
        }
        if (std::none_of(std::begin(kComponents), std::end(kComponents),
                         [&](std::string_view c) { return iequals(c, key); })) {
          std::vector<std::string_view> names(std::begin(kComponents), std::end(kComponents));
          names.push_back("boneName");
          p_.error(
              ErrorCode::kInvalid, value.where,
              "unknown driver property '" + key + "'" + did_you_mean(closest_names(names, key)));
          continue;
        }
        if (value.is_string() && !numeric_string(value.string)) {
          // Each value is a number or an expression (the `[`/`]` rule does not apply here); the
          // program compiles the expression where the description locates it.
          continue;
        } else {
          check_property(value, DriverPropertyType::kNumber, key);
        }
      }
      if (item.find("boneName") == nullptr) {
        p_.error(ErrorCode::kInvalid, item.where, "bone config has no 'boneName'");
      }
    }
  }

  ConfigFileLookup resolve_file(const AnimationReference& ref) const {
    ConfigPathRules rules;
    rules.asset_roots = options_.asset_roots;
    rules.home = std::filesystem::path(config_.path).parent_path().string();
    rules.allow_outside = options_.allow_outside;
    return resolve_config_file(ref.target, ref.source_where.file, rules);
  }

  // A `file:` source: the file exists and the host placed its clip in the model.
  void bind_file(const AnimationReference& ref, BoundSource& out) {
    const ConfigFileLookup path = resolve_file(ref);
    if (!path.refusal.empty()) {
      p_.error(ErrorCode::kInvalid, ref.source_where, path.refusal);
      return;
    }
    if (!path.found()) {
      p_.error(ErrorCode::kIo, ref.source_where, "file '" + ref.target + "' not found");
      return;
    }
    if (!options_.file_clips) {
      p_.error(ErrorCode::kUnsupported, ref.source_where,
               "file: sources need the host to load their clip into the model");
      return;
    }
    auto clip = options_.file_clips(ref);
    if (!clip) {
      p_.errors.push_back(std::move(clip.error()));
      return;
    }
    if (*clip < 0 || static_cast<std::size_t>(*clip) >= model_.clips().size()) {
      p_.error(ErrorCode::kInvalid, ref.source_where,
               "the clip of '" + ref.target + "' is not in the model");
      return;
    }
    out.kind = SourceKind::kFile;
    out.clip = *clip;
    out_.file_clips[&ref] = *clip;
  }

  // Resolves a source. `in_rule`: a name is an alias first, else a clip; in an `animations`
  // entry a clip first, else another alias (never itself).
  BoundSource bind_source(const AnimationReference& ref, bool in_rule, std::string_view self) {
    BoundSource out;
    out.kind = ref.kind;
    switch (ref.kind) {
      case SourceKind::kNone:
        break;
      case SourceKind::kParameter:
        out.parameter = ref.target;
        parameter_name(ref.target, ref.source_where);
        break;
      case SourceKind::kDriver:
        if (const anim::DriverType* type = check_driver(ref.target, ref.source_where, nullptr)) {
          out.driver = type->name;
        }
        break;
      case SourceKind::kFile:
        bind_file(ref, out);
        break;
      case SourceKind::kClip:
        out.clip = model_.find_clip(ref.target);
        if (out.clip < 0) {
          p_.error(ErrorCode::kInvalid, ref.source_where,
                   "the model has no clip '" + ref.target + "'" +
                       did_you_mean(clip_suggestions(ref.target)));
        }
        break;
      case SourceKind::kName:
        return bind_name(ref, in_rule, self);
    }
    return out;
  }

  BoundSource bind_name(const AnimationReference& ref, bool in_rule, std::string_view self) {
    BoundSource out;
    std::vector<std::string> chain;
    if (!self.empty()) chain.emplace_back(self);
    const AnimationReference* current = &ref;
    bool alias_first = in_rule;
    std::string_view current_self = self;
    for (;;) {
      const std::string& name = current->target;
      const AnimationAlias* alias = config_.find_animation(name);
      if (alias != nullptr && iequals(alias->name, current_self)) alias = nullptr;  // never itself
      const int clip = model_.find_clip(name);
      if (clip >= 0 && (!alias_first || alias == nullptr)) {
        out.kind = SourceKind::kClip;
        out.clip = clip;
        return out;
      }
      if (alias == nullptr) {
        std::vector<std::string_view> names;
        for (const AnimationAlias& a : config_.animations) {
          if (!iequals(a.name, current_self)) names.push_back(a.name);
        }
        for (const Clip& c : model_.clips()) names.push_back(c.name());
        p_.error(ErrorCode::kInvalid, ref.source_where,
                 "'" + name + "' is neither an animation alias nor a clip of the model" +
                     did_you_mean(closest_names(names, name)));
        out.kind = SourceKind::kNone;
        return out;
      }
      if (std::any_of(chain.begin(), chain.end(),
                      [&](const std::string& c) { return iequals(c, alias->name); })) {
        std::string names;
        for (const std::string& c : chain) names += c + " -> ";
        p_.error(ErrorCode::kInvalid, ref.source_where, "alias cycle: " + names + alias->name);
        out.kind = SourceKind::kNone;
        return out;
      }
      chain.push_back(alias->name);
      out.alias_chain.push_back(alias->name);
      if (alias->reference.kind != SourceKind::kName) {
        // The alias's own entry reports its errors; here only the destination matters.
        BoundSource end = bind_source_quiet(alias->reference);
        end.alias_chain = std::move(out.alias_chain);
        return end;
      }
      current = &alias->reference;
      current_self = alias->name;
      alias_first = false;
    }
  }

  // The destination of an alias chain; errors belong to the alias's own entry.
  BoundSource bind_source_quiet(const AnimationReference& ref) {
    BoundSource out;
    out.kind = ref.kind;
    out.parameter = ref.kind == SourceKind::kParameter ? ref.target : std::string();
    if (ref.kind == SourceKind::kDriver) {
      if (const anim::DriverType* type = registry_.find(ref.target)) out.driver = type->name;
    }
    if (ref.kind == SourceKind::kClip) out.clip = model_.find_clip(ref.target);
    if (ref.kind == SourceKind::kFile) {
      const ConfigFileLookup found = resolve_file(ref);
      out.file = found.found() ? found.path : ref.target;
      out.file_clip = ref.file_clip;
    }
    return out;
  }

  void bind_reference(const AnimationReference& ref) {
    if (ref.root_motion && ref.root_motion->source_bone) {
      require_bone(*ref.root_motion->source_bone, ref.root_motion->source_bone_where,
                   "rootMotion.sourceBone");
    }
    if (ref.on_complete && ref.on_complete->type == ActionConfig::Type::kSetState) {
      parameter_name(ref.on_complete->state, ref.on_complete->where);
    }
    if (ref.on_interrupt && ref.on_interrupt->type == ActionConfig::Type::kSetState) {
      parameter_name(ref.on_interrupt->state, ref.on_interrupt->where);
    }
  }

  void bind_animations() {
    for (const AnimationAlias& a : config_.animations) {
      (void)bind_source(a.reference, false, a.name);
      bind_reference(a.reference);
    }
  }

  void bind_rules(const std::vector<RuleConfig>& rules, int layer) {
    for (const RuleConfig& rule : rules) {
      if (rule.is_group) {
        bind_rules(rule.rules, layer);
      } else if (rule.animation) {
        if (rule.animation->source) {
          const BoundSource source = bind_source(*rule.animation, true, {});
          if (source.kind == SourceKind::kDriver && !source.driver.empty()) {
            check_driver_args(source.driver, driver_args(*rule.animation, source), layer);
          }
        }
        bind_reference(*rule.animation);
      }
    }
  }

  // The driverArgs a rule's animation ends up with (§7 merge): its own, else the nearest alias's.
  const ConfigValue* driver_args(const AnimationReference& ref, const BoundSource& source) const {
    if (ref.driver_args) return &*ref.driver_args;
    for (const std::string& name : source.alias_chain) {
      const AnimationAlias* alias = config_.find_animation(name);
      if (alias != nullptr && alias->reference.driver_args) return &*alias->reference.driver_args;
    }
    return nullptr;
  }

  void bind_states() {
    for (const StateConfig& s : config_.states) {
      int index = -1;
      for (std::size_t i = 0; i < out_.layers.size(); ++i) {
        if (iequals(out_.layers[i].name, s.layer)) index = static_cast<int>(i);
      }
      out_.state_layers.push_back(index);
      bind_rules(s.rules, index);
    }
  }

  void bind_ik() {
    const auto parents = model_.skeleton().parents();
    for (const IkChainConfig& c : config_.ik.chains) {
      if (!c.end_bone.empty() && require_bone(c.end_bone, c.end_bone_where, "endBone")) {
        int length = 1;
        for (int j = bone(c.end_bone);
             parents[static_cast<std::size_t>(j)] >= 0 && length < c.max_chain_length;
             j = parents[static_cast<std::size_t>(j)]) {
          ++length;
        }
        if (length < 2) {
          p_.error(ErrorCode::kInvalid, c.end_bone_where,
                   "chain '" + c.name + "' has fewer than 2 bones (its end bone is a root)");
        }
      }
      for (const JointLimitConfig& limit : c.joint_limits) {
        if (!limit.bone.empty()) require_bone(limit.bone, limit.bone_where, "joint limit bone");
      }
      parameter_name(c.target, c.where);
      parameter_name(c.aim, c.where);
      parameter_name(c.hint, c.where);
    }
    for (const LookAtConfig& l : config_.ik.look_ats) {
      for (std::size_t i = 0; i < l.bones.size(); ++i)
        require_bone(l.bones[i], l.bones_where[i], "bone");
      parameter_name(l.target, l.where);
    }
  }

  const AnimationConfig& config_;
  const Model& model_;
  const BindOptions& options_;
  const anim::DriverRegistry& registry_;
  Problems& p_;
  BoundNames& out_;
  std::set<std::pair<const ConfigValue*, bool>> checked_args_;
};

}  // namespace

Result<anim::ControllerDesc> bind(const AnimationConfig& config, const Model& model,
                                  const BindOptions& options, Diagnostics* diag,
                                  std::vector<Error>* all_errors, anim::ControllerDesc* partial) {
  Problems problems{diag, {}};
  BoundNames bound;
  Binder(config, model, options, problems, bound).run();
  const anim::DriverRegistry& drivers =
      options.drivers != nullptr ? *options.drivers : creature::default_drivers();
  anim::ControllerDesc desc;
  if (problems.errors.empty() || partial != nullptr) {
    desc = detail::build_desc(config, bound, model, drivers, problems);
    desc.schema_complete = options.complete_schema;
  }
  if (all_errors != nullptr) {
    all_errors->insert(all_errors->end(), problems.errors.begin(), problems.errors.end());
  }
  if (!problems.errors.empty()) {
    if (partial != nullptr) *partial = std::move(desc);
    return fail(problems.errors.front());
  }
  if (partial != nullptr) *partial = desc;
  return desc;
}

}  // namespace critter::config
