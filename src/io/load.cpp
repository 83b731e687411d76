#include "critter/io/load.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <string>

#include "critter/io/gltf_reader.h"

namespace critter::io {

namespace {

std::string lower_extension(std::string_view path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

// True when the file starts with the GLB magic "glTF", whatever its extension.
bool has_glb_magic(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  char magic[4] = {};
  const bool ok = std::fread(magic, 1, 4, f) == 4;
  std::fclose(f);
  return ok && magic[0] == 'g' && magic[1] == 'l' && magic[2] == 'T' && magic[3] == 'F';
}

}  // namespace

Result<Model> load(std::string_view path, const LoadOptions& options, Diagnostics* diag) {
  const std::string file(path);
  std::error_code ec;
  if (!std::filesystem::exists(file, ec))
    return fail(Error::at(ErrorCode::kIo, file, "", "cannot open '" + file + "'"));
  const std::string ext = lower_extension(path);
  if (ext == ".gltf" || ext == ".glb" || has_glb_magic(file)) return load_gltf(path, options, diag);
  return fail(Error::at(ErrorCode::kUnsupported, file, "",
                        "no reader for '" + (ext.empty() ? std::string("(no extension)") : ext) +
                            "' files (critter reads .gltf and .glb)"));
}

}  // namespace critter::io
