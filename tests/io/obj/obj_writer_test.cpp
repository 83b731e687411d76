// SPDX-License-Identifier: MIT
#include "critter/io/obj/obj_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <sstream>

#include <glm/gtc/matrix_transform.hpp>

#include "critter/io/load.h"
#include "support/files.h"
#include "support/gltf_validation.h"
#include "support/test_models.h"

namespace critter {
namespace {

namespace fs = std::filesystem;
using testing::read_text;
using testing::ScratchDir;

const std::vector<std::uint8_t> kPng = testing::tiny_png();

// The `v` lines of an OBJ file, parsed.
std::vector<vec3> obj_positions(const std::string& text) {
  std::vector<vec3> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("v ", 0) != 0) continue;
    std::istringstream l(line.substr(2));
    vec3 v;
    l >> v.x >> v.y >> v.z;
    out.push_back(v);
  }
  return out;
}

// root at (0, 1, 0) with child "arm" 1 above it (model (0, 2, 0)).
// "quad": skinned wholly to arm, bind pose = rest pose, one morph target pushing +Z with default
// weight 0.5, normals +Z, UVs, material "red" with an embedded texture.
// "stick": a line hanging from root. "tri": a triangle on no bone, no material.
// Clip "lift": arm rises from y 1 to 2 (local) over 1 s while the push weight goes 0 -> 1.
RawModel obj_model() {
  RawModel m;
  m.name = "obj_test";
  RawJoint root{"root", -1, {}, -1};
  root.rest.translation = vec3(0, 1, 0);
  RawJoint arm{"arm", 0, {}, -1};
  arm.rest.translation = vec3(0, 1, 0);
  m.skeleton.joints = {root, arm};

  Mesh quad;
  quad.name = "quad";
  quad.skin = 0;
  MeshPart p;
  p.streams.positions = {{0, 2, 0}, {1, 2, 0}, {1, 3, 0}, {0, 3, 0}};
  p.streams.normals.assign(4, vec3(0, 0, 1));
  p.streams.uv0 = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  p.streams.joints.assign(4, glm::u16vec4(1, 0, 0, 0));
  p.streams.weights.assign(4, vec4(1, 0, 0, 0));
  p.indices = {0, 1, 2, 0, 2, 3};
  p.material = 0;
  MorphTarget push;
  push.positions.assign(4, vec3(0, 0, 1));
  p.morphs.targets.push_back(push);
  quad.parts.push_back(p);
  quad.default_weights = {0.5f};
  m.meshes.push_back(quad);

  Mesh stick;
  stick.name = "stick";
  stick.bone = 0;
  MeshPart line;
  line.topology = Topology::kLines;
  line.streams.positions = {{0, 0, 0}, {0, 1, 0}};
  stick.parts.push_back(line);
  m.meshes.push_back(stick);

  Mesh tri;
  tri.name = "tri";
  MeshPart t;
  t.streams.positions = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
  tri.parts.push_back(t);
  m.meshes.push_back(tri);

  Skin skin;
  skin.joints = {0, 1};
  skin.inverse_bind = {glm::translate(mat4(1.0f), vec3(0, -1, 0)),
                       glm::translate(mat4(1.0f), vec3(0, -2, 0))};
  m.skins.push_back(skin);

  Material red;
  red.name = "red";
  red.base_color_factor = vec4(1, 0, 0, 1);
  red.base_color_texture.image = 0;
  m.materials.push_back(red);
  Image img;
  img.name = "skin";
  img.mime_type = "image/png";
  img.bytes = kPng;
  m.images.push_back(img);

  RawClip lift;
  lift.name = "lift";
  RawTrack tr;
  tr.target = TrackTarget::kTranslation;
  tr.index = 1;
  tr.times = {0, 1};
  tr.values = {0, 1, 0, 0, 2, 0};
  lift.tracks.push_back(tr);
  RawTrack w;
  w.target = TrackTarget::kWeights;
  w.index = 0;
  w.components = 1;
  w.times = {0, 1};
  w.values = {0, 1};
  lift.tracks.push_back(w);
  m.clips.push_back(lift);
  return m;
}

