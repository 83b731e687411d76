// SPDX-License-Identifier: MIT
// Atomic output files: every writer in critter::io stages its files beside their destinations and
// publishes them together, so a failed write leaves no partial file and never damages an output
// that already exists.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "critter/core/error.h"

namespace critter::io {

// A set of output files published together.
//
// stage() writes the bytes of one output to a new temporary file in the destination's folder
// (named ".<file name>.<pid>.<n>.tmp"), flushed to disk. commit() then renames every temporary
// file over its destination, in staging order. When a rename fails, the outputs already replaced
// are restored from hard-link backups and the ones created are removed, so after a failed
// commit() every destination is as it was before (short of a crash during the commit itself).
// A set that is destroyed without a successful commit() deletes its temporary files.
//
// Errors are ErrorCode::kIo with the destination path and the system's reason, or kUsage when a
// path is staged twice or commit() is called twice. Not thread-safe; separate sets may be used
// from separate threads.
class AtomicFileSet {
 public:
  AtomicFileSet() = default;
  AtomicFileSet(const AtomicFileSet&) = delete;
  AtomicFileSet& operator=(const AtomicFileSet&) = delete;
  AtomicFileSet(AtomicFileSet&& other) noexcept;
  AtomicFileSet& operator=(AtomicFileSet&& other) noexcept;
  ~AtomicFileSet();

  // Writes `bytes` to a temporary file for `path`. The folder of `path` must exist.
  Status stage(std::string_view path, std::span<const std::uint8_t> bytes);
  Status stage(std::string_view path, std::string_view text);
  // Copies the file at `source` to a temporary file for `path` (streamed, never loaded whole).
  Status stage_copy(std::string_view path, std::string_view source);

  // Publishes every staged file (see the class comment). The set is empty afterwards.
  Status commit();
  // Deletes the staged temporary files without publishing them.
  void discard();

  // Destinations staged so far, in staging order.
  std::vector<std::string> destinations() const;

 private:
  struct Entry {
    std::string destination;
    std::string temporary;
  };
  std::vector<Entry> entries_;
};

// Writes one file atomically: stage(path, bytes) then commit().
Status write_file_atomic(std::string_view path, std::span<const std::uint8_t> bytes);
Status write_file_atomic(std::string_view path, std::string_view text);

}  // namespace critter::io
