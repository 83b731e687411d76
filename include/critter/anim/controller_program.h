// SPDX-License-Identifier: MIT
// ControllerProgram: the immutable part of an animation controller (animation-config.md §8-§14,
// §17, §18), compiled once per (model, description) and shared by every creature's Controller
// (controller.h): flattened rule trees with compiled expressions and per-clip channel and
// morph-weight tables.
//
//   auto program = ControllerProgram::compile(model, std::move(desc));
//   if (!program) report(program.error());
//   Controller creature(*program);
//
// Drivers come from a DriverRegistry (driver.h); a type it only declares is accepted and leaves
// its layer untouched.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "critter/anim/controller_desc.h"
#include "critter/anim/driver.h"
#include "critter/anim/expression.h"
#include "critter/anim/parameters.h"
#include "critter/anim/player.h"
#include "critter/asset/model.h"
#include "critter/core/error.h"

namespace critter::anim {

class Controller;
namespace detail {
class RuntimeLog;
class DriverSet;
class LayerStack;
class RuleMachine;
class RootMotion;
class IkDispatch;
struct ControllerState;
}  // namespace detail

// The shared, immutable part of a controller. Holds a reference to the model, which must
// outlive it and every Controller made from it.
class ControllerProgram {
 public:
  // Compiles every condition and expression field of `desc` (those of `desc.animations` and of
  // Expression driver channels included; names the schema lacks are declared unset) and checks
  // the indices. An expression that does not compile is reported at its
  // SourceLocation when the description has one (path: its file, else ControllerDesc::source;
  // location: its JSON pointer; message "expression '<text>': <reason> (column N)"), once per
  // location. A parameter an expression reads that the schema lacks is declared unset and, with
  // " (did you mean A, B?)" naming the nearest schema names when some are near, either warned
  // about there ("parameter 'X' is neither declared nor built in", when `diag` is given) or, when
  // `desc.schema_complete` is set (config::BindOptions::complete_schema), an error there
  // ("expression
  // '<text>': parameter 'X' is neither declared nor built in"): it would read as unset for ever.
  // A host that sets parameters the config does not declare lists them first
  // (config::BindOptions::host_parameters) or declares them in `desc.schema`. Every expression is
  // compiled even after one fails; the first error is returned and `all_errors` (when given)
  // receives every one. Other errors (kInvalid, path "ControllerDesc", location a pointer such as
  // "states/0/rules/1/condition"): an unlocated condition or expression that does not compile, a
  // layer index or clip index out of range, a mask whose size is not the joint count or with a
  // weight outside [0, 1], a layer weight not finite or <= 0, phases outside [0, 1], a
  // root-motion smooth time, spring stiffness or spring damping not finite or negative, a
  // root-motion scale whose value, minimum or blend duration is not finite or whose blend
  // duration is negative; a driver type `drivers` does not know (location ".../driver/type"), or
  // the error of its factory (location ".../driver/<the factory's location>").
  // `drivers` (null: DriverRegistry::builtin()) is only used during the call.
  static Result<std::shared_ptr<const ControllerProgram>> compile(
      const Model& model, ControllerDesc desc, const DriverRegistry* drivers = nullptr,
      Diagnostics* diag = nullptr, std::vector<Error>* all_errors = nullptr);

  ControllerProgram(const ControllerProgram&) = delete;
  ControllerProgram& operator=(const ControllerProgram&) = delete;

  const Model& model() const { return *model_; }
  const ControllerDesc& desc() const { return desc_; }
  // The description's schema plus the names expressions read without a declaration.
  const ParameterSchema& schema() const { return desc_.schema; }
  // Where each mesh's morph weights live in Controller::morph_weights() (the model's layout, as a
  // Player lays them out), with the model's default weights.
  const MorphLayout& morph_layout() const { return morph_layout_; }
  int layer_count() const { return static_cast<int>(desc_.layers.size()); }
  // Index of the layer named `name` (case-insensitive), or -1.
  int find_layer(std::string_view name) const;

  // §13: the source bone's position in clip `clip` at `time` seconds (keys interpolated
  // linearly, clamped to the keys); zero when the clip does not move the bone.
  vec3 root_position(int clip, int bone, float time) const;
  // §13 scale override: the source bone's scale in clip `clip` at `time` seconds (keys
  // interpolated as authored, clamped to the keys); the bone's rest scale when the clip has no
  // scale keys for it, (1, 1, 1) for a clip or bone that no root-motion animation uses.
  vec3 root_scale(int clip, int bone, float time) const;

 private:
  friend class Controller;
  friend class detail::RuntimeLog;
  friend class detail::DriverSet;
  friend class detail::LayerStack;
  friend class detail::RuleMachine;
  friend class detail::RootMotion;
  friend class detail::IkDispatch;
  friend struct detail::ControllerState;
  ControllerProgram() = default;

