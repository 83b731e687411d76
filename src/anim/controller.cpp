#include "critter/anim/controller.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include <glm/gtc/matrix_transform.hpp>

#include "critter/anim/transform_blend.h"
#include "critter/asset/clip.h"

namespace critter::anim {
namespace {

// §10: deactivation and re-enable fades always take 0.2 s.
constexpr float kDeactivateSeconds = 0.2f;
// §17: footsteps closer than this are not passed to the hook.
constexpr double kFootstepInterval = 0.2;
// Capacity reserved for string sources so that de-duplication never allocates for short names.
constexpr std::size_t kSourceCapacity = 64;
constexpr std::size_t kRecordCapacity = 64;

Error desc_error(std::string location, std::string message) {
  return Error::at(ErrorCode::kInvalid, "ControllerDesc", std::move(location), std::move(message));
}

float smoothstep01(float x) {
  x = std::clamp(x, 0.0f, 1.0f);
  return x * x * (3.0f - 2.0f * x);
}

// What went wrong in a runtime case (Controller::RuntimeCase::failure).
enum Failure : std::uint8_t {
  kTypeMismatch,     // EvalError::kTypeMismatch
  kBadOperand,       // EvalError::kBadOperand
  kScratchOverflow,  // EvalError::kScratchOverflow
  kString,           // the result is a string
  kNumber,           // the result is a number the field cannot take (non-finite, NaN)
  kNoClip,           // a [Param] source names no clip
  kTooMany,          // the kMaxRuntimeCases notice
};

Failure failure_of(const Value& v) {
  if (v.is_error()) {
    switch (v.error) {
      case EvalError::kBadOperand:
        return kBadOperand;
      case EvalError::kScratchOverflow:
        return kScratchOverflow;
      case EvalError::kNone:
      case EvalError::kTypeMismatch:
        break;
    }
    return kTypeMismatch;
  }
  return v.kind == ValueKind::kString ? kString : kNumber;
}

// Shortest round-trip form, so a float default reads as written ("0.3", not 0.30000001...).
template <class T>
std::string format_number(T v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buffer[32];
  const auto r = std::to_chars(buffer, buffer + sizeof(buffer), v);
  return std::string(buffer, r.ptr);
}

// A string value in a message: quoted, long ones cut.
std::string quoted(std::string_view text) {
  constexpr std::size_t kShown = 64;
  if (text.size() <= kShown) return "'" + std::string(text) + "'";
  return "'" + std::string(text.substr(0, kShown)) + "...'";
}

}  // namespace

// ---- ControllerProgram -------------------------------------------------------------------------

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
    if (equals_ascii_ci(desc_.layers[i].name, name)) return static_cast<int>(i);
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
  const auto undeclared = cache_->undeclared_parameters();
  if (diag_ != nullptr) {
    for (std::size_t i = undeclared_before; i < undeclared.size(); ++i) {
      diag_->warn(file, site.pointer.empty() ? where : site.pointer,
                  "parameter '" + undeclared[i] + "' is neither declared nor built in");
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
  is_on_ground_ = desc_.schema.declare_or_find("IsOnGround");
  immersion_factor_ = desc_.schema.declare_or_find("ImmersionFactor");
  attack_hit_moment_ = desc_.schema.declare_or_find("IsAttackHitMoment");
  registry_ = nullptr;  // the caller's registry may go away; the drivers keep what they need
  return {};
}

// ---- Controller --------------------------------------------------------------------------------

Controller::Controller(std::shared_ptr<const ControllerProgram> program)
    : program_(std::move(program)), values_(program_->desc_.schema) {
  const Model& model = *program_->model_;
  const std::size_t joints = static_cast<std::size_t>(model.skeleton().joint_count());
  layers_.reserve(program_->desc_.layers.size());
  for (std::size_t i = 0; i < program_->desc_.layers.size(); ++i) {
    layers_.emplace_back(model);
    Layer& layer = layers_.back();
    layer.pose.resize(joints);
    layer.touched.resize(joints);
    layer.morph_source.assign(program_->morph_layout_.mesh_count(), 0.0f);
    const int preset = program_->layer_drivers_[i];
    layer.last_driver = preset;
    if (preset >= 0 && program_->drivers_[static_cast<std::size_t>(preset)].program) {
      layer.driver = preset;
      layer.weight = program_->desc_.layers[i].weight;
    }
  }
  log_ = std::make_unique<RuntimeLog>();
  log_->program = program_.get();
  log_->sinks.resize(program_->drivers_.size());
  // Every driver a layer may run, instantiated now so that update() never allocates.
  drivers_.reserve(program_->drivers_.size());
  for (std::size_t i = 0; i < program_->drivers_.size(); ++i) {
    const auto& d = program_->drivers_[i];
    drivers_.push_back(d.program ? d.program->instantiate() : nullptr);
    DriverSink& sink = log_->sinks[i];
    sink.log = log_.get();
    sink.driver = static_cast<int>(i);
    if (drivers_.back()) drivers_.back()->set_reporter(&sink);
  }
  memory_.resize(program_->states_.size());
  for (auto& m : memory_) m.source.reserve(kSourceCapacity);
  records_.reserve(kRecordCapacity);
  output_.assign(model.skeleton().rest_pose().begin(), model.skeleton().rest_pose().end());
  set_.resize(joints);
  weights_ = program_->morph_layout_.defaults;
  if (!program_->ik_chains_.empty() || !program_->ik_look_ats_.empty()) {
    models_.resize(joints);
  }
  ik_states_.resize(program_->ik_chains_.size());
  look_states_.resize(program_->ik_look_ats_.size());
  root_rotation_ = program_->desc_.root_bone_rotation;
  root_translation_ = program_->desc_.root_bone_translation;
}

bool Controller::layer_active(int layer) const {
  const Layer& l = layers_[static_cast<std::size_t>(layer)];
  return l.weight > 0.0f && (l.player.clip() != nullptr || l.driver >= 0);
}

const ControllerAnimationDesc* Controller::layer_animation(int layer) const {
  const Layer& l = layers_[static_cast<std::size_t>(layer)];
  if (l.animation < 0) return nullptr;
  return program_->animations_[static_cast<std::size_t>(l.animation)].desc;
}

// ---- Runtime warnings (§0.4) --------------------------------------------------------------------

bool Controller::RuntimeLog::known(const void* field, std::string_view driver_field,
                                   std::uint8_t failure, double number,
                                   std::string_view text) const {
  for (const RuntimeCase& c : cases) {
    if (c.field == field && c.failure == failure && c.driver_field == driver_field &&
        c.text == text && (c.number == number || (std::isnan(c.number) && std::isnan(number)))) {
      return true;
    }
  }
  return false;
}

void Controller::RuntimeLog::add(const void* field, std::string_view driver_field,
                                 std::uint8_t failure, double number, std::string_view text,
                                 std::string_view file, std::string pointer, std::string message) {
  if (cases.size() >= kMaxRuntimeCases) {
    if (!full) {
      full = true;
      warnings.push_back(Warning{program->desc().source,
                                 {},
                                 "more than " + std::to_string(kMaxRuntimeCases) +
                                     " distinct runtime failures: further ones are not reported"});
    }
    return;
  }
  RuntimeCase c;
  c.field = field;
  c.driver_field = std::string(driver_field);
  c.failure = failure;
  c.number = number;
  c.text = std::string(text);
  cases.push_back(std::move(c));
  warnings.push_back(Warning{std::string(file.empty() ? program->desc().source : file),
                             std::move(pointer), std::move(message)});
}

const ControllerProgram::Site* Controller::RuntimeLog::site(const void* field) const {
  for (const ControllerProgram::Site& s : program->sites_) {
    if (s.field == field) return &s;
  }
  return nullptr;
}

namespace {

// What the evaluation gave, for a failed result of a number or a bool field.
std::string what_failed(const Value& result, bool number_field) {
  switch (failure_of(result)) {
    case kTypeMismatch:
      return "fails with a type mismatch";
    case kBadOperand:
      return "fails: a bitwise operand is NaN or outside the 64-bit integer range";
    case kScratchOverflow:
      return "fails: its text needs more than " + std::to_string(EvalScratch::kScratchBytes) +
             " bytes";
    case kString:
      return "evaluates to the string " + quoted(result.text) + ", not " +
             (number_field ? "a number" : "a bool");
    default:
      return "evaluates to " + format_number(result.number) + ", not " +
             (number_field ? "a finite number" : "a bool");
  }
}

}  // namespace

void Controller::RuntimeLog::failed(const void* field, const Value& result, FieldKind kind,
                                    float fallback) {
  const Failure failure = failure_of(result);
  const double number = failure == kNumber ? result.number : 0.0;
  const std::string_view text = failure == kString ? result.text : std::string_view();
  if (known(field, {}, failure, number, text)) return;
  std::string message = what_failed(result, kind == FieldKind::kNumber);
  switch (kind) {
    case FieldKind::kNumber:
      message += ": used the default " + format_number(fallback);
      break;
    case FieldKind::kBool:
      message += std::string(": used the default ") + (fallback != 0.0f ? "true" : "false");
      break;
    case FieldKind::kCondition:
      message += ": the condition counts as false";
      break;
  }
  const ControllerProgram::Site* s = site(field);
  add(field, {}, failure, number, text, s ? s->file : std::string_view(),
      s ? s->pointer : std::string(), std::move(message));
}

void Controller::RuntimeLog::no_clip(const void* field, std::string_view parameter,
                                     std::string_view name) {
  if (known(field, {}, kNoClip, 0.0, name)) return;
  const ControllerProgram::Site* s = site(field);
  add(field, {}, kNoClip, 0.0, name, s ? s->file : std::string_view(),
      s ? s->pointer : std::string(),
      "[" + std::string(parameter) + "] names no clip " + quoted(name) +
          ": the layer keeps its animation");
}

void Controller::DriverSink::evaluation_failed(const DriverEvalFailure& f) {
  const ControllerProgram::Driver& d = log->program->drivers_[static_cast<std::size_t>(driver)];
  const Failure failure = failure_of(f.result);
  const double number = failure == kNumber ? f.result.number : 0.0;
  const std::string_view text = failure == kString ? f.result.text : std::string_view();
  if (log->known(&d, f.field, failure, number, text)) return;
  log->add(&d, f.field, failure, number, text, f.file,
           f.pointer.empty() ? d.pointer + "/" + std::string(f.field) : std::string(f.pointer),
           what_failed(f.result, true) + ": used the default " + format_number(f.fallback));
}

float Controller::eval_float(const Expression* e, const DynamicFloatDesc& field) {
  if (e == nullptr) return field.value;
  const Value v = e->evaluate(values_);
  bool ok = false;
  const float f = v.as_float(&ok);
  if (ok) return f;
  log_->failed(&field, v, FieldKind::kNumber, field.value);
  return field.value;
}

bool Controller::eval_bool(const Expression* e, const DynamicBoolDesc& field) {
  if (e == nullptr) return field.value;
  const Value v = e->evaluate(values_);
  bool ok = false;
  const bool b = v.as_bool(&ok);
  if (ok) return b;
  log_->failed(&field, v, FieldKind::kBool, field.value ? 1.0f : 0.0f);
  return field.value;
}

int Controller::match_list(int first, int count) {
  const auto& nodes = program_->nodes_;
  for (int i = first; i < first + count; ++i) {
    const auto& node = nodes[static_cast<std::size_t>(i)];
    if (node.condition) {
      const Value v = node.condition->evaluate(values_);
      bool ok = false;
      const bool b = v.as_bool(&ok);
      if (!ok) log_->failed(node.rule, v, FieldKind::kCondition, 0.0f);
      if (!ok || !b) continue;
    }
    if (node.animation >= 0) return i;
    // A group whose children all fail backtracks to its next sibling (§8).
    const int leaf = match_list(node.first_child, node.child_count);
    if (leaf >= 0) return leaf;
  }
  return -1;
}

int Controller::match(const ControllerProgram::State& state) {
  return match_list(state.first_root, state.root_count);
}

void Controller::start_weight_fade(Layer& layer, float to, float duration) {
  if (duration <= 0.0f) {
    layer.weight = to;
    layer.fading = false;
    return;
  }
  layer.fade_from = layer.weight;
  layer.fade_to = to;
  layer.fade_time = 0.0f;
  layer.fade_duration = duration;
  layer.fading = true;
}

void Controller::fire_action(int layer_index, const ControllerActionDesc& action,
                             ControllerRecord::Kind kind) {
  switch (action.type) {
    case ControllerActionDesc::Type::kNone:
      return;
    case ControllerActionDesc::Type::kTrigger: {
      ControllerRecord r;
      r.kind = kind;
      r.layer = layer_index;
      r.name = action.name;
      r.data = action.data;
      records_.push_back(r);
      return;
    }
    case ControllerActionDesc::Type::kSetState:
      values_.set(action.parameter, action.value);
      return;
  }
}

void Controller::interrupt_if_playing(int layer_index) {
  Layer& layer = layers_[static_cast<std::size_t>(layer_index)];
  if (layer.animation >= 0 && layer.once && !layer.completed && layer.player.playing()) {
    layer.completed = true;
    fire_action(layer_index,
                program_->animations_[static_cast<std::size_t>(layer.animation)].desc->on_interrupt,
                ControllerRecord::Kind::kInterrupt);
  }
}

void Controller::deactivate(int layer_index) {
  Layer& layer = layers_[static_cast<std::size_t>(layer_index)];
  interrupt_if_playing(layer_index);
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
  start_weight_fade(layer, 0.0f, kDeactivateSeconds);
  if (!layer.fading) {  // cannot happen with a positive duration; keeps the states consistent
    layer.player.stop();
    layer.animation = -1;
    layer.deactivating = false;
  }
}

void Controller::start_root_blend(const quat& rotation, const vec3& translation, float duration) {
  root_from_rotation_ = root_rotation_;
  root_from_translation_ = root_translation_;
  root_to_rotation_ = rotation;
  root_to_translation_ = translation;
  root_blend_time_ = 0.0f;
  root_blend_duration_ = duration;
  root_blending_ = true;
}

void Controller::apply(int layer_index, int animation) {
  const ControllerProgram& p = *program_;
  const auto& a = p.animations_[static_cast<std::size_t>(animation)];
  const ControllerAnimationDesc& d = *a.desc;
  Layer& layer = layers_[static_cast<std::size_t>(layer_index)];
  const ControllerLayerDesc& cfg = p.desc_.layers[static_cast<std::size_t>(layer_index)];
  using Source = ControllerAnimationDesc::Source;

  if (d.source == Source::kNone) {
    deactivate(layer_index);
    // §8: on Base the root-bone correction goes back to the top-level value over 0.2 s.
    if (equals_ascii_ci(cfg.name, "Base")) {
      start_root_blend(p.desc_.root_bone_rotation, p.desc_.root_bone_translation,
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
      for (const auto& [index, value] : a.driver_arguments) values_.set(index, value);
    }
    // A declared type runs nothing: the layer stays as it is.
    if (!drivers_[static_cast<std::size_t>(driver)]) return;
    interrupt_if_playing(layer_index);
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
    const std::string_view name = values_.text(a.parameter);
    if (name.empty()) return;  // §9 step 2: leaves the layer untouched
    clip = p.model_->find_clip(name);
    if (clip < 0) {  // §9: clip not found, no change, one diagnostic
      log_->no_clip(&d.parameter, d.parameter, name);
      return;
    }
  }

  interrupt_if_playing(layer_index);  // §9 step 1

  const float speed = eval_float(a.speed, d.speed);
  const bool loop = eval_bool(a.loop, d.loop);
  const float start = std::clamp(eval_float(a.start_phase, d.start_phase), 0.0f, 1.0f);
  const float end = std::clamp(eval_float(a.end_phase, d.end_phase), 0.0f, 1.0f);
  const float blend = std::max(0.0f, eval_float(a.blend_duration, d.blend_duration));

  // §12: the root-bone correction blends from its current value toward the new target.
  start_root_blend(d.root_bone_rotation.value_or(p.desc_.root_bone_rotation),
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
    start_weight_fade(layer, cfg.weight, blend);
  } else {
    options.blend_duration = blend;
    if (layer.deactivating || layer.weight != cfg.weight) {
      start_weight_fade(layer, cfg.weight, kDeactivateSeconds);  // re-enabled mid-fade
    }
  }
  layer.deactivating = false;
  const int old_clip = clip_index(layer.player.clip());
  const float old_progress = layer.player.crossfading() ? layer.player.blend_weight() : 1.0f;
  if (!layer.player.play(clip, mode, options)) return;  // options were checked at compile
  layer.player.clear_records();                         // Interrupted records were handled above
  set_morph_source(layer, old_clip, old_progress);
  layer.animation = animation;
  layer.start_phase = start;
  layer.end_phase = end;
  layer.play_id = layer.player.playhead().play_id();
  layer.once = !loop;
  layer.completed = false;
}

Status Controller::play_animation(int layer_index, int clip, PlaybackMode mode,
                                  PlayOptions options) {
  if (layer_index < 0 || layer_index >= static_cast<int>(layers_.size())) {
    return fail(Error::at(ErrorCode::kUsage, "Controller", "layer", "no such layer"));
  }
  Layer& layer = layers_[static_cast<std::size_t>(layer_index)];
  const ControllerLayerDesc& cfg = program_->desc_.layers[static_cast<std::size_t>(layer_index)];
  options.on_done = nullptr;
  const float blend = std::max(0.0f, options.blend_duration);
  const bool empty = layer.player.clip() == nullptr;
  PlayOptions play = options;
  if (empty) play.blend_duration = 0.0f;
  if (clip < 0 || clip >= static_cast<int>(program_->model_->clips().size())) {
    return fail(Error::at(ErrorCode::kUsage, "Controller", "clip", "clip index out of range"));
  }
  const bool interrupts =
      layer.animation >= 0 && layer.once && !layer.completed && layer.player.playing();
  const int outgoing = layer.animation;
  const int old_clip = clip_index(layer.player.clip());
  const float old_progress = layer.player.crossfading() ? layer.player.blend_weight() : 1.0f;
  if (auto s = layer.player.play(clip, mode, play); !s) return s;
  layer.player.clear_records();
  set_morph_source(layer, old_clip, old_progress);
  if (interrupts) {
    fire_action(layer_index,
                program_->animations_[static_cast<std::size_t>(outgoing)].desc->on_interrupt,
                ControllerRecord::Kind::kInterrupt);
  }
  if (empty) {
    layer.weight = 0.0f;
    start_weight_fade(layer, cfg.weight, blend);
  } else if (layer.deactivating || layer.weight != cfg.weight) {
    start_weight_fade(layer, cfg.weight, kDeactivateSeconds);
  }
  layer.deactivating = false;
  layer.driver = -1;
  layer.animation = -1;
  layer.once = false;
  layer.completed = true;
  layer.manual = true;
  return {};
}

void Controller::release_manual_control(int layer_index) {
  const auto& states = program_->states_;
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    if (layer_index >= 0 && static_cast<int>(i) != layer_index) continue;
    layers_[i].manual = false;
    for (std::size_t s = 0; s < states.size(); ++s) {
      if (states[s].layer != static_cast<int>(i)) continue;
      memory_[s].leaf = -1;
      memory_[s].source.clear();
    }
  }
  force_evaluation_ = true;
}

void Controller::on_event(int layer_index, const PlayerRecord& record) {
  ControllerRecord r;
  r.kind = ControllerRecord::Kind::kEvent;
  r.layer = layer_index;
  r.name = record.name;
  r.data = record.data;
  r.time = record.phase;
  r.count = record.count;
  records_.push_back(r);
  // Built-in handling (§17); the record is passed on in every case.
  if (equals_ascii_ci(record.name, "Footstep")) {
    const bool standing = values_.boolean(program_->is_on_ground_) ||
                          values_.number(program_->immersion_factor_) > 0.5;
    if (standing && time_ - last_footstep_ >= kFootstepInterval) {
      last_footstep_ = time_;
      if (hooks_.footstep) hooks_.footstep(record.data);
    }
  } else if (equals_ascii_ci(record.name, "AttackHit")) {
    attack_hit_moment_ = true;
    values_.set_bool(program_->attack_hit_moment_, true);
    if (hooks_.attack_hit) hooks_.attack_hit();
  } else if (equals_ascii_ci(record.name, "AttackStart")) {
    if (hooks_.attack_start) hooks_.attack_start();
  } else if (equals_ascii_ci(record.name, "AttackEnd")) {
    attack_hit_moment_ = false;
    values_.set_bool(program_->attack_hit_moment_, false);
    if (hooks_.attack_end) hooks_.attack_end();
  }
}

void Controller::update(float dt) {
  if (!std::isfinite(dt) || dt < 0.0f) dt = 0.0f;
  last_dt_ = dt;
  const ControllerProgram& p = *program_;
  time_ += dt;

  // (2) Rules, only when a parameter changed (§8) or control was released; skipped when every
  // layer is under manual control.
  bool all_manual = !layers_.empty();
  for (const Layer& l : layers_) all_manual = all_manual && l.manual;
  if ((values_.changed() || force_evaluation_) && !all_manual) {
    values_.clear_changed();
    force_evaluation_ = false;
    for (std::size_t s = 0; s < p.states_.size(); ++s) {
      const auto& state = p.states_[s];
      if (state.layer < 0 || layers_[static_cast<std::size_t>(state.layer)].manual) continue;
      const int leaf = match(state);
      if (leaf < 0) continue;  // no match: the layer is left unchanged
      const int animation = p.nodes_[static_cast<std::size_t>(leaf)].animation;
      const auto& a = p.animations_[static_cast<std::size_t>(animation)];
      const std::string_view source = a.desc->source == ControllerAnimationDesc::Source::kParameter
                                          ? values_.text(a.parameter)
                                          : std::string_view();
      StateMemory& memory = memory_[s];
      if (memory.leaf == leaf && memory.source == source) continue;  // de-duplication
      memory.leaf = leaf;
      memory.source.assign(source);
      apply(state.layer, animation);
    }
    // A trigger reads true for one evaluation; its reset counts as a change for the next frame.
    values_.reset_triggers();
  }

  for (std::size_t i = 0; i < layers_.size(); ++i) {
    Layer& layer = layers_[i];
    const int index = static_cast<int>(i);
    // (3) Speed and loop expressions re-evaluate every frame.
    if (layer.animation >= 0 && layer.driver < 0) {
      const auto& a = p.animations_[static_cast<std::size_t>(layer.animation)];
      if (a.speed) layer.player.set_rate(std::max(0.0f, eval_float(a.speed, a.desc->speed)));
      // Only the layer's own play while it runs: a finished play is not revived, and a layer
      // fading out has already ended its completion tracking.
      if (a.loop && !layer.deactivating && layer.player.playing() &&
          layer.player.playhead().play_id() == layer.play_id) {
        const bool loop = eval_bool(a.loop, a.desc->loop);
        if (loop == layer.once) {
          // Keeps the cursor, so nothing pops; completion and interrupt now follow `once`.
          (void)layer.player.set_mode(loop ? PlaybackMode::kLoopForward
                                           : PlaybackMode::kOnceForward);
          layer.once = !loop;
        }
      }
    }
    // (4) Weight fades, then the driver or the player.
    if (layer.fading) {
      layer.fade_time += dt;
      const float x = std::min(1.0f, layer.fade_time / layer.fade_duration);
      const float f =
          p.desc_.layers[i].blend_curve == BlendCurve::kSmoothstep ? smoothstep01(x) : x;
      layer.weight = layer.fade_from + (layer.fade_to - layer.fade_from) * f;
      if (x >= 1.0f) layer.fading = false;
    }
    if (layer.driver >= 0) {
      // Quirk 12: a `driver:` rule's speed scales the driver's time step.
      float speed = 1.0f;
      if (layer.animation >= 0) {
        const auto& a = p.animations_[static_cast<std::size_t>(layer.animation)];
        speed = std::max(0.0f, eval_float(a.speed, a.desc->speed));
      }
      drivers_[static_cast<std::size_t>(layer.driver)]->update(dt * speed, values_);
    }
    if (layer.player.clip() == nullptr) continue;
    layer.player.update(dt);
    for (const PlayerRecord& r : layer.player.records()) {
      if (r.kind == RecordKind::kEvent) {
        // Events of a layer fading out still fire: the clip still plays (§10).
        on_event(index, r);
      } else if (r.kind == RecordKind::kCompleted && r.play_id == layer.play_id &&
                 layer.animation >= 0 && !layer.completed) {
        layer.completed = true;
        const auto* d = p.animations_[static_cast<std::size_t>(layer.animation)].desc;
        fire_action(index, d->on_complete, ControllerRecord::Kind::kComplete);
        if (!d->preserve_pose) deactivate(index);  // §10: a finished clip fades out
      }
    }
    layer.player.clear_records();
    if (layer.deactivating && !layer.fading) {
      layer.player.stop();
      layer.player.clear_records();
      layer.animation = -1;
      layer.deactivating = false;
      layer.weight = 0.0f;
    }
  }

  // (5) Root-bone correction blend (§12).
  if (root_blending_) {
    root_blend_time_ += dt;
    const float s =
        root_blend_duration_ > 0.0f ? smoothstep01(root_blend_time_ / root_blend_duration_) : 1.0f;
    root_rotation_ = slerp_shortest(root_from_rotation_, root_to_rotation_, s);
    root_translation_ =
        root_from_translation_ + (root_to_translation_ - root_from_translation_) * s;
    if (s >= 1.0f) root_blending_ = false;
  }
  // (6) Root motion, Base only (§13).
  root_motion(dt);
  root_motion_effects(dt);
  if (scale_shown_ && hooks_.root_scale) hooks_.root_scale(scale_);
}

void Controller::root_motion_effects(float dt) {
  const ControllerProgram& p = *program_;
  // The config in effect: the rootMotion block of the play the Base layer runs.
  int animation = -1;
  std::uint32_t play = 0;
  if (p.base_layer_ >= 0) {
    const Layer& layer = layers_[static_cast<std::size_t>(p.base_layer_)];
    if (layer.animation >= 0 && layer.driver < 0 && !layer.deactivating &&
        layer.player.clip() != nullptr &&
        p.animations_[static_cast<std::size_t>(layer.animation)].desc->root_motion) {
      animation = layer.animation;
      play = layer.play_id;
    }
  }
  auto config = [&](int index) -> const ControllerRootMotionDesc* {
    return index < 0 ? nullptr : &*p.animations_[static_cast<std::size_t>(index)].desc->root_motion;
  };
  auto scale_of = [](const ControllerRootMotionDesc* rm) -> const RootMotionScale* {
    return rm != nullptr && rm->scale.mode == RootScaleMode::kOverride ? &rm->scale : nullptr;
  };
  const ControllerRootMotionDesc* now = config(animation);
  if (animation != effects_animation_ || play != effects_play_) {
    const ControllerRootMotionDesc* left = config(effects_animation_);
    if (left != nullptr && left->physics.clear_velocity_on_exit) {
      // §13: restored "after zeroing the velocity"; this update's velocity is that zero.
      root_motion_velocity_ = vec3(0.0f);
      root_motion_active_ = true;
    }
    const RootMotionScale* from = scale_of(left);
    const RootMotionScale* to = scale_of(now);
    if (from != nullptr || to != nullptr) {
      // Entering eases over the new config's duration, leaving over the old one's; always from
      // the value shown last, so a switch mid-ease does not jump.
      scale_from_ = scale_;
      scale_time_ = 0.0f;
      scale_duration_ = to != nullptr ? to->blend_duration : from->blend_duration;
      scale_easing_ = true;
    }
    physics_ = now != nullptr ? now->physics.resolved() : RootMotionPhysics{};
    effects_animation_ = animation;
    effects_play_ = play;
  }

  const RootMotionScale* scale = scale_of(now);
  scale_shown_ = scale != nullptr || scale_easing_;
  if (!scale_shown_) {
    scale_ = 1.0f;
    return;
  }
  float target = 1.0f;
  if (scale != nullptr) {
    if (scale->source == RootScaleSource::kFixed) {
      target = scale->value;
    } else {
      // critter's rule: a uniform scale, the mean of the source bone's three axes.
      const Layer& layer = layers_[static_cast<std::size_t>(p.base_layer_)];
      const Clip* clip = layer.player.clip();
      const int c = static_cast<int>(clip - p.model_->clips().data());
      const int bone = p.animations_[static_cast<std::size_t>(animation)].root_bone;
      const vec3 s = p.root_scale(c, bone, layer.player.clip_time());
      target = (s.x + s.y + s.z) / 3.0f;
    }
    if (scale->min_scale) target = std::max(*scale->min_scale, target);
  }
  if (scale_easing_) {
    scale_time_ += dt;
    const float f = scale_duration_ > 0.0f ? smoothstep01(scale_time_ / scale_duration_) : 1.0f;
    scale_ = scale_from_ + (target - scale_from_) * f;
    if (f >= 1.0f) scale_easing_ = false;
  } else {
    scale_ = target;
  }
}

void Controller::root_motion(float dt) {
  const ControllerProgram& p = *program_;
  root_motion_active_ = false;
  if (p.base_layer_ < 0) return;
  const Layer& layer = layers_[static_cast<std::size_t>(p.base_layer_)];
  const Clip* clip = layer.player.clip();
  if (layer.animation < 0 || layer.driver >= 0 || clip == nullptr || layer.deactivating) {
    root_motion_play_ = 0;
    return;
  }
  const auto& a = p.animations_[static_cast<std::size_t>(layer.animation)];
  if (!a.desc->root_motion || a.desc->root_motion->mode == RootMotionMode::kNone) {
    root_motion_play_ = 0;
    return;
  }
  const ControllerRootMotionDesc& rm = *a.desc->root_motion;
  const int c = static_cast<int>(clip - p.model_->clips().data());
  const float duration = clip->duration();
  const float now = layer.player.clip_time();
  const std::uint32_t play = layer.player.playhead().play_id();
  const bool new_play = play != root_motion_play_;
  const float prev = new_play ? now : root_motion_time_;
  const bool forward = layer.end_phase >= layer.start_phase;
  const float a_t = std::min(layer.start_phase, layer.end_phase) * duration;
  const float b_t = std::max(layer.start_phase, layer.end_phase) * duration;
  // A loop that wrapped since the last update moved against the play direction.
  const bool wrapped = !new_play && (forward ? now < prev : now > prev);
  auto pos = [&](float t) { return p.root_position(c, a.root_bone, t); };
  // Into the entity frame (§13): ancestors' rest rotations, model scale, root-bone rotation.
  auto to_world = [&](const vec3& local) {
    return body_rotation_ * (root_rotation_ * (a.root_frame * local * p.desc_.model_scale));
  };
  auto masked = [&](const vec3& result, const vec3& keep) {
    vec3 out;
    for (int i = 0; i < 3; ++i) out[i] = rm.velocity_mask[i] > 0.5f ? result[i] : keep[i];
    return out;
  };

  if (rm.mode == RootMotionMode::kAddImpulse) {
    if (new_play) impulse_done_ = false;
    const float phase = rm.impulse_phase >= 0.0f ? rm.impulse_phase
                                                 : (forward ? layer.end_phase : layer.start_phase);
    const float pt = phase * duration;
    bool fire = false;
    if (!impulse_done_) {
      if (new_play) {
        fire = forward ? now >= pt : now <= pt;
      } else if (!wrapped) {
        fire = forward ? (prev < pt && now >= pt) : (prev > pt && now <= pt);
      } else {
        fire = forward ? (prev < pt || now >= pt) : (prev > pt || now <= pt);
      }
    }
    if (wrapped) impulse_done_ = false;
    if (fire) {
      impulse_done_ = true;
      vec3 impulse(0.0f);
      if (rm.impulse_override || rm.impulse_speed_override) {
        impulse = body_rotation_ *
                  (rm.impulse_override ? *rm.impulse_override : *rm.impulse_speed_override);
      } else {
        // Measured over [max(phase, start), end] of the play's range.
        const float from = std::max(pt, a_t);
        const float span = b_t - from;
        vec3 average(0.0f);
        vec3 peak(0.0f);
        if (span > 0.0f) {
          average = (pos(b_t) - pos(from)) / span;
          for (const auto& t : p.root_tracks_) {
            if (t.clip != c || t.bone != a.root_bone) continue;
            for (std::size_t k = 1; k < t.times.size(); ++k) {
              const float dt_k = t.times[k] - t.times[k - 1];
              if (t.times[k] <= from || t.times[k - 1] >= b_t || dt_k <= 0.0f) continue;
              const vec3 v = (t.positions[k] - t.positions[k - 1]) / dt_k;
              if (glm::length(v) > glm::length(peak)) peak = v;
            }
          }
        }
        const vec3 local = rm.impulse_method == RootMotionImpulseMethod::kAverage ? average
                           : rm.impulse_method == RootMotionImpulseMethod::kPeak
                               ? peak
                               : (average + peak) * 0.5f;
        impulse = to_world(local);
      }
      const float len = glm::length(impulse);
      if (len > rm.max_impulse) impulse *= rm.max_impulse / len;
      impulse *= rm.impulse_scale;
      for (int i = 0; i < 3; ++i) {
        if (rm.velocity_mask[i] <= 0.5f) impulse[i] = 0.0f;
      }
      root_motion_velocity_ = body_velocity_ + impulse;
      root_motion_active_ = true;
    }
  } else if (dt > 0.0f) {
    // Blend / Override: v = ΔP/Δt, the loop seam split in its two parts; 0 once a clip ended.
    vec3 v(0.0f);
    if (!new_play && (layer.player.playing() || now != prev)) {
      vec3 delta = pos(now) - pos(prev);
      if (wrapped) {
        delta = forward ? (pos(b_t) - pos(prev)) + (pos(now) - pos(a_t))
                        : (pos(a_t) - pos(prev)) + (pos(now) - pos(b_t));
      }
      v = to_world(delta / dt);
    }
    const float len = glm::length(v);
    if (len > rm.max_speed) v *= rm.max_speed / len;
    const vec3 cur = body_velocity_;
    vec3 out = v;
    if (rm.mode == RootMotionMode::kBlend) {
      switch (rm.blend_method) {
        case RootMotionBlendMethod::kSmoothDamp: {
          // Critically damped spring toward v (ω = 2 / smoothTime), never overshooting.
          const float omega = 2.0f / std::max(rm.smooth_time, 1e-4f);
          const float x = omega * dt;
          const float e = 1.0f / (1.0f + x + 0.48f * x * x + 0.235f * x * x * x);
          const vec3 change = cur - v;
          const vec3 temp = (root_motion_state_ + omega * change) * dt;
          root_motion_state_ = (root_motion_state_ - omega * temp) * e;
          out = v + (change + temp) * e;
          break;
        }
        case RootMotionBlendMethod::kWeightedAverage:
          out = cur + (v - cur) * rm.blend_weight;
          break;
        case RootMotionBlendMethod::kSpringDamper: {
          const vec3 acc =
              -rm.spring_stiffness * (cur - v) - rm.spring_damping * root_motion_state_;
          root_motion_state_ += acc * dt;  // semi-implicit Euler
          out = cur + root_motion_state_ * dt;
          break;
        }
      }
    }
    root_motion_velocity_ = masked(out, cur);
    root_motion_active_ = true;
  }
  if (new_play) root_motion_state_ = vec3(0.0f);
  root_motion_time_ = now;
  root_motion_play_ = play;
}

void Controller::strip_root_motion(std::span<Transform> pose) const {
  // §13: while Base runs Blend or Override, the source bone and its ancestors keep their rest
  // translation (rotation kept, scale dropped) so the motion is not shown twice.
  const ControllerProgram& p = *program_;
  const Layer& layer = layers_[static_cast<std::size_t>(p.base_layer_)];
  if (layer.animation < 0 || layer.driver >= 0) return;
  const auto& a = p.animations_[static_cast<std::size_t>(layer.animation)];
  if (!a.desc->root_motion || a.root_bone < 0) return;
  const RootMotionMode mode = a.desc->root_motion->mode;
  if (mode != RootMotionMode::kBlend && mode != RootMotionMode::kOverride) return;
  const auto rest = p.model_->skeleton().rest_pose();
  const auto parents = p.model_->skeleton().parents();
  for (int j = a.root_bone; j >= 0; j = parents[static_cast<std::size_t>(j)]) {
    const auto k = static_cast<std::size_t>(j);
    pose[k].translation = rest[k].translation;
    pose[k].scale = rest[k].scale;
  }
}

bool Controller::layer_pose(int layer_index) {
  Layer& layer = layers_[static_cast<std::size_t>(layer_index)];
  if (layer.driver >= 0) {
    std::fill(layer.touched.begin(), layer.touched.end(), std::uint8_t{0});
    return drivers_[static_cast<std::size_t>(layer.driver)]->sample(
        layer.pose, layer.touched,
        program_->desc_.layers[static_cast<std::size_t>(layer_index)].blend_mode ==
            LayerBlendMode::kAdditive);
  }
  const auto src = layer.player.local_pose();
  std::copy(src.begin(), src.end(), layer.pose.begin());
  if (layer_index == program_->base_layer_) strip_root_motion(layer.pose);
  if (program_->desc_.layers[static_cast<std::size_t>(layer_index)].blend_mode !=
      LayerBlendMode::kAdditive) {
    return true;
  }
  // §11: on an Additive layer the channels the clip lacks are identity, so untouched bones add
  // nothing.
  const Clip* clip = layer.player.clip();
  const auto clips = program_->model_->clips();
  const std::ptrdiff_t c = clip - clips.data();
  if (c < 0 || c >= static_cast<std::ptrdiff_t>(clips.size())) return true;
  const auto& bits = program_->clip_channels_[static_cast<std::size_t>(c)];
  for (std::size_t j = 0; j < layer.pose.size(); ++j) {
    if (!(bits[j] & ControllerProgram::kT)) layer.pose[j].translation = vec3(0.0f);
    if (!(bits[j] & ControllerProgram::kR)) layer.pose[j].rotation = quat(1.0f, 0.0f, 0.0f, 0.0f);
    if (!(bits[j] & ControllerProgram::kS)) layer.pose[j].scale = vec3(1.0f);
  }
  return true;
}

std::span<const Transform> Controller::compute_pose() {
  const ControllerProgram& p = *program_;
  const auto rest = p.model_->skeleton().rest_pose();
  std::fill(set_.begin(), set_.end(), std::uint8_t{0});
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    if (!layer_active(static_cast<int>(i))) continue;
    if (!layer_pose(static_cast<int>(i))) continue;
    const Layer& layer = layers_[i];
    const ControllerLayerDesc& cfg = p.desc_.layers[i];
    const bool additive = cfg.blend_mode == LayerBlendMode::kAdditive;
    // A driver layer affects only the bones its driver wrote (§11: "that it sampled").
    const std::uint8_t* touched = layer.driver >= 0 ? layer.touched.data() : nullptr;
    for (std::size_t j = 0; j < output_.size(); ++j) {
      if (touched && !touched[j]) continue;
      const float w = layer.weight * (cfg.joint_weights.empty() ? 1.0f : cfg.joint_weights[j]);
      if (w <= 0.0f) continue;
      const Transform& in = layer.pose[j];
      const Transform& base = set_[j] ? output_[j] : rest[j];
      Transform& out = output_[j];
      if (additive) {
        // §11 (quirk 16): the delta acts on the local side of the output so far (rest when
        // nothing set the bone yet).
        const Transform b = base;
        out.rotation = glm::normalize(b.rotation * slerp_shortest(quat(1.0f, 0.0f, 0.0f, 0.0f),
                                                                  in.rotation, std::min(w, 1.0f)));
        out.translation = b.translation + w * in.translation;
        out.scale = b.scale * (vec3(1.0f) + (in.scale - vec3(1.0f)) * w);
      } else {
        out = w >= 1.0f ? in : blend_transforms(base, in, w);
      }
      set_[j] = 1;
    }
  }
  for (std::size_t j = 0; j < output_.size(); ++j) {
    if (!set_[j]) output_[j] = rest[j];
  }
  blend_morph_weights();
  if (!models_.empty()) run_ik();
  return output_;
}

std::span<const float> Controller::morph_weights(int mesh) const {
  const MorphLayout& layout = program_->morph_layout_;
  if (mesh < 0 || static_cast<std::size_t>(mesh) >= layout.mesh_count()) return {};
  return layout.mesh_weights(std::span<const float>(weights_), static_cast<std::size_t>(mesh));
}

int Controller::clip_index(const Clip* clip) const {
  const auto clips = program_->model_->clips();
  // std::less orders unrelated pointers too; only a pointer into the array is subtracted.
  const std::less<const Clip*> before;
  if (clip == nullptr || before(clip, clips.data()) || !before(clip, clips.data() + clips.size()))
    return -1;
  return static_cast<int>(clip - clips.data());
}

float Controller::morph_coverage(const Layer& layer, int clip, std::size_t mesh) const {
  const float target =
      clip < 0 ? 0.0f : program_->clip_morphs_[static_cast<std::size_t>(clip)][mesh];
  if (!layer.player.crossfading()) return target;
  const float f = layer.player.blend_weight();
  return f * target + (1.0f - f) * layer.morph_source[mesh];
}

void Controller::set_morph_source(Layer& layer, int old_clip, float old_progress) {
  // A live source is the old play itself (progress 1: its clip's tracks); a frozen source is the
  // pose the last update showed, whose coverage was that of the crossfade then running.
  for (std::size_t m = 0; m < layer.morph_source.size(); ++m) {
    const float old_target =
        old_clip < 0 ? 0.0f : program_->clip_morphs_[static_cast<std::size_t>(old_clip)][m];
    layer.morph_source[m] =
        old_clip < 0 ? 0.0f
                     : old_progress * old_target + (1.0f - old_progress) * layer.morph_source[m];
  }
}

void Controller::blend_morph_weights() {
  const ControllerProgram& p = *program_;
  const MorphLayout& layout = p.morph_layout_;
  const std::span<const float> defaults = layout.defaults;
  std::copy(defaults.begin(), defaults.end(), weights_.begin());
  if (weights_.empty()) return;
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    const Layer& layer = layers_[i];
    if (!layer_active(static_cast<int>(i)) || layer.driver >= 0) continue;
    if (layer.player.clip() == nullptr) continue;
    const std::span<const float> in = layer.player.weights();
    const float w = layer.weight;
    if (p.desc_.layers[i].blend_mode == LayerBlendMode::kAdditive) {
      for (std::size_t k = 0; k < weights_.size(); ++k) weights_[k] += w * (in[k] - defaults[k]);
      continue;
    }
    const float wo = std::min(w, 1.0f);
    const int clip = clip_index(layer.player.clip());
    for (std::size_t m = 0; m < layout.mesh_count(); ++m) {
      const float c = morph_coverage(layer, clip, m);
      if (c <= 0.0f) continue;
      // The player fills a side of its crossfade that does not animate the mesh with the
      // defaults. Reading that side as "what the layers below show" instead gives
      //   layer value = in + (1 - c) (out - default),
      // and lerp(out, layer value, wo) = out + wo ((in - default) - c (out - default)); with
      // c = 1 that is lerp(out, in, wo).
      for (std::uint32_t k = layout.offsets[m]; k < layout.offsets[m + 1]; ++k) {
        weights_[k] += wo * ((in[k] - defaults[k]) - c * (weights_[k] - defaults[k]));
      }
    }
  }
}

