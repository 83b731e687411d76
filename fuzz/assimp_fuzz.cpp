// SPDX-License-Identifier: MIT
// libFuzzer target: the Assimp import path (Assimp's parser, then critter's checks and conversion
// to RawModel and the model builder) for Wavefront OBJ with its .mtl, Collada and Blitz3D. Assimp
// reads files, so the input goes through a temporary file whose extension follows the content:
// "BB3D" at the start is .b3d, text containing "<COLLADA" is .dae, anything else .obj. For OBJ,
// the text after a line "#MTL" becomes fuzz.mtl beside it (seeds name it with `mtllib fuzz.mtl`).
// Inputs over 64 KiB are skipped: Assimp's own parsers allocate without bound on some hostile
// files (a known limit, see the README), which a size cap keeps within -rss_limit_mb.
// Properties: no crash or sanitizer report in critter's code; an error names the file.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "critter/io/assimp/assimp_importer.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace critter;
  constexpr std::size_t kMaxInput = 64 * 1024;
  if (size > kMaxInput || fuzz::scratch_dir().empty()) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string& dir = fuzz::scratch_dir();
  std::string path;
  std::size_t model_size = size;
  if (text.starts_with("BB3D")) {
    path = dir + "/fuzz.b3d";
  } else if (text.find("<COLLADA") != std::string_view::npos) {
    path = dir + "/fuzz.dae";
  } else {
    path = dir + "/fuzz.obj";
    const std::size_t mtl = text.find("\n#MTL\n");
    const std::string mtl_path = dir + "/fuzz.mtl";
    if (mtl != std::string_view::npos) {
      model_size = mtl + 1;
      if (!fuzz::write_bytes(mtl_path, data + mtl + 6, size - mtl - 6)) return 0;
    } else if (!fuzz::write_bytes(mtl_path, nullptr, 0)) {
      return 0;
    }
  }
  if (!fuzz::write_bytes(path, data, model_size)) return 0;
  io::ImportOptions options;
  options.max_file_bytes = kMaxInput;
  Diagnostics diag;
  auto model = io::import_assimp(path, options, &diag);
  if (!model) {
    fuzz::check_error(model.error(), "assimp");
    return 0;
  }
  fuzz::check_model(*model, "assimp");
  return 0;
}
