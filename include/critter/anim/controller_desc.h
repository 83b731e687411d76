// SPDX-License-Identifier: MIT
// ControllerDesc: the runtime description of an animation controller (animation-config.md §7-§12,
// §16, §17) as plain data with every name already resolved to an index: layers with per-joint
// mask weights, states with ordered (nested) rules whose conditions are expression texts, and
// animation references with clip indices. The config binder fills it from a JSON config; tests
// and hosts may build one in code. ControllerProgram (controller_program.h) compiles it once per
// model.
// Fields evaluated at run time carry a SourceLocation (core/source_location.h): where the config
// wrote them, for compile errors and the Controller's runtime warnings. An empty file there stands
// for ControllerDesc::source; an empty pointer (a description built in code) makes the Controller
// name the field by its place in the description.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "critter/anim/blending_job.h"  // LayerBlendMode
#include "critter/anim/driver.h"
#include "critter/anim/ik_joint_limit.h"
#include "critter/anim/ik_options.h"
#include "critter/anim/parameters.h"
#include "critter/anim/player.h"
#include "critter/anim/playhead.h"
#include "critter/core/math.h"
#include "critter/core/source_location.h"

namespace critter::anim {

// A number or bool field that is a static value or an expression text (§15). An expression that
// fails at run time yields `value` (and a runtime warning, Controller::runtime_warnings()).
struct DynamicFloatDesc {
  float value = 0.0f;
  std::string expression;  // empty: static
};
struct DynamicBoolDesc {
  bool value = false;
  std::string expression;
};

// A procedural pose source (§14): a type of the DriverRegistry the program compiles with, and its
// properties. The built-in types read the typed fields below; every type may read `properties`.
// A type the registry only declares is accepted and leaves its layer untouched.
struct ControllerDriverDesc {
  std::string type;  // a registered name ("LookAt", "Wobble", "WobbleDriver"); empty: no driver
  // The properties as the registry's spec types them (bones as joint indices), at most one per
  // name (case-insensitive). The config runtime fills them for every type it knows.
  std::vector<DriverProperty> properties;
  // LookAt (§14.1): the bone turned (-1: the driver does nothing), the parameters read (radians),
  // the limits (degrees), the axes (0 X, 1 Y, 2 Z) and the inversions.
  int target_bone = -1;
  std::string yaw_parameter = "LookAngleX";
  std::string pitch_parameter = "LookAngleY";
  float max_yaw_degrees = 65.0f;
  float max_pitch_degrees = 55.0f;
  int pitch_axis = 0;
  int yaw_axis = 2;
  bool invert_pitch = false;
  bool invert_yaw = false;
  // Death (§14.1): the bone (-1: the model's first root), the parameters read, the angles
  // (degrees), the drop (fraction of BodyHeight) and whether the roll side follows the cause.
  int root_bone = -1;
  std::string death_phase_parameter = "DeathPhase";
  std::string body_height_parameter = "BodyHeight";
  std::string body_right_parameter = "BodyRight";
  std::string death_cause_offset_parameter = "DeathCauseOffset";
  float roll_angle = 90.0f;
  float pitch_angle = 0.0f;
  float body_drop = 0.0f;
  bool auto_roll_direction = true;
  // Expression (§14.1): per bone, position x y z (metres), rotation x y z (degrees) and scale
  // x y z; local = T·R_Z·R_Y·R_X·S, absolute. A failing expression yields the static value and
  // is reported once per (channel, failure) through the instance's DriverReporter.
  struct Bone {
    int bone = -1;
    DynamicFloatDesc channels[9] = {{0.0f, {}}, {0.0f, {}}, {0.0f, {}}, {0.0f, {}}, {0.0f, {}},
                                    {0.0f, {}}, {1.0f, {}}, {1.0f, {}}, {1.0f, {}}};
    SourceLocation channel_sites[9];  // where each channel was written (boneConfigs/N/rotationX)
  };
  std::vector<Bone> bones;
};

// One blending layer. Layers blend in the order of ControllerDesc::layers (ascending template
// index).
struct ControllerLayerDesc {
  std::string name;  // "Base" is the layer whose animations may carry root motion (§13)
  LayerBlendMode blend_mode = LayerBlendMode::kOverride;
  float weight = 1.0f;  // configured weight, > 0 (a written weight <= 0 counts as 1)
  BlendCurve blend_curve = BlendCurve::kLinear;  // shape of crossfades and weight fades
  // Per skeleton joint, in [0, 1]: 1 where the layer affects the joint. Empty: every joint.
  std::vector<float> joint_weights;
  // A driver preset on the layer (`layers.X.driver`): active from the start at the configured
  // weight, until a rule plays a clip or null on the layer.
  ControllerDriverDesc driver;
};

// onComplete / onInterrupt (§7). kTrigger raises event `name` with `data` (time 0); kSetState
// sets parameter `parameter` to `value`.
struct ControllerActionDesc {
  enum class Type : std::uint8_t { kNone, kTrigger, kSetState };
  Type type = Type::kNone;
  std::string name;
  std::string data;
  std::string parameter;
  ParameterValue value;
};

// Root motion of an animation on the Base layer (§13): translation, scale override, physics.
enum class RootMotionMode : std::uint8_t { kNone, kBlend, kAddImpulse, kOverride };
enum class RootMotionBlendMethod : std::uint8_t { kSmoothDamp, kWeightedAverage, kSpringDamper };
enum class RootMotionImpulseMethod : std::uint8_t { kAverage, kPeak, kWeighted };
enum class RootScaleMode : std::uint8_t { kNone, kOverride };
enum class RootScaleSource : std::uint8_t {
  kAnimation,  // the source bone's scale in the Base layer's clip
  kFixed,      // `value`
};

// The `scale` block (§13 "Scale Override + Animation"). While an Override config plays on Base,
// the host gets a uniform scale each update (Controller::root_motion_scale()): the source bone's
// scale at the clip's current time (the mean of its three axes; the rest scale when the clip has
// no scale keys for it) or `value`, raised to `min_scale` when set, and eased (smoothstep) over
// `blend_duration` from the previous effective value (1 at first) when the config is entered,
// and back to 1 over the same duration when it is left.
struct RootMotionScale {
  RootScaleMode mode = RootScaleMode::kNone;
  RootScaleSource source = RootScaleSource::kAnimation;
  float value = 1.0f;              // kFixed; finite
  float blend_duration = 0.2f;     // seconds, finite, >= 0; 0 = at once
  std::optional<float> min_scale;  // finite when set; none: no lower bound
};

// The `physics` block (§13): host body effects disabled while the config plays on Base. critter
// runs no physics; the host reads the flags in effect (Controller::root_motion_physics()) and
// restores its effects when they clear. `disable_all` stands for every `disable_*` flag.
struct RootMotionPhysics {
  bool disable_gravity = false;
  bool disable_terrain_collision = false;
  bool disable_input_movement = false;
  bool clear_velocity_on_exit = false;  // leaving the config zeroes the body velocity once
  bool disable_air_drag = false;
  bool disable_water_drag = false;
  bool disable_ground_drag = false;
  bool disable_all = false;

