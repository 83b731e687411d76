// SPDX-License-Identifier: MIT
#include "critter/anim/controller_program.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "critter/anim/ik_chain_job.h"
#include "critter/anim/ik_look_at_job.h"
#include "critter/asset/clip.h"
#include "critter/core/strings.h"

namespace critter::anim {
namespace {

Error desc_error(std::string location, std::string message) {
  return Error::at(ErrorCode::kInvalid, "ControllerDesc", std::move(location), std::move(message));
}

}  // namespace

Result<std::shared_ptr<const ControllerProgram>> ControllerProgram::compile(
    const Model& model, ControllerDesc desc, const DriverRegistry* drivers, Diagnostics* diag,
    std::vector<Error>* all_errors) {
  // Constructed in place and never moved: the expression cache points at desc_.schema and the
  // compiled animations point into desc_.
  std::shared_ptr<ControllerProgram> program(new ControllerProgram());
  const DriverRegistry& registry = drivers != nullptr ? *drivers : DriverRegistry::builtin();
  program->diag_ = diag;
  const Status built = program->build(model, std::move(desc), registry);
  std::vector<Error> errors = std::move(program->errors_);
  if (!built) errors.push_back(built.error());
  program->diag_ = nullptr;
  program->errors_.clear();
  program->reported_.clear();
  if (!errors.empty()) {
    if (all_errors != nullptr) all_errors->insert(all_errors->end(), errors.begin(), errors.end());
    return fail(std::move(errors.front()));
  }
  return std::shared_ptr<const ControllerProgram>(std::move(program));
}

vec3 ControllerProgram::root_position(int clip, int bone, float time) const {
  for (const RootTrack& t : root_tracks_) {
    if (t.clip != clip || t.bone != bone) continue;
    if (t.times.empty()) return vec3(0.0f);
    if (time <= t.times.front()) return t.positions.front();
    if (time >= t.times.back()) return t.positions.back();
    const auto it = std::upper_bound(t.times.begin(), t.times.end(), time);
    const std::size_t k = static_cast<std::size_t>(it - t.times.begin());
    const float t0 = t.times[k - 1];
    const float t1 = t.times[k];
    const float f = t1 > t0 ? (time - t0) / (t1 - t0) : 1.0f;
    return t.positions[k - 1] + (t.positions[k] - t.positions[k - 1]) * f;
  }
  return vec3(0.0f);
}

vec3 ControllerProgram::root_scale(int clip, int bone, float time) const {
  for (const RootTrack& t : root_tracks_) {
    if (t.clip != clip || t.bone != bone) continue;
    const auto& ts = t.scale_times;
    if (ts.empty()) return t.rest_scale;
    const bool cubic = t.scale_interpolation == Interpolation::kCubicSpline;
    // Values sit at k (or 3k + 1 between the tangents of a cubic spline).
    const auto value = [&](std::size_t k) { return t.scales[cubic ? 3 * k + 1 : k]; };
    if (time <= ts.front()) return value(0);
    if (time >= ts.back()) return value(ts.size() - 1);
    const auto it = std::upper_bound(ts.begin(), ts.end(), time);
    const std::size_t k = static_cast<std::size_t>(it - ts.begin()) - 1;
    const float span = ts[k + 1] - ts[k];
    const float u = span > 0.0f ? (time - ts[k]) / span : 1.0f;
    switch (t.scale_interpolation) {
      case Interpolation::kStep:
        return value(k);
      case Interpolation::kLinear:
        return value(k) + (value(k + 1) - value(k)) * u;
      case Interpolation::kCubicSpline: {
        // glTF 2.0 Appendix C: Hermite with the out-tangent of k and the in-tangent of k + 1.
        const float u2 = u * u;
        const float u3 = u2 * u;
        return (2 * u3 - 3 * u2 + 1) * value(k) + span * (u3 - 2 * u2 + u) * t.scales[3 * k + 2] +
               (-2 * u3 + 3 * u2) * value(k + 1) + span * (u3 - u2) * t.scales[3 * (k + 1)];
      }
    }
  }
  return vec3(1.0f);
}

int ControllerProgram::find_layer(std::string_view name) const {
  for (std::size_t i = 0; i < desc_.layers.size(); ++i) {
    if (iequals(desc_.layers[i].name, name)) return static_cast<int>(i);
  }
  return -1;
}

const Expression* ControllerProgram::compile_field(const std::string& text,
                                                   const std::string& where,
                                                   const SourceLocation& site) {
  if (text.empty()) return nullptr;
  const std::size_t undeclared_before = cache_->undeclared_parameters().size();
  auto e = cache_->get(text);
  const std::string& file = site.file.empty() ? desc_.source : site.file;
  if (!e) {
    if (site.pointer.empty()) {
      errors_.push_back(desc_error(where, e.error().message + " (" + e.error().location + ")"));
      return nullptr;
    }
    // A field merged into several rules (an alias's speed) has one location: report it once.
    const std::string key = file + "\n" + site.pointer;
    if (std::find(reported_.begin(), reported_.end(), key) == reported_.end()) {
      std::string message = "expression '" + text + "': " + e.error().message;
      if (const int column = error_column(e.error()); column > 0) {
        message += " (column " + std::to_string(column) + ")";
      }
      errors_.push_back(Error::at(e.error().code, file, site.pointer, std::move(message)));
      reported_.push_back(key);
    }
    return nullptr;
  }
  // In a complete schema a name nobody declared would read as unset for ever: a typo that would
  // freeze the controller.
  const auto undeclared = cache_->undeclared_parameters();
  for (std::size_t i = undeclared_before; i < undeclared.size(); ++i) {
    std::vector<std::string_view> known;
    for (ParamIndex p = 0; p < desc_.schema.size(); ++p) {
      const std::string_view name = desc_.schema.name(p);
      if (std::none_of(undeclared.begin(), undeclared.end(),
                       [&](const std::string& u) { return iequals(u, name); })) {
        known.push_back(name);
      }
    }
    const std::string message_end = "parameter '" + undeclared[i] +
                                    "' is neither declared nor built in" +
                                    did_you_mean(closest_names(known, undeclared[i]));
    if (!desc_.schema_complete) {
      if (diag_ != nullptr)
        diag_->warn(file, site.pointer.empty() ? where : site.pointer, message_end);
      continue;
    }
    std::string message = "expression '" + text + "': " + message_end;
    if (site.pointer.empty()) {
      errors_.push_back(desc_error(where, std::move(message)));
    } else {
      errors_.push_back(Error::at(ErrorCode::kInvalid, file, site.pointer, std::move(message)));
    }
  }
  return *e;
}

Status ControllerProgram::check_action(const ControllerActionDesc& action) {
  if (action.type == ControllerActionDesc::Type::kSetState) {
    desc_.schema.declare_or_find(action.parameter);
  }
  return {};
}

void ControllerProgram::add_site(const void* field, const SourceLocation& site,
                                 std::string fallback) {
  Site s;
  s.field = field;
  s.file = site.file;
  s.pointer = site.pointer.empty() ? std::move(fallback) : site.pointer;
  sites_.push_back(std::move(s));
}

Result<int> ControllerProgram::add_driver(const ControllerDriverDesc& driver,
                                          const std::string& where, std::string pointer) {
  const DriverType* type = registry_->find(driver.type);
  if (type == nullptr) {
    return fail(desc_error(where + "/type", "unknown driver type '" + driver.type + "'"));
  }
  Driver d;
  d.type = type->name;
  d.pointer = std::move(pointer);
  if (type->implemented()) {
    // Channel expressions compile here, where their locations are known; a failure is reported
    // there and keeps the factory from reporting it again.
    const std::size_t errors_before = errors_.size();
    for (std::size_t b = 0; b < driver.bones.size(); ++b) {
      for (std::size_t k = 0; k < 9; ++k) {
        compile_field(driver.bones[b].channels[k].expression,
                      where + "/bones/" + std::to_string(b) + "/" + std::to_string(k),
                      driver.bones[b].channel_sites[k]);
      }
    }
    if (errors_.size() != errors_before) {
      drivers_.push_back(std::move(d));
      return static_cast<int>(drivers_.size()) - 1;
    }
    const DriverSetup setup{driver, *model_, desc_.schema, *cache_};
    auto program = type->factory(setup);
    if (!program) {
      const Error& e = program.error();
      return fail(desc_error(e.location.empty() ? where : where + "/" + e.location, e.message));
    }
    if (*program == nullptr) return fail(desc_error(where, "the driver factory returned nothing"));
    d.program = std::move(*program);
  }
  drivers_.push_back(std::move(d));
  return static_cast<int>(drivers_.size()) - 1;
}

Status ControllerProgram::add_animation(const ControllerAnimationDesc& anim,
                                        const std::string& where, const std::string& pointer) {
  Animation a;
  a.desc = &anim;
  using Source = ControllerAnimationDesc::Source;
  if (anim.source == Source::kClip &&
      (anim.clip < 0 || anim.clip >= static_cast<int>(model_->clips().size()))) {
    return fail(desc_error(where + "/clip", "clip index out of range"));
  }
  if (anim.source == Source::kParameter) {
    a.parameter = desc_.schema.declare_or_find(anim.parameter);
    add_site(&anim.parameter, anim.sites.source, pointer + "/source");
  }
  if (anim.source == Source::kDriver) {
    auto d = add_driver(anim.driver, where + "/driver", pointer + "/driverArgs");
    if (!d) return fail(d.error());
    a.driver = *d;
    for (const ControllerDriverArgument& arg : anim.driver_arguments) {
      a.driver_arguments.emplace_back(desc_.schema.declare_or_find(arg.name), arg.value);
    }
  }
  for (float p : {anim.start_phase.value, anim.end_phase.value}) {
    if (!(p >= 0.0f && p <= 1.0f)) return fail(desc_error(where, "phase outside [0, 1]"));
  }
  const Expression* speed =
      compile_field(anim.speed.expression, where + "/speed", anim.sites.speed);
  const Expression* loop = compile_field(anim.loop.expression, where + "/loop", anim.sites.loop);
  const Expression* start =
      compile_field(anim.start_phase.expression, where + "/startPhase", anim.sites.start_phase);
  const Expression* end =
      compile_field(anim.end_phase.expression, where + "/endPhase", anim.sites.end_phase);
  const Expression* blend = compile_field(anim.blend_duration.expression, where + "/blendDuration",
                                          anim.sites.blend_duration);
  if (speed) add_site(&anim.speed, anim.sites.speed, pointer + "/speed");
  if (loop) add_site(&anim.loop, anim.sites.loop, pointer + "/loop");
  if (start) add_site(&anim.start_phase, anim.sites.start_phase, pointer + "/startPhase");
  if (end) add_site(&anim.end_phase, anim.sites.end_phase, pointer + "/endPhase");
  if (blend) add_site(&anim.blend_duration, anim.sites.blend_duration, pointer + "/blendDuration");
  if (anim.root_motion) {
    // The translation blend's spring constants: finite and >= 0, or the spring diverges.
    const ControllerRootMotionDesc& rm = *anim.root_motion;
    const std::pair<const char*, float> constants[] = {{"smooth_time", rm.smooth_time},
                                                       {"spring_stiffness", rm.spring_stiffness},
                                                       {"spring_damping", rm.spring_damping}};
    for (const auto& [field, value] : constants)
      if (!(value >= 0.0f) || !std::isfinite(value))
        return fail(desc_error(where + "/root_motion/" + field, "must be finite and >= 0"));
    const RootMotionScale& sc = anim.root_motion->scale;
    const std::string at = where + "/root_motion/scale";
    if (!std::isfinite(sc.value)) return fail(desc_error(at + "/value", "scale is not finite"));
    if (sc.min_scale && !std::isfinite(*sc.min_scale)) {
      return fail(desc_error(at + "/min_scale", "minimum scale is not finite"));
    }
    if (!(sc.blend_duration >= 0.0f) || !std::isfinite(sc.blend_duration)) {
      return fail(desc_error(at + "/blend_duration", "blend duration must be finite and >= 0"));
    }
  }
  a.speed = speed;
  a.loop = loop;
  a.start_phase = start;
  a.end_phase = end;
  a.blend_duration = blend;
  if (anim.root_motion) {
    const int joints = model_->skeleton().joint_count();
    int bone = anim.root_motion->source_bone;
    if (bone >= joints) return fail(desc_error(where + "/root_motion/source_bone", "bad bone"));
    const auto parents = model_->skeleton().parents();
    if (bone < 0 && joints > 0) {
      // §13: the model root, or the first bone below it (breadth-first) that a clip moves.
      bone = 0;
      std::vector<int> queue{0};
      for (std::size_t q = 0; q < queue.size(); ++q) {
        const int j = queue[q];
        bool moved = false;
        for (const auto& bits : clip_channels_)
          moved = moved || (bits[static_cast<std::size_t>(j)] & kT);
        if (moved) {
          bone = j;
          break;
        }
        for (int c = j + 1; c < joints; ++c) {
          if (parents[static_cast<std::size_t>(c)] == j) queue.push_back(c);
        }
      }
    }
    a.root_bone = bone;
    const auto rest = model_->skeleton().rest_pose();
    quat frame(1.0f, 0.0f, 0.0f, 0.0f);
    for (int j = bone >= 0 ? parents[static_cast<std::size_t>(bone)] : -1; j >= 0;
         j = parents[static_cast<std::size_t>(j)]) {
      frame = rest[static_cast<std::size_t>(j)].rotation * frame;
    }
    a.root_frame = frame;
    // The per-clip cache of that bone's translation keys.
    for (std::size_t c = 0; c < model_->clips().size() && bone >= 0; ++c) {
      bool known = false;
      for (const auto& t : root_tracks_)
        known = known || (t.clip == static_cast<int>(c) && t.bone == bone);
      if (known) continue;
      RootTrack track;
      track.clip = static_cast<int>(c);
      track.bone = bone;
      track.rest_scale = rest[static_cast<std::size_t>(bone)].scale;
      const Clip& clip = model_->clips()[c];
      for (const Track& t : clip.tracks()) {
        if (t.index != bone) continue;
        if (t.target == TrackTarget::kScale) {
          // Every lane of every key (tangents included), three floats each.
          const auto times = clip.track_times(t);
          const auto values = clip.track_values(t);
          track.scale_interpolation = t.interpolation;
          track.scale_times.assign(times.begin(), times.end());
          for (std::size_t i = 0; i + 2 < values.size(); i += 3) {
            track.scales.emplace_back(values[i], values[i + 1], values[i + 2]);
          }
          continue;
        }
        if (t.target != TrackTarget::kTranslation) continue;
        const auto times = clip.track_times(t);
        const auto values = clip.track_values(t);
        const std::size_t stride = t.stride();
        const std::size_t offset = t.interpolation == Interpolation::kCubicSpline ? 3 : 0;
        for (std::size_t k = 0; k < times.size(); ++k) {
          track.times.push_back(times[k]);
          track.positions.emplace_back(values[k * stride + offset], values[k * stride + offset + 1],
                                       values[k * stride + offset + 2]);
        }
      }
      root_tracks_.push_back(std::move(track));
    }
  }
  if (auto s = check_action(anim.on_complete); !s) return s;
  if (auto s = check_action(anim.on_interrupt); !s) return s;
  max_events_ = std::max(max_events_, anim.events.size());
  animations_.push_back(a);
  return {};
}

Result<int> ControllerProgram::add_rules(const std::vector<ControllerRuleDesc>& rules,
                                         const std::string& where, const std::string& pointer) {
  const int first = static_cast<int>(nodes_.size());
  nodes_.resize(nodes_.size() + rules.size());
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const ControllerRuleDesc& rule = rules[i];
    const std::string at = where + "/" + std::to_string(i);
    const std::string at_pointer = pointer + "/" + std::to_string(i);
    const Expression* condition = nullptr;
    if (rule.condition != "true") {
      condition = compile_field(rule.condition.empty() ? std::string("false") : rule.condition,
                                at + "/condition", rule.condition_site);
      add_site(&rule, rule.condition_site, at_pointer + "/condition");
    }
    Node node;
    node.rule = &rule;
    node.condition = condition;
    if (rule.is_group) {
      auto children = add_rules(rule.rules, at + "/rules", at_pointer + "/rules");
      if (!children) return fail(children.error());
      node.first_child = *children;
      node.child_count = static_cast<int>(rule.rules.size());
    } else {
      if (auto s = add_animation(rule.animation, at + "/animation", at_pointer + "/animation"); !s)
        return fail(s.error());
      node.animation = static_cast<int>(animations_.size()) - 1;
    }
    nodes_[static_cast<std::size_t>(first) + i] = node;
  }
  return first;
}