void Controller::run_ik() {
  const ControllerProgram& p = *program_;
  const auto parents = p.model_->skeleton().parents();
  for (std::size_t j = 0; j < output_.size(); ++j) {
    const mat4 local = output_[j].to_matrix();
    models_[j] = parents[j] < 0 ? local : models_[static_cast<std::size_t>(parents[j])] * local;
  }
  auto vec_param = [&](ParamIndex i) -> std::optional<vec3> {
    const ParamType t = values_.type(i);
    if (t != ParamType::kVec3 && t != ParamType::kVec2) return std::nullopt;
    return values_.vec(i);
  };
  for (std::size_t i = 0; i < p.ik_chains_.size(); ++i) {
    const auto& chain = p.ik_chains_[i];
    const ControllerIkChainDesc& d = *chain.desc;
    if (!eval_bool(chain.enabled, d.enabled)) continue;
    IkChainJob job;
    job.parents = parents;
    job.locals = output_;
    job.models = models_;
    job.end_joint = d.end_joint;
    job.max_chain_length = d.max_chain_length;
    job.settings = d.settings;
    job.target = vec_param(chain.target);
    job.aim = vec_param(chain.aim);
    job.hint = vec_param(chain.hint);
    job.weight = std::clamp(eval_float(chain.weight, d.weight), 0.0f, 1.0f);
    job.position_weight =
        std::clamp(eval_float(chain.position_weight, d.position_weight), 0.0f, 1.0f);
    job.aim_weight = std::clamp(eval_float(chain.aim_weight, d.aim_weight), 0.0f, 1.0f);
    job.joint_limits = d.joint_limits;
    job.dt = last_dt_;
    job.state = &ik_states_[i];
    (void)job.run();  // the settings were validated at compile; values are finite or clamped
  }
  for (std::size_t i = 0; i < p.ik_look_ats_.size(); ++i) {
    const auto& look = p.ik_look_ats_[i];
    const ControllerIkLookAtDesc& d = *look.desc;
    IkLookAtJob job;
    job.parents = parents;
    job.locals = output_;
    job.models = models_;
    job.bones = d.bones;
    job.shares = d.shares;
    job.settings = d.settings;
    job.target = vec_param(look.target);
    job.yaw = eval_float(look.yaw, d.yaw);
    job.pitch = eval_float(look.pitch, d.pitch);
    job.weight = std::clamp(eval_float(look.weight, d.weight), 0.0f, 1.0f);
    job.dt = last_dt_;
    job.state = &look_states_[i];
    (void)job.run();
  }
}

mat4 Controller::root_matrix(const mat4& entity) const {
  return entity * glm::scale(mat4(1.0f), vec3(model_scale()));
}

mat4 Controller::root_correction() const {
  const float scale = model_scale();
  vec3 t = scale != 0.0f ? root_translation_ / scale : vec3(0.0f);
  // A tiny scale (a subnormal modelScale) or a huge translation overflows the quotient: clamp it
  // to the largest float so the matrix stays finite (such a config is broken either way).
  const float kMax = std::numeric_limits<float>::max();
  for (int i = 0; i < 3; ++i) {
    if (std::isinf(t[i])) t[i] = t[i] > 0.0f ? kMax : -kMax;
  }
  return glm::translate(mat4(1.0f), t) * glm::mat4_cast(root_rotation_);
}

}  // namespace critter::anim