  // These flags with `disable_all` expanded into every `disable_*` flag.
  RootMotionPhysics resolved() const {
    RootMotionPhysics r = *this;
    if (disable_all) {
      r.disable_gravity = r.disable_terrain_collision = r.disable_input_movement = true;
      r.disable_air_drag = r.disable_water_drag = r.disable_ground_drag = true;
    }
    return r;
  }
  bool operator==(const RootMotionPhysics&) const = default;
};

struct ControllerRootMotionDesc {
  int source_bone = -1;  // -1: the automatic root bone (§13)
  RootMotionMode mode = RootMotionMode::kNone;
  RootMotionBlendMethod blend_method = RootMotionBlendMethod::kSmoothDamp;
  float smooth_time = 0.3f;  // seconds
  float blend_weight = 0.5f;
  float spring_stiffness = 100.0f;
  float spring_damping = 10.0f;
  RootMotionImpulseMethod impulse_method = RootMotionImpulseMethod::kAverage;
  float impulse_scale = 1.0f;
  float impulse_phase = -1.0f;  // absolute clip phase; -1: the end phase (start phase in reverse)
  std::optional<vec3> impulse_override;        // body-local, metres per second
  std::optional<vec3> impulse_speed_override;  // body-local, metres per second
  vec3 velocity_mask{1.0f};                    // per axis: > 0.5 takes the root-motion result
  float max_speed = 20.0f;
  float max_impulse = 50.0f;
  RootMotionScale scale;
  RootMotionPhysics physics;  // all false: no effect
};

// One driverArgs entry as a parameter value (§9).
struct ControllerDriverArgument {
  std::string name;
  ParameterValue value;
};

// What an animation reference plays, after aliases are merged (§7).
struct ControllerAnimationDesc {
  enum class Source : std::uint8_t {
    kNone,       // null or "": deactivates the layer (§8)
    kClip,       // `clip`, an index into Model::clips()
    kParameter,  // the clip named by string parameter `parameter` at apply time (§7 "[Param]")
    kDriver,     // procedural driver `driver` (§14)
  };
  Source source = Source::kNone;
  int clip = -1;
  std::string parameter;
  // kDriver: the driver with its properties (the layer's preset of the same type with the rule's
  // driverArgs applied, or a new driver from driverArgs). It runs when the layer's driver (the
  // one running, else the last one it ran, else its preset) is of another type.
  ControllerDriverDesc driver;
  // kDriver: the rule's driverArgs as parameter values. When the layer's driver is of the same
  // type, applying the rule sets these parameters instead and keeps that driver (§9 step 6).
  std::vector<ControllerDriverArgument> driver_arguments;

