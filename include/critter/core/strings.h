// SPDX-License-Identifier: MIT
// String helpers shared by every module: ASCII case folding and comparison (names in model files
// and configs are matched case-insensitively by ASCII rules only, whatever the C locale says), file
// extensions, and the quoting used in error and warning messages.
//
//   if (critter::iequals(bone, "Head")) ...
//   critter::lower_extension("Models/Wolf.DAE") == "dae"
//   "no clip " + critter::in_quotes(name)  // no clip 'Walk'
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace critter {

// in_quotes(): show the whole text.
inline constexpr std::size_t kShowAll = static_cast<std::size_t>(-1);

// The ASCII lower case of `c`; every other byte as it is.
constexpr char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// True when `a` and `b` have the same length and equal bytes up to ASCII case.
bool iequals(std::string_view a, std::string_view b);
// True when `text` starts (ends) with `affix` up to ASCII case.
bool istarts_with(std::string_view text, std::string_view affix);
bool iends_with(std::string_view text, std::string_view affix);
// The Levenshtein distance (insertions, deletions, substitutions) between `a` and `b` up to ASCII
// case, for "did you mean" suggestions.
std::size_t iedit_distance(std::string_view a, std::string_view b);
// The `candidates` closest to `name` by iedit_distance() (at most `limit`, best first, ties in the
// order given); empty when none is near enough to be a likely typo: at most a third of the
// length of `name` edits away, and at least 2 allowed for short names.
std::vector<std::string> closest_names(std::span<const std::string_view> candidates,
                                       std::string_view name, std::size_t limit = 3);
std::vector<std::string> closest_names(std::span<const std::string> candidates,
                                       std::string_view name, std::size_t limit = 3);
// " (did you mean a, b?)" for the given suggestions, to append to a message; empty for none.
std::string did_you_mean(std::span<const std::string> names);

// `text` with ASCII letters lowered.
std::string to_lower(std::string_view text);
// The extension of the last path component without its dot, lowered: "a/B.GLB" gives "glb";
// empty when the name has none ("a/b", "a.d/b", ".hidden").
std::string lower_extension(std::string_view path);

// `text` in single quotes for a message: in_quotes("Walk") == "'Walk'". Text longer than
// `max_shown` bytes is cut to them and followed by "..." inside the quotes.
std::string in_quotes(std::string_view text, std::size_t max_shown = kShowAll);
// Each name quoted, separated by ", ": "'Head', 'Neck'"; empty for no names.
std::string quoted_list(std::span<const std::string> names);

}  // namespace critter
