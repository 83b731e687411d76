// SPDX-License-Identifier: MIT
// Whole-file reads and writes and a temporary folder, for tests that check what a writer put on
// disk or prepare input files of their own.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace critter::testing {

// The bytes of the file at `path`; empty when it cannot be opened.
std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path);
// The text of the file at `path`; "<missing>" when it cannot be opened, so that a missing file
// never equals an expected text, not even an empty one.
std::string read_text(const std::filesystem::path& path);

// Writes (replaces) the file at `path`; throws std::runtime_error when it cannot be written.
void write_file(const std::filesystem::path& path, std::span<const std::uint8_t> bytes);
void write_file(const std::filesystem::path& path, std::string_view text);

// A fresh empty folder under the system temporary folder, removed with everything in it when
// the object is destroyed.
class ScratchDir {
 public:
  // `tag` becomes part of the folder's name, to tell whose folder is left after a crash.
  explicit ScratchDir(const std::string& tag = "test");
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  // The path of the entry `name` in the folder, as text.
  std::string file(std::string_view name) const { return (path_ / name).string(); }
  // Names of the entries of the folder (not recursive), sorted.
  std::vector<std::string> list() const;

 private:
  std::filesystem::path path_;
};

}  // namespace critter::testing
