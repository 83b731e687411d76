// SPDX-License-Identifier: MIT
#include "critter/io/byte_writer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace critter::io {
namespace {

TEST(ByteWriterTest, WritesCountsThenElementsLittleEndian) {
  ByteWriter w;
  const std::vector<std::uint16_t> v = {0x0102, 0x0304};
  w.write_array<std::uint64_t>(std::span<const std::uint16_t>(v));
  w.write_string<std::uint32_t>("ab");
  const std::vector<std::uint8_t> expected = {2,    0,    0,    0, 0, 0, 0, 0,   0x02,
                                              0x01, 0x04, 0x03, 2, 0, 0, 0, 'a', 'b'};
  EXPECT_EQ(w.bytes, expected);
}

}  // namespace
}  // namespace critter::io
