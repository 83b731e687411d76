// SPDX-License-Identifier: MIT
// Runs an Assimp import in a child process (LoadOptions::AssimpIsolation::kChildProcess): fork,
// limit the child's address space and CPU time, import there, send the outcome back through a
// pipe (raw_model_wire.h) and wait with a wall-clock deadline. An abort, a crash or a runaway
// allocation inside Assimp ends the child only; the parent returns a located error naming the
// file.
#pragma once

#include <string>

#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"
#include "critter/io/assimp/assimp_importer.h"

namespace critter::io::assimp_detail {

// The in-process import the child runs.
using ImportFunction = Result<RawModel> (*)(const std::string& path, const ImportOptions& options,
                                            Diagnostics* diag);

// Runs `import(path, options, ...)` in a child process with options.isolation_memory_bytes more
// address space than the process had when it forked (RLIMIT_AS) and options.isolation_seconds of
// CPU time (RLIMIT_CPU) and of wall-clock time (the parent kills it then). Returns the child's
// result and appends its warnings to `diag` (may be null). Errors at `path`: kLimit when the child
// ran out of memory or time, kParse when it aborted or crashed (the signal named), kIo when no
// child could be started.
Result<RawModel> import_in_child(const std::string& path, const ImportOptions& options,
                                 Diagnostics* diag, ImportFunction import);

}  // namespace critter::io::assimp_detail
