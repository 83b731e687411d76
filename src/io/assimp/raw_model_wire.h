// SPDX-License-Identifier: MIT
// A flat byte encoding of an import's outcome (the RawModel or the Error, and the warnings) that
// an isolated import (assimp_isolation.h) sends from the child process to the parent. Both ends
// are the same program, so numbers are in host byte order; the decoder still checks every count
// and size against the bytes it has, as the bytes come from a process that read hostile input.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"

namespace critter::io::assimp_detail {

// Encodes `result` and `warnings`.
std::vector<std::uint8_t> encode_import(const Result<RawModel>& result,
                                        std::span<const Warning> warnings);

// Decodes bytes made by encode_import: the import's result, its warnings appended to `warnings`.
// A malformed or truncated encoding is an ErrorCode::kInvalid error at `path` (which names the
// model file the bytes are about).
Result<RawModel> decode_import(std::span<const std::uint8_t> bytes, const std::string& path,
                               std::vector<Warning>& warnings);

}  // namespace critter::io::assimp_detail
