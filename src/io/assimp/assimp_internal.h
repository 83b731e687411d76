// SPDX-License-Identifier: MIT
// Internals of the Assimp importer shared by its source files: the file system Assimp reads
// through, and the text fixes and scans applied to source files before and after Assimp.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <assimp/IOSystem.hpp>

namespace critter::io::assimp_detail {

// The file system Assimp reads through during one import. The model file itself is served from
// memory (read once, size-checked, possibly fixed up); every other file Assimp opens (an .mtl,
// an .md5anim) is checked against the size limit and the model's folder first. Writes are
// refused. What was refused or not found is recorded for the importer to report.
class GuardedIoSystem : public Assimp::IOSystem {
 public:
  GuardedIoSystem(std::filesystem::path model_path, std::vector<std::uint8_t> model_bytes,
                  std::uint64_t max_file_bytes, bool allow_outside);
  ~GuardedIoSystem() override;

  bool Exists(const char* file) const override;
  char getOsSeparator() const override { return '/'; }
  Assimp::IOStream* Open(const char* file, const char* mode = "rb") override;
  void Close(Assimp::IOStream* stream) override;

  // Files Assimp asked for that do not exist (as Assimp named them, once each, in order).
  const std::vector<std::string>& not_found() const { return not_found_; }
  // Files refused for their size ("name (N bytes)") or for lying outside the model's folder.
  const std::vector<std::string>& over_limit() const { return over_limit_; }
  const std::vector<std::string>& outside() const { return outside_; }

 private:
  std::filesystem::path resolve(const char* file) const;
  bool is_model(const std::filesystem::path& p) const;
  void note(std::vector<std::string>& list, std::string entry);

  std::filesystem::path model_path_;  // absolute, normalised
  std::filesystem::path folder_;      // absolute, normalised
  std::vector<std::uint8_t> model_bytes_;
  std::uint64_t max_file_bytes_;
  bool allow_outside_;
  std::vector<std::string> not_found_, over_limit_, outside_;
};

// Absolute, lexically normalised path (relative paths against the current folder).
std::filesystem::path absolute_normal(const std::filesystem::path& p);
// True when `p` (absolute, normalised) lies inside `folder` (absolute, normalised), symbolic
// links resolved (core/path_confinement.h).
bool is_inside(const std::filesystem::path& p, const std::filesystem::path& folder);

// Removes the blanks that follow an element's start tag when text follows them ("<color>  0.0"
// becomes "<color>0.0"). Assimp 5.2's Collada number parser fails on leading blanks; Collada
// text content is whitespace-separated lists, names and URIs, for which leading blanks carry no
// meaning. Comments, CDATA and processing instructions are copied unchanged.
std::vector<std::uint8_t> strip_leading_text_blanks(const std::vector<std::uint8_t>& xml);

// One <animation_clip> of a Collada file: its name (or id when unnamed) and `end` in seconds
// (negative when absent).
struct ColladaClip {
  std::string name;
  double end = -1.0;
};
// The <animation_clip> elements of a Collada document, in document order.
std::vector<ColladaClip> scan_collada_clips(std::string_view xml);

// The material libraries an OBJ file names on its `mtllib` lines, in order.
std::vector<std::string> scan_obj_mtllibs(std::string_view obj);

}  // namespace critter::io::assimp_detail
