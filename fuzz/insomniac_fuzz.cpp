// SPDX-License-Identifier: MIT
// libFuzzer target: the Insomniac `.model` reader from memory (every game's layout, chosen by the
// outer magic; bare DAT1 files try both index encodings) and the model builder behind it.
// Properties: no crash, leak or sanitizer report; an error names the file and a byte offset; an
// accepted model passes check_model().
#include <cstddef>
#include <cstdint>
#include <span>

#include "critter/io/insomniac/insomniac_reader.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace critter;
  const std::span<const std::uint8_t> bytes(data, size);
  Diagnostics diag;
  io::InsomniacInfo info;
  auto model = io::load_insomniac_memory(bytes, "fuzz.model", {}, &diag, &info);
  if (!model) {
    fuzz::check_error(model.error(), "insomniac");
    return 0;
  }
  fuzz::check_model(*model, "insomniac");
  return 0;
}