  DynamicFloatDesc speed{1.0f, {}};           // > 0; re-evaluated every frame
  DynamicBoolDesc loop{true, {}};             // re-evaluated every frame (no restart)
  DynamicFloatDesc start_phase{0.0f, {}};     // [0, 1]; evaluated when applied
  DynamicFloatDesc end_phase{1.0f, {}};       // [0, 1]; below start_phase plays in reverse
  DynamicFloatDesc blend_duration{0.3f, {}};  // seconds; 0 = hard cut; evaluated when applied
  bool preserve_pose = false;                 // hold the last frame after a non-looping clip ends
  std::vector<ClipEvent> events;              // phases over the whole clip
  ControllerActionDesc on_complete;
  ControllerActionDesc on_interrupt;
  std::optional<quat> root_bone_rotation;  // per-animation override of the top-level value (§12)
  std::optional<vec3> root_bone_translation;
  std::optional<ControllerRootMotionDesc> root_motion;  // honoured on the layer named Base only
  // Where the fields evaluated at run time were written (runtime warnings, §0.4). A field merged
  // in from an alias (§7) has the site of the alias's field (`/animations/walk/speed`), where the
  // text to fix is; `source` is the `[Param]` source's site.
  struct Sites {
    SourceLocation source;
    SourceLocation speed;
    SourceLocation loop;
    SourceLocation start_phase;
    SourceLocation end_phase;
    SourceLocation blend_duration;
  };
  Sites sites;
};

// A leaf {condition, animation} or a group {condition, rules} (§8).
struct ControllerRuleDesc {
  std::string condition;  // expression text; "true" always matches
  SourceLocation condition_site;
  bool is_group = false;
  ControllerAnimationDesc animation;      // leaves
  std::vector<ControllerRuleDesc> rules;  // groups
};

struct ControllerStateDesc {
  std::string name;
  int layer = -1;  // index into ControllerDesc::layers; a state with -1 is ignored
  std::vector<ControllerRuleDesc> rules;
};

// One IK chain of the `ik` block (§18), run after layer blending in listed order.
struct ControllerIkChainDesc {
  std::string name;
  int end_joint = -1;        // the chain walks up from this joint
  int max_chain_length = 3;  // 2..32 bones
  // Vec3 parameters in model space (before root-bone correction); empty: none. A target that is
  // unset (or not a vector) counts as absent.
  std::string target;
  std::string aim;
  std::string hint;
  DynamicBoolDesc enabled{true, {}};
  DynamicFloatDesc weight{1.0f, {}};  // weights are clamped to [0, 1] each frame
  DynamicFloatDesc position_weight{1.0f, {}};
  DynamicFloatDesc aim_weight{1.0f, {}};
  IkChainSettings settings;
  std::vector<JointLimit> joint_limits;
  // Where the dynamic fields were written (runtime warnings, §0.4).
  struct Sites {
    SourceLocation enabled;
    SourceLocation weight;
    SourceLocation position_weight;
    SourceLocation aim_weight;
  };
  Sites sites;
};

// One look-at entry of the `ik` block (§18), run after the chains in listed order.
struct ControllerIkLookAtDesc {
  std::string name;
  std::vector<std::int16_t> bones;  // root to tip, each a descendant of the one before
  std::vector<float> shares;        // empty: all on the last bone
  std::string target;               // Vec3 parameter (model-space point); empty or unset: angles
  DynamicFloatDesc yaw{0.0f, {}};   // radians
  DynamicFloatDesc pitch{0.0f, {}};
  DynamicFloatDesc weight{1.0f, {}};  // clamped to [0, 1]
  LookAtSettings settings;
  // Where the dynamic fields were written (runtime warnings, §0.4).
  struct Sites {
    SourceLocation yaw;
    SourceLocation pitch;
    SourceLocation weight;
  };
  Sites sites;
};

struct ControllerDesc {
  // The config file the description was made from (make_controller_desc fills it): the path of
  // the Controller's runtime warnings whose SourceLocation names no file. Empty when built in code.
  std::string source;
  std::vector<ControllerLayerDesc> layers;  // blend order
  std::vector<ControllerStateDesc> states;  // evaluation order
  // The config's named animations (its `animations` entries, alias chains merged), in file order.
  // Nothing plays them (each rule carries its own merged copy); ControllerProgram::compile checks
  // their expressions so that an entry no rule plays still reports its errors where written.
  std::vector<ControllerAnimationDesc> animations;
  // Parameters with their initial values (a creature's description starts from
  // creature::builtin_schema()); names read by expressions and not declared here are added
  // (unset) when the program compiles, with a warning, unless `schema_complete` is set.
  ParameterSchema schema;
  // True when `schema` lists every parameter the host will set (config::bind with
  // BindOptions::complete_schema: the config's declarations, the built-ins and the host's
  // parameters): a name an expression reads that the schema lacks is then a compile error.
  bool schema_complete = false;
  quat root_bone_rotation{1.0f, 0.0f, 0.0f, 0.0f};  // top-level rootBoneRotation (§12)
  vec3 root_bone_translation{0.0f};                 // metres
  float model_scale = 1.0f;
  std::vector<ControllerIkChainDesc> ik_chains;
  std::vector<ControllerIkLookAtDesc> ik_look_ats;
};

}  // namespace critter::anim
