// SPDX-License-Identifier: MIT
// Relaxed JSON for animation configs (specs/animation-config.md §0.1, §3): the reader that keeps
// every value's file and JSON pointer, the duplicate-key checks and the `extends` merge. Private
// to the config loader.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "critter/config/config_value.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"

namespace critter::config::detail {

// Problems found while reading: every error is kept so a checker can list them all.
struct Problems {
  Diagnostics* diag = nullptr;
  std::vector<Error> errors;

  void error(ErrorCode code, const SourceLocation& where, std::string message);
  void warn(const SourceLocation& where, std::string message);
};

// Replaces every comma that only whitespace and comments separate from a closing '}' or ']' by a
// space, outside strings. The result has the same length, so byte offsets still match the file.
std::string blank_trailing_commas(std::string_view text);

// "line:column" (both 1-based, columns in bytes) of byte `offset` in `text`.
std::string line_column(std::string_view text, std::size_t offset);

// line_column() of the first byte of `text` that is neither blank nor inside a comment: where the
// document's root value starts (the root has the empty JSON pointer, which names no place).
std::string root_line_column(std::string_view text);

// Parses `text` (comments and trailing commas allowed) into a ConfigValue tree whose nodes carry
// `file` and their JSON pointer. Object members keep file order, duplicates included. A syntax
// error is ErrorCode::kParse located "line:column". Arrays and objects nested deeper than
// kMaxConfigNesting are refused (ErrorCode::kLimit, located at the JSON pointer of the container
// that goes too deep): the later stages walk and copy the tree recursively, so hostile nesting
// would cost memory and stack far beyond the file's size.
inline constexpr std::size_t kMaxConfigNesting = 128;
Result<ConfigValue> parse_relaxed_json(std::string_view text, const std::string& file);

// Warns about a name written twice in one object (the last wins) and reports two names that differ
// only in case: an error inside the maps whose names `map_keys` lists (members of the root object,
// and "layers" only for templates), a warning (written twice) elsewhere.
void check_duplicate_keys(const ConfigValue& root, const std::vector<std::string_view>& map_keys,
                          Problems& problems);

// Merges `child` over `parent` (null: none) by §3: objects deep-merge with case-insensitive keys
// (the child's spelling wins, parent order kept, new keys appended), scalars, null and arrays
// replace, directive objects ($replace, $remove, $prepend, $append) edit the parent array. A name
// written twice in one object keeps its last value. Directive objects are resolved everywhere in
// the result.
ConfigValue merge_values(const ConfigValue* parent, const ConfigValue& child, Problems& problems);

}  // namespace critter::config::detail
