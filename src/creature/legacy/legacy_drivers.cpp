// SPDX-License-Identifier: MIT
#include "critter/creature/legacy/legacy_drivers.h"

#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "critter/anim/controller_desc.h"
#include "critter/creature/builtin_parameters.h"
#include "critter/creature/legacy/four_legged.h"
#include "critter/creature/legacy/rig_factory.h"
#include "critter/creature/legacy/rig_inputs.h"

namespace critter::creature::legacy {
namespace {

constexpr std::uint32_t kAll = ~0u;

constexpr std::uint32_t bit(int role) {
  return 1u << role;
}

struct DriverKind {
  std::string_view name;
  Kind kind;
  std::uint32_t roles;
  float gait;  // four-legged default Gait (-1: by speed)
};

// Role indices as in each rig's Role enum (four_legged.h, fish.h, bird.h, flightless_bird.h,
// human.h).
constexpr DriverKind kDrivers[] = {
    {"FourLeggedWalk", Kind::kFourLegged, kAll, -1.0f},
    {"FourLeggedTrot", Kind::kFourLegged, kAll, 1.0f},
    {"FourLeggedCanter", Kind::kFourLegged, kAll, 2.0f},
    {"FourLeggedAttack", Kind::kFourLegged, bit(1) | bit(2), -1.0f},
    {"FourLeggedDeath", Kind::kFourLegged, kAll, -1.0f},
    {"FourLeggedFeed", Kind::kFourLegged, bit(1) | bit(2), -1.0f},
    {"FishSwim", Kind::kFish, kAll, -1.0f},
    {"FishAttack", Kind::kFish, bit(1) | bit(2) | bit(3), -1.0f},
    {"FishDeath", Kind::kFish, kAll, -1.0f},
    {"BirdWalk", Kind::kBird, kAll, -1.0f},
    {"BirdFly", Kind::kBird, kAll, -1.0f},
    {"BirdPeck", Kind::kBird, bit(1) | bit(2), -1.0f},
    {"BirdAttack", Kind::kBird, bit(1) | bit(2) | bit(3) | bit(4), -1.0f},
    {"BirdDeath", Kind::kBird, kAll, -1.0f},
    {"FlightlessBirdWalk", Kind::kFlightlessBird, kAll, -1.0f},
    {"FlightlessBirdFeed", Kind::kFlightlessBird, bit(1) | bit(2), -1.0f},
    {"FlightlessBirdAttack", Kind::kFlightlessBird, bit(3) | bit(4), -1.0f},
    {"FlightlessBirdDeath", Kind::kFlightlessBird, kAll, -1.0f},
    {"HumanWalk", Kind::kHuman, kAll, -1.0f},
    {"HumanAttack", Kind::kHuman, bit(2) | bit(3), -1.0f},
    {"HumanRide", Kind::kHuman, kAll, -1.0f},
    {"HumanDeath", Kind::kHuman, kAll, -1.0f},
    {"HumanAim", Kind::kHuman, bit(2) | bit(3), -1.0f},
    {"HumanMine", Kind::kHuman, bit(2) | bit(3), -1.0f},
};

// One setting a parameter may override each frame. A built-in of that name the config left at
// its table default (`host_default`) overrides only once the host sets another value, so the
// §16 placeholders (WalkAnimationSpeed 0, CanCanter false, ...) never zero the rig's settings.
struct SettingParam {
  std::string_view name;
  anim::ParamIndex index;
  bool host_only = false;
  double host_default = 0.0;
};

class LegacyProgram final : public anim::DriverProgram {
 public:
  LegacyProgram(std::unique_ptr<LegacyRig> rig, std::uint32_t roles,
                const RigParameterIndices& inputs, std::vector<SettingParam> settings)
      : rig_(std::move(rig)), roles_(roles), inputs_(inputs), settings_(std::move(settings)) {}
  std::unique_ptr<anim::DriverInstance> instantiate() const override;

