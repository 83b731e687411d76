// SPDX-License-Identifier: MIT
#include "desc_builder.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "critter/anim/expression.h"
#include "critter/anim/parameters.h"
#include "critter/core/strings.h"

namespace critter::config::detail {
namespace {

anim::ParameterValue to_parameter(const ConfigValue& v) {
  switch (v.kind) {
    case ConfigValue::Kind::kBool:
      return anim::ParameterValue::of_bool(v.boolean);
    case ConfigValue::Kind::kNumber:
      return anim::ParameterValue::of_float(v.number);
    case ConfigValue::Kind::kString:
      return anim::ParameterValue::of_string(v.string);
    default:
      return anim::ParameterValue::unset();
  }
}

// A driverArgs value as a parameter (§9): to_parameter's kinds plus [x, y] and [x, y, z]; unset
// for anything else (bind rejects those where they would reach Parameters).
anim::ParameterValue to_argument(const ConfigValue& v) {
  if (v.is_array() && (v.items.size() == 2 || v.items.size() == 3)) {
    vec3 out(0.0f);
    for (std::size_t i = 0; i < v.items.size(); ++i) {
      if (!v.items[i].is_number()) return anim::ParameterValue::unset();
      out[static_cast<glm::length_t>(i)] = static_cast<float>(v.items[i].number);
    }
    return v.items.size() == 2 ? anim::ParameterValue::of_vec2(vec2(out))
                               : anim::ParameterValue::of_vec3(out);
  }
  return to_parameter(v);
}

anim::ControllerActionDesc to_action(const std::optional<ActionConfig>& a) {
  anim::ControllerActionDesc out;
  if (!a) return out;
  if (a->type == ActionConfig::Type::kTrigger) {
    out.type = anim::ControllerActionDesc::Type::kTrigger;
    out.name = a->name;
    out.data = a->data;
  } else {
    out.type = anim::ControllerActionDesc::Type::kSetState;
    out.parameter = a->state;
    out.value = to_parameter(a->value);
  }
  return out;
}

// A number property: a number, or a string holding one, finite as a float (bind reports the
// others; this keeps a description built without bind from reaching the drivers with them).
bool read_number(const ConfigValue& v, float* out) {
  double d = 0.0;
  if (v.is_number()) {
    d = v.number;
  } else if (v.is_string()) {
    char* end = nullptr;
    d = std::strtod(v.string.c_str(), &end);
    if (end == v.string.c_str() || *end != '\0') return false;
  } else {
    return false;
  }
  if (!std::isfinite(d) || std::fabs(d) > static_cast<double>(std::numeric_limits<float>::max()))
    return false;
  *out = static_cast<float>(d);
  return true;
}

int axis_index(const ConfigValue& v, int fallback) {
  if (!v.is_string() || v.string.size() != 1) return fallback;
  const char c = v.string[0];
  if (c == 'x' || c == 'X') return 0;
  if (c == 'y' || c == 'Y') return 1;
  if (c == 'z' || c == 'Z') return 2;
  return fallback;
}

// An Expression driver channel: a number, or a string that is an expression or a literal.
anim::DynamicFloatDesc channel(const ConfigValue& v, float fallback) {
  anim::DynamicFloatDesc out{fallback, {}};
  if (read_number(v, &out.value)) return out;
  if (v.is_string()) {
    const auto c = anim::classify_text(v.string, anim::ExpressionField::kCondition);
    out.expression = std::string(c.text);
  }
  return out;
}

class Builder {
 public:
  Builder(const AnimationConfig& config, const Model& model,
          const std::map<const AnimationReference*, int>& file_clips,
          const anim::DriverRegistry& drivers, Problems& problems)
      : config_(config),
        model_(model),
        file_clips_(file_clips),
        drivers_(drivers),
        p_(problems),
        quiet_(!problems.errors.empty()) {}

  // A problem the binder reports itself when it sees it: reported here only for a config the
  // binder accepted.
  void soft_error(ErrorCode code, const SourceLocation& where, std::string message) {
    if (!quiet_) p_.error(code, where, std::move(message));
  }

  int bone(std::string_view name) const {
    return model_.find_bone(config_.resolve_bone_alias(name));
  }

