// SPDX-License-Identifier: MIT
#include "builtin_models.h"

#include <array>
#include <optional>

#include "critter/asset/demo_creature.h"
#include "critter/creature/legacy/builtin_creatures.h"
#include "critter/io/load.h"
#include "morph_blob.h"

namespace critter::tools {

std::span<const std::string_view> builtin_model_names() {
  static constexpr std::array<std::string_view, 7> kNames = {
      "quadruped", "blob", "four-legged", "human", "bird", "flightless-bird", "fish"};
  return kNames;
}

Result<Model> load_model(const std::string& path, const io::LoadOptions& options,
                         Diagnostics* diag) {
  if (!path.starts_with(kBuiltinPrefix)) return io::load(path, options, diag);
  const std::string_view name = std::string_view(path).substr(kBuiltinPrefix.size());
  if (name == "quadruped") return build_model(make_demo_quadruped(), diag);
  if (name == "blob") return build_model(make_morph_blob(), diag);
  if (const std::optional<creature::legacy::Kind> kind = creature::legacy::parse_kind(name);
      kind && std::string_view(creature::legacy::to_string(*kind)) == name) {
    return creature::legacy::make_builtin_creature(*kind, diag);
  }
  std::string known;
  for (std::string_view n : builtin_model_names()) {
    known += (known.empty() ? "" : ", ") + std::string(kBuiltinPrefix) + std::string(n);
  }
  return fail(Error::at(ErrorCode::kUsage, path, "",
                        "no built-in model of that name (built in: " + known + ")"));
}

}  // namespace critter::tools
