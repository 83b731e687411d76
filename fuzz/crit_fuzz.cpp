// SPDX-License-Identifier: MIT
// libFuzzer target: the baked .crit reader from memory. Each input is read twice: as it is (the
// header's rules and the checksum), and with its header's body size and checksum recomputed, so
// that mutations of the body reach the body's checks instead of stopping at the checksum.
// Properties: no crash, leak or sanitizer report; an error names the file and a byte offset
// inside it; an accepted model passes check_model(), is written again and read back with the
// same counts. (Bytes may differ: a compact clip's residual rotation keys are normalised when
// the clip is rebuilt, so a file whose keys are not unit quaternions is not reproduced exactly.)
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "critter/io/crit/crit_file.h"
#include "fuzz_support.h"

namespace {

using namespace critter;

void check_located(const Error& error, std::size_t size) {
  fuzz::check_error(error, "crit");
  if (!error.location.starts_with("byte "))
    fuzz::fail("crit", "error without a byte offset: " + error.to_string());
  if (std::stoull(error.location.substr(5)) > size)
    fuzz::fail("crit", "byte offset past the end of the file: " + error.to_string());
}

void check_accepted(const Model& model) {
  fuzz::check_model(model, "crit");
  const std::vector<std::uint8_t> again = io::encode_crit(model);
  auto back = io::read_crit(again, "again.crit");
  if (!back) fuzz::fail("crit: a written model does not read back", back.error().to_string());
  if (back->skeleton().joint_count() != model.skeleton().joint_count() ||
      back->meshes().size() != model.meshes().size() ||
      back->skins().size() != model.skins().size() ||
      back->clips().size() != model.clips().size() ||
      back->compact_clips().size() != model.compact_clips().size() ||
      back->materials().size() != model.materials().size() ||
      back->images().size() != model.images().size())
    fuzz::fail("crit", "a written model reads back with other counts");
}

void read(std::span<const std::uint8_t> bytes) {
  auto model = io::read_crit(bytes, "fuzz.crit");
  if (!model) {
    check_located(model.error(), bytes.size());
    return;
  }
  check_accepted(*model);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  read(bytes);
  if (size >= io::kCritHeaderBytes) {
    std::vector<std::uint8_t> stamped(bytes.begin(), bytes.end());
    const std::uint64_t body = size - io::kCritHeaderBytes;
    const std::uint64_t sum =
        io::crit_checksum(std::span<const std::uint8_t>(stamped).subspan(io::kCritHeaderBytes));
    std::memcpy(stamped.data() + 8, &body, 8);
    std::memcpy(stamped.data() + 16, &sum, 8);
    read(stamped);
  }
  return 0;
}
