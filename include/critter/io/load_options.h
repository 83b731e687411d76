// SPDX-License-Identifier: MIT
// The options every model reader takes (file size limit, outside-folder rule, variant choice,
// clip ranges). Readers include this header rather than load.h, which dispatches to them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "critter/io/clip_ranges.h"

namespace critter::io {

struct LoadOptions {
  // Allow external URIs (buffers, images) that resolve outside the model file's folder
  // ("../x.bin", absolute paths). Refused by default: a model must not read arbitrary files.
  bool allow_outside_uris = false;
  // Largest file (model or external buffer) that is read, in bytes. Bigger files are refused
  // with ErrorCode::kLimit instead of being allocated.
  std::uint64_t max_file_bytes = std::uint64_t{4} << 30;
  // Formats with several variants per file (Insomniac .model looks and LODs): which look and LOD
  // to load, 0-based.
  std::int32_t look = 0;
  std::int32_t lod = 0;
  // Game hint for files that do not name their game (headerless Insomniac .model): "msmr", "mm",
  // "rcra" or "so"; empty = detect.
  std::string game;
  // Named frame ranges that cut the file's single long animation into clips (B3D and other
  // Assimp formats; see clip_ranges.h and assimp/assimp_importer.h). Empty: clips as the file has
  // them.
  std::vector<ClipRange> clips;
  // Frames per second the `clips` ranges play at: they still name the file's frames, but a clip of
  // n frames lasts n / clips_fps seconds (Minetest plays its ranges at 30 fps whatever the file
  // declares). 0 = the file's own rate; otherwise finite and > 0.
  double clips_fps = 0.0;
  // Compact clips (asset/compact_clip.h): > 0 builds a compact form of every clip after loading,
  // within this error bound relative to the character's size (critter::character_size), and
  // players sample those. 0 (the default) keeps the clips as the file has them: the exact
  // authored keys only, so that poses equal the file's keys to the last bit, except for a .crit
  // file written with compact clips, which keeps them. Otherwise finite and > 0.
  double compact_tolerance = 0.0;
};

}  // namespace critter::io