  struct Animation {
    const ControllerAnimationDesc* desc = nullptr;
    const Expression* speed = nullptr;  // null: static value
    const Expression* loop = nullptr;
    const Expression* start_phase = nullptr;
    const Expression* end_phase = nullptr;
    const Expression* blend_duration = nullptr;
    ParamIndex parameter = kNoParam;  // kParameter sources
    int driver = -1;                  // kDriver sources: index into drivers_
    std::vector<std::pair<ParamIndex, ParameterValue>> driver_arguments;  // kDriver (§9)
    int root_bone = -1;                       // root motion: the source bone
    quat root_frame{1.0f, 0.0f, 0.0f, 0.0f};  // product of the source bone's ancestors' rest
  };
  // The source bone's translation and scale keys of one clip (§13 per-clip cache).
  struct RootTrack {
    int clip = -1;
    int bone = -1;
    std::vector<float> times;
    std::vector<vec3> positions;
    Interpolation scale_interpolation = Interpolation::kLinear;
    std::vector<float> scale_times;
    std::vector<vec3> scales;  // kCubicSpline: in-tangent, value, out-tangent per key
    vec3 rest_scale{1.0f};     // the bone's rest scale, when there are no scale keys
  };
  struct Driver {
    std::string type;                              // the registered name
    std::shared_ptr<const DriverProgram> program;  // null: a declared type (runs nothing)
    // The driver's properties as a JSON pointer (/layers/Head/driver/properties or a rule's
    // .../animation/driverArgs): runtime warnings name a field the config did not locate below it.
    std::string pointer;
  };
  // Where a runtime field was written (Controller::runtime_warnings()).
  struct Site {
    const void* field = nullptr;  // the field inside desc_ (a rule for its condition)
    std::string file;             // empty: desc_.source
    std::string pointer;
  };
  // One rule; the children of a group and the roots of a state are contiguous.
  struct Node {
    const ControllerRuleDesc* rule = nullptr;
    const Expression* condition = nullptr;  // null: the literal "true"
    int first_child = 0;
    int child_count = 0;
    int animation = -1;  // leaves: index into animations_; -1 for groups
  };
  struct State {
    int layer = -1;
    int first_root = 0;
    int root_count = 0;
  };
  struct IkChain {
    const ControllerIkChainDesc* desc = nullptr;
    ParamIndex target = kNoParam;
    ParamIndex aim = kNoParam;
    ParamIndex hint = kNoParam;
    const Expression* enabled = nullptr;
    const Expression* weight = nullptr;
    const Expression* position_weight = nullptr;
    const Expression* aim_weight = nullptr;
  };
  struct IkLookAt {
    const ControllerIkLookAtDesc* desc = nullptr;
    ParamIndex target = kNoParam;
    const Expression* yaw = nullptr;
    const Expression* pitch = nullptr;
    const Expression* weight = nullptr;
  };
  enum ChannelBits : std::uint8_t { kT = 1, kR = 2, kS = 4 };

  Status build(const Model& model, ControllerDesc desc, const DriverRegistry& drivers);
  Result<int> add_rules(const std::vector<ControllerRuleDesc>& rules, const std::string& where,
                        const std::string& pointer);
  // Compiles `text` (empty: null). A failure is recorded in errors_ (at `site` when it is
  // located, else at `where` in the description) and yields null, so the build goes on.
  const Expression* compile_field(const std::string& text, const std::string& where,
                                  const SourceLocation& site);
  Status add_animation(const ControllerAnimationDesc& anim, const std::string& where,
                       const std::string& pointer);
  Status check_action(const ControllerActionDesc& action);
  Result<int> add_driver(const ControllerDriverDesc& driver, const std::string& where,
                         std::string pointer);
  // Records where the runtime field `field` (an address inside desc_) was written: its
  // SourceLocation, else `fallback`, its place in the description as a JSON pointer.
  void add_site(const void* field, const SourceLocation& site, std::string fallback);

  const Model* model_ = nullptr;
  const DriverRegistry* registry_ = nullptr;  // during build() only
  Diagnostics* diag_ = nullptr;               // during build() only
  std::vector<Error> errors_;                 // during build() only: expression errors
  std::vector<std::string> reported_;         // during build() only: "file\npointer" of errors_
  ControllerDesc desc_;
  std::unique_ptr<ExpressionCache> cache_;
  std::vector<Animation> animations_;
  std::vector<Driver> drivers_;
  std::vector<Site> sites_;
  std::vector<IkChain> ik_chains_;
  std::vector<RootTrack> root_tracks_;
  int base_layer_ = -1;
  std::vector<IkLookAt> ik_look_ats_;
  std::vector<int> layer_drivers_;  // per layer: the preset driver, or -1
  std::vector<Node> nodes_;
  std::vector<State> states_;
  std::vector<std::vector<std::uint8_t>> clip_channels_;  // per clip, per joint: ChannelBits
  MorphLayout morph_layout_;
  // Per clip, per mesh: 1 when the clip has a weights track for the mesh.
  std::vector<std::vector<std::uint8_t>> clip_morphs_;
  std::size_t max_events_ = 0;
};

}  // namespace critter::anim
