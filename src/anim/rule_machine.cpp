// SPDX-License-Identifier: MIT
#include "anim/rule_machine.h"

#include <algorithm>
#include <string_view>

#include "anim/controller_state.h"

#include "critter/core/strings.h"

namespace critter::anim::detail {
namespace {

// Capacity reserved for string sources so that de-duplication never allocates for short names.
constexpr std::size_t kSourceCapacity = 64;

}  // namespace

RuleMachine::RuleMachine(const ControllerProgram& program) {
  memory_.resize(program.states_.size());
  for (auto& m : memory_) m.source.reserve(kSourceCapacity);
}

void RuleMachine::evaluate(ControllerState& s) {
  const ControllerProgram& p = *s.program;
  // Skipped when every layer is under manual control.
  bool all_manual = s.layers.size() > 0;
  for (std::size_t i = 0; i < s.layers.size(); ++i) {
    all_manual = all_manual && s.layers[static_cast<int>(i)].manual;
  }
  if (!(s.values.changed() || force_evaluation_) || all_manual) return;
  s.values.clear_changed();
  force_evaluation_ = false;
  for (std::size_t i = 0; i < p.states_.size(); ++i) {
    const auto& state = p.states_[i];
    if (state.layer < 0 || s.layers[state.layer].manual) continue;
    const int leaf = match(s, state);
    if (leaf < 0) continue;  // no match: the layer is left unchanged
    const int animation = p.nodes_[static_cast<std::size_t>(leaf)].animation;
    const auto& a = p.animations_[static_cast<std::size_t>(animation)];
    const std::string_view source = a.desc->source == ControllerAnimationDesc::Source::kParameter
                                        ? s.values.text(a.parameter)
                                        : std::string_view();
    StateMemory& memory = memory_[i];
    if (memory.leaf == leaf && memory.source == source) continue;  // de-duplication
    memory.leaf = leaf;
    memory.source.assign(source);
    apply(s, state.layer, animation);
  }
  // A trigger reads true for one evaluation; its reset counts as a change for the next frame.
  s.values.reset_triggers();
}

void RuleMachine::release(const ControllerProgram& program, int layer) {
  const auto& states = program.states_;
  for (std::size_t i = 0; i < states.size(); ++i) {
    if (layer >= 0 && states[i].layer != layer) continue;
    memory_[i].leaf = -1;
    memory_[i].source.clear();
  }
  force_evaluation_ = true;
}

int RuleMachine::match_list(ControllerState& s, int first, int count) {
  const auto& nodes = s.program->nodes_;
  for (int i = first; i < first + count; ++i) {
    const auto& node = nodes[static_cast<std::size_t>(i)];
    if (node.condition) {
      const Value v = node.condition->evaluate(s.values);
      bool ok = false;
      const bool b = v.as_bool(&ok);
      if (!ok) s.log.failed(node.rule, v, FieldKind::kCondition, 0.0f);
      if (!ok || !b) continue;
    }
    if (node.animation >= 0) return i;
    // A group whose children all fail backtracks to its next sibling (§8).
    const int leaf = match_list(s, node.first_child, node.child_count);
    if (leaf >= 0) return leaf;
  }
  return -1;
}

int RuleMachine::match(ControllerState& s, const ControllerProgram::State& state) {
  return match_list(s, state.first_root, state.root_count);
}

void RuleMachine::fire_action(ControllerState& s, int layer_index,
                              const ControllerActionDesc& action, ControllerRecord::Kind kind) {
  switch (action.type) {
    case ControllerActionDesc::Type::kNone:
      return;
    case ControllerActionDesc::Type::kTrigger: {
      ControllerRecord r;
      r.kind = kind;
      r.layer = layer_index;
      r.name = action.name;
      r.data = action.data;
      s.emit(r);
      return;
    }
    case ControllerActionDesc::Type::kSetState:
      s.values.set(action.parameter, action.value);
      return;
  }
}

void RuleMachine::interrupt_if_playing(ControllerState& s, int layer_index) {
  Layer& layer = s.layers[layer_index];
  if (layer.animation >= 0 && layer.once && !layer.completed && layer.player.playing()) {
    layer.completed = true;
    fire_action(
        s, layer_index,
        s.program->animations_[static_cast<std::size_t>(layer.animation)].desc->on_interrupt,
        ControllerRecord::Kind::kInterrupt);
  }
}

void RuleMachine::deactivate(ControllerState& s, int layer_index) {
  Layer& layer = s.layers[layer_index];
  interrupt_if_playing(s, layer_index);
  layer.completed = true;  // completion tracking ends here (§8)
  if (layer.driver >= 0) {
    // §8: a driver layer deactivates at once and keeps its weight.
    layer.driver = -1;
    layer.animation = -1;
    return;
  }
  if (layer.player.clip() == nullptr) {
    layer.animation = -1;
    return;
  }
  if (layer.deactivating) return;
  layer.deactivating = true;
  LayerStack::start_weight_fade(layer, 0.0f, kDeactivateSeconds);
  if (!layer.fading) {  // cannot happen with a positive duration; keeps the states consistent
    layer.player.stop();
    layer.animation = -1;
    layer.deactivating = false;
  }
}

void RuleMachine::apply(ControllerState& s, int layer_index, int animation) {
  const ControllerProgram& p = *s.program;
  const auto& a = p.animations_[static_cast<std::size_t>(animation)];
  const ControllerAnimationDesc& d = *a.desc;
  Layer& layer = s.layers[layer_index];
  const ControllerLayerDesc& cfg = p.desc_.layers[static_cast<std::size_t>(layer_index)];
  using Source = ControllerAnimationDesc::Source;

  if (d.source == Source::kNone) {
    deactivate(s, layer_index);
    // §8: on Base the root-bone correction goes back to the top-level value over 0.2 s.
    if (iequals(cfg.name, "Base")) {
      s.root_bone.start(p.desc_.root_bone_rotation, p.desc_.root_bone_translation,
                        kDeactivateSeconds);
    }
    return;
  }
  if (d.source == Source::kDriver) {
    // §9 step 6: a layer whose driver is of the rule's type keeps it and gets the driverArgs as
    // parameters; otherwise the rule's own driver (driverArgs as properties) takes the layer.
    const int current = layer.driver >= 0 ? layer.driver : layer.last_driver;
    int driver = a.driver;
    if (current >= 0 && p.drivers_[static_cast<std::size_t>(current)].type ==
                            p.drivers_[static_cast<std::size_t>(a.driver)].type) {
      driver = current;
      for (const auto& [index, value] : a.driver_arguments) s.values.set(index, value);
    }
    // A declared type runs nothing: the layer stays as it is.
    if (!s.drivers.runs(driver)) return;
    interrupt_if_playing(s, layer_index);
    if (layer.player.clip() != nullptr) {
      layer.player.stop();
      layer.player.clear_records();
    }
    layer.animation = animation;
    layer.driver = driver;
    layer.last_driver = driver;
    layer.weight = cfg.weight;  // §9: active at the configured weight at once
    layer.fading = false;
    layer.deactivating = false;
    layer.once = false;
    layer.completed = true;  // no completion tracking for drivers
    return;
  }

  int clip = d.clip;
  if (d.source == Source::kParameter) {
    const std::string_view name = s.values.text(a.parameter);
    if (name.empty()) return;  // §9 step 2: leaves the layer untouched
    clip = p.model_->find_clip(name);
    if (clip < 0) {  // §9: clip not found, no change, one diagnostic
      s.log.no_clip(&d.parameter, d.parameter, name);
      return;
    }
  }

  interrupt_if_playing(s, layer_index);  // §9 step 1

  const float speed = s.log.number_field(a.speed, d.speed, s.values);
  const bool loop = s.log.bool_field(a.loop, d.loop, s.values);
  const float start =
      std::clamp(s.log.number_field(a.start_phase, d.start_phase, s.values), 0.0f, 1.0f);
  const float end = std::clamp(s.log.number_field(a.end_phase, d.end_phase, s.values), 0.0f, 1.0f);
  const float blend =
      std::max(0.0f, s.log.number_field(a.blend_duration, d.blend_duration, s.values));

  // §12: the root-bone correction blends from its current value toward the new target.
  s.root_bone.start(d.root_bone_rotation.value_or(p.desc_.root_bone_rotation),
                    d.root_bone_translation.value_or(p.desc_.root_bone_translation), blend);

  layer.driver = -1;
  PlayOptions options;
  options.rate = std::max(0.0f, speed);
  options.start_phase = start;
  options.end_phase = end;
  options.curve = cfg.blend_curve;
  options.events = d.events;
  const PlaybackMode mode = loop ? PlaybackMode::kLoopForward : PlaybackMode::kOnceForward;

  const bool empty = layer.player.clip() == nullptr;
  if (empty) {
    // §10 weight fade-in: the clip starts at once and the weight ramps from 0; the layers below
    // show through meanwhile. Additive layers fade their delta in the same way, which equals a
    // crossfade from the identity delta.
    options.blend_duration = 0.0f;
    layer.weight = 0.0f;
    LayerStack::start_weight_fade(layer, cfg.weight, blend);
  } else {
    options.blend_duration = blend;
    if (layer.deactivating || layer.weight != cfg.weight) {
      LayerStack::start_weight_fade(layer, cfg.weight, kDeactivateSeconds);  // re-enabled mid-fade
    }
  }
  layer.deactivating = false;
  const int old_clip = s.layers.clip_index(layer.player.clip());
  const float old_progress = layer.player.crossfading() ? layer.player.blend_weight() : 1.0f;
  if (!layer.player.play(clip, mode, options)) return;  // options were checked at compile
  layer.player.clear_records();                         // Interrupted records were handled above
  s.layers.set_morph_source(layer, old_clip, old_progress);
  layer.animation = animation;
  layer.start_phase = start;
  layer.end_phase = end;
  layer.play_id = layer.player.playhead().play_id();
  layer.once = !loop;
  layer.completed = false;
}

}  // namespace critter::anim::detail
