// SPDX-License-Identifier: MIT
#include "io/assimp/raw_model_wire.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "critter/asset/synthetic_character.h"

namespace critter::io::assimp_detail {
namespace {

TEST(RawModelWireTest, AModelAndItsWarningsComeBack) {
  const RawModel model = make_synthetic_character();
  const std::vector<Warning> sent = {{"a.dae", "/x", "a warning"}};
  const std::vector<std::uint8_t> bytes = encode_import(model, sent);
  std::vector<Warning> warnings;
  auto back = decode_import(bytes, "a.dae", warnings);
  ASSERT_TRUE(back.has_value()) << back.error().to_string();
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].message, "a warning");
  EXPECT_EQ(back->skeleton.joints.size(), model.skeleton.joints.size());
  EXPECT_EQ(back->skeleton.joints[5].name, model.skeleton.joints[5].name);
  EXPECT_EQ(back->meshes[0].parts[0].streams.positions, model.meshes[0].parts[0].streams.positions);
  EXPECT_EQ(back->clips[1].tracks[7].values, model.clips[1].tracks[7].values);
}

TEST(RawModelWireTest, AnErrorComesBack) {
  const Result<RawModel> failed = fail(Error::at(ErrorCode::kParse, "b.dae", "line 3", "broken"));
  std::vector<Warning> warnings;
  auto back = decode_import(encode_import(failed, {}), "b.dae", warnings);
  ASSERT_FALSE(back.has_value());
  EXPECT_EQ(back.error().code, ErrorCode::kParse);
  EXPECT_EQ(back.error().message, "broken");
}

TEST(RawModelWireTest, EveryTruncationIsAnErrorNamingItsByteOffset) {
  const std::vector<std::uint8_t> bytes = encode_import(make_synthetic_character(), {});
  for (std::size_t n = 0; n < bytes.size(); n += 1 + n / 64) {
    std::vector<Warning> warnings;
    auto back = decode_import(std::span<const std::uint8_t>(bytes.data(), n), "c.dae", warnings);
    ASSERT_FALSE(back.has_value()) << "prefix " << n;
    EXPECT_EQ(back.error().code, ErrorCode::kInvalid);
    EXPECT_NE(back.error().message.find("; byte "), std::string::npos) << back.error().message;
  }
  std::vector<std::uint8_t> longer = bytes;
  longer.push_back(0);
  std::vector<Warning> warnings;
  auto back = decode_import(longer, "c.dae", warnings);
  ASSERT_FALSE(back.has_value());
  EXPECT_NE(back.error().message.find("byte " + std::to_string(bytes.size()) +
                                      ": bytes after the answer"),
            std::string::npos)
      << back.error().message;
}

TEST(RawModelWireTest, AHostileCountIsRefusedAtItsOffset) {
  std::vector<std::uint8_t> bytes = encode_import(make_synthetic_character(), {});
  // The warning count follows the magic and the version.
  const std::uint64_t huge = ~std::uint64_t{0};
  std::memcpy(bytes.data() + 8, &huge, 8);
  std::vector<Warning> warnings;
  auto back = decode_import(bytes, "d.dae", warnings);
  ASSERT_FALSE(back.has_value());
  EXPECT_NE(back.error().message.find("byte 8: count 18446744073709551615 is larger"),
            std::string::npos)
      << back.error().message;
}

}  // namespace
}  // namespace critter::io::assimp_detail