TEST(ObjWriter, WritesTheRestPoseExactly) {
  auto model = build_model(obj_model());
  ASSERT_TRUE(model) << model.error().to_string();
  ScratchDir dir("obj_writer");
  Diagnostics diag;
  auto report = io::write_obj(*model, (dir / "thing.obj").string(), {}, &diag);
  ASSERT_TRUE(report) << report.error().to_string();
  EXPECT_TRUE(diag.empty());
  EXPECT_EQ(report->vertices, 9u);
  EXPECT_EQ(report->faces, 3u);
  EXPECT_EQ(report->lines, 1u);
  EXPECT_EQ(report->points, 0u);
  EXPECT_EQ(report->files,
            (std::vector<std::string>{(dir / "thing.obj").string(), (dir / "thing.mtl").string(),
                                      (dir / "thing_skin.png").string()}));
  EXPECT_EQ(dir.list(), (std::vector<std::string>{"thing.mtl", "thing.obj", "thing_skin.png"}));

  // Quad: morphed +0.5 Z by the default weight, skinned by arm whose rest equals its bind pose.
  // Stick: placed by root (+1 Y). UVs flipped to OBJ's bottom-left origin.
  EXPECT_EQ(read_text(dir / "thing.obj"),
            "# critter OBJ export of 'obj_test', rest pose\n"
            "mtllib thing.mtl\n"
            "g quad\n"
            "usemtl red\n"
            "v 0 2 0.5\n"
            "v 1 2 0.5\n"
            "v 1 3 0.5\n"
            "v 0 3 0.5\n"
            "vt 0 1\n"
            "vt 1 1\n"
            "vt 1 0\n"
            "vt 0 0\n"
            "vn 0 0 1\n"
            "vn 0 0 1\n"
            "vn 0 0 1\n"
            "vn 0 0 1\n"
            "f 1/1/1 2/2/2 3/3/3\n"
            "f 1/1/1 3/3/3 4/4/4\n"
            "g stick\n"
            "usemtl default\n"
            "v 0 1 0\n"
            "v 0 2 0\n"
            "l 5 6\n"
            "g tri\n"
            "usemtl default\n"
            "v 0 0 0\n"
            "v 1 0 0\n"
            "v 0 0 1\n"
            "f 7 8 9\n");
  EXPECT_EQ(read_text(dir / "thing.mtl"),
            "# critter material library for 'obj_test'\n"
            "\n"
            "newmtl red\n"
            "Kd 1 0 0\n"
            "illum 1\n"
            "map_Kd thing_skin.png\n"
            "\n"
            "newmtl default\n"
            "Kd 0.8 0.8 0.8\n"
            "illum 1\n");
  const std::string png = read_text(dir / "thing_skin.png");
  EXPECT_EQ(std::vector<std::uint8_t>(png.begin(), png.end()), kPng);
}

TEST(ObjWriter, PosesWithAClipAtATime) {
  auto model = build_model(obj_model());
  ASSERT_TRUE(model) << model.error().to_string();
  ScratchDir dir("obj_writer_posed");
  io::ObjWriteOptions options;
  options.clip = 0;
  options.write_materials = false;

  // t = 0.5: arm at local y 1.5 (model 2.5: the quad rises 0.5), push weight 0.5.
  options.time = 0.5f;
  ASSERT_TRUE(io::write_obj(*model, (dir / "half.obj").string(), options));
  // t = 1: arm at model y 3 (the quad rises 1), push weight 1.
  options.time = 1.0f;
  ASSERT_TRUE(io::write_obj(*model, (dir / "end.obj").string(), options));
  EXPECT_EQ(dir.list(), (std::vector<std::string>{"end.obj", "half.obj"}));

  const auto half = obj_positions(read_text(dir / "half.obj"));
  const auto end = obj_positions(read_text(dir / "end.obj"));
  const std::vector<vec3> half_expected = {{0, 2.5f, 0.5f}, {1, 2.5f, 0.5f}, {1, 3.5f, 0.5f},
                                           {0, 3.5f, 0.5f}, {0, 1, 0},       {0, 2, 0},
                                           {0, 0, 0},       {1, 0, 0},       {0, 0, 1}};
  const std::vector<vec3> end_expected = {{0, 3, 1}, {1, 3, 1}, {1, 4, 1}, {0, 4, 1}, {0, 1, 0},
                                          {0, 2, 0}, {0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
  ASSERT_EQ(half.size(), half_expected.size());
  ASSERT_EQ(end.size(), end_expected.size());
  for (std::size_t i = 0; i < half.size(); ++i)
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(half[i][k], half_expected[i][k], 1e-6f) << "vertex " << i;
      EXPECT_NEAR(end[i][k], end_expected[i][k], 1e-6f) << "vertex " << i;
    }
  const std::string text = read_text(dir / "end.obj");
  EXPECT_EQ(text.find("mtllib"), std::string::npos);
  EXPECT_EQ(text.find("usemtl"), std::string::npos);
  EXPECT_EQ(text.rfind("# critter OBJ export of 'obj_test', clip 'lift' at 1 s\n", 0), 0u);
}

TEST(ObjWriter, RejectsABadPoseRequest) {
  auto model = build_model(obj_model());
  ASSERT_TRUE(model) << model.error().to_string();
  ScratchDir dir("obj_writer_bad");
  io::ObjWriteOptions options;
  options.clip = 1;
  auto r = io::write_obj(*model, (dir / "x.obj").string(), options);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kUsage);
  EXPECT_EQ(r.error().message, "clip 1 does not exist (model has 1 clips)");
  options.clip = 0;
  options.time = std::numeric_limits<float>::quiet_NaN();
  r = io::write_obj(*model, (dir / "x.obj").string(), options);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kUsage);
  EXPECT_TRUE(dir.list().empty());
}

