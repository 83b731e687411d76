// SPDX-License-Identifier: MIT
// LookAt, Death and Expression read the typed fields of ControllerDriverDesc, which the config
// runtime fills from their properties; their per-frame work is the same arithmetic the controller
// ran inline before drivers were registered, split so that update() reads the parameters and
// sample() writes the bones.
#include "builtin_drivers.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include "critter/anim/controller_desc.h"

namespace critter::anim {
namespace {

constexpr float kDeg = 3.14159265358979f / 180.0f;
const vec3 kAxes[3] = {vec3(1, 0, 0), vec3(0, 1, 0), vec3(0, 0, 1)};

Error setup_error(std::string location, std::string message) {
  return Error::at(ErrorCode::kInvalid, "ControllerDesc", std::move(location), std::move(message));
}

bool bad_bone(const Model& model, int bone) {
  return bone < -1 || bone >= model.skeleton().joint_count();
}

// A number parameter as a float, 0 (its unset reading) when it is NaN, infinite or beyond float
// range: the host may set any double, and clamping keeps NaN, so a look angle or death phase of
// NaN, or a body height of 1e300, would otherwise reach the pose as NaN or inf.
float finite_number(const ParameterValues& v, ParamIndex index) {
  const double d = v.number(index);
  if (!std::isfinite(d) || std::fabs(d) > static_cast<double>(std::numeric_limits<float>::max()))
    return 0.0f;
  return static_cast<float>(d);
}

// ---- LookAt ------------------------------------------------------------------------------------

class LookAtProgram final : public DriverProgram {
 public:
  LookAtProgram(const ControllerDriverDesc& d, const Model& model, ParameterSchema& schema)
      : bone_(d.target_bone),
        yaw_(schema.declare_or_find(d.yaw_parameter)),
        pitch_(schema.declare_or_find(d.pitch_parameter)),
        max_yaw_(d.max_yaw_degrees * kDeg),
        max_pitch_(d.max_pitch_degrees * kDeg),
        yaw_axis_(kAxes[d.yaw_axis]),
        pitch_axis_(kAxes[d.pitch_axis]),
        yaw_sign_(d.invert_yaw ? -1.0f : 1.0f),
        pitch_sign_(d.invert_pitch ? -1.0f : 1.0f) {
    if (bone_ >= 0) rest_ = model.skeleton().rest_pose()[static_cast<std::size_t>(bone_)];
  }
  std::unique_ptr<DriverInstance> instantiate() const override;

 private:
  friend class LookAtInstance;
  int bone_;
  ParamIndex yaw_;
  ParamIndex pitch_;
  float max_yaw_;  // radians
  float max_pitch_;
  vec3 yaw_axis_;
  vec3 pitch_axis_;
  float yaw_sign_;
  float pitch_sign_;
  Transform rest_;
};

class LookAtInstance final : public DriverInstance {
 public:
  explicit LookAtInstance(const LookAtProgram& p) : p_(p) {}
  void update(float, const ParameterValues& v) override {
    const float yaw = std::clamp(finite_number(v, p_.yaw_), -p_.max_yaw_, p_.max_yaw_);
    const float pitch = std::clamp(finite_number(v, p_.pitch_), -p_.max_pitch_, p_.max_pitch_);
    // §14.1: R_look = R_yawAxis(-σy·yaw)·R_pitchAxis(σp·pitch).
    look_ = glm::angleAxis(-p_.yaw_sign_ * yaw, p_.yaw_axis_) *
            glm::angleAxis(p_.pitch_sign_ * pitch, p_.pitch_axis_);
  }
  bool sample(std::span<Transform> out, std::span<std::uint8_t> touched, bool additive) override {
    if (p_.bone_ < 0) return false;
    const auto j = static_cast<std::size_t>(p_.bone_);
    if (additive) {
      out[j] = Transform{vec3(0.0f), look_, vec3(1.0f)};
    } else {
      out[j] = Transform{p_.rest_.translation, glm::normalize(look_ * p_.rest_.rotation),
                         p_.rest_.scale};
    }
    touched[j] = 1;
    return true;
  }

