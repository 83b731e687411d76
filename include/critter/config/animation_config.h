// SPDX-License-Identifier: MIT
// AnimationConfig: the animation-controller JSON file (Survivalcraft's format with critter's
// decisions, specs/animation-config.md) as plain data, after `extends` is merged and the template
// is resolved. This is the PARSE stage: no model is needed. Binding names to a model is
// config/bind.h. Every element keeps the file and JSON pointer it came from so later stages
// report located errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "critter/anim/controller_desc.h"
#include "critter/anim/ik_joint_limit.h"
#include "critter/anim/ik_options.h"
#include "critter/config/config_value.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"
#include "critter/core/math.h"

namespace critter::config {

// A float field that is either a static value or an expression (§15: a string containing both
// '[' and ']', or starting with "expr:" which is stripped). A string without an expression is
// parsed as a literal into `value`.
struct DynamicFloat {
  DynamicFloat() = default;
  explicit DynamicFloat(float v) : value(v) {}
  float value = 0.0f;      // the static value, or the field default while `expression` is set
  std::string expression;  // empty: static
  bool written = false;    // the field was present in the file
  SourceLocation where;    // the field's location (when written)
  bool is_expression() const { return !expression.empty(); }
};

// A bool field that is either a static value or an expression. For conditions see RuleConfig.
struct DynamicBool {
  DynamicBool() = default;
  explicit DynamicBool(bool v) : value(v) {}
  bool value = false;
  std::string expression;
  bool written = false;
  SourceLocation where;
  bool is_expression() const { return !expression.empty(); }
};

// The enums of the runtime description, read from their config names.
using anim::BlendCurve;
using anim::LayerBlendMode;
using anim::RootMotionBlendMethod;
using anim::RootMotionImpulseMethod;
using anim::RootMotionMode;
using anim::RootMotionPhysics;
using anim::RootScaleMode;
using anim::RootScaleSource;

// ---- root motion (§13) ------------------------------------------------------------------------

struct RootMotionTranslation {
  RootMotionMode mode = RootMotionMode::kNone;
  RootMotionBlendMethod blend_method = RootMotionBlendMethod::kSmoothDamp;
  float smooth_time = 0.3f;  // seconds
  float blend_weight = 0.5f;
  float spring_stiffness = 100.0f;
  float spring_damping = 10.0f;
  RootMotionImpulseMethod impulse_method = RootMotionImpulseMethod::kAverage;
  float impulse_scale = 1.0f;
  float impulse_phase = -1.0f;  // absolute clip phase; -1 = end phase (start phase in reverse)
  std::optional<vec3> impulse_override;        // body-local, metres per second
  std::optional<vec3> impulse_speed_override;  // body-local, metres per second
  vec3 velocity_mask{1.0f};                    // per axis: > 0.5 takes the root-motion result
  float max_speed = 20.0f;
  float max_impulse = 50.0f;
};

struct RootMotionScale {
  RootScaleMode mode = RootScaleMode::kNone;
  RootScaleSource source = RootScaleSource::kAnimation;
  std::optional<float> value;
  float blend_duration = 0.2f;  // seconds
  std::optional<float> min_scale;
};

struct RootMotionConfig {
  std::optional<std::string> source_bone;  // empty: the automatic root bone (§13)
  RootMotionTranslation translation;
  RootMotionScale scale;
  std::optional<RootMotionPhysics> physics;
  SourceLocation where;
  SourceLocation source_bone_where;
};

// ---- animation references (§7) ----------------------------------------------------------------

struct EventConfig {
  float time = 0.0f;  // normalised over the whole clip, [0, 1]
  std::string name;
  std::string data;
  SourceLocation where;
};

// onComplete / onInterrupt. kTrigger raises event `name` with `data`; kSetState (old configs)
// sets parameter `state` to `value`.
struct ActionConfig {
  enum class Type : std::uint8_t { kTrigger, kSetState };
  Type type = Type::kTrigger;
  std::string name;
  std::string data;
  std::string state;
  ConfigValue value;
  SourceLocation where;
};

// How a `source` string reads (§7). The text after the prefix is in AnimationReference::target.
enum class SourceKind : std::uint8_t {
  kNone,       // null or "": deactivates the layer
  kName,       // a clip name or an alias (which one is decided at bind, by the lookup rule of §7)
  kClip,       // "animation://Clip": a clip name, never an alias
  kDriver,     // "driver:Name"
  kFile,       // "file:path.glb#Clip" (target = path, file_clip = clip, empty = first clip)
  kParameter,  // "[Param]": a string parameter's value at apply time
};

struct AnimationReference {
  std::optional<std::string> source;  // as written; nullopt when absent (rules inherit the alias)
  SourceKind kind = SourceKind::kNone;
  std::string target;     // clip or alias name, driver name, file path or parameter name
  std::string file_clip;  // kFile: the clip after '#'
  SourceLocation source_where;

