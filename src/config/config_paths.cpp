// SPDX-License-Identifier: MIT
#include "critter/config/config_paths.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "critter/core/path_confinement.h"
#include "critter/core/strings.h"

namespace critter::config {

namespace fs = std::filesystem;

namespace {

std::string refused(std::string_view written, PathRefusal why) {
  return "path " + in_quotes(written) + " " + std::string(describe(why)) +
         " (the config's folder and the asset roots); refused unless the host allows outside "
         "paths";
}

}  // namespace

ConfigFileLookup resolve_config_file(std::string_view written, std::string_view containing_file,
                                     const ConfigPathRules& rules, std::string_view extension) {
  std::string name = with_forward_slashes(written);
  if (!extension.empty() && fs::path(name).extension().empty()) name += extension;
  const bool absolute = is_absolute_path(name);
  if (absolute && !rules.allow_outside) return {{}, refused(written, PathRefusal::kAbsolute)};

  std::vector<fs::path> candidates;
  if (absolute) {
    candidates.emplace_back(name);
  } else {
    candidates.push_back(fs::path(containing_file).parent_path() / name);
    for (const std::string& root : rules.asset_roots) candidates.push_back(fs::path(root) / name);
  }
  std::vector<fs::path> allowed;
  allowed.emplace_back(rules.home.empty() ? std::string(".") : rules.home);
  for (const std::string& root : rules.asset_roots) allowed.emplace_back(root);

  PathRefusal skipped = PathRefusal::kNone;
  for (const fs::path& c : candidates) {
    if (!rules.allow_outside &&
        std::none_of(allowed.begin(), allowed.end(),
                     [&](const fs::path& f) { return is_lexically_inside(c, f); })) {
      skipped = PathRefusal::kEscapes;
      continue;
    }
    std::error_code ec;
    if (!fs::is_regular_file(c, ec)) continue;
    if (!rules.allow_outside) {
      const PathRefusal why = check_confined(c, allowed);
      if (why != PathRefusal::kNone) return {{}, refused(written, why)};
    }
    return {c.lexically_normal().string(), {}};
  }
  if (skipped != PathRefusal::kNone) return {{}, refused(written, skipped)};
  return {};
}

}  // namespace critter::config