 private:
  const LookAtProgram& p_;
  quat look_{1.0f, 0.0f, 0.0f, 0.0f};
};

std::unique_ptr<DriverInstance> LookAtProgram::instantiate() const {
  return std::make_unique<LookAtInstance>(*this);
}

Result<std::shared_ptr<const DriverProgram>> make_look_at(const DriverSetup& s) {
  const ControllerDriverDesc& d = s.desc;
  if (bad_bone(s.model, d.target_bone)) return fail(setup_error("target_bone", "bad bone"));
  if (d.yaw_axis < 0 || d.yaw_axis > 2 || d.pitch_axis < 0 || d.pitch_axis > 2) {
    return fail(setup_error("", "axes must be 0, 1 or 2"));
  }
  return std::shared_ptr<const DriverProgram>(
      std::make_shared<LookAtProgram>(d, s.model, s.schema));
}

// ---- Death -------------------------------------------------------------------------------------

class DeathProgram final : public DriverProgram {
 public:
  DeathProgram(const ControllerDriverDesc& d, int bone, const Model& model, ParameterSchema& schema)
      : bone_(bone),
        phase_(schema.declare_or_find(d.death_phase_parameter)),
        height_(schema.declare_or_find(d.body_height_parameter)),
        right_(schema.declare_or_find(d.body_right_parameter)),
        cause_(schema.declare_or_find(d.death_cause_offset_parameter)),
        roll_(d.roll_angle * kDeg),
        pitch_(d.pitch_angle * kDeg),
        body_drop_(d.body_drop),
        auto_roll_(d.auto_roll_direction) {
    if (bone_ >= 0) rest_ = model.skeleton().rest_pose()[static_cast<std::size_t>(bone_)];
  }
  std::unique_ptr<DriverInstance> instantiate() const override;

 private:
  friend class DeathInstance;
  int bone_;
  ParamIndex phase_;
  ParamIndex height_;
  ParamIndex right_;
  ParamIndex cause_;
  float roll_;  // radians at t = 1
  float pitch_;
  float body_drop_;
  bool auto_roll_;
  Transform rest_;
};

class DeathInstance final : public DriverInstance {
 public:
  explicit DeathInstance(const DeathProgram& p) : p_(p) {}
  void update(float, const ParameterValues& v) override {
    t_ = std::clamp(finite_number(v, p_.phase_), 0.0f, 1.0f);
    if (!(t_ > 0.0f)) return;  // sample() shows nothing at t = 0
    float side = 1.0f;
    if (p_.auto_roll_) {
      const vec3 right = v.vec(p_.right_);
      const vec3 cause = v.vec(p_.cause_);
      const float dot = glm::dot(right, cause);
      if (glm::length(right) > 0.0f && glm::length(cause) > 0.0f && dot != 0.0f) {
        side = dot > 0.0f ? 1.0f : -1.0f;
      }
    }
    // A finite height times the drop can still overflow (3e38 * 2): such a drop reads as none.
    drop_ = -p_.body_drop_ * finite_number(v, p_.height_) * t_;
    if (!std::isfinite(drop_)) drop_ = 0.0f;
    // Row order RotX·RotZ·T (RotX acts first) is T·R_Z·R_X in column order, applied in the
    // parent frame over the rest local: T(t_rest)·D·R_rest·S_rest.
    rotation_ =
        glm::angleAxis(p_.roll_ * t_ * side, kAxes[2]) * glm::angleAxis(p_.pitch_ * t_, kAxes[0]);
  }
  bool sample(std::span<Transform> out, std::span<std::uint8_t> touched, bool additive) override {
    if (p_.bone_ < 0 || !(t_ > 0.0f)) return false;  // nothing happens at t = 0
    const auto j = static_cast<std::size_t>(p_.bone_);
    if (additive) {
      out[j] = Transform{vec3(0.0f, drop_, 0.0f), glm::normalize(rotation_), vec3(1.0f)};
    } else {
      out[j] = Transform{p_.rest_.translation + vec3(0.0f, drop_, 0.0f),
                         glm::normalize(rotation_ * p_.rest_.rotation), p_.rest_.scale};
    }
    touched[j] = 1;
    return true;
  }

