// SPDX-License-Identifier: MIT
#include "critter/creature/legacy/rig_factory.h"

#include <string>

#include "critter/creature/legacy/bird.h"
#include "critter/creature/legacy/fish.h"
#include "critter/creature/legacy/flightless_bird.h"
#include "critter/creature/legacy/four_legged.h"
#include "critter/creature/legacy/human.h"

namespace critter::creature::legacy {
namespace {

constexpr std::string_view kKinds[] = {"four-legged", "human", "bird", "flightless-bird", "fish"};

std::string joined(std::span<const std::string_view> names) {
  std::string out;
  for (std::string_view n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

template <class Rig>
Result<std::unique_ptr<LegacyRig>> make(std::string_view species) {
  const std::string_view name = species.empty() ? std::string_view("default") : species;
  auto settings = Rig::preset(name);
  if (!settings) {
    return fail(Error::at(ErrorCode::kUsage, "legacy rig", "species",
                          "unknown " + std::string(to_string(Rig().kind())) + " species '" +
                              std::string(species) + "' (known: " + joined(Rig::species_names()) +
                              ")"));
  }
  auto rig = std::make_unique<Rig>(*settings);
  rig->set_species_name(name);
  return std::unique_ptr<LegacyRig>(std::move(rig));
}

}  // namespace

std::span<const std::string_view> kind_names() {
  return kKinds;
}

std::span<const std::string_view> species_names(Kind kind) {
  switch (kind) {
    case Kind::kFourLegged:
      return FourLeggedRig::species_names();
    case Kind::kHuman:
      return HumanRig::species_names();
    case Kind::kBird:
      return BirdRig::species_names();
    case Kind::kFlightlessBird:
      return FlightlessBirdRig::species_names();
    case Kind::kFish:
      return FishRig::species_names();
  }
  return {};
}

std::span<const BoneRole> bone_roles(Kind kind) {
  switch (kind) {
    case Kind::kFourLegged:
      return FourLeggedRig::bone_roles();
    case Kind::kHuman:
      return HumanRig::bone_roles();
    case Kind::kBird:
      return BirdRig::bone_roles();
    case Kind::kFlightlessBird:
      return FlightlessBirdRig::bone_roles();
    case Kind::kFish:
      return FishRig::bone_roles();
  }
  return {};
}

Result<std::unique_ptr<LegacyRig>> make_rig(Kind kind, std::string_view species) {
  switch (kind) {
    case Kind::kFourLegged:
      return make<FourLeggedRig>(species);
    case Kind::kHuman:
      return make<HumanRig>(species);
    case Kind::kBird:
      return make<BirdRig>(species);
    case Kind::kFlightlessBird:
      return make<FlightlessBirdRig>(species);
    case Kind::kFish:
      return make<FishRig>(species);
  }
  return make<FourLeggedRig>(species);
}

Result<std::unique_ptr<LegacyRig>> make_rig(std::string_view kind, std::string_view species,
                                            const Skeleton& skeleton,
                                            std::span<const BoneAlias> aliases) {
  const auto k = parse_kind(kind);
  if (!k) {
    return fail(Error::at(
        ErrorCode::kUsage, "legacy rig", "kind",
        "unknown creature kind '" + std::string(kind) + "' (known: " + joined(kKinds) + ")"));
  }
  auto rig = make_rig(*k, species);
  if (!rig) return rig;
  if (auto ok = (*rig)->bind(skeleton, aliases); !ok) return fail(ok.error());
  return rig;
}

}  // namespace critter::creature::legacy
