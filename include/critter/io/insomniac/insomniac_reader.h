// SPDX-License-Identifier: MIT
// Insomniac Games `.model` reader: Marvel's Spider-Man Remastered (MSMR), Spider-Man: Miles
// Morales (MM), Ratchet & Clank: Rift Apart (RCRA), the 0xCC9DAFF8 variant and, partly, Sunset
// Overdrive (SO). Layouts and decisions follow specs/insomniac-model.md; section numbers below
// (§n) refer to it.
//
// Mapping onto RawModel (format "insomniac", name = file name without extension):
// - Skeleton: every Model Joint, in file order (source_index = joint index), rest = Bind Pose
//   part A (scale, rotation, translation). Locators follow as extra joints named after the
//   locator, parented to their joint (or roots), rest = the locator's local transform.
// - Skin: one skin over the Model Joint joints (not the locators), in joint order, with Bind Pose
//   part B as inverse bind matrices (computed from part A when part B is missing or all zero).
// - Meshes: one Mesh per subset of the chosen look and LOD, named "smNN" (subset index), with
//   one part: positions (metres), normals, tangents (when not the "no frame" sentinel), UV0, UV1,
//   colours (bytes / 255, RGBA), joints and weights (at most 4 per vertex, sorted by weight,
//   renormalised to sum 1), triangles counter-clockwise-front (see InsomniacWinding), material
//   index (Model Material order). Morphs whose subset list contains the subset become the mesh's
//   targets (dense deltas, zero where the morph does not move a vertex), named after the morph.
// - No axis conversion: the data is taken as +Y up; positions are metres after the Built scale.
//
// Every section in the table is reported in InsomniacInfo::sections; sections the reader does not
// interpret are kept there as opaque (tag, offset, size) records and listed as Diagnostics
// warnings. Choices made for the spec's open questions (§14/§15) are warnings as well.
//
// Errors: every problem in the file is an Error with path = the file, location = "byte <offset>"
// (from the file start) and a message naming the section, e.g.
// "section 0x0859863D (Model Index): index 7 of subset 0 triangle 2 is 40, subset has 12
// vertices". Sizes and counts are checked against the bytes that exist before anything is
// allocated for them, and the decoded output may not exceed kInsomniacDecodeBudgetBase +
// kInsomniacDecodeBudgetFactor x the file size (ErrorCode::kLimit).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"
#include "critter/core/math.h"
#include "critter/io/load_options.h"