  DynamicFloat speed{1.0f};
  DynamicBool loop{true};
  DynamicFloat start_phase{0.0f};
  DynamicFloat end_phase{1.0f};
  DynamicFloat blend_duration{0.3f};  // seconds
  std::optional<bool> preserve_pose;  // false when absent
  std::optional<std::vector<EventConfig>> events;
  std::optional<ActionConfig> on_complete;
  std::optional<ActionConfig> on_interrupt;
  std::optional<ConfigValue> driver_args;  // an object
  std::optional<RootMotionConfig> root_motion;
  std::optional<quat> root_bone_rotation;  // per-animation override, see AnimationConfig
  std::optional<vec3> root_bone_translation;
  SourceLocation where;
};

// One `animations` entry.
struct AnimationAlias {
  std::string name;
  AnimationReference reference;
};

// ---- states (§8) ------------------------------------------------------------------------------

// A leaf `{condition, animation}` or a group `{condition, rules}`. `condition` is always an
// expression; "true" and a single parameter name are the shortcuts of §15.
struct RuleConfig {
  std::string condition;
  SourceLocation condition_where;
  std::optional<AnimationReference> animation;  // leaves only
  std::vector<RuleConfig> rules;                // groups only
  bool is_group = false;
  SourceLocation where;
};

struct StateConfig {
  std::string name;
  std::string layer;
  SourceLocation layer_where;
  std::vector<RuleConfig> rules;
  SourceLocation where;
};

// ---- layers, templates (§5, §6) ---------------------------------------------------------------

struct DriverConfig {
  std::string type;
  SourceLocation type_where;
  ConfigValue properties;  // an object (empty object when absent)
  SourceLocation where;
};

// A `layers.X` entry of the config: overrides of the template layer of the same name.
struct LayerConfig {
  std::string name;
  std::optional<std::vector<std::string>> bones;
  std::vector<SourceLocation> bones_where;
  std::optional<std::vector<std::string>> bones_exclude;
  std::vector<SourceLocation> bones_exclude_where;
  std::optional<float> weight;  // as written; <= 0 counts as 1
  std::optional<BlendCurve> blend_curve;
  std::optional<DriverConfig> driver;
  std::optional<LayerBlendMode> blend_mode;
  SourceLocation where;
};

struct TemplateLayer {
  std::string name;
  int index = 0;
  LayerBlendMode blend_mode = LayerBlendMode::kOverride;
  std::vector<std::string> bone_mask;
  std::vector<std::string> bone_mask_exclude;
  std::optional<float> weight;  // null or <= 0 counts as 1
};

struct AnimationTemplate {
  std::string name;
  std::vector<std::string> required_bones;
  std::vector<TemplateLayer> layers;  // in file order; indices unique
  bool built_in = false;
  SourceLocation where;  // the template file (empty file for built-ins)
};

// The built-in templates of §5 (Simple, FourLegged, Human, Bird, FlightlessBird, Fish), looked up
// case-insensitively; null when `name` is none of them.
const AnimationTemplate* find_builtin_template(std::string_view name);
std::vector<std::string_view> builtin_template_names();

// ---- parameters (§16) -------------------------------------------------------------------------

// An initial parameter value. JSON numbers are floats, `[x,y]`/`{X,Y}` Vec2, `[x,y,z]`/`{X,Y,Z}`
// Vec3. critter extension: `{"type": "int"|"trigger"|..., "value": v}` declares the type
// explicitly (a trigger has no value).
struct ParameterConfig {
  std::string name;
  anim::ParamType type = anim::ParamType::kFloat;  // never kUnset
  float number = 0.0f;                             // kFloat, kInt (integral)
  bool boolean = false;
  std::string string;
  vec3 vec{0.0f};  // kVec2 uses x, y
  SourceLocation where;
};

// ---- IK (§18) ---------------------------------------------------------------------------------

// Bones are names (resolved at bind); the constant settings use the IK jobs' own types.
struct JointLimitConfig {
  std::string bone;
  anim::EulerOrder order = anim::EulerOrder::kYXZ;
  vec3 min_degrees{-180.0f};  // each in [-180, 180], min <= max
  vec3 max_degrees{180.0f};
  SourceLocation where;
  SourceLocation bone_where;
};

struct IkChainConfig {
  std::string name;
  std::string end_bone;
  SourceLocation end_bone_where;
  int max_chain_length = 3;       // 2..32 bones, walking up from end_bone
  std::string target, aim, hint;  // Vec3 parameter names (model space); empty = none
  DynamicBool enabled{true};
  DynamicFloat weight{1.0f};
  DynamicFloat position_weight{1.0f};
  DynamicFloat aim_weight{1.0f};
  anim::IkChainSettings settings;  // algorithm (kAuto when absent), aimAxis, unreachable, ...
  std::vector<JointLimitConfig> joint_limits;
  SourceLocation where;
};

struct LookAtConfig {
  std::string name;
  std::vector<std::string> bones;  // root to tip
  std::vector<SourceLocation> bones_where;
  std::vector<float> shares;  // empty: all on the last bone; sum <= 1
  std::string target;         // Vec3 parameter (model-space point); empty = use yaw/pitch
  DynamicFloat yaw{0.0f};     // radians
  DynamicFloat pitch{0.0f};
  DynamicFloat weight{1.0f};
  anim::LookAtSettings settings;  // axes, limits in degrees, smoothTime
  SourceLocation where;
};

struct IkConfig {
  std::vector<IkChainConfig> chains;
  std::vector<LookAtConfig> look_ats;
};

// ---- the whole file (§4) ----------------------------------------------------------------------

struct BoneAlias {
  std::string alias;
  std::string bone;
  SourceLocation where;  // the target's location
};

struct AnimationConfig {
  std::string path;                   // the file loaded (the child of any `extends` chain)
  std::vector<std::string> files;     // every file read: the extends chain root first, templates
  AnimationTemplate template_config;  // resolved `template` (default Simple)
  SourceLocation template_where;
  // rootBoneRotation as a quaternion R = R_Y(yaw)·R_X(pitch)·R_Z(roll) from degrees
  // (x = pitch, y = yaw, z = roll; a single number is yaw). Unset = identity.
  std::optional<quat> root_bone_rotation;
  std::optional<vec3> root_bone_translation;  // metres, applied after the rotation
  float model_scale = 1.0f;
  std::vector<LayerConfig> layers;          // in merged JSON order
  std::vector<AnimationAlias> animations;   // in merged JSON order
  std::vector<StateConfig> states;          // in merged JSON order (the order they run)
  std::vector<ParameterConfig> parameters;  // in merged JSON order
  std::vector<BoneAlias> bone_aliases;
  IkConfig ik;

