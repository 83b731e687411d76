// SPDX-License-Identifier: MIT
#include "critter/io/load.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "critter/core/strings.h"
#include "critter/io/assimp/assimp_importer.h"
#include "critter/io/crit/crit_file.h"
#include "critter/io/gltf/gltf_reader.h"
#include "critter/io/insomniac/insomniac_reader.h"

namespace critter::io {

namespace {

// True when the file starts with the GLB magic "glTF", whatever its extension.
bool has_glb_magic(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  char magic[4] = {};
  const bool ok = std::fread(magic, 1, 4, f) == 4;
  std::fclose(f);
  return ok && magic[0] == 'g' && magic[1] == 'l' && magic[2] == 'T' && magic[3] == 'F';
}

// True when the file starts like an Insomniac .model (outer magic or DAT1), whatever its name.
bool has_insomniac_magic(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  std::uint8_t head[40] = {};
  const std::size_t n = std::fread(head, 1, sizeof head, f);
  std::fclose(f);
  return looks_like_insomniac_model(std::span<const std::uint8_t>(head, n));
}

// The first bytes of a file (up to 64); nullopt when it cannot be opened, which the readers
// report themselves.
std::optional<std::vector<std::uint8_t>> read_head(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return std::nullopt;
  std::vector<std::uint8_t> head(64);
  head.resize(std::fread(head.data(), 1, head.size(), f));
  std::fclose(f);
  return head;
}

bool starts_with_bytes(std::span<const std::uint8_t> head, std::string_view magic) {
  return head.size() >= magic.size() &&
         std::equal(magic.begin(), magic.end(), head.begin(),
                    [](char m, std::uint8_t b) { return static_cast<std::uint8_t>(m) == b; });
}

// What a file is when its first bytes show an image or a document rather than a model; empty
// when they do not. Only signatures that no model format starts with are listed, so a match is
// never a model with an unusual name.
std::string_view foreign_content(std::span<const std::uint8_t> head) {
  if (starts_with_bytes(head, "\x89PNG\r\n\x1a\n")) return "a PNG image";
  if (starts_with_bytes(head, "\xff\xd8\xff")) return "a JPEG image";
  if (starts_with_bytes(head, "GIF87a") || starts_with_bytes(head, "GIF89a")) return "a GIF image";
  if (starts_with_bytes(head, "RIFF") && head.size() >= 12 &&
      starts_with_bytes(head.subspan(8), "WEBP"))
    return "a WebP image";
  if (starts_with_bytes(head, "%PDF-")) return "a PDF document";
  if (starts_with_bytes(head, "\x1f\x8b")) return "gzip-compressed data";
  return {};
}

// True when the first non-blank byte opens a JSON object or array (no format read through
// Assimp is JSON).
bool looks_like_json(std::span<const std::uint8_t> head) {
  for (const std::uint8_t b : head) {
    if (b == ' ' || b == '\t' || b == '\r' || b == '\n') continue;
    return b == '{' || b == '[';
  }
  return false;
}

std::string describe_extension(const std::string& ext) {
  return ext.empty() ? std::string("model (the name has no extension)") : "'." + ext + "' model";
}

}  // namespace

namespace {

Result<Model> load_any(std::string_view path, const LoadOptions& options, Diagnostics* diag);

}  // namespace

Result<Model> load(std::string_view path, const LoadOptions& options, Diagnostics* diag) {
  if (options.compact_tolerance != 0.0 &&
      !(std::isfinite(options.compact_tolerance) && options.compact_tolerance > 0.0))
    return fail(Error::at(ErrorCode::kUsage, std::string(path), "",
                          "the compact tolerance must be a finite number > 0"));
  auto model = load_any(path, options, diag);
  if (!model) return model;
  if (options.compact_tolerance > 0.0)
    return with_compact_clips(std::move(*model), static_cast<float>(options.compact_tolerance));
  return model;
}

namespace {

Result<Model> load_any(std::string_view path, const LoadOptions& options, Diagnostics* diag) {
  const std::string file(path);
  const std::string ext = lower_extension(path);
  // A directory opens and reads as zero bytes: say what it is rather than "empty".
  if (std::error_code ec; std::filesystem::is_directory(file, ec))
    return fail(Error::at(ErrorCode::kIo, file, "", "is a directory, not a model file"));
  // Content that cannot be a model is refused whatever the name says: a PNG named .obj would
  // otherwise read as an OBJ without a single face, an empty model.
  if (const auto head = read_head(file)) {
    if (head->empty()) return fail(Error::at(ErrorCode::kParse, file, "", "the file is empty"));
    if (const std::string_view what = foreign_content(*head); !what.empty()) {
      return fail(
          Error::at(ErrorCode::kParse, file, "",
                    "the file is " + std::string(what) + ", not a " + describe_extension(ext)));
    }
    if (is_assimp_extension(file) && looks_like_json(*head)) {
      return fail(Error::at(ErrorCode::kParse, file, "",
                            "the file holds JSON text, not a " + describe_extension(ext) +
                                " (a glTF file is named .gltf)"));
    }
  }
  if (const auto head = read_head(file); ext == "crit" || (head && looks_like_crit(*head)))
    return load_crit(path, options.max_file_bytes);
  // The glTF reader reports a missing file itself.
  if (ext == "gltf" || ext == "glb") return load_gltf(path, options, diag);
  std::error_code ec;
  if (!std::filesystem::exists(file, ec))
    return fail(Error::at(ErrorCode::kIo, file, "", "cannot open '" + file + "'"));
  if (has_glb_magic(file)) return load_gltf(path, options, diag);
  if (ext == "model" || has_insomniac_magic(file)) {
    auto insomniac = insomniac_options_from(options);
    if (!insomniac) return fail(Error::at(ErrorCode::kUsage, file, "", insomniac.error().message));
    return load_insomniac(path, *insomniac, diag);
  }
  if (is_assimp_extension(file)) return import_assimp(path, ImportOptions::from(options), diag);
  return fail(Error::at(
      ErrorCode::kUnsupported, file, "",
      "no reader for '" + (ext.empty() ? std::string("(no extension)") : "." + ext) + "' files"));
}

}  // namespace

}  // namespace critter::io
