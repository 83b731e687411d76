// SPDX-License-Identifier: MIT
// The baked format (.crit): a built Model stored as it lives in memory, so that loading is
// reading the file and checking it, with no parsing or building (docs/crit-format.md).
//
//   if (auto ok = io::write_crit(model, "fox.crit"); !ok) ...
//   auto model = io::load("fox.crit");  // or io::load_crit / io::read_crit(bytes)
//
// A file is a 32-byte header (magic "CRIT", version, body size, XXH3 checksum of the body)
// followed by the body: every part of the Model (skeleton, materials, images with their bytes,
// skins, meshes with morph targets, exact clips with their sampling index but the interleaved
// batch values, which are made again from the keys; compact clips when the model has them, rest
// model transforms, bounds), little-endian, arrays prefixed by their count. The reader checks
// the checksum (as it reads; a mismatch is reported before any other error), every count against
// the bytes left and every index and range against what it refers to before anything uses it: a
// damaged or hostile file is an ErrorCode::kParse (framing) or kInvalid (content) error at the
// byte offset of the field that broke a rule, never a crash or an allocation larger than the
// file.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "critter/asset/model.h"
#include "critter/core/error.h"

namespace critter::io {

// The version written and read. Older versions are refused: 1 (XXH64, no array padding, another
// compact clip layout) and 2 (each LINEAR key stored twice, in its track and in its batch).
inline constexpr std::uint32_t kCritVersion = 4;
inline constexpr std::size_t kCritHeaderBytes = 32;

// True when `head` starts with the .crit magic.
bool looks_like_crit(std::span<const std::uint8_t> head);

// The file's bytes for `model`.
std::vector<std::uint8_t> encode_crit(const Model& model);
// Writes encode_crit(model) to `path` atomically (a temporary file renamed over the target).
Status write_crit(const Model& model, std::string_view path);

// Reads a model from the bytes of a .crit file; `path` names it in errors.
Result<Model> read_crit(std::span<const std::uint8_t> bytes, std::string_view path = {});
// Reads the file at `path` (at most `max_bytes`, else ErrorCode::kLimit) and read_crit()s it.
Result<Model> load_crit(std::string_view path, std::uint64_t max_bytes = std::uint64_t{4} << 30);

// The checksum of a body: XXH3, 64-bit, seed 0.
std::uint64_t crit_checksum(std::span<const std::uint8_t> bytes);

}  // namespace critter::io
