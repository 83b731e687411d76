// SPDX-License-Identifier: MIT
// libFuzzer target: the glTF reader from memory (.glb containers and .gltf JSON with data: URIs;
// chosen by content) and the model builder behind it. External URIs resolve against an empty
// folder, so they read as missing files. Properties: no crash, leak or sanitizer report; an
// error names the source; an accepted model passes check_model().
#include <cstddef>
#include <cstdint>
#include <span>

#include "critter/io/gltf/gltf_reader.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace critter;
  const std::span<const std::uint8_t> bytes(data, size);
  Diagnostics diag;
  auto model = io::load_gltf_memory(bytes, "fuzz.gltf", fuzz::scratch_dir(), {}, &diag);
  if (!model) {
    fuzz::check_error(model.error(), "gltf");
    return 0;
  }
  fuzz::check_model(*model, "gltf");
  return 0;
}
