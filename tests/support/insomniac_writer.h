// SPDX-License-Identifier: MIT
// Test-only writer of Insomniac `.model` files (specs/insomniac-model.md §13): turns a RawModel
// into the bytes one of the games would ship, so reader tests can round-trip every encoding.
// Each part of each mesh becomes one subset, in order; triangles are written in the games'
// clockwise order unless told otherwise.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "critter/asset/model.h"

namespace critter::testing {

enum class InsomniacTestGame : std::uint8_t { kMsmr, kMm, kRcra, kSo, kCc9d };

// An attachment point written to Model Locator: parent joint (-1 = model space) and local TRS.
struct InsomniacTestLocator {
  std::string name;
  std::int32_t joint = -1;
  Transform local;
};

struct InsomniacWriteOptions {
  InsomniacTestGame game = InsomniacTestGame::kMsmr;
  bool bare_dat1 = false;     // no 36-byte outer header (file starts with "1TAD")
  bool local_indices = true;  // subset flag 0x10; false writes global indices
  bool clockwise = true;      // reverse critter's counter-clockwise triangles on write
  float position_scale = 1.0f / 4096.0f;
  std::uint32_t uv_shift = 0;           // Built @0x30: low nibble UV0, next nibble UV1
  std::uint32_t batch_vertices = 2560;  // largest skin batch
  bool remap_tables = false;            // write Skin Joint Remap tables (batch-local joint ids)
  bool gpu_skin = false;           // RCRA: also write GPU Skin entries and set subset flag 0x100
  std::uint8_t morph_bits = 10;    // bits per morph delta component
  bool so_four_halves = false;     // SO Tex Vert with 4 half-floats per vertex
  bool no_tangent_frames = false;  // write the "no tangent frame" sentinel everywhere
  // Looks: per look, LOD slots {first subset, count}; empty = one look whose LOD 0 is every subset.
  std::vector<std::vector<std::pair<std::uint16_t, std::uint16_t>>> looks;
  std::vector<std::string> look_names;      // written to Model Look Built when non-empty
  std::vector<std::string> material_paths;  // one per material; default "materials/<name>.material"
  std::vector<InsomniacTestLocator> locators;
  std::vector<std::pair<std::uint32_t, std::vector<std::uint8_t>>> extra_sections;
};

struct InsomniacWrittenSection {
  std::uint32_t tag = 0;
  std::uint64_t offset = 0;  // from the file start
  std::uint64_t size = 0;
  std::uint64_t entry = 0;  // file offset of its section table entry
};

struct InsomniacWrittenFile {
  std::vector<std::uint8_t> bytes;
  std::uint64_t dat1_offset = 0;
  std::vector<InsomniacWrittenSection> sections;

  // The section with `tag`; fails the current test (and returns a dummy) when absent.
  const InsomniacWrittenSection& section(std::uint32_t tag) const;
};

// Writes `model` for the chosen game. Requirements: parents before children, skin joints index
// the skeleton, at most 256 subsets carry morphs; joint ids of a skinned vertex below 256 unless
// remap_tables is set.
InsomniacWrittenFile write_insomniac_model(const RawModel& model,
                                           const InsomniacWriteOptions& options = {});

// Encoders mirrored from the spec, independent of the reader's code.
std::uint32_t test_insomniac_crc32(std::string_view bytes);
// 20-bit equal-area code of a unit vector: bits 0..9, 10..19, and the z >= 0 flag (returned in
// bit 31).
std::uint32_t test_encode_insomniac_normal(const vec3& n);
std::vector<std::uint16_t> test_delta_encode(const std::vector<std::uint16_t>& values);

}  // namespace critter::testing