  // Applies the properties of object `props` (null or not an object: none) to `d`.
  void apply_properties(const ConfigValue* props, anim::ControllerDriverDesc& d) const {
    if (props == nullptr || !props->is_object()) return;
    for (const auto& [key, v] : props->members) {
      float f = 0.0f;
      if (iequals(key, "TargetBoneName")) {
        d.target_bone = v.is_string() ? bone(v.string) : -1;
      } else if (iequals(key, "LookAngleXParam") && v.is_string()) {
        d.yaw_parameter = v.string;
      } else if (iequals(key, "LookAngleYParam") && v.is_string()) {
        d.pitch_parameter = v.string;
      } else if (iequals(key, "MaxAngleX") && read_number(v, &f)) {
        d.max_yaw_degrees = f;
      } else if (iequals(key, "MaxAngleY") && read_number(v, &f)) {
        d.max_pitch_degrees = f;
      } else if (iequals(key, "PitchAxis")) {
        d.pitch_axis = axis_index(v, d.pitch_axis);
      } else if (iequals(key, "YawAxis")) {
        d.yaw_axis = axis_index(v, d.yaw_axis);
      } else if (iequals(key, "InvertPitch") && v.is_bool()) {
        d.invert_pitch = v.boolean;
      } else if (iequals(key, "InvertYaw") && v.is_bool()) {
        d.invert_yaw = v.boolean;
      } else if (iequals(key, "RootBoneName")) {
        d.root_bone = v.is_string() ? bone(v.string) : -1;
      } else if (iequals(key, "DeathPhaseParam") && v.is_string()) {
        d.death_phase_parameter = v.string;
      } else if (iequals(key, "BodyHeightParam") && v.is_string()) {
        d.body_height_parameter = v.string;
      } else if (iequals(key, "BodyRightParam") && v.is_string()) {
        d.body_right_parameter = v.string;
      } else if (iequals(key, "DeathCauseOffsetParam") && v.is_string()) {
        d.death_cause_offset_parameter = v.string;
      } else if (iequals(key, "RollAngle") && read_number(v, &f)) {
        d.roll_angle = f;
      } else if (iequals(key, "PitchAngle") && read_number(v, &f)) {
        d.pitch_angle = f;
      } else if (iequals(key, "BodyDrop") && read_number(v, &f)) {
        d.body_drop = f;
      } else if (iequals(key, "AutoRollDirection") && v.is_bool()) {
        d.auto_roll_direction = v.boolean;
      } else if (iequals(key, "boneConfigs") && v.is_array()) {
        d.bones.clear();
        for (const ConfigValue& b : v.items) {
          const ConfigValue* name = b.find("boneName");
          if (name == nullptr || !name->is_string()) continue;
          anim::ControllerDriverDesc::Bone out;
          out.bone = bone(name->string);
          if (out.bone < 0) continue;  // bind reports unknown bones
          static constexpr const char* kNames[9] = {"positionX", "positionY", "positionZ",
                                                    "rotationX", "rotationY", "rotationZ",
                                                    "scaleX",    "scaleY",    "scaleZ"};
          for (int k = 0; k < 9; ++k) {
            if (const ConfigValue* c = b.find(kNames[k])) {
              out.channels[k] = channel(*c, out.channels[k].value);
              out.channel_sites[k] = c->where;
            }
          }
          d.bones.push_back(std::move(out));
        }
      }
    }
  }

  // The members of `props` that `type` lists, converted by their spec types into d.properties
  // (a later value of a name replaces the earlier one). Values bind rejected are skipped.
  void apply_generic(const anim::DriverType& type, const ConfigValue* props,
                     anim::ControllerDriverDesc& d) const {
    if (props == nullptr || !props->is_object()) return;
    for (const auto& [key, v] : props->members) {
      const anim::DriverPropertySpec* spec = type.property(key);
      if (spec == nullptr) continue;
      anim::DriverProperty p;
      p.name = spec->name;
      p.type = spec->type;
      if (!convert(*spec, v, p)) continue;
      auto same = [&](const anim::DriverProperty& q) { return iequals(q.name, p.name); };
      const auto it = std::find_if(d.properties.begin(), d.properties.end(), same);
      if (it != d.properties.end()) {
        *it = std::move(p);
      } else {
        d.properties.push_back(std::move(p));
      }
    }
  }

