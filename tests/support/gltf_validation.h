// Test helpers for code that writes files: the Khronos glTF-Validator (through
// scripts/validate_gltf.mjs) and scratch folders that clean up after themselves.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

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

// A fresh empty folder under the system temporary folder, removed with everything in it when
// the object is destroyed.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& tag);
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  // Names of the entries of the folder (not recursive), sorted.
  std::vector<std::string> list() const;

 private:
  std::filesystem::path path_;
};

}  // namespace critter::testing
