// SPDX-License-Identifier: MIT
// io::load on files whose content contradicts their name: each is a located error, never an
// empty model.
#include "critter/io/load.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "critter/io/assimp/assimp_importer.h"
#include "support/files.h"
#include "support/glb_builder.h"

namespace critter {
namespace {

using testing::ScratchDir;
using testing::write_file;

const std::vector<std::uint8_t> kPngHead = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n',
                                            0,    0,   0,   13,  'I',  'H',  'D',  'R'};

::testing::AssertionResult refused(const std::string& path, const std::string& message) {
  auto m = io::load(path);
  if (m) return ::testing::AssertionFailure() << path << " loaded";
  if (m.error().code != ErrorCode::kParse || m.error().path != path ||
      m.error().message.find(message) == std::string::npos)
    return ::testing::AssertionFailure() << "got " << m.error().to_string();
  return ::testing::AssertionSuccess();
}

TEST(Load, EmptyFilesAreErrorsWhateverTheExtension) {
  ScratchDir dir("load");
  for (const char* name : {"a.obj", "a.glb", "a.gltf", "a.dae", "a.b3d", "a.model", "a"}) {
    write_file(dir / name, std::string_view());
    EXPECT_TRUE(refused(dir.file(name), "the file is empty")) << name;
  }
}

TEST(Load, ADirectoryIsAnErrorThatSaysSo) {
  ScratchDir dir("load");
  for (const char* name : {"models.glb", "models"}) {
    std::filesystem::create_directory(dir / name);
    auto m = io::load(dir.file(name));
    ASSERT_FALSE(m) << name;
    EXPECT_EQ(m.error().code, ErrorCode::kIo) << name;
    EXPECT_EQ(m.error().path, dir.file(name));
    EXPECT_NE(m.error().message.find("is a directory"), std::string::npos) << m.error().to_string();
  }
}

TEST(Load, ImagesAndDocumentsNamedAsModelsAreErrors) {
  ScratchDir dir("load");
  write_file(dir / "png.obj", kPngHead);
  EXPECT_TRUE(refused(dir.file("png.obj"), "the file is a PNG image, not a '.obj' model"));
  write_file(dir / "png.glb", kPngHead);
  EXPECT_TRUE(refused(dir.file("png.glb"), "the file is a PNG image, not a '.glb' model"));
  write_file(dir / "jpeg.dae", std::vector<std::uint8_t>{0xff, 0xd8, 0xff, 0xe0, 0, 16});
  EXPECT_TRUE(refused(dir.file("jpeg.dae"), "a JPEG image"));
  write_file(dir / "doc.b3d", "%PDF-1.7\n");
  EXPECT_TRUE(refused(dir.file("doc.b3d"), "a PDF document"));
  write_file(dir / "gif.gltf", "GIF89a....");
  EXPECT_TRUE(refused(dir.file("gif.gltf"), "a GIF image"));
}

TEST(Load, JsonUnderAnAssimpExtensionIsAnError) {
  ScratchDir dir("load");
  testing::GltfBuilder b;
  b.add_node("n");
  write_file(dir / "scene.obj", "\n  " + b.gltf_embedded());
  EXPECT_TRUE(refused(dir.file("scene.obj"), "holds JSON text, not a '.obj' model"));
}

TEST(Load, JsonGarbageNamedGlbIsAnError) {
  ScratchDir dir("load");
  write_file(dir / "garbage.glb", R"({"not": "a glTF", "nodes": 3})");
  auto m = io::load(dir.file("garbage.glb"));
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().path, dir.file("garbage.glb"));
  EXPECT_FALSE(m.error().message.empty());
}

// Assimp's OBJ reader skips lines it does not know: text of another kind reads as a scene
// without meshes, which must not become an empty model.
TEST(Load, TextWithoutAnyModelNamedObjIsAnError) {
  ScratchDir dir("load");
  write_file(dir / "notes.obj", "These are my notes.\nNothing here is a model.\n");
  EXPECT_TRUE(refused(dir.file("notes.obj"), "no mesh, node or animation"));
  write_file(dir / "binary.obj", std::vector<std::uint8_t>{0x00, 0x01, 0x02, 0xfe, 0x10, 0x20});
  auto m = io::load(dir.file("binary.obj"));
  EXPECT_FALSE(m);
}

TEST(Load, ARealObjStillLoads) {
  ScratchDir dir("load");
  write_file(dir / "tri.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
  auto m = io::load(dir.file("tri.obj"));
  ASSERT_TRUE(m) << m.error().to_string();
  EXPECT_EQ(m->meshes().size(), 1u);
}

}  // namespace
}  // namespace critter