  bool convert(const anim::DriverPropertySpec& spec, const ConfigValue& v,
               anim::DriverProperty& p) const {
    using T = anim::DriverPropertyType;
    switch (spec.type) {
      case T::kNumber:
        if (read_number(v, &p.number)) return true;
        if (!v.is_string()) return false;
        p.text = std::string(anim::classify_text(v.string, anim::ExpressionField::kValue).text);
        return true;
      case T::kBool:
        if (v.is_bool()) {
          p.boolean = v.boolean;
          return true;
        }
        if (v.is_string() && (iequals(v.string, "true") || iequals(v.string, "false"))) {
          p.boolean = iequals(v.string, "true");
          return true;
        }
        return false;
      case T::kString:
      case T::kParameter:
        if (!v.is_string()) return false;
        p.text = v.string;
        return true;
      case T::kBoneOrNull:
        if (v.is_null()) return true;  // index stays -1
        [[fallthrough]];
      case T::kBone:
        if (!v.is_string()) return false;
        p.index = bone(v.string);
        return p.index >= 0;
      case T::kAxis:
        p.index = axis_index(v, -1);
        return p.index >= 0;
      case T::kVec3: {
        const ConfigValue* c[3] = {nullptr, nullptr, nullptr};
        if (v.is_array() && v.items.size() == 3) {
          for (int i = 0; i < 3; ++i) c[i] = &v.items[static_cast<std::size_t>(i)];
        } else if (v.is_object()) {
          c[0] = v.find("X");
          c[1] = v.find("Y");
          c[2] = v.find("Z");
        }
        for (int i = 0; i < 3; ++i) {
          if (c[i] == nullptr || !c[i]->is_number()) return false;
          p.vector[i] = static_cast<float>(c[i]->number);
        }
        return true;
      }
      case T::kBoneConfigs:
        return false;  // the typed `bones` field holds it
    }
    return false;
  }

  // The driver of `type` on a layer whose preset is `preset` (may be null), with `args`.
  anim::ControllerDriverDesc driver(std::string_view type, const DriverConfig* preset,
                                    const ConfigValue* args) const {
    anim::ControllerDriverDesc d;
    const anim::DriverType* registered = drivers_.find(type);
    d.type = registered != nullptr ? registered->name : std::string(type);
    d.target_bone = bone("Head");
    const ConfigValue* preset_properties =
        preset != nullptr && anim::same_driver_name(preset->type, type) ? &preset->properties
                                                                        : nullptr;
    apply_properties(preset_properties, d);
    apply_properties(args, d);
    if (registered != nullptr) {
      apply_generic(*registered, preset_properties, d);
      apply_generic(*registered, args, d);
    }
    return d;
  }

  void set_layer_preset(const DriverConfig* preset) { preset_ = preset; }

  anim::ControllerRootMotionDesc root_motion(const RootMotionConfig& in) const {
    anim::ControllerRootMotionDesc out;
    out.source_bone = in.source_bone ? bone(*in.source_bone) : -1;
    const RootMotionTranslation& t = in.translation;
    out.mode = t.mode;
    out.blend_method = t.blend_method;
    out.smooth_time = t.smooth_time;
    out.blend_weight = t.blend_weight;
    out.spring_stiffness = t.spring_stiffness;
    out.spring_damping = t.spring_damping;
    out.impulse_method = t.impulse_method;
    out.impulse_scale = t.impulse_scale;
    out.impulse_phase = t.impulse_phase;
    out.impulse_override = t.impulse_override;
    out.impulse_speed_override = t.impulse_speed_override;
    out.velocity_mask = t.velocity_mask;
    out.max_speed = t.max_speed;
    out.max_impulse = t.max_impulse;
    const RootMotionScale& sc = in.scale;
    out.scale.mode = sc.mode;
    out.scale.source = sc.source;
    out.scale.value = sc.value.value_or(1.0f);  // Fixed without a value keeps the body's size
    out.scale.blend_duration = sc.blend_duration;
    out.scale.min_scale = sc.min_scale;
    if (in.physics) {
      out.physics = *in.physics;
    }
    return out;
  }

