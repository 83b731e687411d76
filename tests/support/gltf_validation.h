// SPDX-License-Identifier: MIT
// Test helpers for code that writes files: the Khronos glTF-Validator (through
// scripts/validate_gltf.mjs) and scratch folders that clean up after themselves.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "support/files.h"

namespace critter::testing {

// The validator's verdict on one file.
struct ValidatorReport {
  int exit_code = -1;  // of the script: 0 no errors, 1 errors, 2 could not run
  int errors = -1;
  int warnings = -1;
  std::vector<std::string> messages;  // "severity CODE pointer: message", one per issue
  std::string raw;                    // the script's whole stdout (and stderr when it failed)

  // Every message on its own line, for assertion output.
  std::string summary() const;
};

// Runs the validator on `file` (a .gltf with its resources beside it, or a .glb).
ValidatorReport validate_gltf(const std::filesystem::path& file);

}  // namespace critter::testing
