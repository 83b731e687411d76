// SPDX-License-Identifier: MIT
// Helpers the libFuzzer targets share: a private scratch folder per process, the checks every
// reader's result must pass (an error names its source and says what went wrong; a model's
// rest pose is finite), and a stop that turns a broken property into a crash libFuzzer keeps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "critter/asset/model.h"
#include "critter/core/error.h"

namespace critter::fuzz {

// Prints `what` (and the error or detail given) and aborts, so libFuzzer records the input.
[[noreturn]] inline void fail(std::string_view what, std::string_view detail = {}) {
  std::fprintf(stderr, "fuzz property broken: %.*s\n%.*s\n", static_cast<int>(what.size()),
               what.data(), static_cast<int>(detail.size()), detail.data());
  std::abort();
}

// A folder of this process's own under $TMPDIR (or /tmp), created on first use and reused by
// every input; empty when it cannot be made.
const std::string& scratch_dir();

// Writes `bytes` to `path` (replacing it); false when it cannot.
bool write_bytes(const std::string& path, const std::uint8_t* data, std::size_t size);

// An error of a reader must name its source and say what went wrong.
void check_error(const Error& error, std::string_view stage);

// Every rest transform, inverse bind matrix and mesh position of an accepted model is finite,
// and every index a mesh part holds points at one of its vertices.
void check_model(const Model& model, std::string_view stage);

}  // namespace critter::fuzz