  const AnimationAlias* find_animation(std::string_view alias) const;  // case-insensitive
  const LayerConfig* find_layer(std::string_view name) const;
  const ParameterConfig* find_parameter(std::string_view name) const;
  // Follows bone aliases (chains included) from `name`; `name` itself when it is no alias.
  std::string resolve_bone_alias(std::string_view name) const;
};

struct AnimationConfigOptions {
  // Folders searched (in order) after the containing file's folder for `extends`, `template` and
  // `file:` paths.
  std::vector<std::string> asset_roots;
  // Those paths may lead only inside the loaded config's folder and the asset roots (absolute
  // paths, `..` climbing out and links leading out are refused with an error at the path's JSON
  // pointer; config/config_paths.h) unless this is set.
  bool allow_outside = false;
};

// Builds the quaternion of a rootBoneRotation written as degrees (x pitch, y yaw, z roll).
quat root_bone_rotation_from_degrees(const vec3& degrees);

// Reads the config at `path`: relaxed JSON (comments, trailing commas, case-insensitive names),
// `extends` chains, the template and every field of §4-§8, §16 and §18. The first error is
// returned; when `all_errors` is given every error found is appended to it (the reader continues
// after an error in one element). Warnings go to `diag` (may be null). With `partial` given and
// errors found, the config read is stored there whenever the file itself was read (its JSON and
// `extends` chain loaded): each element that failed is skipped or keeps its field defaults, an
// unknown template leaves Simple (and the layer names unchecked), so a checker can bind the rest
// and list the bind and expression errors in the same pass.
Result<AnimationConfig> load_animation_config(std::string_view path,
                                              const AnimationConfigOptions& options = {},
                                              Diagnostics* diag = nullptr,
                                              std::vector<Error>* all_errors = nullptr,
                                              AnimationConfig* partial = nullptr);

// As load_animation_config() for a document already in memory; `path` names it in errors and is
// the base of relative `extends` and `template` paths.
Result<AnimationConfig> parse_animation_config(std::string_view text, std::string_view path,
                                               const AnimationConfigOptions& options = {},
                                               Diagnostics* diag = nullptr,
                                               std::vector<Error>* all_errors = nullptr,
                                               AnimationConfig* partial = nullptr);

}  // namespace critter::config
