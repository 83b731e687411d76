// SPDX-License-Identifier: MIT
#include "critter/deform/morph_texture.h"

#include <gtest/gtest.h>

#include <vector>

namespace critter::deform {
namespace {

TEST(MorphTexture, SizeRuleAtDefaultLimits) {
  struct Case {
    std::size_t n;
    std::uint32_t w, h;
  };
  for (const Case c :
       {Case{0, 1, 1}, Case{1, 1, 1}, Case{2, 2, 1}, Case{100, 128, 1}, Case{600, 1024, 1},
        Case{1000, 1024, 1}, Case{1024, 1024, 1}, Case{1025, 1024, 2}, Case{3000, 1024, 4},
        Case{5000, 1024, 8}, Case{1024 * 1024, 1024, 1024}}) {
    auto size = morph_texture_size(c.n, "m");
    ASSERT_TRUE(size) << c.n;
    EXPECT_EQ(size->width, c.w) << c.n;
    EXPECT_EQ(size->height, c.h) << c.n;
  }
}

TEST(MorphTexture, TooManyVerticesFailsNamingMeshCountSizeAndLimits) {
  auto size = morph_texture_size(1024 * 1024 + 1, "Body");
  ASSERT_FALSE(size);
  EXPECT_EQ(size.error().code, ErrorCode::kLimit);
  EXPECT_EQ(size.error().message,
            "morph texture of mesh 'Body' cannot hold N = 1048577 vertices: reached 1024x1024 at "
            "the limits 1024x1024");
}

TEST(MorphTexture, CustomLimitsGrowWidthFirstThenHeight) {
  auto size = morph_texture_size(100, "m", {16, 64});
  ASSERT_TRUE(size);
  EXPECT_EQ(size->width, 16u);
  EXPECT_EQ(size->height, 8u);
  auto too_big = morph_texture_size(16 * 64 + 1, "m", {16, 64});
  ASSERT_FALSE(too_big);
  EXPECT_NE(too_big.error().message.find("reached 16x64 at the limits 16x64"), std::string::npos);
  auto bad = morph_texture_size(10, "m", {1000, 1024});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ErrorCode::kUsage);
  EXPECT_FALSE(morph_texture_size(10, "m", {1024, 0}));
}

TEST(MorphTexture, PacksLayersPerTargetAtTheRightOffsets) {
  // 5 vertices at limits 4x4 -> 4x2 texture; 2 targets -> 6 layers of 4*2*4 = 32 floats.
  MorphSet set;
  set.targets.resize(2);
  for (int v = 0; v < 5; ++v) {
    const float f = static_cast<float>(v);
    set.targets[0].positions.push_back(vec3(f, f + 0.25f, f + 0.5f));
    set.targets[1].normals.push_back(vec3(-f, 10 + f, 20 + f));
    set.targets[1].tangents.push_back(vec3(100 + f, 200 + f, 300 + f));
  }
  auto tex = pack_morph_texture(set, 5, "m", {4, 4});
  ASSERT_TRUE(tex);
  EXPECT_EQ(tex->width, 4u);
  EXPECT_EQ(tex->height, 2u);
  EXPECT_EQ(tex->layers, 6u);
  ASSERT_EQ(tex->texels.size(), 6u * 32u);
  const std::vector<float>& t = tex->texels;
  // Vertex 4 is texel (0, 1): float 16 of its layer. Layer 0 = target 0 positions.
  EXPECT_EQ(t[16], 4.0f);
  EXPECT_EQ(t[17], 4.25f);
  EXPECT_EQ(t[18], 4.5f);
  EXPECT_EQ(t[19], 0.0f);
  EXPECT_EQ(t[4 * 1 + 1], 1.25f);  // vertex 1, y
  // Texels past the vertex count are zero.
  for (int f = 20; f < 32; ++f) EXPECT_EQ(t[f], 0.0f) << f;
  // Layers 1 and 2 (target 0 has no normal or tangent deltas) are zero.
  for (int f = 32; f < 96; ++f) EXPECT_EQ(t[f], 0.0f) << f;
  // Layer 3 = target 1 positions: absent, zero.
  for (int f = 96; f < 128; ++f) EXPECT_EQ(t[f], 0.0f) << f;
  // Layer 4 = target 1 normals: vertex 2 at float 128 + 8.
  EXPECT_EQ(t[136], -2.0f);
  EXPECT_EQ(t[137], 12.0f);
  EXPECT_EQ(t[138], 22.0f);
  EXPECT_EQ(t[139], 0.0f);
  // Layer 5 = target 1 tangents: vertex 3 at float 160 + 12.
  EXPECT_EQ(t[172], 103.0f);
  EXPECT_EQ(t[173], 203.0f);
  EXPECT_EQ(t[174], 303.0f);
  EXPECT_EQ(t[175], 0.0f);
  EXPECT_EQ(tex->offset(5, 3), 172u);
}

TEST(MorphTexture, LayersAreThreePerTargetAndNCountsLongerStreams) {
  MorphSet set;
  set.targets.resize(4);
  set.targets[3].normals.assign(1025, vec3(1.0f));
  auto tex = pack_morph_texture(set, 600, "m");
  ASSERT_TRUE(tex);
  EXPECT_EQ(tex->layers, 12u);
  EXPECT_EQ(tex->width, 1024u);
  EXPECT_EQ(tex->height, 2u);  // N = 1025 from the normal stream, not 600
  EXPECT_EQ(tex->texels.size(), 12u * 1024u * 2u * 4u);
}

TEST(MorphTexture, FailuresNameTheMesh) {
  MorphSet none;
  auto empty = pack_morph_texture(none, 10, "Plain");
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message.find("'Plain'"), std::string::npos);
  MorphSet set;
  set.targets.resize(1);
  auto big = pack_morph_texture(set, 2000, "Big", {1024, 1});
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().code, ErrorCode::kLimit);
  EXPECT_EQ(big.error().message,
            "morph texture of mesh 'Big' cannot hold N = 2000 vertices: reached 1024x1 at the "
            "limits 1024x1");
}

}  // namespace
}  // namespace critter::deform
