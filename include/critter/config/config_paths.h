// SPDX-License-Identifier: MIT
// Where the paths written in an animation config (`extends`, `template`, `file:` sources) lead
// (specs/animation-config.md §1 and the sandbox rule of core/path_confinement.h): relative to the
// file that writes them, then against each asset root; and only inside the folder of the config
// the host loaded or an asset root, unless the host allows outside paths.
//
//   ConfigPathRules rules{.asset_roots = {"assets"}, .home = "mods/wolf"};
//   ConfigFileLookup f = resolve_config_file("../secret/p.json", "mods/wolf/wolf.json", rules);
//   // f.path empty, f.refusal == "'../secret/p.json' leaves the allowed folders ..."
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace critter::config {

struct ConfigPathRules {
  // Folders searched (in order) after the containing file's folder; also allowed folders.
  std::vector<std::string> asset_roots;
  // The folder of the config the host loaded (a mod's own folder): allowed, with every folder
  // below it. Empty: the current folder.
  std::string home;
  // Let paths lead anywhere: absolute paths, `..` above the allowed folders, links leading out.
  bool allow_outside = false;
};

// The outcome of a lookup: the file found, or why the path was refused, or neither (not found).
struct ConfigFileLookup {
  std::string path;     // the first regular file found, lexically normalised; empty when none
  std::string refusal;  // non-empty when refused: a sentence naming the path as written and why
  bool found() const { return !path.empty(); }
};

// Resolves `written` (with '\' read as '/'; `extension` appended when it has none) written in
// `containing_file`: an absolute path as it is, else the folder of `containing_file`, then each
// asset root in order; the first regular file found wins. Unless rules.allow_outside: an absolute
// path is refused without looking at the disk; a candidate that lies outside `home` and every
// asset root as written is skipped (and the path refused when no candidate is found); the file
// found is refused when its real location (links resolved) lies outside them.
ConfigFileLookup resolve_config_file(std::string_view written, std::string_view containing_file,
                                     const ConfigPathRules& rules, std::string_view extension = {});

}  // namespace critter::config
