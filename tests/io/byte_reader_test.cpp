// SPDX-License-Identifier: MIT
#include "critter/io/byte_reader.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "critter/io/byte_writer.h"

namespace critter::io {
namespace {

std::vector<std::uint8_t> sample() {
  ByteWriter w;
  w.write(std::uint32_t{0x01020304});
  w.write_string<std::uint32_t>("joint");
  const std::vector<float> values = {1.0f, 2.5f, -3.0f};
  w.write_array<std::uint32_t>(std::span<const float>(values));
  w.write(std::uint8_t{7});
  return std::move(w.bytes);
}

TEST(ByteReaderTest, ReadsWhatTheWriterWroteLittleEndian) {
  const std::vector<std::uint8_t> bytes = sample();
  ASSERT_EQ(bytes.size(), 4u + 4u + 5u + 4u + 12u + 1u);
  EXPECT_EQ(bytes[0], 0x04);  // least significant byte first
  ByteReader r(bytes);
  EXPECT_EQ(r.read<std::uint32_t>(), 0x01020304u);
  std::string name;
  EXPECT_TRUE(r.read_string(name, r.read<std::uint32_t>()));
  EXPECT_EQ(name, "joint");
  std::vector<float> values;
  EXPECT_TRUE(r.read_array(values, r.read_count<std::uint32_t>(sizeof(float))));
  EXPECT_EQ(values, (std::vector<float>{1.0f, 2.5f, -3.0f}));
  EXPECT_EQ(r.read<std::uint8_t>(), 7u);
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.at_end());
}

TEST(ByteReaderTest, EveryTruncationFailsAtTheFieldItCutsWithTheFileOffset) {
  const std::vector<std::uint8_t> bytes = sample();
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const std::span<const std::uint8_t> cut(bytes.data(), n);
    ByteReader r(cut, 100, "file");
    r.read<std::uint32_t>();
    std::string name;
    r.read_string(name, r.read<std::uint32_t>());
    std::vector<float> values;
    r.read_array(values, r.read_count<std::uint32_t>(sizeof(float)));
    const auto last = r.read<std::uint8_t>();
    ASSERT_FALSE(r.ok()) << "prefix " << n;
    EXPECT_EQ(last, 0u) << "reads after a failure give zeros";
    EXPECT_GE(r.error_offset(), 100u);
    EXPECT_LE(r.error_offset(), 100u + n);
    EXPECT_FALSE(r.error_message().empty());
  }
  // Cut inside the string: the failure is at the string's first byte.
  ByteReader r(std::span<const std::uint8_t>(bytes.data(), 10), 100, "file");
  r.read<std::uint32_t>();
  std::string name;
  EXPECT_FALSE(r.read_string(name, r.read<std::uint32_t>()));
  EXPECT_EQ(r.error_offset(), 108u);
  EXPECT_EQ(r.error_message(), "the file ends inside a string (5 bytes needed, 2 left)");
  EXPECT_TRUE(name.empty());
}

TEST(ByteReaderTest, HostileCountsAndSizesAreRefusedBeforeAnyAllocation) {
  ByteWriter w;
  w.write(std::uint64_t{0xffffffffffffffffull});
  w.write(std::uint64_t{0});
  ByteReader counts(w.bytes);
  EXPECT_EQ(counts.read_count<std::uint64_t>(1), 0u);
  EXPECT_FALSE(counts.ok());
  EXPECT_EQ(counts.error_offset(), 0u);
  EXPECT_EQ(counts.error_message(), "count 18446744073709551615 is larger than the data allows");

  // An element count whose byte size overflows 64 bits.
  ByteReader arrays(w.bytes);
  std::vector<std::uint64_t> v;
  EXPECT_FALSE(arrays.read_array(v, 0x2000000000000001ull));
  EXPECT_TRUE(v.empty());
  EXPECT_NE(arrays.error_message().find("18446744073709551615 bytes needed"), std::string::npos);
}

TEST(ByteReaderTest, TheFirstFailureIsKept) {
  const std::vector<std::uint8_t> bytes = sample();
  ByteReader r(bytes);
  r.read<std::uint32_t>();
  r.fail("first");
  r.fail_at(3, "second");
  EXPECT_EQ(r.error_offset(), 0u);
  EXPECT_EQ(r.error_message(), "first");
  EXPECT_EQ(r.read<std::uint32_t>(), 0u);
}

TEST(ByteReaderTest, UnalignedArraysAreCopiedAsWell) {
  std::vector<std::uint8_t> bytes(1 + 8, 0);
  const float values[2] = {0.5f, 8.0f};
  std::memcpy(bytes.data() + 1, values, 8);
  ByteReader r(bytes);
  r.read<std::uint8_t>();
  std::vector<float> out;
  ASSERT_TRUE(r.read_array(out, 2));
  EXPECT_EQ(out, (std::vector<float>{0.5f, 8.0f}));
  EXPECT_EQ(r.view(0, 4, "nothing"), nullptr);
  EXPECT_TRUE(r.ok());
}

}  // namespace
}  // namespace critter::io