// The file reads back through the project's loader (Assimp's OBJ importer): same triangles, the
// same corner positions, the material and its texture.
TEST(ObjWriter, ReimportsThroughTheLoader) {
  auto model = build_model(obj_model());
  ASSERT_TRUE(model) << model.error().to_string();
  ScratchDir dir("obj_writer_reimport");
  const fs::path out = dir / "thing.obj";
  ASSERT_TRUE(io::write_obj(*model, out.string()));
  auto copy = io::load(out.string());
  ASSERT_TRUE(copy) << copy.error().to_string();
  std::size_t triangles = 0;
  std::vector<vec3> corners;
  for (const Mesh& mesh : copy->meshes())
    for (const MeshPart& part : mesh.parts) {
      if (part.topology != Topology::kTriangles) continue;
      triangles += part.element_count() / 3;
      for (std::size_t e = 0; e < part.element_count(); ++e)
        corners.push_back(part.streams.positions[part.indices.empty() ? e : part.indices[e]]);
    }
  EXPECT_EQ(triangles, 3u);
  const std::vector<vec3> expected = {{0, 2, 0.5f}, {1, 2, 0.5f}, {1, 3, 0.5f},
                                      {0, 2, 0.5f}, {1, 3, 0.5f}, {0, 3, 0.5f},
                                      {0, 0, 0},    {1, 0, 0},    {0, 0, 1}};
  for (const vec3& e : expected)
    EXPECT_NE(std::find(corners.begin(), corners.end(), e), corners.end())
        << e.x << " " << e.y << " " << e.z;
  bool red = false;
  for (const Material& m : copy->materials())
    if (m.name == "red") {
      red = true;
      EXPECT_EQ(m.base_color_factor, vec4(1, 0, 0, 1));
      ASSERT_TRUE(m.base_color_texture.valid());
      const Image& img = copy->images()[static_cast<std::size_t>(m.base_color_texture.image)];
      EXPECT_FALSE(img.missing);
    }
  EXPECT_TRUE(red);
}

// A shared skinned character at rest and mid-run: every triangle is written, the loader reads
// them all back, and the run pose moves vertices.
TEST(ObjWriter, SharedCharacterRestAndPosed) {
  auto model = io::load(std::string(CRITTER_SHARED_MODELS) + "/girl/girl.glb");
  ASSERT_TRUE(model) << model.error().to_string();
  std::size_t triangles = 0, vertices = 0;
  for (const Mesh& mesh : model->meshes())
    for (const MeshPart& part : mesh.parts) {
      triangles += part.element_count() / 3;
      vertices += part.vertex_count();
    }
  ScratchDir dir("obj_writer_girl");
  auto rest = io::write_obj(*model, (dir / "rest.obj").string());
  ASSERT_TRUE(rest) << rest.error().to_string();
  EXPECT_EQ(rest->faces, triangles);
  EXPECT_EQ(rest->vertices, vertices);
  io::ObjWriteOptions options;
  options.clip = model->find_clip("RunTrack");
  ASSERT_GE(options.clip, 0);
  options.time = 0.5f;
  auto run = io::write_obj(*model, (dir / "run.obj").string(), options);
  ASSERT_TRUE(run) << run.error().to_string();

  for (const char* name : {"rest.obj", "run.obj"}) {
    auto copy = io::load((dir / name).string());
    ASSERT_TRUE(copy) << copy.error().to_string();
    std::size_t back = 0;
    for (const Mesh& mesh : copy->meshes())
      for (const MeshPart& part : mesh.parts) back += part.element_count() / 3;
    EXPECT_EQ(back, triangles) << name;
  }
  const auto a = obj_positions(read_text(dir / "rest.obj"));
  const auto b = obj_positions(read_text(dir / "run.obj"));
  ASSERT_EQ(a.size(), vertices);
  ASSERT_EQ(b.size(), vertices);
  std::size_t moved = 0;
  for (std::size_t i = 0; i < a.size(); ++i) moved += glm::length(a[i] - b[i]) > 1e-3f;
  EXPECT_GT(moved, vertices / 4);
  // Rest-pose vertices lie inside the model's rest bounds.
  const Aabb& box = model->bounds();
  for (const vec3& v : a)
    for (int k = 0; k < 3; ++k) {
      EXPECT_GE(v[k], box.min[k] - 1e-4f);
      EXPECT_LE(v[k], box.max[k] + 1e-4f);
    }
}

TEST(ObjWriter, FailedWriteLeavesNothing) {
  auto model = build_model(obj_model());
  ASSERT_TRUE(model) << model.error().to_string();
  ScratchDir dir("obj_writer_fail");
  // The .mtl cannot be written (a folder has its name): neither the .obj nor the texture appears.
  fs::create_directory(dir / "thing.mtl");
  auto r = io::write_obj(*model, (dir / "thing.obj").string());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kIo);
  EXPECT_EQ(r.error().path, (dir / "thing.mtl").string());
  EXPECT_EQ(dir.list(), (std::vector<std::string>{"thing.mtl"}));
}

}  // namespace
}  // namespace critter