  std::unique_ptr<LegacyRig> rig_;
  std::uint32_t roles_;
  RigParameterIndices inputs_;
  std::vector<SettingParam> settings_;
};

class LegacyInstance final : public anim::DriverInstance {
 public:
  explicit LegacyInstance(const LegacyProgram& p) : p_(p), rig_(p.rig_->clone()) {}
  void update(float dt, const anim::ParameterValues& values) override {
    for (const SettingParam& s : p_.settings_) {
      if (values.type(s.index) == anim::ParamType::kUnset) continue;
      if (s.host_only && values.number(s.index) == s.host_default) continue;
      const auto v = static_cast<float>(values.number(s.index));
      // Only known names are listed and the value is finite, so this cannot fail (or allocate).
      if (std::isfinite(v)) (void)rig_->set_setting(s.name, v);
    }
    rig_->step(from_parameters(values, p_.inputs_), dt);
  }
  bool sample(std::span<Transform> locals, std::span<std::uint8_t> touched,
              bool additive) override {
    rig_->write_pose(locals, p_.roles_, touched, additive);
    return true;
  }

 private:
  const LegacyProgram& p_;
  std::unique_ptr<LegacyRig> rig_;
};

std::unique_ptr<anim::DriverInstance> LegacyProgram::instantiate() const {
  return std::make_unique<LegacyInstance>(*this);
}

Result<std::shared_ptr<const anim::DriverProgram>> build(const DriverKind& d,
                                                         const anim::DriverSetup& s) {
  const auto& props = s.desc.properties;
  std::string species;
  if (const auto* p = anim::find_driver_property(props, "Species")) species = p->text;
  auto made = make_rig(d.kind, species);
  if (!made) return fail(made.error());
  std::unique_ptr<LegacyRig> rig = std::move(*made);
  if (d.kind == Kind::kFourLegged) (void)rig->set_setting("Gait", d.gait);
  std::vector<SettingParam> settings;
  for (std::string_view name : rig->setting_names()) {
    if (const auto* p = anim::find_driver_property(props, name)) {
      const float v =
          p->type == anim::DriverPropertyType::kBool ? (p->boolean ? 1.0f : 0.0f) : p->number;
      if (auto ok = rig->set_setting(name, v); !ok) {
        return fail(Error::at(ErrorCode::kInvalid, "ControllerDesc", std::string(name),
                              ok.error().message));
      }
    }
    const anim::ParamIndex i = s.schema.find(name);
    if (i == anim::kNoParam) continue;
    SettingParam sp{name, i, false, 0.0};
    if (s.schema.is_builtin(i)) {
      for (const anim::BuiltinParameter& b : builtin_parameters()) {
        if (b.name != s.schema.name(i)) continue;
        sp.host_only = s.schema.initial(i).number == b.initial;
        sp.host_default = b.initial;
      }
    }
    settings.push_back(sp);
  }
  std::vector<BoneAlias> aliases;
  const auto names = s.model.skeleton().names();
  for (const BoneRole& role : rig->roles()) {
    const auto* p = anim::find_driver_property(props, std::string(role.name) + "Bone");
    if (p == nullptr || p->index < 0 || static_cast<std::size_t>(p->index) >= names.size()) {
      continue;
    }
    aliases.push_back({std::string(role.name), names[static_cast<std::size_t>(p->index)]});
  }
  if (auto ok = rig->bind(s.model.skeleton(), aliases); !ok) return fail(ok.error());
  const RigParameterIndices inputs = RigParameterIndices::declare(s.schema);
  return std::shared_ptr<const anim::DriverProgram>(
      std::make_shared<LegacyProgram>(std::move(rig), d.roles, inputs, std::move(settings)));
}

std::vector<anim::DriverPropertySpec> property_specs(Kind kind) {
  std::vector<anim::DriverPropertySpec> specs;
  auto rig = make_rig(kind);
  for (std::string_view name : (*rig)->setting_names()) {
    const bool flag = name == "CanCanter" || name == "CanTrot" || name == "UseCanterSound" ||
                      name == "HasVerticalTail";
    specs.push_back({std::string(name),
                     flag ? anim::DriverPropertyType::kBool : anim::DriverPropertyType::kNumber});
  }
  specs.push_back({"Species", anim::DriverPropertyType::kString});
  for (const BoneRole& role : bone_roles(kind)) {
    specs.push_back({std::string(role.name) + "Bone", anim::DriverPropertyType::kBone});
  }
  return specs;
}

}  // namespace

Status register_legacy_drivers(anim::DriverRegistry& registry) {
  for (const DriverKind& d : kDrivers) {
    const DriverKind* kind = &d;
    auto ok = registry.add(std::string(d.name), property_specs(d.kind),
                           [kind](const anim::DriverSetup& s) { return build(*kind, s); });
    if (!ok) return ok;
  }
  return {};
}

}  // namespace critter::creature::legacy