Status ControllerProgram::build(const Model& model, ControllerDesc desc,
                                const DriverRegistry& drivers) {
  model_ = &model;
  registry_ = &drivers;
  desc_ = std::move(desc);
  cache_ = std::make_unique<ExpressionCache>(desc_.schema);
  const std::size_t joints = static_cast<std::size_t>(model.skeleton().joint_count());

  for (std::size_t i = 0; i < desc_.layers.size(); ++i) {
    const ControllerLayerDesc& layer = desc_.layers[i];
    const std::string at = "layers/" + std::to_string(i);
    if (!std::isfinite(layer.weight) || layer.weight <= 0.0f) {
      return fail(desc_error(at + "/weight", "layer weight must be finite and > 0"));
    }
    if (!layer.joint_weights.empty()) {
      if (layer.joint_weights.size() != joints) {
        return fail(desc_error(at + "/joint_weights", "mask size is not the joint count"));
      }
      for (float w : layer.joint_weights) {
        if (!(w >= 0.0f && w <= 1.0f)) {
          return fail(desc_error(at + "/joint_weights", "mask weight outside [0, 1]"));
        }
      }
    }
  }
  // Which channels each clip animates: on Additive layers the others are identity (§11).
  clip_channels_.resize(model.clips().size());
  for (std::size_t c = 0; c < model.clips().size(); ++c) {
    auto& bits = clip_channels_[c];
    bits.assign(joints, 0);
    for (const Track& t : model.clips()[c].tracks()) {
      if (t.index < 0 || static_cast<std::size_t>(t.index) >= joints) continue;
      auto& b = bits[static_cast<std::size_t>(t.index)];
      switch (t.target) {
        case TrackTarget::kTranslation:
          b |= kT;
          break;
        case TrackTarget::kRotation:
          b |= kR;
          break;
        case TrackTarget::kScale:
          b |= kS;
          break;
        case TrackTarget::kWeights:
          break;
      }
    }
  }
  // Which meshes' weights each clip animates: an Override layer leaves the others alone.
  morph_layout_ = MorphLayout::of(model);
  const std::size_t meshes = morph_layout_.mesh_count();
  clip_morphs_.resize(model.clips().size());
  for (std::size_t c = 0; c < model.clips().size(); ++c) {
    const Clip& clip = model.clips()[c];
    auto& on = clip_morphs_[c];
    on.assign(meshes, 0);
    for (const std::uint32_t k : clip.weight_tracks()) {
      const Track& t = clip.tracks()[k];
      if (t.index >= 0 && static_cast<std::size_t>(t.index) < meshes) {
        on[static_cast<std::size_t>(t.index)] = 1;
      }
    }
  }
  base_layer_ = find_layer("Base");
  for (std::size_t i = 0; i < desc_.layers.size(); ++i) {
    int preset = -1;
    if (!desc_.layers[i].driver.type.empty()) {
      const std::string& name = desc_.layers[i].name;
      auto d =
          add_driver(desc_.layers[i].driver, "layers/" + std::to_string(i) + "/driver",
                     "/layers/" + (name.empty() ? std::to_string(i) : json_pointer_token(name)) +
                         "/driver/properties");
      if (!d) return fail(d.error());
      preset = *d;
    }
    layer_drivers_.push_back(preset);
  }
  // Animations are referenced by pointer: reserve so push_back never moves them (the count is
  // the number of leaves, bounded by the number of rules).
  std::size_t rule_count = 0;
  auto count = [&](auto&& self, const std::vector<ControllerRuleDesc>& rules) -> void {
    for (const auto& r : rules) {
      ++rule_count;
      self(self, r.rules);
    }
  };
  for (const auto& state : desc_.states) count(count, state.rules);
  animations_.reserve(rule_count);
  nodes_.reserve(rule_count);

  // Named animations are checked, not played: their fields compile (and report) where written.
  for (std::size_t i = 0; i < desc_.animations.size(); ++i) {
    const ControllerAnimationDesc& named = desc_.animations[i];
    const std::string at = "animations/" + std::to_string(i);
    compile_field(named.speed.expression, at + "/speed", named.sites.speed);
    compile_field(named.loop.expression, at + "/loop", named.sites.loop);
    compile_field(named.start_phase.expression, at + "/startPhase", named.sites.start_phase);
    compile_field(named.end_phase.expression, at + "/endPhase", named.sites.end_phase);
    compile_field(named.blend_duration.expression, at + "/blendDuration",
                  named.sites.blend_duration);
  }

  for (std::size_t i = 0; i < desc_.states.size(); ++i) {
    const ControllerStateDesc& state = desc_.states[i];
    const std::string at = "states/" + std::to_string(i);
    if (state.layer >= static_cast<int>(desc_.layers.size()) || state.layer < -1) {
      return fail(desc_error(at + "/layer", "layer index out of range"));
    }
    const std::string pointer =
        "/states/" + (state.name.empty() ? std::to_string(i) : json_pointer_token(state.name));
    auto roots = add_rules(state.rules, at + "/rules", pointer + "/rules");
    if (!roots) return fail(roots.error());
    states_.push_back({state.layer, *roots, static_cast<int>(state.rules.size())});
  }

  for (std::size_t i = 0; i < desc_.ik_chains.size(); ++i) {
    const ControllerIkChainDesc& chain = desc_.ik_chains[i];
    const std::string at = "ik_chains/" + std::to_string(i);
    if (chain.end_joint < 0 || chain.end_joint >= static_cast<int>(joints)) {
      return fail(desc_error(at + "/end_joint", "joint index out of range"));
    }
    IkChain c;
    c.desc = &chain;
    auto param = [&](const std::string& name) {
      return name.empty() ? kNoParam : desc_.schema.declare_or_find(name);
    };
    c.target = param(chain.target);
    c.aim = param(chain.aim);
    c.hint = param(chain.hint);
    c.enabled = compile_field(chain.enabled.expression, at + "/enabled", chain.sites.enabled);
    c.weight = compile_field(chain.weight.expression, at + "/weight", chain.sites.weight);
    c.position_weight = compile_field(chain.position_weight.expression, at + "/positionWeight",
                                      chain.sites.position_weight);
    c.aim_weight =
        compile_field(chain.aim_weight.expression, at + "/aimWeight", chain.sites.aim_weight);
    const std::string pointer = "/ik/chains/" + std::to_string(i);
    if (c.enabled) add_site(&chain.enabled, chain.sites.enabled, pointer + "/enabled");
    if (c.weight) add_site(&chain.weight, chain.sites.weight, pointer + "/weight");
    if (c.position_weight) {
      add_site(&chain.position_weight, chain.sites.position_weight, pointer + "/positionWeight");
    }
    if (c.aim_weight) add_site(&chain.aim_weight, chain.sites.aim_weight, pointer + "/aimWeight");
    // The job's own rules (chain length, settings, limits) checked once on the rest pose.
    std::vector<Transform> locals(model.skeleton().rest_pose().begin(),
                                  model.skeleton().rest_pose().end());
    std::vector<mat4> models(joints, mat4(1.0f));
    IkChainState state;
    IkChainJob job;
    job.parents = model.skeleton().parents();
    job.locals = locals;
    job.models = models;
    job.end_joint = chain.end_joint;
    job.max_chain_length = chain.max_chain_length;
    job.settings = chain.settings;
    job.joint_limits = chain.joint_limits;
    job.state = &state;
    if (auto s = job.validate(); !s) {
      return fail(desc_error(at + "/" + s.error().location, s.error().message));
    }
    ik_chains_.push_back(c);
  }
  for (std::size_t i = 0; i < desc_.ik_look_ats.size(); ++i) {
    const ControllerIkLookAtDesc& look = desc_.ik_look_ats[i];
    const std::string at = "ik_look_ats/" + std::to_string(i);
    IkLookAt l;
    l.desc = &look;
    l.target = look.target.empty() ? kNoParam : desc_.schema.declare_or_find(look.target);
    l.yaw = compile_field(look.yaw.expression, at + "/yaw", look.sites.yaw);
    l.pitch = compile_field(look.pitch.expression, at + "/pitch", look.sites.pitch);
    l.weight = compile_field(look.weight.expression, at + "/weight", look.sites.weight);
    const std::string pointer = "/ik/lookAt/" + std::to_string(i);
    if (l.yaw) add_site(&look.yaw, look.sites.yaw, pointer + "/yaw");
    if (l.pitch) add_site(&look.pitch, look.sites.pitch, pointer + "/pitch");
    if (l.weight) add_site(&look.weight, look.sites.weight, pointer + "/weight");
    std::vector<Transform> locals(model.skeleton().rest_pose().begin(),
                                  model.skeleton().rest_pose().end());
    std::vector<mat4> models(joints, mat4(1.0f));
    LookAtState state;
    IkLookAtJob job;
    job.parents = model.skeleton().parents();
    job.locals = locals;
    job.models = models;
    job.bones = look.bones;
    job.shares = look.shares;
    job.settings = look.settings;
    job.state = &state;
    if (auto s = job.validate(); !s) {
      return fail(desc_error(at + "/" + s.error().location, s.error().message));
    }
    ik_look_ats_.push_back(l);
  }
  // Read and written by the creature module's game rules (§17 built-in events).
  desc_.schema.declare_or_find("IsOnGround");
  desc_.schema.declare_or_find("ImmersionFactor");
  desc_.schema.declare_or_find("IsAttackHitMoment");
  registry_ = nullptr;  // the caller's registry may go away; the drivers keep what they need
  return {};
}

}  // namespace critter::anim