  // The animation of a rule (`self` empty: an alias wins over a clip of the same name) or of the
  // `animations` entry `self` (a clip wins; the entry never names itself). A source that does
  // not resolve plays nothing.
  anim::ControllerAnimationDesc animation(const AnimationReference& rule_ref,
                                          std::string_view self = {}) {
    // The references to merge, nearest the rule first, and the one that names the source.
    std::vector<const AnimationReference*> chain{&rule_ref};
    const AnimationReference* end = &rule_ref;
    bool resolved = true;
    if (rule_ref.kind == SourceKind::kName) {
      bool alias_first = self.empty();
      const AnimationReference* current = &rule_ref;
      for (;;) {
        const AnimationAlias* alias = config_.find_animation(current->target);
        if (alias != nullptr && iequals(alias->name, self)) alias = nullptr;  // never itself
        if (model_.find_clip(current->target) >= 0 && (!alias_first || alias == nullptr)) {
          end = current;
          break;
        }
        if (alias == nullptr) {
          soft_error(
              ErrorCode::kInvalid, rule_ref.source_where,
              "'" + current->target + "' is neither an animation alias nor a clip of the model");
          resolved = false;
          break;
        }
        if (chain.size() > config_.animations.size()) {
          soft_error(ErrorCode::kInvalid, rule_ref.source_where, "alias cycle");
          resolved = false;
          break;
        }
        chain.push_back(&alias->reference);
        current = &alias->reference;
        self = alias->name;
        alias_first = false;
        if (current->kind != SourceKind::kName) {
          end = current;
          break;
        }
      }
    }

    anim::ControllerAnimationDesc out;
    using Source = anim::ControllerAnimationDesc::Source;
    switch (resolved ? end->kind : SourceKind::kNone) {
      case SourceKind::kNone:
        out.source = Source::kNone;
        break;
      case SourceKind::kName:
      case SourceKind::kClip:
        out.clip = model_.find_clip(end->target);
        if (out.clip < 0) {
          soft_error(ErrorCode::kInvalid, end->source_where,
                     "'" + end->target + "' is not a clip of the model");
          break;
        }
        out.source = Source::kClip;
        break;
      case SourceKind::kDriver: {
        if (drivers_.find(end->target) == nullptr) {
          soft_error(ErrorCode::kInvalid, end->source_where,
                     "unknown driver type '" + end->target + "'");
          break;
        }
        out.source = Source::kDriver;
        const ConfigValue* args = nullptr;
        for (const AnimationReference* r : chain) {
          if (r->driver_args) {
            args = &*r->driver_args;
            break;
          }
        }
        out.driver = driver(end->target, preset_, args);
        if (args != nullptr && args->is_object()) {
          for (const auto& [key, v] : args->members) {
            anim::ParameterValue value = to_argument(v);
            if (value.type != anim::ParamType::kUnset) {
              out.driver_arguments.push_back({key, std::move(value)});
            }
          }
        }
        break;
      }
      case SourceKind::kParameter:
        out.source = Source::kParameter;
        out.parameter = end->target;
        out.sites.source = end->source_where;
        break;
      case SourceKind::kFile: {
        // The binder reported a reference the host did not place, where it is written.
        const auto clip = file_clips_.find(end);
        if (clip == file_clips_.end()) break;
        out.source = Source::kClip;
        out.clip = clip->second;
        break;
      }
    }

    // §7 merge: written scalar fields and non-null objects nearest the rule win.
    auto pick_float = [&](DynamicFloat AnimationReference::*field) -> const DynamicFloat& {
      for (const AnimationReference* r : chain) {
        if ((r->*field).written) return r->*field;
      }
      return rule_ref.*field;  // defaults
    };
    auto to_float = [](const DynamicFloat& f) {
      return anim::DynamicFloatDesc{f.value, f.expression};
    };
    const DynamicFloat& speed = pick_float(&AnimationReference::speed);
    const DynamicFloat& start_phase = pick_float(&AnimationReference::start_phase);
    const DynamicFloat& end_phase = pick_float(&AnimationReference::end_phase);
    const DynamicFloat& blend_duration = pick_float(&AnimationReference::blend_duration);
    out.speed = to_float(speed);
    out.start_phase = to_float(start_phase);
    out.end_phase = to_float(end_phase);
    out.blend_duration = to_float(blend_duration);
    // Runtime warnings name the field where it was written: the rule's, or its alias's (§0.4).
    out.sites.speed = speed.where;
    out.sites.start_phase = start_phase.where;
    out.sites.end_phase = end_phase.where;
    out.sites.blend_duration = blend_duration.where;
    for (const AnimationReference* r : chain) {
      if (r->loop.written) {
        out.loop = anim::DynamicBoolDesc{r->loop.value, r->loop.expression};
        out.sites.loop = r->loop.where;
        break;
      }
    }
    for (const AnimationReference* r : chain) {
      if (r->preserve_pose) {
        out.preserve_pose = *r->preserve_pose;
        break;
      }
    }
    for (const AnimationReference* r : chain) {
      if (r->events) {
        for (const EventConfig& e : *r->events) out.events.push_back({e.time, e.name, e.data});
        break;
      }
    }
    for (const AnimationReference* r : chain) {
      if (r->on_complete) {
        out.on_complete = to_action(r->on_complete);
        break;
      }
    }
    for (const AnimationReference* r : chain) {
      if (r->on_interrupt) {
        out.on_interrupt = to_action(r->on_interrupt);
        break;
      }
    }
    for (const AnimationReference* r : chain) {
      if (r->root_motion) {
        out.root_motion = root_motion(*r->root_motion);
        break;
      }
    }
    for (const AnimationReference* r : chain) {
      if (r->root_bone_rotation) {
        out.root_bone_rotation = r->root_bone_rotation;
        break;
      }
    }
    for (const AnimationReference* r : chain) {
      if (r->root_bone_translation) {
        out.root_bone_translation = r->root_bone_translation;
        break;
      }
    }
    return out;
  }

