// SPDX-License-Identifier: MIT
// The body state a tool sets on a simulated legacy creature (`--creature KIND --state
// NAME=VALUE`, a timeline's "state"): the five creature kinds, the table of state names with
// their types, CreatureStateArgs (a typed value per name and whether it was set), the parsing of
// one NAME=VALUE, and the defaults that make a command line natural. Header-only and free of any
// option-parsing library, like param_arg.h, so the command-line tool and the viewer share it.
//
//   tools::CreatureStateArgs state;
//   if (Status s = tools::parse_state_arg("speed=2", "wolf.glb", state); !s) report(s.error());
//   const tools::CreatureStateArgs shown = tools::with_creature_defaults(state);
//   // shown.velocity == vec3(0, 0, -2): the forward speed along the body's -Z
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "critter/core/error.h"
#include "critter/core/math.h"
#include "critter/core/strings.h"
#include "param_arg.h"

namespace critter::tools {

// The legacy rigs of creatures.md Part A.
enum class CreatureKind : std::uint8_t { kFourLegged, kHuman, kBird, kFlightlessBird, kFish };

// Kind names as the command line spells them, in enum order.
inline constexpr std::array<std::string_view, 5> kCreatureKindNames = {
    "four-legged", "human", "bird", "flightless-bird", "fish"};

inline std::string_view to_string(CreatureKind kind) {
  return kCreatureKindNames[static_cast<std::size_t>(kind)];
}

// The kind named `name` (ASCII case ignored); nullopt for any other text.
inline std::optional<CreatureKind> creature_kind_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kCreatureKindNames.size(); ++i) {
    if (iequals(name, kCreatureKindNames[i])) return static_cast<CreatureKind>(i);
  }
  return std::nullopt;
}

// The human's rowing (creatures.md §4): which hands row. kNone stops rowing.
enum class RowSide : std::uint8_t { kNone, kLeft, kRight, kBoth };
inline constexpr std::array<std::string_view, 4> kRowSideNames = {"none", "left", "right", "both"};

// What the human sits on (creatures.md §4 base targets).
enum class Mount : std::uint8_t { kNone, kBoat, kOther };
inline constexpr std::array<std::string_view, 3> kMountNames = {"none", "boat", "other"};

// Everything a tool sets on a simulated creature, one member per state name (the member's name
// is the state name); nullopt where it was not set, so the rig keeps its own default. World
// frame as CreatureState's (creature_state.h): +Y up, the body faces -Z at yaw 0, metres and
// seconds. Which rigs read a value is noted per member; every kind accepts every name.
struct CreatureStateArgs {
  std::optional<float> speed;        // forward speed, m/s along the body's forward (-Z)
  std::optional<vec3> velocity;      // world velocity, m/s
  std::optional<float> walk_speed;   // the species' walking speed W, m/s (>= 0; gait choice)
  std::optional<bool> on_ground;     // standing on something
  std::optional<float> immersion;    // 0 (dry) .. 1 (fully under a liquid)
  std::optional<bool> flying;        // in the air on its own (bird)
  std::optional<float> health;       // dead at or below 0 (Survivalcraft: 0..1)
  std::optional<vec3> look_at;       // LookAtOrder: a world point to look at, metres
  std::optional<bool> look_random;   // LookRandomOrder: look around at random
  std::optional<float> head_shake;   // head shake: seconds of shaking from when it is set, >= 0
  std::optional<bool> attack;        // an attack order is held (butt, punch, peck, bite)
  std::optional<bool> feed;          // a feed order is held
  std::optional<float> yaw;          // body heading, degrees, positive turns left (about +Y)
  std::optional<vec3> death_cause;   // DeathCauseOffset: attacker minus own box centre, metres
  std::optional<vec3> fly_order;     // bird: fly order (direction times speed), world
  std::optional<vec3> swim_order;    // fish: swim order (direction times speed), world
  std::optional<vec2> turn_order;    // LastTurnOrder (x: yaw, y: pitch; fish tail, human head)
  std::optional<float> dig_order;    // fish: dig-in depth order, metres
  std::optional<vec2> walk_order;    // human: LastWalkOrder (x: right, y: forward)
  std::optional<bool> crouch;        // human: crouching (sneaking)
  std::optional<RowSide> row;        // human: rowing hands
  std::optional<Mount> mount;        // human: what it rides
  std::optional<bool> mining;        // human: poking at a block
  std::optional<bool> aim;           // human: aiming
  std::optional<bool> sleeping;      // human: lying down asleep
  std::optional<bool> ladder;        // human: climbing a ladder
  std::optional<bool> creative_fly;  // human: creative flight
};

