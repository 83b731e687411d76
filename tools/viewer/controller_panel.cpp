// SPDX-License-Identifier: MIT
#include "controller_panel.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "../common/param_arg.h"
#include "critter/core/strings.h"

namespace critter::viewer {
namespace {

// The built-ins CreatureModel writes from the body state (builtin_parameters.h), and which state
// field an edit of each one changes.
enum class BodyField : std::uint8_t {
  kMovementPhase,
  kGameTime,
  kDeathCauseOffset,
  kBodyHeight,
  kPosition,
  kRotation,
  kRotationY,
  kSpeed,
  kSpeedAbs,
  kSpeedXZ,
  kIsInWater,
  kIsOnGround,
  kImmersionFactor,
  kIsFlying,
  kIsCreativeFly,
  kWalkSpeed,
  kHealth,
  kIsDead,
  kLookAngleX,
  kLookAngleY,
  kIsAttacking,
  kIsFeeding,
};

struct BodyName {
  std::string_view name;
  BodyField field;
};

constexpr BodyName kBodyNames[] = {
    {"MovementPhase", BodyField::kMovementPhase},
    {"GameTime", BodyField::kGameTime},
    {"DeathCauseOffset", BodyField::kDeathCauseOffset},
    {"BodyHeight", BodyField::kBodyHeight},
    {"Position", BodyField::kPosition},
    {"Rotation", BodyField::kRotation},
    {"RotationY", BodyField::kRotationY},
    {"Speed", BodyField::kSpeed},
    {"SpeedAbs", BodyField::kSpeedAbs},
    {"SpeedXZ", BodyField::kSpeedXZ},
    {"IsInWater", BodyField::kIsInWater},
    {"IsOnGround", BodyField::kIsOnGround},
    {"ImmersionFactor", BodyField::kImmersionFactor},
    {"IsFlying", BodyField::kIsFlying},
    {"IsCreativeFly", BodyField::kIsCreativeFly},
    {"WalkSpeed", BodyField::kWalkSpeed},
    {"Health", BodyField::kHealth},
    {"IsDead", BodyField::kIsDead},
    {"LookAngleX", BodyField::kLookAngleX},
    {"LookAngleY", BodyField::kLookAngleY},
    {"IsAttacking", BodyField::kIsAttacking},
    {"IsFeeding", BodyField::kIsFeeding},
};

// Written by the creature model every frame (what it integrates or derives) or by the controller
// on AttackHit / AttackEnd events (§17); nothing to edit.
struct ComputedName {
  std::string_view name;
  anim::ParamType type;
};

constexpr ComputedName kComputedNames[] = {
    {"DeathPhase", anim::ParamType::kFloat},       {"BodyForward", anim::ParamType::kVec3},
    {"BodyRight", anim::ParamType::kVec3},         {"DeltaTime", anim::ParamType::kFloat},
    {"IsAttackHitMoment", anim::ParamType::kBool},
};

const BodyName* body_name(std::string_view name) {
  for (const BodyName& b : kBodyNames)
    if (iequals(b.name, name)) return &b;
  return nullptr;
}

const ComputedName* computed_name(std::string_view name) {
  for (const ComputedName& c : kComputedNames)
    if (iequals(c.name, name)) return &c;
  return nullptr;
}

// The built-in table's initial value of `name` (a default-constructed value when not built in).
anim::ParameterValue table_initial(std::string_view name) {
  for (const anim::BuiltinParameter& b : creature::builtin_parameters()) {
    if (!iequals(b.name, name)) continue;
    switch (b.type) {
      case anim::ParamType::kBool:
        return anim::ParameterValue::of_bool(b.initial != 0.0);
      case anim::ParamType::kVec3:
        return anim::ParameterValue::of_vec3(vec3(0.0f));
      default:
        return anim::ParameterValue::of_float(b.initial);
    }
  }
  return {};
}

std::string number_text(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string number_text(float v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

}  // namespace

std::string_view to_string(ParamGroup group) {
  switch (group) {
    case ParamGroup::kBody:
      return "Body (from the body state)";
    case ParamGroup::kComputed:
      return "Computed (read only)";
    case ParamGroup::kBuiltin:
      return "Built-in";
    case ParamGroup::kConfig:
      return "Config";
    case ParamGroup::kHost:
      return "Host (read by expressions)";
  }
  return "?";
}

std::string LogEntry::to_string() const {
  char head[48];
  std::snprintf(head, sizeof head, "%.3f s  ", at);
  std::string line = head;
  switch (kind) {
    case Kind::kEvent:
      line += "event ";
      break;
    case Kind::kComplete:
      line += "complete ";
      break;
    case Kind::kInterrupt:
      line += "interrupt ";
      break;
    case Kind::kHook:
      line += "hook ";
      break;
  }
  if (!layer.empty()) line += layer + " ";
  line += name;
  if (kind == Kind::kEvent) {
    char at_time[24];
    std::snprintf(at_time, sizeof at_time, " @%.2f", static_cast<double>(time));
    line += at_time;
  }
  if (!data.empty()) line += " '" + data + "'";
  if (count > 1) line += " x" + std::to_string(count);
  return line;
}

Result<std::unique_ptr<ControllerPanel>> ControllerPanel::load(
    std::string_view config_path, std::shared_ptr<const Model> model,
    const io::ControllerLoadOptions& options, Diagnostics* diag, std::size_t log_length) {
  Result<io::LoadedController> loaded = io::load_controller(config_path, model, options, diag);
  if (!loaded) return fail(std::move(loaded.error()));
  std::unique_ptr<ControllerPanel> panel(new ControllerPanel());
  panel->config_path_ = std::string(config_path);
  panel->options_ = options;
  panel->base_model_ = std::move(model);
  panel->model_ = std::move(loaded->model);
  panel->program_ = std::move(loaded->program);
  panel->log_length_ = std::max<std::size_t>(1, log_length);
  if (Status s = panel->build_creature(); !s) return fail(std::move(s.error()));
  panel->build_rows();

  creature::CreatureState& body = panel->state_;
  body.is_on_ground = true;
  body.health = 1.0f;
  const Aabb& bounds = panel->model_->bounds();
  const float height = bounds.max.y - bounds.min.y;
  body.body_height = std::isfinite(height) && height > 0.0f ? height : 0.0f;
  panel->seed_body_from_config();
  return panel;
}

Status ControllerPanel::build_creature() {
  Result<creature::CreatureModel> creature = creature::CreatureModel::create(*model_, program_);
  if (!creature) return fail(std::move(creature.error()));
  creature_ = std::make_unique<creature::CreatureModel>(std::move(*creature));
  // The hooks only note the call; the entries join the log after the update's records.
  auto hook = [this](std::string_view name, std::string_view data) {
    LogEntry e;
    e.kind = LogEntry::Kind::kHook;
    e.name = std::string(name);
    e.data = std::string(data);
    pending_hooks_.push_back(std::move(e));
  };
  creature_->set_footstep_hook([hook](std::string_view data) { hook("Footstep", data); });
  creature_->set_attack_hit_hook([hook] { hook("AttackHit", {}); });
  creature_->set_attack_start_hook([hook] { hook("AttackStart", {}); });
  creature_->set_attack_end_hook([hook] { hook("AttackEnd", {}); });
  return {};
}

void ControllerPanel::build_rows() {
  const anim::ParameterSchema& schema = program_->schema();
  rows_.clear();
  for (anim::ParamIndex i = 0; i < schema.size(); ++i) {
    ParamRow row;
    row.index = i;
    row.name = std::string(schema.name(i));
    row.type = schema.initial(i).type;
    if (const ComputedName* computed = computed_name(row.name)) {
      row.group = ParamGroup::kComputed;
      row.type = computed->type;
    } else if (schema.is_builtin(i)) {
      // The table's type, whatever initial value the config gave it.
      row.type = table_initial(row.name).type;
      row.group = body_name(row.name) ? ParamGroup::kBody : ParamGroup::kBuiltin;
    } else {
      row.group = row.type == anim::ParamType::kUnset ? ParamGroup::kHost : ParamGroup::kConfig;
    }
    rows_.push_back(std::move(row));
  }
  std::stable_sort(rows_.begin(), rows_.end(), [](const ParamRow& a, const ParamRow& b) {
    return static_cast<int>(a.group) < static_cast<int>(b.group);
  });
}

void ControllerPanel::seed_body_from_config() {
  const anim::ParameterSchema& schema = program_->schema();
  for (const ParamRow& row : rows_) {
    if (row.group != ParamGroup::kBody) continue;
    const anim::ParameterValue& initial = schema.initial(row.index);
    // Only what the config changed: the table's own defaults (Health 0) are no body to start.
    if (initial == table_initial(row.name)) continue;
    (void)set_body(row, initial);
  }
}

Aabb ControllerPanel::placed_bounds() const {
  const anim::Controller& c = controller();
  return model_->bounds().transformed(c.root_matrix(creature::entity_transform(state_)) *
                                      c.root_correction());
}

const ParamRow* ControllerPanel::find_row(std::string_view name) const {
  for (const ParamRow& row : rows_)
    if (iequals(row.name, name)) return &row;
  return nullptr;
}

anim::ParameterValue ControllerPanel::value(anim::ParamIndex index) const {
  return controller().parameters().get(index);
}

Status ControllerPanel::set(anim::ParamIndex index, const anim::ParameterValue& value) {
  const auto row =
      std::find_if(rows_.begin(), rows_.end(), [&](const ParamRow& r) { return r.index == index; });
  if (row == rows_.end()) {
    return fail(Error::at(ErrorCode::kUsage, config_path_, "--param",
                          "no parameter " + std::to_string(index)));
  }
  switch (row->group) {
    case ParamGroup::kBody:
      return set_body(*row, value);
    case ParamGroup::kComputed:
      return fail(Error::at(
          ErrorCode::kUsage, config_path_, row->name,
          "'" + row->name + "' is computed by the creature model every frame (read only)"));
    default:
      break;
  }
  anim::ParameterValues& values = creature_->controller()->parameters();
  if (row->type == anim::ParamType::kTrigger) {
    // A host fires a trigger once; the controller sets it back after the rules saw it.
    const bool fire =
        value.type == anim::ParamType::kInt
            ? value.integer != 0
            : (value.type == anim::ParamType::kFloat || value.type == anim::ParamType::kBool ||
               value.type == anim::ParamType::kTrigger) &&
                  value.number != 0.0;
    if (fire) values.fire_trigger(index);
    return {};
  }
  values.set(index, value);
  remember_edit(index, value);
  return {};
}

Status ControllerPanel::set(std::string_view name, const anim::ParameterValue& value) {
  const ParamRow* row = find_row(name);
  if (!row) {
    std::string hint;
    for (const std::string& n : tools::closest_parameter_names(program_->schema(), name))
      hint.append(hint.empty() ? "" : ", ").append(n);
    return fail(Error::at(
        ErrorCode::kUsage, config_path_, "--param",
        "unknown parameter '" + std::string(name) +
            "': the config does not declare it, it is not built in and no expression reads it" +
            (hint.empty() ? std::string() : " (did you mean " + hint + "?)")));
  }
  return set(row->index, value);
}

Status ControllerPanel::set_text(anim::ParamIndex index, std::string_view text) {
  const auto row =
      std::find_if(rows_.begin(), rows_.end(), [&](const ParamRow& r) { return r.index == index; });
  const std::string location = row == rows_.end() ? std::string("--param") : row->name;
  Result<anim::ParameterValue> value = tools::parse_param_value(text, config_path_, location);
  if (!value) return fail(std::move(value.error()));
  return set(index, *value);
}

Status ControllerPanel::apply_arg(std::string_view argument) {
  Result<tools::ParamArg> arg = tools::parse_param_arg(argument, config_path_);
  if (!arg) return fail(std::move(arg.error()));
  return set(arg->name, arg->value);
}

std::string ControllerPanel::value_text(const anim::ParameterValue& value) {
  switch (value.type) {
    case anim::ParamType::kUnset:
      return {};
    case anim::ParamType::kFloat:
      return number_text(value.number);
    case anim::ParamType::kInt:
      return std::to_string(value.integer);
    case anim::ParamType::kBool:
    case anim::ParamType::kTrigger:
      return value.number != 0.0 ? "true" : "false";
    case anim::ParamType::kString:
      return "'" + value.text + "'";
    case anim::ParamType::kVec2:
      return "[" + number_text(value.vec.x) + "," + number_text(value.vec.y) + "]";
    case anim::ParamType::kVec3:
      return "[" + number_text(value.vec.x) + "," + number_text(value.vec.y) + "," +
             number_text(value.vec.z) + "]";
  }
  return {};
}

Status ControllerPanel::set_body(const ParamRow& row, const anim::ParameterValue& value) {
  const BodyName* body = body_name(row.name);
  auto wrong = [&](const char* what) {
    return fail(Error::at(ErrorCode::kUsage, config_path_, row.name,
                          "'" + row.name + "' takes " + what + ", not " +
                              std::string(anim::to_string(value.type)) + " " + value_text(value)));
  };
  const bool is_number =
      value.type == anim::ParamType::kFloat || value.type == anim::ParamType::kInt;
  const double number =
      value.type == anim::ParamType::kInt ? static_cast<double>(value.integer) : value.number;
  const bool is_bool =
      is_number || value.type == anim::ParamType::kBool || value.type == anim::ParamType::kTrigger;
  const bool flag = value.type == anim::ParamType::kInt ? value.integer != 0 : value.number != 0.0;
  const bool is_vec = value.type == anim::ParamType::kVec2 || value.type == anim::ParamType::kVec3;

  switch (row.type) {
    case anim::ParamType::kBool:
      if (!is_bool) return wrong("a bool");
      break;
    case anim::ParamType::kVec3:
      if (!is_vec) return wrong("a vector [x,y,z]");
      if (!all_finite(value.vec)) return wrong("a finite vector");
      break;
    default:
      if (!is_number || !std::isfinite(number)) return wrong("a finite number");
      break;
  }
  const float f = static_cast<float>(number);
  creature::CreatureState& s = state_;
  switch (body->field) {
    case BodyField::kMovementPhase:
      s.movement_phase = f;
      break;
    case BodyField::kGameTime:
      s.game_time = number;
      break;
    case BodyField::kDeathCauseOffset:
      s.death_cause_offset = value.vec;
      break;
    case BodyField::kBodyHeight:
      s.body_height = f;
      break;
    case BodyField::kPosition:
      s.position = value.vec;
      break;
    case BodyField::kRotation: {
      const float speed = forward_speed();
      s.rotation = creature::from_yaw_pitch_roll(value.vec.x, value.vec.y, value.vec.z);
      set_forward_speed(speed);
      break;
    }
    case BodyField::kRotationY:
      set_yaw(f);
      break;
    case BodyField::kSpeed:
      set_forward_speed(f);
      break;
    case BodyField::kSpeedAbs:
    case BodyField::kSpeedXZ:
      if (f < 0.0f) return wrong("a speed >= 0");
      // A length: the direction (forward or backward) stays as it is.
      set_forward_speed(forward_speed() < 0.0f ? -f : f);
      break;
    case BodyField::kIsInWater:
      set_in_water(flag);
      break;
    case BodyField::kIsOnGround:
      s.is_on_ground = flag;
      break;
    case BodyField::kImmersionFactor:
      s.immersion_factor = std::clamp(f, 0.0f, 1.0f);
      break;
    case BodyField::kIsFlying:
      s.is_flying = flag;
      break;
    case BodyField::kIsCreativeFly:
      s.is_creative_fly = flag;
      break;
    case BodyField::kWalkSpeed:
      s.walk_speed = f;
      break;
    case BodyField::kHealth:
      s.health = f;
      break;
    case BodyField::kIsDead:
      if (flag) {
        kill();
      } else {
        revive();
      }
      break;
    case BodyField::kLookAngleX:
      s.look_angle_x = f;
      break;
    case BodyField::kLookAngleY:
      s.look_angle_y = f;
      break;
    case BodyField::kIsAttacking:
      s.is_attacking = flag;
      break;
    case BodyField::kIsFeeding:
      s.is_feeding = flag;
      break;
  }
  return {};
}

void ControllerPanel::remember_edit(anim::ParamIndex index, const anim::ParameterValue& value) {
  const std::string_view name = program_->schema().name(index);
  for (auto& [n, v] : edits_) {
    if (iequals(n, name)) {
      v = value;
      return;
    }
  }
  edits_.emplace_back(std::string(name), value);
}

float ControllerPanel::forward_speed() const {
  return creature::forward_speed(state_);
}

void ControllerPanel::set_forward_speed(float metres_per_second) {
  state_.slip_speed.reset();
  state_.velocity = creature::body_forward(state_.rotation) * metres_per_second;
}

void ControllerPanel::set_yaw(float yaw) {
  const float speed = forward_speed();
  const vec3 ypr = creature::to_yaw_pitch_roll(state_.rotation);
  state_.rotation = creature::from_yaw_pitch_roll(yaw, ypr.y, ypr.z);
  set_forward_speed(speed);
}

void ControllerPanel::set_in_water(bool in_water) {
  if (!in_water) {
    state_.immersion_factor = 0.0f;
  } else if (!(state_.immersion_factor > 0.0f)) {
    state_.immersion_factor = 1.0f;
  }
}

void ControllerPanel::revive() {
  if (state_.health <= 0.0f) state_.health = 1.0f;
}

void ControllerPanel::restart() {
  // The same program and model: create() cannot fail.
  (void)build_creature();
  anim::ParameterValues& values = creature_->controller()->parameters();
  for (const auto& [name, value] : edits_) values.set(name, value);
  time_ = 0.0;
  log_.clear();
}

Status ControllerPanel::reload(Diagnostics* diag) {
  Result<io::LoadedController> loaded =
      io::load_controller(config_path_, base_model_, options_, diag);
  if (!loaded) return fail(std::move(loaded.error()));
  std::shared_ptr<const Model> old_model = model_;  // the old creature refers to it until rebuilt
  model_ = std::move(loaded->model);
  program_ = std::move(loaded->program);
  if (Status s = build_creature(); !s) return s;
  build_rows();
  std::erase_if(edits_, [&](const auto& edit) { return !find_row(edit.first); });
  anim::ParameterValues& values = creature_->controller()->parameters();
  for (const auto& [name, value] : edits_) values.set(name, value);
  time_ = 0.0;
  log_.clear();
  return {};
}

Status ControllerPanel::update(float dt) {
  if (!std::isfinite(dt) || dt < 0.0f) dt = 0.0f;
  time_ += dt;
  state_.game_time += dt;
  pending_hooks_.clear();
  const Status status = creature_->update(dt, state_);
  const auto& layers = program_->desc().layers;
  for (const anim::ControllerRecord& r : creature_->records()) {
    LogEntry e;
    switch (r.kind) {
      case anim::ControllerRecord::Kind::kEvent:
        e.kind = LogEntry::Kind::kEvent;
        e.time = r.time;
        break;
      case anim::ControllerRecord::Kind::kComplete:
        e.kind = LogEntry::Kind::kComplete;
        break;
      case anim::ControllerRecord::Kind::kInterrupt:
        e.kind = LogEntry::Kind::kInterrupt;
        break;
    }
    e.at = time_;
    if (r.layer >= 0 && static_cast<std::size_t>(r.layer) < layers.size())
      e.layer = layers[static_cast<std::size_t>(r.layer)].name;
    e.name = std::string(r.name);
    e.data = std::string(r.data);
    e.count = r.count;
    push_log(std::move(e));
  }
  for (LogEntry& e : pending_hooks_) {
    e.at = time_;
    push_log(std::move(e));
  }
  pending_hooks_.clear();
  return status;
}

void ControllerPanel::push_log(LogEntry entry) {
  log_.push_back(std::move(entry));
  while (log_.size() > log_length_) log_.pop_front();
}

std::vector<LayerRow> ControllerPanel::layers() const {
  const anim::Controller& c = controller();
  std::vector<LayerRow> out;
  for (int l = 0; l < program_->layer_count(); ++l) {
    const anim::ControllerLayerDesc& desc = program_->desc().layers[static_cast<std::size_t>(l)];
    LayerRow row;
    row.name = desc.name;
    row.weight = c.layer_weight(l);
    row.active = c.layer_active(l);
    row.manual = c.manual(l);
    const anim::Player& player = c.layer_player(l);
    row.crossfading = player.crossfading();
    if (const Clip* clip = player.clip()) {
      row.clip = clip->name();
      row.clip_time = player.clip_time();
    }
    if (row.active && row.clip.empty()) {
      // Showing something without a clip: a driver, the rule's, else the layer's preset.
      const anim::ControllerAnimationDesc* animation = c.layer_animation(l);
      row.driver = animation && animation->source == anim::ControllerAnimationDesc::Source::kDriver
                       ? animation->driver.type
                       : desc.driver.type;
    }
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace critter::viewer
