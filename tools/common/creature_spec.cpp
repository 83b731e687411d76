// SPDX-License-Identifier: MIT
#include "creature_spec.h"

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace critter::tools {

std::string creature_kind_list() {
  std::string text;
  const std::size_t n = kCreatureKindNames.size();
  for (std::size_t i = 0; i < n; ++i) {
    text.append(i == 0 ? "" : i + 1 == n ? " or " : ", ").append(kCreatureKindNames[i]);
  }
  return text;
}

Result<CreatureSpec> parse_creature_flags(const CreatureFlags& flags, const std::string& path) {
  CreatureSpec spec;
  const std::optional<CreatureKind> kind = creature_kind_from_name(flags.creature);
  if (!kind) {
    const std::vector<std::string> near = closest_names(kCreatureKindNames, flags.creature);
    return fail(Error::at(ErrorCode::kUsage, path, "--creature",
                          "unknown creature kind '" + flags.creature + "'" + did_you_mean(near) +
                              "; the kinds are " + creature_kind_list()));
  }
  spec.kind = *kind;
  spec.species = flags.species;
  for (const std::string& text : flags.rig_params) {
    const std::size_t eq = text.find('=');
    auto usage = [&](std::string message) {
      return fail(Error::at(ErrorCode::kUsage, path, "--rig-param",
                            "'" + text + "': " + std::move(message)));
    };
    if (eq == std::string::npos) return usage("expected NAME=VALUE");
    ParamArg arg;
    arg.name = std::string(param_arg_detail::trim(std::string_view(text).substr(0, eq)));
    if (arg.name.empty()) return usage("the setting name is empty");
    Result<anim::ParameterValue> value =
        parse_param_value(std::string_view(text).substr(eq + 1), path, "--rig-param", text);
    if (!value) return fail(std::move(value.error()));
    arg.value = std::move(*value);
    spec.rig_params.push_back(std::move(arg));
  }
  for (const std::string& text : flags.states) {
    if (Status s = parse_state_arg(text, path, spec.state); !s) return fail(s.error());
  }
  return spec;
}

}  // namespace critter::tools