// The value types of the state names.
enum class StateType : std::uint8_t { kNumber, kBool, kVec2, kVec3, kEnum };

// One state name: its member of CreatureStateArgs (whose type gives the value type) and its help.
struct StateField {
  using Member = std::variant<
      std::optional<float> CreatureStateArgs::*, std::optional<bool> CreatureStateArgs::*,
      std::optional<vec2> CreatureStateArgs::*, std::optional<vec3> CreatureStateArgs::*,
      std::optional<RowSide> CreatureStateArgs::*, std::optional<Mount> CreatureStateArgs::*>;
  std::string_view name;
  Member member;
  std::string_view help;  // meaning and unit, one line
  float min = -3.0e38f;   // kNumber: smallest accepted value
  float max = 3.0e38f;    // kNumber: largest accepted value

  StateType type() const {
    constexpr StateType kTypes[] = {StateType::kNumber, StateType::kBool, StateType::kVec2,
                                    StateType::kVec3,   StateType::kEnum, StateType::kEnum};
    return kTypes[member.index()];
  }
  // kEnum: the value names, in enum order; empty for other types.
  std::span<const std::string_view> choices() const {
    if (std::holds_alternative<std::optional<RowSide> CreatureStateArgs::*>(member)) {
      return kRowSideNames;
    }
    if (std::holds_alternative<std::optional<Mount> CreatureStateArgs::*>(member)) {
      return kMountNames;
    }
    return {};
  }
};

// Every state name, in the order --help lists them.
inline std::span<const StateField> creature_state_fields() {
  using A = CreatureStateArgs;
  static const std::array<StateField, 27> kFields = {{
      {"speed", &A::speed, "forward speed, m/s (the velocity along the body's forward -Z)"},
      {"velocity", &A::velocity, "world velocity [x,y,z], m/s"},
      {"walk_speed", &A::walk_speed, "the species' walking speed, m/s (picks the gait; default 4)",
       0.0f},
      {"on_ground", &A::on_ground, "standing on the ground"},
      {"immersion", &A::immersion, "how deep in water, 0 (dry) to 1 (under)", 0.0f, 1.0f},
      {"flying", &A::flying, "flying (bird)"},
      {"health", &A::health, "health, 0 to 1; at or below 0 the creature dies"},
      {"look_at", &A::look_at, "world point [x,y,z] to look at, metres"},
      {"look_random", &A::look_random, "look around at random"},
      {"head_shake", &A::head_shake, "seconds of head shaking from when it is set", 0.0f},
      {"attack", &A::attack, "attack order held (butt, punch, peck, bite)"},
      {"feed", &A::feed, "feed order held"},
      {"yaw", &A::yaw, "body heading, degrees (positive turns left)"},
      {"death_cause", &A::death_cause,
       "attacker minus own centre [x,y,z], metres: death roll side"},
      {"fly_order", &A::fly_order, "fly order [x,y,z], world direction times speed (bird)"},
      {"swim_order", &A::swim_order, "swim order [x,y,z], world direction times speed (fish)"},
      {"turn_order", &A::turn_order, "turn order [x,y]: yaw, pitch (fish tail, human head)"},
      {"dig_order", &A::dig_order, "dig-in depth order, metres (fish)"},
      {"walk_order", &A::walk_order, "walk order [x,y]: right, forward (human heading)"},
      {"crouch", &A::crouch, "crouching (human)"},
      {"row", &A::row, "rowing hands: none, left, right or both (human)"},
      {"mount", &A::mount, "riding: none, boat or other (human)"},
      {"mining", &A::mining, "mining (human)"},
      {"aim", &A::aim, "aiming (human)"},
      {"sleeping", &A::sleeping, "lying asleep (human)"},
      {"ladder", &A::ladder, "climbing a ladder (human)"},
      {"creative_fly", &A::creative_fly, "creative flight (human)"},
  }};
  return kFields;
}

