// SPDX-License-Identifier: MIT
// Loading models from files: one entry point that picks the reader by file content and
// extension. Every format lands in the same RawModel -> Model path (DESIGN.md).
#pragma once

#include <string_view>

#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"
#include "critter/io/load_options.h"

namespace critter::io {

// Loads any supported model file. Warnings about usable quirks go to `diag` (may be null).
// Content that contradicts the name is an ErrorCode::kParse error at the file, never an empty
// model: an empty file; an image, PDF or gzip stream whatever its extension; JSON text under the
// extension of a format read through Assimp; and a file Assimp reads as a scene without any mesh,
// node or animation (text of another kind named .obj).
Result<Model> load(std::string_view path, const LoadOptions& options = {},
                   Diagnostics* diag = nullptr);

}  // namespace critter::io
