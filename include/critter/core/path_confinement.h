// SPDX-License-Identifier: MIT
// The one rule for files that an asset names (glTF buffer and image URIs, the side files Assimp
// opens, an animation config's `extends`, template files and `file:` sources): such a path may
// only lead inside the folders the host allows (the asset's own folder and the asset roots it
// names), unless the host allows outside paths. Mods are downloaded from strangers; a model or
// config must not make a game read arbitrary files.
//
//   const std::string written = with_forward_slashes("..\\secret\\p.json");  // "../secret/p.json"
//   if (is_absolute_path(written)) ...                                       // refused
//   PathRefusal r = check_confined("mods/wolf/../secret/p.json", folders);   // kEscapes
//
// Lexical checks come first (absolute paths, `..` leaving every folder); a path that passes them
// is then compared with symbolic links resolved, so a link inside the folder that leads outside is
// refused too. The checks query the file system for links; they read no file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace critter {

// Why a path was refused.
enum class PathRefusal : std::uint8_t {
  kNone,      // allowed
  kAbsolute,  // an absolute path ("/x", "C:/x", "//server/x")
  kEscapes,   // lies outside every allowed folder as written ("..")
  kLink,      // inside as written, but a symbolic link on the way leads outside
};

// A phrase for messages: "is an absolute path", "leaves the allowed folders", "is a symbolic link
// leading outside the allowed folders"; "" for kNone.
std::string_view describe(PathRefusal refusal);

// `written` with every '\' read as '/': Windows-authored files separate folders with '\', and
// "..\secret" must climb like "../secret".
std::string with_forward_slashes(std::string_view written);

// True for a path with a root (after with_forward_slashes): a leading '/' or a drive letter
// ("C:", "c:/x").
bool is_absolute_path(std::string_view path);

// True when `path` lies strictly inside `folder`, compared lexically (both made absolute and
// normalised first; no link is resolved). A folder is not inside itself.
bool is_lexically_inside(const std::filesystem::path& path, const std::filesystem::path& folder);

// Checks `path` (already joined to its base folder) against `folders`: kEscapes when it is
// lexically inside none of them, kLink when it is but its real location (links resolved; the
// part that does not exist is taken as written) is inside none of the folders' real locations,
// kNone otherwise. Absolute paths are not refused here: joining makes every path absolute, so
// callers refuse written absolute paths with is_absolute_path() first.
PathRefusal check_confined(const std::filesystem::path& path,
                           std::span<const std::filesystem::path> folders);

}  // namespace critter