// The field named `name` (ASCII case ignored); null when there is none.
inline const StateField* find_state_field(std::string_view name) {
  for (const StateField& f : creature_state_fields()) {
    if (iequals(name, f.name)) return &f;
  }
  return nullptr;
}

// The state names closest to `name` (closest_names()).
inline std::vector<std::string> closest_state_names(std::string_view name) {
  std::vector<std::string_view> names;
  for (const StateField& f : creature_state_fields()) names.push_back(f.name);
  return closest_names(names, name);
}

// What a field takes, for messages: "a finite number", "a number in [0, 1]", "true or false",
// "[x,y] of finite numbers", "[x,y,z] of finite numbers", "none, left, right or both".
inline std::string state_value_text(const StateField& field) {
  switch (field.type()) {
    case StateType::kNumber: {
      const bool low = field.min > -3.0e38f;
      const bool high = field.max < 3.0e38f;
      const auto number = [](float v) {
        std::string s = std::to_string(v);
        s.erase(s.find_last_not_of('0') + 1);
        if (!s.empty() && s.back() == '.') s.pop_back();
        return s;
      };
      if (low && high) return "a number in [" + number(field.min) + ", " + number(field.max) + "]";
      if (low) return "a finite number >= " + number(field.min);
      if (high) return "a finite number <= " + number(field.max);
      return "a finite number";
    }
    case StateType::kBool:
      return "true or false";
    case StateType::kVec2:
      return "[x,y] of finite numbers";
    case StateType::kVec3:
      return "[x,y,z] of finite numbers";
    case StateType::kEnum: {
      const std::span<const std::string_view> choices = field.choices();
      std::string text;
      for (std::size_t i = 0; i < choices.size(); ++i) {
        text.append(i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ").append(choices[i]);
      }
      return text;
    }
  }
  return {};
}

// One state value of any type, before it is stored (see store_state_value()).
struct StateValue {
  StateType type = StateType::kNumber;
  double number = 0.0;   // kNumber
  bool boolean = false;  // kBool
  vec3 vec{0.0f};        // kVec2 (z = 0) and kVec3
  std::string text;      // kEnum: the value's name as written
};

// Stores `value` into `field`'s member of `args` when it fits the field: the same type, a
// number finite and within [min, max], a vector of finite components, an enum name among
// choices() (ASCII case ignored). Returns false, changing nothing, otherwise.
inline bool store_state_value(CreatureStateArgs& args, const StateField& field,
                              const StateValue& value) {
  if (value.type != field.type()) return false;
  if (value.type == StateType::kNumber &&
      !(std::isfinite(value.number) && value.number >= field.min && value.number <= field.max)) {
    return false;
  }
  if ((value.type == StateType::kVec2 || value.type == StateType::kVec3) &&
      !(std::isfinite(value.vec.x) && std::isfinite(value.vec.y) && std::isfinite(value.vec.z))) {
    return false;
  }
  std::optional<std::uint8_t> choice;
  if (value.type == StateType::kEnum) {
    const std::span<const std::string_view> choices = field.choices();
    for (std::size_t i = 0; i < choices.size(); ++i) {
      if (iequals(value.text, choices[i])) choice = static_cast<std::uint8_t>(i);
    }
    if (!choice) return false;
  }
  std::visit(
      [&](auto member) {
        using T = typename std::remove_reference_t<decltype(args.*member)>::value_type;
        if constexpr (std::is_same_v<T, float>) {
          args.*member = static_cast<float>(value.number);
        } else if constexpr (std::is_same_v<T, bool>) {
          args.*member = value.boolean;
        } else if constexpr (std::is_same_v<T, vec2>) {
          args.*member = vec2(value.vec);
        } else if constexpr (std::is_same_v<T, vec3>) {
          args.*member = value.vec;
        } else {
          args.*member = static_cast<T>(*choice);
        }
      },
      field.member);
  return true;
}

// True when `field` is set in `args`.
inline bool state_is_set(const CreatureStateArgs& args, const StateField& field) {
  return std::visit([&](auto member) { return (args.*member).has_value(); }, field.member);
}

// Copies every value set in `from` over `into` (values `from` does not set stay).
inline void merge_state(CreatureStateArgs& into, const CreatureStateArgs& from) {
  for (const StateField& field : creature_state_fields()) {
    std::visit(
        [&](auto member) {
          if ((from.*member).has_value()) into.*member = from.*member;
        },
        field.member);
  }
}

// Parses NAME=VALUE (split at the first '='; spaces around NAME and VALUE are ignored) and stores
// the value into `args`. VALUE by the name's type: a number (finite, within the name's range),
// true or false, [x,y] or [x,y,z] of finite numbers, or one of an enum's names. Errors (kUsage,
// path `path`, location "--state", the message quoting `text`): no '=' ("expected NAME=VALUE"),
// an unknown name ("unknown state 'sped' (did you mean speed?)"), a value the name does not take
// ("speed takes a finite number").
inline Status parse_state_arg(std::string_view text, const std::string& path,
                              CreatureStateArgs& args) {
  auto usage = [&](std::string message) {
    return fail(Error::at(ErrorCode::kUsage, path, "--state",
                          "'" + std::string(text) + "': " + std::move(message)));
  };
  const std::size_t eq = text.find('=');
  if (eq == std::string_view::npos) return usage("expected NAME=VALUE");
  const std::string_view name = param_arg_detail::trim(text.substr(0, eq));
  const std::string_view written = param_arg_detail::trim(text.substr(eq + 1));
  const StateField* field = find_state_field(name);
  if (!field) {
    return usage("unknown state '" + std::string(name) + "'" +
                 did_you_mean(closest_state_names(name)) + "; --help lists the state names");
  }
  StateValue value;
  value.type = field->type();
  bool ok = true;
  switch (value.type) {
    case StateType::kNumber: {
      const std::optional<double> number = param_arg_detail::parse_number(written);
      ok = number.has_value();
      value.number = number.value_or(0.0);
      break;
    }
    case StateType::kBool: {
      const bool yes = iequals(written, "true");
      ok = yes || iequals(written, "false");
      value.boolean = yes;
      break;
    }
    case StateType::kVec2:
    case StateType::kVec3: {
      Result<anim::ParameterValue> parsed = parse_param_value(written, path, "--state");
      const anim::ParamType want =
          value.type == StateType::kVec2 ? anim::ParamType::kVec2 : anim::ParamType::kVec3;
      ok = parsed && parsed->type == want;
      if (ok) value.vec = parsed->vec;
      break;
    }
    case StateType::kEnum:
      value.text = std::string(written);
      break;
  }
  if (!ok || !store_state_value(args, *field, value)) {
    return usage(std::string(field->name) + " takes " + state_value_text(*field));
  }
  return {};
}

// Unit vector of the body's forward at `yaw_degrees` about +Y: R_Y(yaw)·(0, 0, -1).
inline vec3 body_forward_at_yaw(float yaw_degrees) {
  const float yaw = yaw_degrees * 0.017453292519943295f;
  return vec3(-std::sin(yaw), 0.0f, -std::cos(yaw));
}

// The state a rig is given for `args`: `args` with these defaults filled in, each only where
// `args` leaves its target unset (so a value the user set always wins), with forward =
// body_forward_at_yaw(yaw, 0 when unset):
//   - speed set, velocity unset: velocity = speed·forward (the creature moves the way it faces;
//     with both set, velocity is the world velocity and speed the forward slip speed);
//   - flying true and speed set, fly_order unset: fly_order = speed·forward (a bird flies ahead);
//   - immersion > 0 and speed set, swim_order unset: swim_order = speed·forward (a fish swims
//     ahead).
// Every other value stays as it is (unset ones stay unset).
inline CreatureStateArgs with_creature_defaults(const CreatureStateArgs& args) {
  CreatureStateArgs out = args;
  if (!args.speed) return out;
  const vec3 ahead = *args.speed * body_forward_at_yaw(args.yaw.value_or(0.0f));
  if (!out.velocity) out.velocity = ahead;
  if (args.flying.value_or(false) && !out.fly_order) out.fly_order = ahead;
  if (args.immersion.value_or(0.0f) > 0.0f && !out.swim_order) out.swim_order = ahead;
  return out;
}

}  // namespace critter::tools