  std::vector<anim::ControllerRuleDesc> rules(const std::vector<RuleConfig>& in) {
    std::vector<anim::ControllerRuleDesc> out;
    out.reserve(in.size());
    for (const RuleConfig& r : in) {
      anim::ControllerRuleDesc rule;
      // The text the expression compiler reads (`expr:` stripped).
      rule.condition =
          r.condition.empty()
              ? std::string()
              : std::string(
                    anim::classify_text(r.condition, anim::ExpressionField::kCondition).text);
      rule.condition_site = r.condition_where;
      rule.is_group = r.is_group;
      if (r.is_group) {
        rule.rules = rules(r.rules);
      } else if (r.animation) {
        rule.animation = animation(*r.animation);
      }
      out.push_back(std::move(rule));
    }
    return out;
  }

  // Whether the binder reported errors (the description then only serves to list the others).
  bool quiet() const { return quiet_; }

  // The joint of a config bone name in an IK entry; a bone the model lacks is the binder's error.
  bool ik_bone(const std::string& name, const SourceLocation& where, int& joint) {
    joint = bone(name);
    if (joint >= 0) return true;
    soft_error(ErrorCode::kInvalid, where, "'" + name + "' is not a bone of the model");
    return false;
  }

 private:
  const AnimationConfig& config_;
  const Model& model_;
  const std::map<const AnimationReference*, int>& file_clips_;
  const anim::DriverRegistry& drivers_;
  Problems& p_;
  const bool quiet_;
  const DriverConfig* preset_ = nullptr;
};

}  // namespace

anim::ControllerDesc build_desc(const AnimationConfig& config, const BoundNames& bound,
                                const Model& model, const anim::DriverRegistry& drivers,
                                Problems& problems) {
  anim::ControllerDesc desc;
  desc.source = config.path;
  desc.schema = bound.schema;
  desc.root_bone_rotation = config.root_bone_rotation.value_or(quat(1.0f, 0.0f, 0.0f, 0.0f));
  desc.root_bone_translation = config.root_bone_translation.value_or(vec3(0.0f));
  desc.model_scale = config.model_scale;
  Builder builder(config, model, bound.file_clips, drivers, problems);
  for (const BoundLayer& l : bound.layers) {
    anim::ControllerLayerDesc layer;
    layer.name = l.name;
    layer.blend_mode = l.blend_mode;
    layer.weight = l.weight;
    layer.blend_curve = l.blend_curve;
    if (l.driver) layer.driver = builder.driver(l.driver->type, &*l.driver, nullptr);
    bool all = true;
    for (bool b : l.mask) all = all && b;
    if (!all) {
      for (bool b : l.mask) layer.joint_weights.push_back(b ? 1.0f : 0.0f);
    }
    desc.layers.push_back(std::move(layer));
  }
  for (const AnimationAlias& a : config.animations) {
    desc.animations.push_back(builder.animation(a.reference, a.name));
  }
  for (std::size_t i = 0; i < config.states.size(); ++i) {
    anim::ControllerStateDesc state;
    state.name = config.states[i].name;
    state.layer = i < bound.state_layers.size() ? bound.state_layers[i] : -1;
    builder.set_layer_preset(state.layer >= 0 &&
                                     bound.layers[static_cast<std::size_t>(state.layer)].driver
                                 ? &*bound.layers[static_cast<std::size_t>(state.layer)].driver
                                 : nullptr);
    state.rules = builder.rules(config.states[i].rules);
    desc.states.push_back(std::move(state));
  }
  const auto parents = model.skeleton().parents();
  for (const IkChainConfig& chain : config.ik.chains) {
    anim::ControllerIkChainDesc out;
    out.name = chain.name;
    bool bones_ok = builder.ik_bone(chain.end_bone, chain.end_bone_where, out.end_joint);
    if (bones_ok && builder.quiet()) {
      // A chain of one bone is the binder's error: leave the chain out of a description that
      // only serves to list the other errors.
      bones_ok =
          parents[static_cast<std::size_t>(out.end_joint)] >= 0 && chain.max_chain_length >= 2;
    }
    out.max_chain_length = chain.max_chain_length;
    out.target = chain.target;
    out.aim = chain.aim;
    out.hint = chain.hint;
    out.enabled = anim::DynamicBoolDesc{chain.enabled.value, chain.enabled.expression};
    out.weight = anim::DynamicFloatDesc{chain.weight.value, chain.weight.expression};
    out.position_weight =
        anim::DynamicFloatDesc{chain.position_weight.value, chain.position_weight.expression};
    out.aim_weight = anim::DynamicFloatDesc{chain.aim_weight.value, chain.aim_weight.expression};
    out.sites.enabled = chain.enabled.where;
    out.sites.weight = chain.weight.where;
    out.sites.position_weight = chain.position_weight.where;
    out.sites.aim_weight = chain.aim_weight.where;
    out.settings = chain.settings;
    for (const JointLimitConfig& l : chain.joint_limits) {
      anim::JointLimit limit;
      bones_ok = builder.ik_bone(l.bone, l.bone_where, limit.joint) && bones_ok;
      limit.order = l.order;
      limit.min_degrees = l.min_degrees;
      limit.max_degrees = l.max_degrees;
      out.joint_limits.push_back(limit);
    }
    if (bones_ok) desc.ik_chains.push_back(std::move(out));
  }
  for (const LookAtConfig& look : config.ik.look_ats) {
    anim::ControllerIkLookAtDesc out;
    out.name = look.name;
    bool bones_ok = true;
    for (std::size_t i = 0; i < look.bones.size(); ++i) {
      int b = -1;
      if (builder.ik_bone(look.bones[i],
                          i < look.bones_where.size() ? look.bones_where[i] : look.where, b)) {
        out.bones.push_back(static_cast<std::int16_t>(b));
      } else {
        bones_ok = false;
      }
    }
    out.shares = look.shares;
    out.target = look.target;
    out.yaw = anim::DynamicFloatDesc{look.yaw.value, look.yaw.expression};
    out.pitch = anim::DynamicFloatDesc{look.pitch.value, look.pitch.expression};
    out.weight = anim::DynamicFloatDesc{look.weight.value, look.weight.expression};
    out.sites.yaw = look.yaw.where;
    out.sites.pitch = look.pitch.where;
    out.sites.weight = look.weight.where;
    out.settings = look.settings;
    if (bones_ok) desc.ik_look_ats.push_back(std::move(out));
  }
  return desc;
}

}  // namespace critter::config::detail
