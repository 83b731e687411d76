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
Result<Model> load(std::string_view path, const LoadOptions& options = {},
                   Diagnostics* diag = nullptr);

}  // namespace critter::io
