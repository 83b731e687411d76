// SPDX-License-Identifier: MIT
// Runs the built `critter` binary (CRITTER_CLI) as a user would, for CLI tests: each call gets a
// fresh temporary folder, and stdout/stderr go through files so a large output never blocks.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace critter::test_support {

struct RunResult {
  int exit_code = -1;  // -1 when the process could not start or did not exit normally
  std::string out;
  std::string err;
};

// Reads a whole file (empty when it cannot be read).
std::string slurp(const std::filesystem::path& path);

// True when `text` contains `part`.
inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Path of a model under CRITTER_SHARED_MODELS.
std::string shared_model(const std::string& relative);

// Test fixture with a per-test temporary folder `dir_` and `run(args)`.
class CliTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  // Runs CRITTER_CLI with `args` and waits for it.
  RunResult run(const std::vector<std::string>& args) const;
  // Writes `text` as the file `name` in `dir_` and returns its path.
  std::string write_text(const std::string& name, std::string_view text) const;

  std::filesystem::path dir_;
};

}  // namespace critter::test_support
