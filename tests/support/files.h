// Whole-file reads and writes for tests that check what a writer put on disk or prepare input
// files of their own.
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

}  // namespace critter::testing
