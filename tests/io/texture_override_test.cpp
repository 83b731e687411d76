// SPDX-License-Identifier: MIT
// Skins applied from outside the model file: which materials take the image, how files are
// checked, and which images the result keeps.
#include "critter/io/texture_override.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "critter/asset/demo_creature.h"
#include "critter/io/image/image_writer.h"
#include "support/files.h"

namespace critter {
namespace {

using testing::ScratchDir;
using testing::write_file;

// The demo quadruped with two materials, "body" textured by an image of the file, "eyes" plain.
Model two_material_model() {
  RawModel raw = make_demo_quadruped();
  raw.materials.clear();
  raw.images.clear();
  raw.materials.resize(2);
  raw.materials[0].name = "body";
  raw.materials[1].name = "eyes";
  raw.images.resize(1);
  raw.images[0].name = "old";
  raw.images[0].uri = "old.png";
  raw.images[0].resolved_path = "old.png";
  raw.materials[0].base_color_texture.image = 0;
  for (Mesh& mesh : raw.meshes) {
    for (auto& part : mesh.parts) part.material = 0;
  }
  auto model = build_model(std::move(raw));
  EXPECT_TRUE(model) << model.error().to_string();
  return std::move(*model);
}

std::string write_skin(const ScratchDir& dir, const std::string& name, std::uint8_t alpha = 255) {
  RgbaImage img{2, 2, std::vector<std::uint8_t>(16, 200)};
  for (std::size_t a = 3; a < img.pixels.size(); a += 4) img.pixels[a] = 255;
  img.pixels[3] = alpha;
  const std::string path = dir.file(name);
  EXPECT_TRUE(io::write_png(path, img));
  return path;
}

TEST(TextureOverride, ParsesFileAndMaterialForms) {
  auto plain = io::parse_texture_override("skin.png");
  ASSERT_TRUE(plain);
  EXPECT_EQ(*plain, (io::TextureOverride{"", "skin.png"}));
  auto one = io::parse_texture_override("body=skins/a=b.png");
  ASSERT_TRUE(one);
  EXPECT_EQ(*one, (io::TextureOverride{"body", "skins/a=b.png"}));
  for (const char* bad : {"", "=skin.png", "body="}) {
    auto r = io::parse_texture_override(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().code, ErrorCode::kUsage);
    EXPECT_EQ(r.error().path, "--texture");
  }
}

TEST(TextureOverride, AnExistingFileWithAnEqualsSignIsAFile) {
  ScratchDir dir("texture_eq");
  const std::string path = write_skin(dir, "a=b.png");
  auto r = io::parse_texture_override(path);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->material, "");
  EXPECT_EQ(r->path, path);
}

TEST(TextureOverride, FileSkinsEveryMaterialAndDropsTheOldImage) {
  ScratchDir dir("texture_all");
  const Model model = two_material_model();
  const std::string skin = write_skin(dir, "skin.png");
  const io::TextureOverride o{"", skin};
  auto r = io::apply_texture_overrides(model, {&o, 1});
  ASSERT_TRUE(r) << r.error().to_string();
  ASSERT_EQ(r->images().size(), 1u);
  EXPECT_EQ(r->images()[0].name, "skin");
  EXPECT_TRUE(r->images()[0].uri.empty());
  EXPECT_EQ(r->images()[0].mime_type, "image/png");
  EXPECT_FALSE(r->images()[0].bytes.empty());
  for (const Material& m : r->materials()) EXPECT_EQ(m.base_color_texture.image, 0) << m.name;
  EXPECT_EQ(r->meshes().size(), model.meshes().size());
  EXPECT_EQ(r->clips().size(), model.clips().size());
}

TEST(TextureOverride, SkinsWithTransparentTexelsAreAlphaTested) {
  ScratchDir dir("texture_alpha");
  const Model model = two_material_model();
  const std::vector<io::TextureOverride> holes = {{"body", write_skin(dir, "hat.png", 0)}};
  auto r = io::apply_texture_overrides(model, holes);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->materials()[0].alpha_mode, AlphaMode::kMask);
  EXPECT_EQ(r->materials()[1].alpha_mode, AlphaMode::kOpaque);
  const std::vector<io::TextureOverride> solid = {{"", write_skin(dir, "solid.png")}};
  r = io::apply_texture_overrides(model, solid);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->materials()[0].alpha_mode, AlphaMode::kOpaque);
}

TEST(TextureOverride, MaterialFormSkinsOnlyThatMaterialAndLaterOnesWin) {
  ScratchDir dir("texture_one");
  const Model model = two_material_model();
  const std::string a = write_skin(dir, "a.png"), b = write_skin(dir, "b.png");
  const std::vector<io::TextureOverride> eyes = {{"eyes", a}};
  auto r = io::apply_texture_overrides(model, eyes);
  ASSERT_TRUE(r) << r.error().to_string();
  ASSERT_EQ(r->images().size(), 2u);
  EXPECT_EQ(r->images()[0].name, "old");
  EXPECT_EQ(r->images()[1].name, "a");
  EXPECT_EQ(r->materials()[1].base_color_texture.image, 1);
  const std::vector<io::TextureOverride> both = {{"", a}, {"body", b}};
  auto r2 = io::apply_texture_overrides(model, both);
  ASSERT_TRUE(r2) << r2.error().to_string();
  ASSERT_EQ(r2->images().size(), 2u);
  EXPECT_EQ(r2->images()[r2->materials()[0].base_color_texture.image].name, "b");
  EXPECT_EQ(r2->images()[r2->materials()[1].base_color_texture.image].name, "a");
}

TEST(TextureOverride, MissingUndecodableFilesAndUnknownMaterialsAreLocatedErrors) {
  ScratchDir dir("texture_bad");
  const Model model = two_material_model();
  const std::vector<io::TextureOverride> missing = {{"", dir.file("none.png")}};
  auto r = io::apply_texture_overrides(model, missing);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kIo);
  EXPECT_EQ(r.error().path, dir.file("none.png"));
  EXPECT_EQ(r.error().location, "--texture");
  write_file(dir / "junk.png", std::string_view("not a picture"));
  const std::vector<io::TextureOverride> junk = {{"", dir.file("junk.png")}};
  r = io::apply_texture_overrides(model, junk);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kParse);
  EXPECT_EQ(r.error().path, dir.file("junk.png"));
  const std::vector<io::TextureOverride> unknown = {{"fur", write_skin(dir, "s.png")}};
  r = io::apply_texture_overrides(model, unknown);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kUsage);
  EXPECT_NE(r.error().message.find("'body', 'eyes'"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace critter