 private:
  const DeathProgram& p_;
  float t_ = 0.0f;
  float drop_ = 0.0f;
  quat rotation_{1.0f, 0.0f, 0.0f, 0.0f};
};

std::unique_ptr<DriverInstance> DeathProgram::instantiate() const {
  return std::make_unique<DeathInstance>(*this);
}

Result<std::shared_ptr<const DriverProgram>> make_death(const DriverSetup& s) {
  const ControllerDriverDesc& d = s.desc;
  if (bad_bone(s.model, d.root_bone)) return fail(setup_error("root_bone", "bad bone"));
  int bone = d.root_bone;
  if (bone < 0) {
    // The model's first root joint.
    const auto parents = s.model.skeleton().parents();
    for (std::size_t j = 0; j < parents.size() && bone < 0; ++j) {
      if (parents[j] < 0) bone = static_cast<int>(j);
    }
  }
  return std::shared_ptr<const DriverProgram>(
      std::make_shared<DeathProgram>(d, bone, s.model, s.schema));
}

// ---- Expression --------------------------------------------------------------------------------

class ExpressionProgram final : public DriverProgram {
 public:
  std::unique_ptr<DriverInstance> instantiate() const override;

  struct Bone {
    std::size_t joint = 0;
    std::array<const Expression*, 9> channels{};  // null: the static value
    std::array<float, 9> values{};                // static values and fallbacks
    // For runtime warnings: each channel's place below the driver and where the config wrote it.
    std::array<std::string, 9> fields;
    std::array<SourceLocation, 9> sites;
  };
  std::vector<Bone> bones;
};

class ExpressionInstance final : public DriverInstance {
 public:
  explicit ExpressionInstance(const ExpressionProgram& p) : p_(p), values_(p.bones.size() * 9) {
    for (std::size_t b = 0; b < p.bones.size(); ++b) {
      std::copy(p.bones[b].values.begin(), p.bones[b].values.end(), values_.begin() + b * 9);
    }
  }
  void set_reporter(DriverReporter* reporter) override { reporter_ = reporter; }
  void update(float, const ParameterValues& v) override {
    for (std::size_t b = 0; b < p_.bones.size(); ++b) {
      const auto& bone = p_.bones[b];
      for (std::size_t k = 0; k < 9; ++k) {
        const Expression* e = bone.channels[k];
        if (e == nullptr) {
          values_[b * 9 + k] = bone.values[k];
          continue;
        }
        const Value result = e->evaluate(v);
        bool ok = false;
        const float f = result.as_float(&ok);
        values_[b * 9 + k] = ok ? f : bone.values[k];
        if (!ok && reporter_ != nullptr) {
          reporter_->evaluation_failed(
              {bone.fields[k], bone.sites[k].file, bone.sites[k].pointer, result, bone.values[k]});
        }
      }
    }
  }
  bool sample(std::span<Transform> out, std::span<std::uint8_t> touched, bool) override {
    for (std::size_t b = 0; b < p_.bones.size(); ++b) {
      const float* v = &values_[b * 9];
      // T·R_Z·R_Y·R_X·S in column order, absolute (§14.1).
      const quat r = glm::angleAxis(v[5] * kDeg, kAxes[2]) * glm::angleAxis(v[4] * kDeg, kAxes[1]) *
                     glm::angleAxis(v[3] * kDeg, kAxes[0]);
      const std::size_t j = p_.bones[b].joint;
      out[j] = Transform{vec3(v[0], v[1], v[2]), glm::normalize(r), vec3(v[6], v[7], v[8])};
      touched[j] = 1;
    }
    return true;
  }