namespace critter::io {

// Which game wrote a file. kUnknown as an option means "detect" (§3).
enum class InsomniacGame : std::uint8_t { kUnknown, kMsmr, kMm, kRcra, kSo, kCc9d };

// Encoding rules (§3): MSMR rules = delta indices + planar XOR vertex streams; RCRA rules = plain
// indices + interleaved vertices; SO rules = RCRA's plus the SO table layouts and half-float UVs.
enum class InsomniacFamily : std::uint8_t { kMsmr, kRcra, kSo };

// Face order (§15 item 7). kAuto: per subset, reverse the triangles unless more than half of them
// face the way their vertex normals point (ties reverse). kFile keeps file order; kReversed
// always reverses.
enum class InsomniacWinding : std::uint8_t { kAuto, kFile, kReversed };

// Outer magics (u32 at byte 0) and the DAT1 magic.
inline constexpr std::uint32_t kInsomniacMagicMsmr = 0x98906B9Fu;
inline constexpr std::uint32_t kInsomniacMagicMm = 0xDB40514Cu;
inline constexpr std::uint32_t kInsomniacMagicRcra = 0x9D2C0FA9u;
inline constexpr std::uint32_t kInsomniacMagicCc9d = 0xCC9DAFF8u;
inline constexpr std::uint32_t kInsomniacMagicSo = 0x6AE15C79u;
inline constexpr std::uint32_t kDat1Magic = 0x44415431u;  // bytes "1TAD"
inline constexpr std::uint64_t kInsomniacHeaderSize = 36;

// Decoded-output budget (bytes): base plus factor times the file size.
inline constexpr std::uint64_t kInsomniacDecodeBudgetBase = std::uint64_t{64} << 20;
inline constexpr std::uint64_t kInsomniacDecodeBudgetFactor = 64;

struct InsomniacOptions {
  std::int32_t look = 0;  // which look (0-based)
  std::int32_t lod = 0;   // which LOD slot of that look (0-based; 0..7, SO 0..3)
  // Game for files without an outer header (bare DAT1); kUnknown tries both index encodings.
  // Ignored when the file has a known outer magic.
  InsomniacGame game = InsomniacGame::kUnknown;
  // UV scales; 0 takes them from Model Built (§15 item 1).
  float uv0_scale = 0.0f;
  float uv1_scale = 0.0f;
  bool apply_position_offset = false;  // add Built @0x1C to positions (§15 item 2)
  InsomniacWinding winding = InsomniacWinding::kAuto;
  bool flip_tangent_w = false;  // invert the bitangent sign rule of §7.5
  std::uint64_t max_file_bytes = std::uint64_t{4} << 30;
};

// One entry of the DAT1 section table. `offset` counts from the start of the file.
struct InsomniacSection {
  std::uint32_t tag = 0;
  std::string_view name;  // known name (§5) or empty
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  bool interpreted = false;  // false: kept as opaque bytes
};

// A LOD slot: subsets [first, first + count); count 0 = empty.
struct InsomniacLodRange {
  std::uint16_t first = 0;
  std::uint16_t count = 0;
};

struct InsomniacLook {
  std::string name;
  std::vector<InsomniacLodRange> lods;  // 8 slots (SO: 4)
};

struct InsomniacMaterialRef {
  std::string name;
  std::string path;  // material asset path
};

// Facts about a file beyond the Model: container, game, every section, looks, scales, decisions.
struct InsomniacInfo {
  InsomniacGame game = InsomniacGame::kUnknown;
  InsomniacFamily family = InsomniacFamily::kMsmr;
  bool outer_header = false;
  std::uint32_t outer_magic = 0;  // 0 for a bare DAT1
  std::uint32_t dat1_type = 0;
  std::uint64_t dat1_offset = 0;
  std::uint64_t dat1_size = 0;
  std::vector<InsomniacSection> sections;                    // table order
  std::vector<std::array<std::uint8_t, 8>> unknown_entries;  // DAT1 "unknown" table, kept raw
  std::vector<InsomniacLook> looks;
  std::vector<InsomniacMaterialRef> materials;
  std::uint32_t subset_count = 0;
  std::uint64_t vertex_count = 0;
  std::uint64_t index_count = 0;
  std::uint32_t joint_count = 0;
  std::uint32_t locator_count = 0;
  std::uint32_t morph_count = 0;
  float position_scale = 0.0f;
  float uv0_scale = 0.0f;
  float uv1_scale = 0.0f;
  std::vector<std::uint32_t> loaded_subsets;  // subsets of the chosen look and LOD, mesh order
  std::vector<std::string> decisions;         // open-question choices made (also warnings)
};

// True when `head` (the first bytes of a file; 40 suffice) starts like a .model file: a known
// outer magic, a bare DAT1, or DAT1 at byte 36.
bool looks_like_insomniac_model(std::span<const std::uint8_t> head);

// "msmr", "mm", "rcra", "so" (case-insensitive) and "auto"/"" (kUnknown); kUsage error otherwise.
Result<InsomniacGame> parse_insomniac_game(std::string_view text);
std::string_view to_string(InsomniacGame game);
std::string_view to_string(InsomniacFamily family);

// ALERT CRC32 (§2): reflected table of 0xEDB88320, initial value 0xEDB88320, no final XOR, over
// the bytes as given. Section tags are this CRC of the section name.
std::uint32_t insomniac_crc32(std::string_view bytes);
// Asset-path form: lowercase, '\' -> '/', runs of '/' collapsed.
std::string insomniac_normalize_path(std::string_view path);
// ALERT CRC64 asset id (§2) of a path (normalised first), with the top bit set.
std::uint64_t insomniac_asset_id(std::string_view path);
// Name of a known section tag (§5), empty when unknown.
std::string_view insomniac_section_name(std::uint32_t tag);

// Decoders shared with tools and tests (§7.5, §7.2, §7.3).
// Unit normal from the low 20 bits and bit 31 of a packed word.
vec3 insomniac_decode_normal(std::uint32_t packed);
// Tangent direction from packed bits 20..29 / 30 and the W lane.
vec3 insomniac_decode_tangent(std::uint32_t packed, std::int16_t w);
// Delta-decodes u16 index deltas in place: v[k] = v[k-1] + d[k] mod 2^16.
void insomniac_delta_decode(std::span<std::uint16_t> values);

// Reads a file / bytes into a RawModel. `info` (may be null) receives the container facts, also
// when an error is returned after the section table was read.
Result<RawModel> read_insomniac_raw(std::string_view path, const InsomniacOptions& options = {},
                                    Diagnostics* diag = nullptr, InsomniacInfo* info = nullptr);
Result<RawModel> read_insomniac_raw_memory(std::span<const std::uint8_t> bytes,
                                           std::string_view path_for_errors,
                                           const InsomniacOptions& options = {},
                                           Diagnostics* diag = nullptr,
                                           InsomniacInfo* info = nullptr);

// read_insomniac_raw / _memory followed by build_model().
Result<Model> load_insomniac(std::string_view path, const InsomniacOptions& options = {},
                             Diagnostics* diag = nullptr, InsomniacInfo* info = nullptr);
Result<Model> load_insomniac_memory(std::span<const std::uint8_t> bytes,
                                    std::string_view path_for_errors,
                                    const InsomniacOptions& options = {},
                                    Diagnostics* diag = nullptr, InsomniacInfo* info = nullptr);

// The Insomniac part of LoadOptions (look, lod, game) as InsomniacOptions; kUsage error for an
// unknown game name.
Result<InsomniacOptions> insomniac_options_from(const LoadOptions& options);

}  // namespace critter::io
