#include "critter/io/animation_config_runtime.h"

#include <string>
#include <utility>
#include <vector>

namespace critter::io {
namespace {

Error located(ErrorCode code, const SourceLocation& where, std::string message) {
  return Error::at(code, where.file, where.pointer, std::move(message));
}

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

class Builder {
 public:
  Builder(const AnimationConfig& config, const Model& model) : config_(config), model_(model) {}

  Result<anim::ControllerAnimationDesc> animation(const AnimationReference& rule_ref) {
    // The references to merge, nearest the rule first, and the one that names the source.
    std::vector<const AnimationReference*> chain{&rule_ref};
    const AnimationReference* end = &rule_ref;
    if (rule_ref.kind == SourceKind::kName) {
      bool alias_first = true;  // in a rule, an alias wins over a clip of the same name
      std::string_view self;
      const AnimationReference* current = &rule_ref;
      for (;;) {
        const AnimationAlias* alias = config_.find_animation(current->target);
        if (alias != nullptr && iequals(alias->name, self)) alias = nullptr;  // never itself
        if (model_.find_clip(current->target) >= 0 && (!alias_first || alias == nullptr)) {
          end = current;
          break;
        }
        if (alias == nullptr) {
          return fail(located(
              ErrorCode::kInvalid, rule_ref.source_where,
              "'" + current->target + "' is neither an animation alias nor a clip of the model"));
        }
        if (chain.size() > config_.animations.size()) {
          return fail(located(ErrorCode::kInvalid, rule_ref.source_where, "alias cycle"));
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
    switch (end->kind) {
      case SourceKind::kNone:
        out.source = Source::kNone;
        break;
      case SourceKind::kName:
      case SourceKind::kClip:
        out.source = Source::kClip;
        out.clip = model_.find_clip(end->target);
        if (out.clip < 0) {
          return fail(located(ErrorCode::kInvalid, end->source_where,
                              "'" + end->target + "' is not a clip of the model"));
        }
        break;
      case SourceKind::kDriver:
        out.source = Source::kDriver;
        out.driver = end->target;
        break;
      case SourceKind::kParameter:
        out.source = Source::kParameter;
        out.parameter = end->target;
        break;
      case SourceKind::kFile:
        return fail(located(ErrorCode::kUnsupported, end->source_where,
                            "file: sources are not played by the runtime controller"));
    }

    // §7 merge: written scalar fields and non-null objects nearest the rule win.
    auto pick_float = [&](DynamicFloat AnimationReference::*field) {
      for (const AnimationReference* r : chain) {
        if ((r->*field).written) return r->*field;
      }
      return rule_ref.*field;  // defaults
    };
    auto to_float = [](const DynamicFloat& f) {
      return anim::DynamicFloatDesc{f.value, f.expression};
    };
    out.speed = to_float(pick_float(&AnimationReference::speed));
    out.start_phase = to_float(pick_float(&AnimationReference::start_phase));
    out.end_phase = to_float(pick_float(&AnimationReference::end_phase));
    out.blend_duration = to_float(pick_float(&AnimationReference::blend_duration));
    for (const AnimationReference* r : chain) {
      if (r->loop.written) {
        out.loop = anim::DynamicBoolDesc{r->loop.value, r->loop.expression};
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

  Result<std::vector<anim::ControllerRuleDesc>> rules(const std::vector<RuleConfig>& in) {
    std::vector<anim::ControllerRuleDesc> out;
    out.reserve(in.size());
    for (const RuleConfig& r : in) {
      anim::ControllerRuleDesc rule;
      rule.condition = r.condition;
      rule.is_group = r.is_group;
      if (r.is_group) {
        auto children = rules(r.rules);
        if (!children) return fail(children.error());
        rule.rules = std::move(*children);
      } else if (r.animation) {
        auto a = animation(*r.animation);
        if (!a) return fail(a.error());
        rule.animation = std::move(*a);
      }
      out.push_back(std::move(rule));
    }
    return out;
  }

 private:
  const AnimationConfig& config_;
  const Model& model_;
};

}  // namespace

Result<anim::ControllerDesc> make_controller_desc(const AnimationConfig& config,
                                                  const BoundAnimationConfig& bound,
                                                  const Model& model) {
  anim::ControllerDesc desc;
  desc.schema = bound.schema;
  desc.root_bone_rotation = config.root_bone_rotation.value_or(quat(1.0f, 0.0f, 0.0f, 0.0f));
  desc.root_bone_translation = config.root_bone_translation.value_or(vec3(0.0f));
  desc.model_scale = config.model_scale;
  for (const BoundLayer& l : bound.layers) {
    anim::ControllerLayerDesc layer;
    layer.name = l.name;
    layer.blend_mode = l.blend_mode == LayerBlendMode::kAdditive ? anim::LayerBlendMode::kAdditive
                                                                 : anim::LayerBlendMode::kOverride;
    layer.weight = l.weight;
    layer.blend_curve = l.blend_curve == BlendCurve::kSmoothstep ? anim::BlendCurve::kSmoothstep
                                                                 : anim::BlendCurve::kLinear;
    bool all = true;
    for (bool b : l.mask) all = all && b;
    if (!all) {
      for (bool b : l.mask) layer.joint_weights.push_back(b ? 1.0f : 0.0f);
    }
    desc.layers.push_back(std::move(layer));
  }
  Builder builder(config, model);
  for (std::size_t i = 0; i < config.states.size(); ++i) {
    anim::ControllerStateDesc state;
    state.name = config.states[i].name;
    state.layer = i < bound.state_layers.size() ? bound.state_layers[i] : -1;
    auto rules = builder.rules(config.states[i].rules);
    if (!rules) return fail(rules.error());
    state.rules = std::move(*rules);
    desc.states.push_back(std::move(state));
  }
  return desc;
}

}  // namespace critter::io