 private:
  const ExpressionProgram& p_;
  std::vector<float> values_;  // 9 per bone: the values of the last update
  DriverReporter* reporter_ = nullptr;
};

std::unique_ptr<DriverInstance> ExpressionProgram::instantiate() const {
  return std::make_unique<ExpressionInstance>(*this);
}

Result<std::shared_ptr<const DriverProgram>> make_expression(const DriverSetup& s) {
  auto program = std::make_shared<ExpressionProgram>();
  const int joints = s.model.skeleton().joint_count();
  for (std::size_t b = 0; b < s.desc.bones.size(); ++b) {
    const auto& in = s.desc.bones[b];
    const std::string at = "bones/" + std::to_string(b);
    if (in.bone < 0 || in.bone >= joints) return fail(setup_error(at, "bad bone"));
    ExpressionProgram::Bone bone;
    bone.joint = static_cast<std::size_t>(in.bone);
    static constexpr const char* kChannelNames[9] = {"positionX", "positionY", "positionZ",
                                                     "rotationX", "rotationY", "rotationZ",
                                                     "scaleX",    "scaleY",    "scaleZ"};
    for (std::size_t k = 0; k < 9; ++k) {
      bone.values[k] = in.channels[k].value;
      if (in.channels[k].expression.empty()) continue;
      bone.fields[k] = "boneConfigs/" + std::to_string(b) + "/" + kChannelNames[k];
      bone.sites[k] = in.channel_sites[k];
      auto e = s.expressions.get(in.channels[k].expression);
      if (!e) {
        return fail(setup_error(at + "/" + std::to_string(k),
                                e.error().message + " (" + e.error().location + ")"));
      }
      bone.channels[k] = *e;
    }
    program->bones.push_back(bone);
  }
  return std::shared_ptr<const DriverProgram>(std::move(program));
}

}  // namespace

void register_builtin_drivers(DriverRegistry& registry) {
  using T = DriverPropertyType;
  // The names are fixed and distinct, so registration cannot fail.
  (void)registry.add("LookAt",
                     {{"TargetBoneName", T::kBone},
                      {"LookAngleXParam", T::kParameter},
                      {"LookAngleYParam", T::kParameter},
                      {"MaxAngleX", T::kNumber},
                      {"MaxAngleY", T::kNumber},
                      {"PitchAxis", T::kAxis},
                      {"YawAxis", T::kAxis},
                      {"InvertPitch", T::kBool},
                      {"InvertYaw", T::kBool}},
                     make_look_at);
  (void)registry.add("Death",
                     {{"RootBoneName", T::kBoneOrNull},
                      {"DeathPhaseParam", T::kParameter},
                      {"BodyHeightParam", T::kParameter},
                      {"BodyRightParam", T::kParameter},
                      {"DeathCauseOffsetParam", T::kParameter},
                      {"RollAngle", T::kNumber},
                      {"PitchAngle", T::kNumber},
                      {"BodyDrop", T::kNumber},
                      {"AutoRollDirection", T::kBool}},
                     make_death);
  (void)registry.add("Expression", {{"boneConfigs", T::kBoneConfigs}}, make_expression);
  // §14.2: known names until the creature module registers their implementations.
  static constexpr std::string_view kCreatureDrivers[] = {"FourLeggedWalk",
                                                          "FourLeggedTrot",
                                                          "FourLeggedCanter",
                                                          "FourLeggedAttack",
                                                          "FourLeggedDeath",
                                                          "FourLeggedFeed",
                                                          "FishSwim",
                                                          "FishAttack",
                                                          "FishDeath",
                                                          "BirdWalk",
                                                          "BirdFly",
                                                          "BirdPeck",
                                                          "BirdAttack",
                                                          "BirdDeath",
                                                          "FlightlessBirdWalk",
                                                          "FlightlessBirdFeed",
                                                          "FlightlessBirdAttack",
                                                          "FlightlessBirdDeath",
                                                          "HumanWalk",
                                                          "HumanAttack",
                                                          "HumanRide",
                                                          "HumanDeath",
                                                          "HumanAim",
                                                          "HumanMine",
                                                          "GltfBodyTurn"};
  for (std::string_view name : kCreatureDrivers) (void)registry.declare(std::string(name));
}

}  // namespace critter::anim
