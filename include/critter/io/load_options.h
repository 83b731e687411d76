// SPDX-License-Identifier: MIT
// The options every model reader takes (file size limit, outside-folder rule, variant choice,
// clip ranges). Readers include this header rather than load.h, which dispatches to them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "critter/io/clip_ranges.h"

namespace critter::io {

// Where the formats read through Assimp (Collada, B3D, OBJ, FBX, ...; assimp_importer.h) are
// imported. glTF, .model and configs always use critter's own in-process readers.
enum class AssimpIsolation : std::uint8_t {
  // In the calling process: fastest, but Debian's Assimp aborts the process on some hostile files
  // (its assertions stay on), allocates gigabytes on others and leaks on malformed ones.
  kInProcess,
  // In a forked child process with an address-space limit (isolation_memory_bytes) and a time
  // limit (isolation_seconds), the raw model sent back through a pipe: an abort, crash or runaway
  // allocation ends the child only and is reported as an error naming the file. The model is the
  // same as in-process. The child runs only the import and leaves with _exit(); in a host with
  // other threads it must not need a lock another thread held at the fork (critter's import takes
  // none but the allocator's, which glibc resets in the child), and the time limit ends a child
  // that hangs. POSIX only. The command-line tools use this.
  kChildProcess,
};

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
  // Assimp imports: in-process (default) or in a limited child process (see AssimpIsolation).
  AssimpIsolation assimp_isolation = AssimpIsolation::kInProcess;
  // kChildProcess: address space the child may add to what the process had when it forked, in
  // bytes (> 0); an import that needs more fails with ErrorCode::kLimit.
  std::uint64_t isolation_memory_bytes = std::uint64_t{2} << 30;
  // kChildProcess: CPU and wall-clock seconds the import may take (finite, > 0); kLimit after.
  double isolation_seconds = 60.0;
  // Compact clips (asset/compact_clip.h): > 0 builds a compact form of every clip after loading,
  // within this error bound relative to the character's size (critter::character_size), and
  // players sample those. 0 (the default) keeps the clips as the file has them: the exact
  // authored keys only, so that poses equal the file's keys to the last bit, except for a .crit
  // file written with compact clips, which keeps them. Otherwise finite and > 0.
  double compact_tolerance = 0.0;
};

}  // namespace critter::io
