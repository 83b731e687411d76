#include "critter/io/load.h"

#include <cstdio>
#include <filesystem>
#include <string>

#include "critter/core/strings.h"
#include "critter/io/assimp/assimp_importer.h"
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

}  // namespace

Result<Model> load(std::string_view path, const LoadOptions& options, Diagnostics* diag) {
  const std::string file(path);
  const std::string ext = lower_extension(path);
  // The glTF reader reports a missing file itself; skipping the checks below saves path walks.
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

}  // namespace critter::io
