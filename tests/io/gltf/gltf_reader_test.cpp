// SPDX-License-Identifier: MIT
// glTF reader: tiny files built in test code, one per feature and one per rejection rule.
#include "critter/io/gltf/gltf_reader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include "critter/io/load.h"
#include "support/glb_builder.h"

namespace critter {
namespace {

using nlohmann::json;
using testing::GltfBuilder;
using testing::kByte;
using testing::kFloat;
using testing::kShort;
using testing::kUnsignedByte;
using testing::kUnsignedInt;
using testing::kUnsignedShort;

Result<RawModel> read_raw(std::span<const std::uint8_t> bytes, Diagnostics* diag = nullptr,
                          const io::LoadOptions& options = {}) {
  return io::read_gltf_raw_memory(bytes, "mem.glb", "", options, diag);
}

Result<RawModel> read_raw(const GltfBuilder& b, Diagnostics* diag = nullptr) {
  const auto bytes = b.glb();
  return read_raw(bytes, diag);
}

Result<Model> load(const GltfBuilder& b, Diagnostics* diag = nullptr) {
  const auto bytes = b.glb();
  return io::load_gltf_memory(bytes, "mem.glb", "", {}, diag);
}

template <class T>
::testing::AssertionResult fails_with(const Result<T>& r, ErrorCode code,
                                      std::string_view location) {
  if (r.has_value()) return ::testing::AssertionFailure() << "loaded; expected an error";
  if (r.error().code != code || r.error().location != location)
    return ::testing::AssertionFailure()
           << "expected " << to_string(code) << " at '" << location << "', got "
           << to_string(r.error().code) << ": " << r.error().to_string();
  return ::testing::AssertionSuccess();
}

template <class T>
std::string error_text(const Result<T>& r) {
  return r ? std::string() : r.error().to_string();
}

// One node "root" holding mesh "tri": a non-indexed triangle (0,0,0) (1,0,0) (0,1,0).
GltfBuilder triangle() {
  GltfBuilder b;
  const int pos = b.add_floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3");
  const int mesh = b.add_mesh("tri", pos);
  b.add_node("root", mesh);
  return b;
}

json& prim0(GltfBuilder& b) {
  return b.json()["meshes"][0]["primitives"][0];
}

// ---------------------------------------------------------------------------------------------
// Features

TEST(GltfReader, TriangleGlb) {
  auto m = load(triangle());
  ASSERT_TRUE(m) << error_text(m);
  EXPECT_EQ(m->format(), "glb");
  EXPECT_EQ(m->name(), "mem");
  ASSERT_EQ(m->skeleton().joint_count(), 1);
  EXPECT_EQ(m->skeleton().names()[0], "root");
  ASSERT_EQ(m->meshes().size(), 1u);
  const Mesh& mesh = m->meshes()[0];
  EXPECT_EQ(mesh.name, "tri");
  EXPECT_EQ(mesh.bone, 0);
  EXPECT_EQ(mesh.skin, -1);
  EXPECT_EQ(mesh.source_index, 0);
  ASSERT_EQ(mesh.parts.size(), 1u);
  const MeshPart& part = mesh.parts[0];
  EXPECT_TRUE(part.indices.empty());  // non-indexed stays non-indexed
  EXPECT_EQ(part.topology, Topology::kTriangles);
  ASSERT_EQ(part.vertex_count(), 3u);
  EXPECT_EQ(part.streams.positions[1], vec3(1, 0, 0));
  EXPECT_EQ(part.streams.positions[2], vec3(0, 1, 0));
  EXPECT_EQ(part.material, -1);
}

TEST(GltfReader, EmbeddedDataUriGltf) {
  const std::string text = triangle().gltf_embedded();
  ASSERT_NE(text.find("data:application/octet-stream;base64,"), std::string::npos);
  auto m = io::load_gltf_memory(testing::as_bytes(text), "mem.gltf", "", {});
  ASSERT_TRUE(m) << error_text(m);
  EXPECT_EQ(m->format(), "gltf");
  EXPECT_EQ(m->meshes()[0].parts[0].streams.positions[2], vec3(0, 1, 0));
}

TEST(GltfReader, UnnamedNodesAndMeshesGetNames) {
  GltfBuilder b = triangle();
  b.json()["nodes"][0].erase("name");
  b.json()["meshes"][0].erase("name");
  b.json()["nodes"].push_back(json::object());
  auto raw = read_raw(b);
  ASSERT_TRUE(raw) << error_text(raw);
  EXPECT_EQ(raw->skeleton.joints[0].name, "node_0");
  EXPECT_EQ(raw->skeleton.joints[1].name, "node_1");
  EXPECT_EQ(raw->skeleton.joints[1].source_index, 1);
  EXPECT_EQ(raw->meshes[0].name, "mesh_0");
}

TEST(GltfReader, ExternalBinInFolder) {
  testing::ScratchDir dir;
  const GltfBuilder b = triangle();
  testing::write_file(dir.file("my data.bin"), b.bin());
  testing::write_file(dir.file("model.gltf"), b.gltf_external("my%20data.bin"));
  auto m = io::load(dir.file("model.gltf"));
  ASSERT_TRUE(m) << error_text(m);
  EXPECT_EQ(m->format(), "gltf");
  EXPECT_EQ(m->source_path(), dir.file("model.gltf"));
  EXPECT_EQ(m->meshes()[0].parts[0].streams.positions[1], vec3(1, 0, 0));
}

TEST(GltfReader, ExternalBinInSubfolder) {
  testing::ScratchDir dir;
  const GltfBuilder b = triangle();
  std::filesystem::create_directory(dir.file("sub"));
  testing::write_file(dir.file("sub/x.bin"), b.bin());
  testing::write_file(dir.file("model.gltf"), b.gltf_external("sub/./x.bin"));
  auto m = io::load(dir.file("model.gltf"));
  ASSERT_TRUE(m) << error_text(m);
}

TEST(GltfReader, GlbFileOnDisk) {
  testing::ScratchDir dir;
  testing::write_file(dir.file("t.glb"), triangle().glb());
  auto m = io::load(dir.file("t.glb"));
  ASSERT_TRUE(m) << error_text(m);
  EXPECT_EQ(m->name(), "t");
  EXPECT_EQ(m->format(), "glb");
}

TEST(GltfReader, SignedAndUnsignedNormalizedComponents) {
  struct Case {
    int component;
    bool normalized;
    std::vector<std::uint8_t> bytes;
    float expected[9];
  };
  auto bytes_of = [](auto values) {
    std::vector<std::uint8_t> out(values.size() * sizeof(values[0]));
    std::memcpy(out.data(), values.data(), out.size());
    return out;
  };
  const Case cases[] = {
      // i8: max(c / 127, -1)
      {kByte,
       true,
       bytes_of(std::vector<std::int8_t>{127, -127, -128, 0, 64, 1, 2, 3, 4}),
       {1.0f, -1.0f, -1.0f, 0.0f, 64.0f / 127.0f, 1.0f / 127.0f, 2.0f / 127, 3.0f / 127,
        4.0f / 127}},
      // u8: c / 255
      {kUnsignedByte,
       true,
       bytes_of(std::vector<std::uint8_t>{255, 0, 51, 102, 1, 2, 3, 4, 5}),
       {1.0f, 0.0f, 0.2f, 0.4f, 1.0f / 255, 2.0f / 255, 3.0f / 255, 4.0f / 255, 5.0f / 255}},
      // i16: max(c / 32767, -1)
      {kShort,
       true,
       bytes_of(std::vector<std::int16_t>{32767, -32768, -32767, 16384, 0, 1, 2, 3, 4}),
       {1.0f, -1.0f, -1.0f, 16384.0f / 32767, 0.0f, 1.0f / 32767, 2.0f / 32767, 3.0f / 32767,
        4.0f / 32767}},
      // u16: c / 65535
      {kUnsignedShort,
       true,
       bytes_of(std::vector<std::uint16_t>{65535, 0, 13107, 1, 2, 3, 4, 5, 6}),
       {1.0f, 0.0f, 0.2f, 1.0f / 65535, 2.0f / 65535, 3.0f / 65535, 4.0f / 65535, 5.0f / 65535,
        6.0f / 65535}},
      // Quantized without normalization: the integer value itself.
      {kByte,
       false,
       bytes_of(std::vector<std::int8_t>{-3, 7, 100, 0, 1, 2, -128, 127, 5}),
       {-3, 7, 100, 0, 1, 2, -128, 127, 5}},
      {kUnsignedShort,
       false,
       bytes_of(std::vector<std::uint16_t>{65535, 0, 300, 1, 2, 3, 4, 5, 6}),
       {65535, 0, 300, 1, 2, 3, 4, 5, 6}},
  };
  for (const Case& c : cases) {
    GltfBuilder b;
    b.json()["extensionsUsed"] = {"KHR_mesh_quantization"};
    b.json()["extensionsRequired"] = {"KHR_mesh_quantization"};
    const int view = b.add_view(c.bytes);
    const int pos = b.add_accessor(view, c.component, "VEC3", 3, c.normalized);
    b.add_node("n", b.add_mesh("m", pos));
    auto raw = read_raw(b);
    ASSERT_TRUE(raw) << c.component << ": " << error_text(raw);
    const auto& p = raw->meshes[0].parts[0].streams.positions;
    ASSERT_EQ(p.size(), 3u);
    for (int i = 0; i < 9; ++i)
      EXPECT_FLOAT_EQ(p[static_cast<std::size_t>(i / 3)][i % 3], c.expected[i])
          << "component type " << c.component << " normalized " << c.normalized << " value " << i;
  }
}

TEST(GltfReader, QuantizedTexcoordsNormalsAndColors) {
  GltfBuilder b = triangle();
  const int uv = b.add_data(std::vector<std::uint16_t>{0, 65535, 65535, 0, 32768, 32768},
                            kUnsignedShort, "VEC2", true);
  const int nrm = b.add_data(std::vector<std::int8_t>{0, 127, 0, 0, 0, -127, 127, 0, 0, 0, 0, 0},
                             kByte, "VEC3", true);
  const int col3 = b.add_data(std::vector<std::uint8_t>{255, 0, 51, 0, 255, 0, 0, 0, 255},
                              kUnsignedByte, "VEC3", true);
  const int col4 =
      b.add_data(std::vector<std::uint16_t>{65535, 0, 0, 13107, 0, 0, 0, 0, 0, 0, 0, 0},
                 kUnsignedShort, "VEC4", true);
  json& attrs = prim0(b)["attributes"];
  attrs["TEXCOORD_0"] = uv;
  attrs["TEXCOORD_1"] = uv;
  attrs["COLOR_0"] = col3;
  b.json()["accessors"][nrm]["count"] = 3;
  attrs["NORMAL"] = nrm;
  auto raw = read_raw(b);
  ASSERT_TRUE(raw) << error_text(raw);
  const VertexStreams& s = raw->meshes[0].parts[0].streams;
  ASSERT_EQ(s.uv0.size(), 3u);
  EXPECT_EQ(s.uv0[0], vec2(0.0f, 1.0f));
  EXPECT_FLOAT_EQ(s.uv1[2].x, 32768.0f / 65535.0f);
  EXPECT_EQ(s.normals[0], vec3(0, 1, 0));
  EXPECT_EQ(s.normals[1], vec3(0, 0, -1));
  ASSERT_EQ(s.colors.size(), 3u);
  EXPECT_FLOAT_EQ(s.colors[0].z, 0.2f);
  EXPECT_EQ(s.colors[0].w, 1.0f);  // VEC3 colours are opaque
  EXPECT_EQ(s.colors[2], vec4(0, 0, 1, 1));

  attrs["COLOR_0"] = col4;
  raw = read_raw(b);
  ASSERT_TRUE(raw) << error_text(raw);
  EXPECT_FLOAT_EQ(raw->meshes[0].parts[0].streams.colors[0].w, 0.2f);
  EXPECT_EQ(raw->meshes[0].parts[0].streams.colors[0].x, 1.0f);
}

TEST(GltfReader, InterleavedViewWithStride) {
  GltfBuilder b;
  // Per vertex: position (3 floats), normal (3 floats): stride 24 bytes.
  const std::vector<float> data = {0, 0, 0, 0, 0, 1,  //
                                   2, 0, 0, 0, 1, 0,  //
                                   0, 3, 0, 1, 0, 0};
  const int view = b.add_view(data, 24);
  const int pos = b.add_accessor(view, kFloat, "VEC3", 3);
  const int nrm = b.add_accessor(view, kFloat, "VEC3", 3, false, 12);
  b.add_node("n", b.add_mesh("m", pos));
  prim0(b)["attributes"]["NORMAL"] = nrm;
  auto raw = read_raw(b);
  ASSERT_TRUE(raw) << error_text(raw);
  const VertexStreams& s = raw->meshes[0].parts[0].streams;
  EXPECT_EQ(s.positions[1], vec3(2, 0, 0));
  EXPECT_EQ(s.positions[2], vec3(0, 3, 0));
  EXPECT_EQ(s.normals[0], vec3(0, 0, 1));
  EXPECT_EQ(s.normals[2], vec3(1, 0, 0));
}

TEST(GltfReader, SparseOverBaseAndOverZeros) {
  GltfBuilder b = triangle();
  const int idx = b.add_view(std::vector<std::uint8_t>{2});
  const int val = b.add_view(std::vector<float>{5, 6, 7});
  json sparse = {{"count", 1},
                 {"indices", {{"bufferView", idx}, {"componentType", kUnsignedByte}}},
                 {"values", {{"bufferView", val}}}};
  b.json()["accessors"][0]["sparse"] = sparse;
  auto raw = read_raw(b);
  ASSERT_TRUE(raw) << error_text(raw);
  auto& p = raw->meshes[0].parts[0].streams.positions;
  EXPECT_EQ(p[0], vec3(0, 0, 0));
  EXPECT_EQ(p[1], vec3(1, 0, 0));
  EXPECT_EQ(p[2], vec3(5, 6, 7));

  b.json()["accessors"][0].erase("bufferView");  // base of zeros
  raw = read_raw(b);
  ASSERT_TRUE(raw) << error_text(raw);
  auto& z = raw->meshes[0].parts[0].streams.positions;
  EXPECT_EQ(z[1], vec3(0, 0, 0));
  EXPECT_EQ(z[2], vec3(5, 6, 7));
}

TEST(GltfReader, AccessorWithoutBufferViewIsZeros) {
  GltfBuilder b = triangle();
  const int zeros = b.add_accessor(-1, kFloat, "VEC3", 3);
  prim0(b)["attributes"]["NORMAL"] = zeros;
  auto raw = read_raw(b);
  ASSERT_TRUE(raw) << error_text(raw);
  ASSERT_EQ(raw->meshes[0].parts[0].streams.normals.size(), 3u);
  EXPECT_EQ(raw->meshes[0].parts[0].streams.normals[2], vec3(0));
}

TEST(GltfReader, MatrixAndTrsNodes) {
  GltfBuilder b;
  // Column-major: scale 2 on every axis, translation (1, 2, 3).
  b.json()["nodes"] = {
      {{"name", "m"},
       {"matrix", {2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1}},
       {"children", {1}}},
      {{"name", "t"},
       {"translation", {4, 5, 6}},
       {"rotation", {0, 0.6, 0, 0.8}},
       {"scale", {1, 2, 3}}},
  };
  auto raw = read_raw(b);
  ASSERT_TRUE(raw) << error_text(raw);
  const auto& j = raw->skeleton.joints;
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0].parent, -1);
  EXPECT_EQ(j[1].parent, 0);
  EXPECT_EQ(j[0].rest.translation, vec3(1, 2, 3));
  EXPECT_NEAR(j[0].rest.scale.x, 2.0f, 1e-6f);
  EXPECT_NEAR(j[0].rest.scale.z, 2.0f, 1e-6f);
  EXPECT_NEAR(std::abs(j[0].rest.rotation.w), 1.0f, 1e-6f);
  EXPECT_EQ(j[1].rest.translation, vec3(4, 5, 6));
  EXPECT_FLOAT_EQ(j[1].rest.rotation.y, 0.6f);  // glTF order x, y, z, w
  EXPECT_FLOAT_EQ(j[1].rest.rotation.w, 0.8f);
  EXPECT_EQ(j[1].rest.scale, vec3(1, 2, 3));
}

TEST(GltfReader, MultipleScenesKeepEveryNode) {
  GltfBuilder b = triangle();
  b.add_node("other");
  b.add_node("loose");
  b.json()["scenes"] = {{{"nodes", {0}}}, {{"nodes", {1}}}};
  b.json()["scene"] = 1;
  auto m = load(b);
  ASSERT_TRUE(m) << error_text(m);
  EXPECT_EQ(m->skeleton().joint_count(), 3);
  EXPECT_NE(m->find_bone("loose"), -1);
  EXPECT_EQ(m->meshes().size(), 1u);
}

TEST(GltfReader, TwoSkinsWithInverseBindMatricesAndJoints) {
  GltfBuilder b;
  const int pos = b.add_floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3");
  const int joints = b.add_data(std::vector<std::uint8_t>{0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0},
                                kUnsignedByte, "VEC4");
  const int joints16 = b.add_data(std::vector<std::uint16_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                  kUnsignedShort, "VEC4");
  const int weights =
      b.add_data(std::vector<std::uint8_t>{255, 0, 0, 0, 128, 127, 0, 0, 0, 255, 0, 0},
                 kUnsignedByte, "VEC4", true);
  std::vector<float> ibm(32, 0.0f);
  for (int k = 0; k < 2; ++k)
    for (int d = 0; d < 4; ++d) ibm[static_cast<std::size_t>(16 * k + 5 * d)] = 1.0f;
  ibm[12] = -1.0f;  // first matrix translates x by -1
  const int ibm_acc = b.add_floats(ibm, "MAT4");
  b.json()["meshes"] = {
      {{"primitives",
        {{{"attributes", {{"POSITION", pos}, {"JOINTS_0", joints}, {"WEIGHTS_0", weights}}}}}}},
      {{"primitives",
        {{{"attributes", {{"POSITION", pos}, {"JOINTS_0", joints16}, {"WEIGHTS_0", weights}}}}}}}};
  b.json()["nodes"] = {{{"name", "a"}, {"mesh", 0}, {"skin", 0}},
                       {{"name", "b"}, {"mesh", 1}, {"skin", 1}},
                       {{"name", "j0"}, {"children", {3}}},
                       {{"name", "j1"}},
                       {{"name", "j2"}}};
  b.json()["skins"] = {{{"joints", {2, 3}}, {"inverseBindMatrices", ibm_acc}, {"skeleton", 2}},
                       {{"name", "second"}, {"joints", {4}}}};
  auto raw = read_raw(b);
  ASSERT_TRUE(raw) << error_text(raw);
  ASSERT_EQ(raw->skins.size(), 2u);
  EXPECT_EQ(raw->skins[0].joints, (std::vector<std::int16_t>{2, 3}));
  EXPECT_EQ(raw->skins[0].skeleton_root, 2);
  EXPECT_EQ(raw->skins[0].name, "skin_0");
  ASSERT_EQ(raw->skins[0].inverse_bind.size(), 2u);
  EXPECT_EQ(raw->skins[0].inverse_bind[0][3], vec4(-1, 0, 0, 1));
  EXPECT_EQ(raw->skins[0].inverse_bind[1], mat4(1.0f));
  EXPECT_EQ(raw->skins[1].name, "second");
  EXPECT_EQ(raw->skins[1].skeleton_root, -1);
  ASSERT_EQ(raw->skins[1].inverse_bind.size(), 1u);  // identity when absent
  EXPECT_EQ(raw->skins[1].inverse_bind[0], mat4(1.0f));
  ASSERT_EQ(raw->meshes.size(), 2u);
  EXPECT_EQ(raw->meshes[0].skin, 0);
  EXPECT_EQ(raw->meshes[1].skin, 1);
  const VertexStreams& s = raw->meshes[0].parts[0].streams;
  EXPECT_EQ(s.joints[0], glm::u16vec4(0, 1, 0, 0));
  EXPECT_EQ(s.joints[1], glm::u16vec4(1, 0, 0, 0));
  EXPECT_FLOAT_EQ(s.weights[1].x, 128.0f / 255.0f);
  EXPECT_FLOAT_EQ(s.weights[1].y, 127.0f / 255.0f);
  auto m = build_model(std::move(*raw));
  ASSERT_TRUE(m) << error_text(m);
}

TEST(GltfReader, MeshInstancedByTwoNodesIsDuplicated) {
  GltfBuilder b = triangle();
  b.add_node("second", 0);
  b.json()["nodes"][1]["translation"] = {5, 0, 0};
  auto m = load(b);
  ASSERT_TRUE(m) << error_text(m);
  ASSERT_EQ(m->meshes().size(), 2u);
  EXPECT_EQ(m->meshes()[0].source_index, 0);
  EXPECT_EQ(m->meshes()[1].source_index, 0);
  EXPECT_EQ(m->skeleton().names()[static_cast<std::size_t>(m->meshes()[0].bone)], "root");
  EXPECT_EQ(m->skeleton().names()[static_cast<std::size_t>(m->meshes()[1].bone)], "second");
  EXPECT_EQ(m->meshes()[1].parts[0].streams.positions, m->meshes()[0].parts[0].streams.positions);
  EXPECT_FLOAT_EQ(m->bounds().max.x, 6.0f);  // second instance placed at x = 5
}

TEST(GltfReader, IndexComponentTypes) {
  const std::vector<std::uint32_t> expected = {2, 1, 0};
  for (int type : {kUnsignedByte, kUnsignedShort, kUnsignedInt}) {
    GltfBuilder b = triangle();
    int idx = -1;
    if (type == kUnsignedByte) idx = b.add_data(std::vector<std::uint8_t>{2, 1, 0}, type, "SCALAR");
    if (type == kUnsignedShort)
      idx = b.add_data(std::vector<std::uint16_t>{2, 1, 0}, type, "SCALAR");
    if (type == kUnsignedInt) idx = b.add_data(std::vector<std::uint32_t>{2, 1, 0}, type, "SCALAR");
    prim0(b)["indices"] = idx;
    auto raw = read_raw(b);
    ASSERT_TRUE(raw) << error_text(raw);
    EXPECT_EQ(raw->meshes[0].parts[0].indices, expected) << type;
  }
}

struct ModeCase {
  int mode;
  bool indexed;
  Topology topology;
  std::vector<std::uint32_t> indices;
};

TEST(GltfReader, PrimitiveModesBecomeLists) {
  // Four vertices; indexed cases draw them in the order 3, 2, 1, 0.
  const ModeCase cases[] = {
      {0, false, Topology::kPoints, {}},
      {1, false, Topology::kLines, {}},
      {2, false, Topology::kLines, {0, 1, 1, 2, 2, 3, 3, 0}},  // loop
      {3, false, Topology::kLines, {0, 1, 1, 2, 2, 3}},        // strip
      {5, false, Topology::kTriangles, {0, 1, 2, 1, 3, 2}},    // strip, odd triangle flipped
      {6, false, Topology::kTriangles, {1, 2, 0, 2, 3, 0}},    // fan
      {5, true, Topology::kTriangles, {3, 2, 1, 2, 0, 1}},
      {6, true, Topology::kTriangles, {2, 1, 3, 1, 0, 3}},
      {3, true, Topology::kLines, {3, 2, 2, 1, 1, 0}},
  };
  for (const ModeCase& c : cases) {
    GltfBuilder b;
    const int pos = b.add_floats({0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0}, "VEC3");
    const int idx =
        c.indexed ? b.add_data(std::vector<std::uint16_t>{3, 2, 1, 0}, kUnsignedShort, "SCALAR")
                  : -1;
    b.add_node("n", b.add_mesh("m", pos, idx));
    prim0(b)["mode"] = c.mode;
    auto raw = read_raw(b);
    ASSERT_TRUE(raw) << c.mode << ": " << error_text(raw);
    const MeshPart& part = raw->meshes[0].parts[0];
    EXPECT_EQ(part.topology, c.topology) << "mode " << c.mode;
    EXPECT_EQ(part.indices, c.indices) << "mode " << c.mode << " indexed " << c.indexed;
  }
}

TEST(GltfReader, MorphTargetsWithDefaultWeightsAndNames) {
  GltfBuilder b = triangle();
  const int d0 = b.add_floats({0, 0, 1, 0, 0, 1, 0, 0, 1}, "VEC3");
  const int d1 = b.add_floats({1, 0, 0, 0, 0, 0, 0, 0, 0}, "VEC3");
  prim0(b)["targets"] = {{{"POSITION", d0}}, {{"POSITION", d1}, {"NORMAL", d1}}};
  b.json()["meshes"][0]["weights"] = {0.25};
  b.json()["meshes"][0]["extras"] = {{"targetNames", {"up", "side"}}};
  auto m = load(b);
  ASSERT_TRUE(m) << error_text(m);
  const Mesh& mesh = m->meshes()[0];
  ASSERT_EQ(mesh.morph_target_count(), 2u);
  EXPECT_EQ(mesh.default_weights, (std::vector<float>{0.25f, 0.0f}));  // zero padded
  EXPECT_EQ(mesh.morph_names, (std::vector<std::string>{"up", "side"}));
  const MorphSet& set = mesh.parts[0].morphs;
  EXPECT_EQ(set.targets[0].positions[2], vec3(0, 0, 1));
  EXPECT_TRUE(set.targets[0].normals.empty());
  EXPECT_EQ(set.targets[1].normals[0], vec3(1, 0, 0));
}

// A node "n" animated by one channel on `path` with `interpolation`.
GltfBuilder animated(const std::vector<float>& times, const std::vector<float>& values,
                     const char* path, const char* type, const char* interpolation) {
  GltfBuilder b = triangle();
  const int in = b.add_floats(times, "SCALAR");
  const int out = b.add_floats(values, type);
  b.json()["animations"] = {
      {{"name", "move"},
       {"samplers", {{{"input", in}, {"output", out}, {"interpolation", interpolation}}}},
       {"channels", {{{"sampler", 0}, {"target", {{"node", 0}, {"path", path}}}}}}}};
  return b;
}

TEST(GltfReader, AnimationInterpolationsKeptAsAuthored) {
  const std::pair<const char*, Interpolation> cases[] = {
      {"STEP", Interpolation::kStep},
      {"LINEAR", Interpolation::kLinear},
  };
  for (const auto& [name, interp] : cases) {
    auto raw = read_raw(animated({0, 1}, {0, 0, 0, 1, 0, 0}, "translation", "VEC3", name));
    ASSERT_TRUE(raw) << error_text(raw);
    ASSERT_EQ(raw->clips.size(), 1u);
    EXPECT_EQ(raw->clips[0].name, "move");
    EXPECT_EQ(raw->clips[0].source_location, "/animations/0");
    const RawTrack& t = raw->clips[0].tracks[0];
    EXPECT_EQ(t.interpolation, interp);
    EXPECT_EQ(t.target, TrackTarget::kTranslation);
    EXPECT_EQ(t.index, 0);
    EXPECT_EQ(t.components, 3u);
    EXPECT_EQ(t.source_location, "/animations/0/channels/0");
    EXPECT_EQ(t.times, (std::vector<float>{0, 1}));
    EXPECT_EQ(t.values, (std::vector<float>{0, 0, 0, 1, 0, 0}));
  }
  // CUBICSPLINE: per key in-tangent, value, out-tangent.
  const std::vector<float> cubic = {9, 9, 9, 0, 0, 0, 1, 1, 1, 2, 2, 2, 1, 0, 0, 3, 3, 3};
  GltfBuilder b = animated({0, 1}, cubic, "translation", "VEC3", "CUBICSPLINE");
  b.json()["animations"][0].erase("name");
  auto m = load(b);
  ASSERT_TRUE(m) << error_text(m);
  const Clip& clip = m->clips()[0];
  EXPECT_EQ(clip.name(), "animation_0");
  EXPECT_EQ(clip.tracks()[0].interpolation, Interpolation::kCubicSpline);
  const auto values = clip.track_values(clip.tracks()[0]);
  EXPECT_EQ(std::vector<float>(values.begin(), values.end()), cubic);
  EXPECT_FLOAT_EQ(clip.duration(), 1.0f);
}

// Rotations with components whose squares overflow (or underflow) a float still normalise to
// the direction they point in; a zero quaternion is refused with its location.
TEST(GltfReader, ExtremeRotationsNormaliseOrFail) {
  GltfBuilder b = triangle();
  b.json()["nodes"][0]["rotation"] = {1e20, 0, 0, 0};
  b.add_node("tiny");
  b.json()["nodes"][1]["rotation"] = {0, 1e-30, 0, 1e-30};
  b.add_node("large");
  b.json()["nodes"][2]["rotation"] = {3e38, -3e38, 3e38, -3e38};
  auto m = load(b);
  ASSERT_TRUE(m) << error_text(m);
  const auto rest = m->skeleton().rest_pose();
  ASSERT_EQ(rest.size(), 3u);
  EXPECT_FLOAT_EQ(rest[0].rotation.x, 1.0f);
  EXPECT_FLOAT_EQ(rest[0].rotation.w, 0.0f);
  EXPECT_NEAR(rest[1].rotation.y, std::sqrt(0.5f), 1e-6f);
  EXPECT_NEAR(rest[1].rotation.w, std::sqrt(0.5f), 1e-6f);
  EXPECT_NEAR(rest[2].rotation.x, 0.5f, 1e-6f);
  EXPECT_NEAR(rest[2].rotation.w, -0.5f, 1e-6f);

  GltfBuilder zero = triangle();
  zero.json()["nodes"][0]["rotation"] = {0, 0, 0, 0};
  auto refused = load(zero);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kInvalid);
  EXPECT_NE(error_text(refused).find("zero quaternion"), std::string::npos) << error_text(refused);

  GltfBuilder keys = animated({0, 1, 2}, {1e20f, 0, 0, 0, 0, 0, -3e38f, 3e38f, 0, 1e-30f, 0, 0},
                              "rotation", "VEC4", "LINEAR");
  auto k = load(keys);
  ASSERT_TRUE(k) << error_text(k);
  const Clip& clip = k->clips()[0];
  const auto v = clip.track_values(clip.tracks()[0]);
  ASSERT_EQ(v.size(), 12u);
  for (float x : v) EXPECT_TRUE(std::isfinite(x));
  EXPECT_FLOAT_EQ(v[0], 1.0f);
  EXPECT_NEAR(v[6], -std::sqrt(0.5f), 1e-6f);
  EXPECT_NEAR(v[7], std::sqrt(0.5f), 1e-6f);
  EXPECT_FLOAT_EQ(v[9], 1.0f);

  auto zero_key = load(animated({0, 1}, {0, 0, 0, 1, 0, 0, 0, 0}, "rotation", "VEC4", "LINEAR"));
  ASSERT_FALSE(zero_key);
  EXPECT_NE(error_text(zero_key).find("key 1 has a zero rotation"), std::string::npos)
      << error_text(zero_key);
  EXPECT_NE(zero_key.error().location.find("/animations/0"), std::string::npos)
      << error_text(zero_key);
}

TEST(GltfReader, NormalizedRotationOutputsDecodeToFloat) {
  GltfBuilder b = triangle();
  const int in = b.add_floats({0, 2}, "SCALAR");
  const int out =
      b.add_data(std::vector<std::int16_t>{0, 0, 0, 32767, 0, -32767, 0, 0}, kShort, "VEC4", true);
  b.json()["animations"] = {
      {{"samplers", {{{"input", in}, {"output", out}}}},
       {"channels", {{{"sampler", 0}, {"target", {{"node", 0}, {"path", "rotation"}}}}}}}};
  auto raw = read_raw(b);
  ASSERT_TRUE(raw) << error_text(raw);
  EXPECT_EQ(raw->clips[0].tracks[0].values, (std::vector<float>{0, 0, 0, 1, 0, -1, 0, 0}));
  EXPECT_EQ(raw->clips[0].tracks[0].components, 4u);
}

TEST(GltfReader, MorphWeightsAnimationTargetsTheNodesMesh) {
  GltfBuilder b = triangle();
  b.add_node("first");  // node 1 without a mesh, so node 2's mesh is Mesh 1
  b.add_node("second", 0);
  const int d = b.add_floats({0, 0, 1, 0, 0, 1, 0, 0, 1}, "VEC3");
  prim0(b)["targets"] = {{{"POSITION", d}}, {{"POSITION", d}}};
  const int in = b.add_floats({0, 0.5f}, "SCALAR");
  const int out = b.add_floats({0, 1, 1, 0}, "SCALAR");
  b.json()["animations"] = {
      {{"samplers", {{{"input", in}, {"output", out}}}},
       {"channels", {{{"sampler", 0}, {"target", {{"node", 2}, {"path", "weights"}}}}}}}};
  auto m = load(b);
  ASSERT_TRUE(m) << error_text(m);
  const Track& t = m->clips()[0].tracks()[0];
  EXPECT_EQ(t.target, TrackTarget::kWeights);
  EXPECT_EQ(t.index, 1);
  EXPECT_EQ(t.components, 2u);
  EXPECT_EQ(m->clips()[0].track_values(t)[2], 1.0f);
}

TEST(GltfReader, UnreadChannelsAreSkippedWithWarnings) {
  GltfBuilder b = animated({0, 1}, {0, 0, 0, 1, 0, 0}, "translation", "VEC3", "LINEAR");
  json& channels = b.json()["animations"][0]["channels"];
  channels.push_back({{"sampler", 0}, {"target", {{"path", "translation"}}}});
  channels.push_back({{"sampler", 0}, {"target", {{"node", 0}, {"path", "pointer"}}}});
  Diagnostics diag;
  auto raw = read_raw(b, &diag);
  ASSERT_TRUE(raw) << error_text(raw);
  EXPECT_EQ(raw->clips[0].tracks.size(), 1u);
  ASSERT_EQ(diag.size(), 2u);
  EXPECT_EQ(diag.items()[0].location, "/animations/0/channels/1");
  EXPECT_EQ(diag.items()[1].location, "/animations/0/channels/2/target/path");
}

TEST(GltfReader, MaterialsTexturesAndTextureTransform) {
  GltfBuilder b = triangle();
  const std::string png = "abc";
  b.json()["images"] = {
      {{"uri", "data:image/png;base64," + testing::base64_encode(testing::as_bytes(png))}},
      {{"bufferView", b.add_view(std::vector<std::uint8_t>{1, 2, 3, 4, 5})},
       {"mimeType", "image/jpeg"}}};
  b.json()["samplers"] = {{{"magFilter", 9729}, {"minFilter", 9987}, {"wrapS", 33071}}};
  b.json()["textures"] = {{{"source", 0}, {"sampler", 0}}, {{"source", 1}}};
  json transform = {{"offset", {0.5, 0.25}}, {"rotation", 1.5}, {"scale", {2, 3}}, {"texCoord", 1}};
  b.json()["extensionsUsed"] = {"KHR_texture_transform", "KHR_materials_unlit"};
  b.json()["materials"] = {
      {{"name", "skin"},
       {"pbrMetallicRoughness",
        {{"baseColorFactor", {0.5, 0.25, 1, 0.75}},
         {"baseColorTexture",
          {{"index", 0}, {"extensions", {{"KHR_texture_transform", transform}}}}},
         {"metallicFactor", 0.125},
         {"roughnessFactor", 0.625}}},
       {"normalTexture", {{"index", 1}, {"texCoord", 1}}},
       {"emissiveFactor", {1, 0.5, 0}},
       {"alphaMode", "MASK"},
       {"alphaCutoff", 0.375},
       {"doubleSided", true},
       {"extensions", {{"KHR_materials_unlit", json::object()}}}}};
  prim0(b)["material"] = 0;
  auto m = load(b);
  ASSERT_TRUE(m) << error_text(m);
  ASSERT_EQ(m->materials().size(), 1u);
  const Material& mat = m->materials()[0];
  EXPECT_EQ(mat.name, "skin");
  EXPECT_EQ(mat.base_color_factor, vec4(0.5f, 0.25f, 1.0f, 0.75f));
  EXPECT_EQ(mat.metallic_factor, 0.125f);
  EXPECT_EQ(mat.roughness_factor, 0.625f);
  EXPECT_EQ(mat.emissive_factor, vec3(1, 0.5f, 0));
  EXPECT_EQ(mat.alpha_mode, AlphaMode::kMask);
  EXPECT_EQ(mat.alpha_cutoff, 0.375f);
  EXPECT_TRUE(mat.double_sided);
  EXPECT_TRUE(mat.unlit);
  const TextureRef& base = mat.base_color_texture;
  EXPECT_EQ(base.image, 0);
  EXPECT_TRUE(base.has_transform);
  EXPECT_EQ(base.offset, vec2(0.5f, 0.25f));
  EXPECT_EQ(base.rotation, 1.5f);
  EXPECT_EQ(base.scale, vec2(2, 3));
  EXPECT_EQ(base.texcoord, 1);  // the transform's texCoord overrides
  EXPECT_EQ(base.wrap_s, 33071);
  EXPECT_EQ(base.wrap_t, 10497);
  EXPECT_EQ(base.mag_filter, 9729);
  EXPECT_EQ(base.min_filter, 9987);
  const TextureRef& normal = mat.normal_texture;
  EXPECT_EQ(normal.image, 1);
  EXPECT_EQ(normal.texcoord, 1);
  EXPECT_FALSE(normal.has_transform);
  ASSERT_EQ(m->images().size(), 2u);
  EXPECT_EQ(m->images()[0].bytes, (std::vector<std::uint8_t>{'a', 'b', 'c'}));
  EXPECT_EQ(m->images()[0].mime_type, "image/png");
  EXPECT_EQ(m->images()[1].bytes, (std::vector<std::uint8_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(m->images()[1].mime_type, "image/jpeg");
  EXPECT_EQ(m->meshes()[0].parts[0].material, 0);
}

TEST(GltfReader, ExternalImagesResolvedAndMissingOnesWarn) {
  testing::ScratchDir dir;
  GltfBuilder b = triangle();
  b.json()["images"] = {{{"uri", "tex%201.png"}}, {{"uri", "gone.png"}}};
  testing::write_file(dir.file("tex 1.png"), std::string_view("png"));
  testing::write_file(dir.file("a.bin"), b.bin());
  testing::write_file(dir.file("a.gltf"), b.gltf_external("a.bin"));
  Diagnostics diag;
  auto m = io::load(dir.file("a.gltf"), {}, &diag);
  ASSERT_TRUE(m) << error_text(m);
  ASSERT_EQ(m->images().size(), 2u);
  EXPECT_EQ(m->images()[0].uri, "tex%201.png");
  EXPECT_EQ(std::filesystem::path(m->images()[0].resolved_path),
            std::filesystem::path(dir.file("tex 1.png")));
  EXPECT_FALSE(m->images()[0].missing);
  EXPECT_TRUE(m->images()[0].bytes.empty());
  EXPECT_TRUE(m->images()[1].missing);
  ASSERT_EQ(diag.size(), 1u);
  EXPECT_EQ(diag.items()[0].location, "/images/1/uri");
  EXPECT_EQ(diag.items()[0].path, dir.file("a.gltf"));
}

TEST(GltfReader, SupportedRequiredExtensionsAreAccepted) {
  GltfBuilder b = triangle();
  b.json()["extensionsRequired"] = {"KHR_mesh_quantization", "KHR_texture_transform",
                                    "KHR_materials_unlit"};
  auto m = load(b);
  EXPECT_TRUE(m) << error_text(m);
}

TEST(GltfReader, OutsideUrisAllowedByOption) {
  testing::ScratchDir dir;
  const GltfBuilder b = triangle();
  std::filesystem::create_directory(dir.file("models"));
  testing::write_file(dir.file("shared.bin"), b.bin());
  testing::write_file(dir.file("models/m.gltf"), b.gltf_external("../shared.bin"));
  auto refused = io::load(dir.file("models/m.gltf"));
  EXPECT_TRUE(fails_with(refused, ErrorCode::kInvalid, "/buffers/0/uri"));
  io::LoadOptions options;
  options.allow_outside_uris = true;
  auto m = io::load(dir.file("models/m.gltf"), options);
  EXPECT_TRUE(m) << error_text(m);
}

// A buffer inside the model's folder that is a symbolic link leading out of it, or a URI with
// Windows separators climbing out: refused like "../x.bin" (core/path_confinement.h).
TEST(GltfReader, LinksAndBackslashesLeavingTheFolderAreRefused) {
  testing::ScratchDir dir;
  const GltfBuilder b = triangle();
  std::filesystem::create_directory(dir.file("models"));
  testing::write_file(dir.file("shared.bin"), b.bin());
  std::filesystem::create_symlink(dir.file("shared.bin"), dir.file("models/link.bin"));
  testing::write_file(dir.file("models/m.gltf"), b.gltf_external("link.bin"));
  auto refused = io::load(dir.file("models/m.gltf"));
  EXPECT_TRUE(fails_with(refused, ErrorCode::kInvalid, "/buffers/0/uri"));
  EXPECT_NE(error_text(refused).find("symbolic link"), std::string::npos) << error_text(refused);
  io::LoadOptions options;
  options.allow_outside_uris = true;
  auto m = io::load(dir.file("models/m.gltf"), options);
  EXPECT_TRUE(m) << error_text(m);

  testing::write_file(dir.file("models/w.gltf"), b.gltf_external("..%5Cshared.bin"));
  EXPECT_TRUE(
      fails_with(io::load(dir.file("models/w.gltf")), ErrorCode::kInvalid, "/buffers/0/uri"));
}

// ---------------------------------------------------------------------------------------------
// Rejections: code and location.

Result<RawModel> read_json(const std::string& text, Diagnostics* diag = nullptr) {
  return io::read_gltf_raw_memory(testing::as_bytes(text), "mem.gltf", "", {}, diag);
}

void put_u32(std::vector<std::uint8_t>& bytes, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i)
    bytes[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (8 * i));
}

TEST(GltfReaderReject, GlbHeaderTooShort) {
  const auto glb = triangle().glb();
  auto r = read_raw(std::span(glb).first(10));
  EXPECT_TRUE(fails_with(r, ErrorCode::kParse, "byte 10"));
  EXPECT_EQ(r.error().path, "mem.glb");
}

TEST(GltfReaderReject, GlbBadMagic) {
  auto glb = triangle().glb();
  glb[3] = 'X';
  EXPECT_TRUE(fails_with(read_raw(glb), ErrorCode::kParse, "byte 0"));
}

TEST(GltfReaderReject, GlbBadVersion) {
  auto glb = triangle().glb();
  put_u32(glb, 4, 1);
  EXPECT_TRUE(fails_with(read_raw(glb), ErrorCode::kUnsupported, "byte 4"));
}

TEST(GltfReaderReject, GlbLengthFieldLies) {
  auto glb = triangle().glb();
  put_u32(glb, 8, static_cast<std::uint32_t>(glb.size() + 4));
  EXPECT_TRUE(fails_with(read_raw(glb), ErrorCode::kParse, "byte 8"));
  put_u32(glb, 8, static_cast<std::uint32_t>(glb.size() - 4));
  EXPECT_TRUE(fails_with(read_raw(glb), ErrorCode::kParse, "byte 8"));
}

TEST(GltfReaderReject, GlbChunkPastEnd) {
  auto glb = triangle().glb();
  put_u32(glb, 12, 0x7FFFFFF0u);  // JSON chunk length
  EXPECT_TRUE(fails_with(read_raw(glb), ErrorCode::kParse, "byte 12"));
  glb = triangle().glb();
  const std::size_t json_length = glb[12] | (glb[13] << 8);
  const std::size_t bin_header = 20 + json_length;
  put_u32(glb, bin_header, 4096);  // BIN chunk length
  EXPECT_TRUE(fails_with(read_raw(glb), ErrorCode::kParse, "byte " + std::to_string(bin_header)));
}

TEST(GltfReaderReject, GlbJsonChunkNotFirst) {
  auto glb = triangle().glb();
  put_u32(glb, 16, 0x004E4942);  // first chunk typed BIN
  EXPECT_TRUE(fails_with(read_raw(glb), ErrorCode::kParse, "byte 16"));
}

TEST(GltfReaderReject, GlbTruncatedChunkHeader) {
  auto glb = triangle().glb();
  glb.insert(glb.end(), {1, 0, 0, 0});  // 4 stray bytes: not a whole chunk header
  put_u32(glb, 8, static_cast<std::uint32_t>(glb.size()));
  EXPECT_TRUE(
      fails_with(read_raw(glb), ErrorCode::kParse, "byte " + std::to_string(glb.size() - 4)));
}

TEST(GltfReaderReject, EveryTruncationOfAGlbFails) {
  GltfBuilder b = triangle();
  const int in = b.add_floats({0, 1}, "SCALAR");
  const int out = b.add_floats({0, 0, 0, 1, 0, 0}, "VEC3");
  b.json()["animations"] = {
      {{"samplers", {{{"input", in}, {"output", out}}}},
       {"channels", {{{"sampler", 0}, {"target", {{"node", 0}, {"path", "translation"}}}}}}}};
  const auto glb = b.glb();
  ASSERT_TRUE(read_raw(glb));
  for (std::size_t n = 0; n < glb.size(); ++n) {
    // A copy of exactly n bytes, so that reading past it is caught by sanitizers.
    const std::vector<std::uint8_t> prefix(glb.begin(), glb.begin() + static_cast<long>(n));
    auto r = read_raw(prefix);
    EXPECT_FALSE(r.has_value()) << "prefix of " << n << " bytes loaded";
  }
}

TEST(GltfReaderReject, JsonSyntaxErrorReportsByteOffset) {
  const std::string text =
      R"({"asset": {"version": "2.0"}, "nodes": [{"name": "a"} {"name": "b"}]})";
  auto r = read_json(text);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kParse);
  // The second node object starts where a ',' or ']' was due.
  EXPECT_EQ(r.error().location, "byte " + std::to_string(text.find("{\"name\": \"b\"")));
}

TEST(GltfReaderReject, JsonSyntaxErrorInGlbCountsFromFileStart) {
  const std::string text = R"({"asset": {"version": "2.0"}, "nodes": [1 2]})";
  const auto glb = testing::make_glb(text, {}, false);
  auto r = read_raw(glb);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kParse);
  EXPECT_EQ(r.error().location, "byte " + std::to_string(20 + text.find(" 2]") + 1));
}

TEST(GltfReaderReject, RootNotObjectAndMissingAsset) {
  EXPECT_TRUE(fails_with(read_json("[1, 2]"), ErrorCode::kInvalid, ""));
  EXPECT_TRUE(fails_with(read_json("{}"), ErrorCode::kInvalid, "/asset"));
  EXPECT_TRUE(fails_with(read_json(R"({"asset": {}})"), ErrorCode::kInvalid, "/asset/version"));
  EXPECT_TRUE(fails_with(read_json(R"({"asset": {"version": "1.0"}})"), ErrorCode::kUnsupported,
                         "/asset/version"));
}

TEST(GltfReaderReject, UnsupportedRequiredExtensions) {
  GltfBuilder b = triangle();
  b.json()["extensionsRequired"] = {"KHR_mesh_quantization", "EXT_unknown_thing"};
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kUnsupported, "/extensionsRequired/1"));
  b.json()["extensionsRequired"] = {"KHR_draco_mesh_compression"};
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kUnsupported, "/extensionsRequired/0"));
  b.json()["extensionsRequired"] = {"KHR_texture_transform", "EXT_meshopt_compression"};
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kUnsupported, "/extensionsRequired/1"));
}

TEST(GltfReaderReject, MissingRequiredProperties) {
  GltfBuilder b = triangle();
  b.json()["accessors"][0].erase("componentType");
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/accessors/0/componentType"));
  b = triangle();
  b.json()["accessors"][0].erase("count");
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/accessors/0/count"));
  b = triangle();
  b.json()["accessors"][0].erase("type");
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/accessors/0/type"));
  b = triangle();
  b.json()["bufferViews"][0].erase("byteLength");
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/bufferViews/0/byteLength"));
  b = triangle();
  prim0(b).erase("attributes");
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/meshes/0/primitives/0/attributes"));
  b = animated({0, 1}, {0, 0, 0, 1, 0, 0}, "translation", "VEC3", "LINEAR");
  b.json()["animations"][0]["samplers"][0].erase("output");
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/animations/0/samplers/0/output"));
}

TEST(GltfReaderReject, WrongTypes) {
  GltfBuilder b = triangle();
  b.json()["accessors"][0]["count"] = "3";
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/accessors/0/count"));
  b = triangle();
  b.json()["nodes"][0]["translation"] = {1, "x", 3};
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/nodes/0/translation/1"));
  b = triangle();
  b.json()["nodes"][0]["name"] = 5;
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/nodes/0/name"));
  b = triangle();
  b.json()["meshes"] = json::object();
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/meshes"));
  b = triangle();
  b.json()["accessors"][0]["componentType"] = 5124;
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/accessors/0/componentType"));
  b = triangle();
  b.json()["accessors"][0]["type"] = "VEC5";
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/accessors/0/type"));
  b = triangle();
  b.json()["accessors"][0]["type"] = "VEC2";  // POSITION must be VEC3
  b.json()["accessors"][0]["count"] = 4;
  EXPECT_TRUE(
      fails_with(read_raw(b), ErrorCode::kInvalid, "/meshes/0/primitives/0/attributes/POSITION"));
  b = triangle();
  b.json()["accessors"][0]["normalized"] = true;  // not allowed for floats
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/accessors/0/normalized"));
  b = triangle();
  prim0(b)["mode"] = 7;
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/meshes/0/primitives/0/mode"));
}

TEST(GltfReaderReject, IndicesOutOfRange) {
  struct Case {
    const char* pointer;  // where the bad index goes (a JSON pointer into the document)
    int value;
  };
  GltfBuilder base = triangle();
  base.json()["images"] = {{{"uri", "data:image/png;base64,AAAA"}}};
  base.json()["samplers"] = json::array({json::object()});
  base.json()["textures"] = {{{"source", 0}, {"sampler", 0}}};
  base.json()["materials"] = {{{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", 0}}}}}}};
  base.json()["skins"] = {{{"joints", {0}}}};
  base.json()["nodes"].push_back({{"name", "child"}});
  base.json()["nodes"][0]["children"] = {1};
  ASSERT_TRUE(read_raw(base)) << error_text(read_raw(base));
  const Case cases[] = {
      {"/bufferViews/0/buffer", 5},
      {"/accessors/0/bufferView", 9},
      {"/meshes/0/primitives/0/attributes/POSITION", 9},
      {"/meshes/0/primitives/0/indices", 9},
      {"/nodes/0/children/0", 7},
      {"/nodes/0/mesh", 3},
      {"/nodes/0/skin", 2},
      {"/skins/0/joints/0", 2},
      {"/meshes/0/primitives/0/material", 4},
      {"/textures/0/source", 1},
      {"/textures/0/sampler", 1},
      {"/materials/0/pbrMetallicRoughness/baseColorTexture/index", 2},
      {"/scene", 0},
  };
  for (const Case& c : cases) {
    GltfBuilder b = base;
    b.json()[json::json_pointer(c.pointer)] = c.value;
    // The glb() output rewrites buffers[0]; put a bad buffer index through the view instead.
    EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kOutOfRange, c.pointer)) << c.pointer;
  }
}

TEST(GltfReaderReject, AccessorDoesNotFitItsView) {
  GltfBuilder b = triangle();
  b.json()["accessors"][0]["count"] = 4;  // 4 * 12 bytes > 36
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kOutOfRange, "/accessors/0/count"));
  b = triangle();
  b.json()["accessors"][0]["byteOffset"] = 4;  // 4 + 36 > 36
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kOutOfRange, "/accessors/0/count"));
  b = triangle();
  b.json()["accessors"][0]["byteOffset"] = 40;
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kOutOfRange, "/accessors/0/byteOffset"));
  b = triangle();
  b.json()["bufferViews"][0]["byteStride"] = 16;  // (3 - 1) * 16 + 12 = 44 > 36
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kOutOfRange, "/accessors/0/count"));
}

TEST(GltfReaderReject, HostileCountsAreRejectedBeforeAllocating) {
  GltfBuilder b = triangle();
  b.json()["accessors"][0]["count"] = 4000000000ull;
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kOutOfRange, "/accessors/0/count"));
  b = triangle();
  b.json()["accessors"][0]["count"] = 18446744073709551615ull;
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kOutOfRange, "/accessors/0/count"));
  b = triangle();
  b.json()["accessors"][0].erase("bufferView");  // zeros: nothing to check against but the budget
  b.json()["accessors"][0]["count"] = 4000000000ull;
  EXPECT_TRUE(
      fails_with(read_raw(b), ErrorCode::kLimit, "/meshes/0/primitives/0/attributes/POSITION"));
  b = triangle();
  const int idx = b.add_view(std::vector<std::uint8_t>{0, 0, 0, 0});
  b.json()["accessors"][0]["sparse"] = {
      {"count", 3},
      {"indices", {{"bufferView", idx}, {"componentType", kUnsignedInt}}},
      {"values", {{"bufferView", 0}}}};
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kOutOfRange, "/accessors/0/sparse/count"));
}

TEST(GltfReaderReject, SparseIndexOutOfRange) {
  GltfBuilder b = triangle();
  const int idx = b.add_view(std::vector<std::uint16_t>{3, 0});
  const int val = b.add_view(std::vector<float>{5, 6, 7});
  b.json()["accessors"][0]["sparse"] = {
      {"count", 1},
      {"indices", {{"bufferView", idx}, {"componentType", kUnsignedShort}}},
      {"values", {{"bufferView", val}}}};
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kOutOfRange, "/accessors/0/sparse/indices"));
}

TEST(GltfReaderReject, ViewDoesNotFitItsBuffer) {
  GltfBuilder b = triangle();
  b.json()["bufferViews"][0]["byteLength"] = 40;
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kOutOfRange, "/bufferViews/0/byteLength"));
  b = triangle();
  b.json()["bufferViews"][0]["byteOffset"] = 8;
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kOutOfRange, "/bufferViews/0/byteLength"));
  b = triangle();
  b.json()["bufferViews"][0]["byteOffset"] = 18446744073709551615ull;
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kOutOfRange, "/bufferViews/0/byteOffset"));
}

TEST(GltfReaderReject, BufferLongerThanItsData) {
  GltfBuilder b = triangle();
  std::string text = b.gltf_embedded();
  const std::string from = "\"byteLength\":36";
  const std::size_t at = text.find(from, text.find("\"buffers\""));
  ASSERT_NE(at, std::string::npos);
  text.replace(at, from.size(), "\"byteLength\":37");
  EXPECT_TRUE(fails_with(read_json(text), ErrorCode::kOutOfRange, "/buffers/0/byteLength"));

  auto glb = b.glb();  // GLB: the BIN chunk holds 36 bytes
  std::string json_text(glb.begin() + 20, glb.begin() + 20 + (glb[12] | (glb[13] << 8)));
  const std::size_t j = json_text.find("\"byteLength\":36", json_text.find("\"buffers\""));
  json_text.replace(j, from.size(), "\"byteLength\":99");
  glb = testing::make_glb(json_text, b.bin());
  EXPECT_TRUE(fails_with(read_raw(glb), ErrorCode::kOutOfRange, "/buffers/0/byteLength"));
}

TEST(GltfReaderReject, BufferWithoutUriOutsideGlb) {
  GltfBuilder b = triangle();
  json doc = json::parse(b.gltf_embedded());
  doc["buffers"][0].erase("uri");
  EXPECT_TRUE(fails_with(read_json(doc.dump()), ErrorCode::kInvalid, "/buffers/0"));
}

TEST(GltfReaderReject, BadBase64) {
  GltfBuilder b = triangle();
  json doc = json::parse(b.gltf_embedded());
  std::string uri = doc["buffers"][0]["uri"];
  uri[uri.size() - 5] = '*';
  doc["buffers"][0]["uri"] = uri;
  EXPECT_TRUE(fails_with(read_json(doc.dump()), ErrorCode::kParse, "/buffers/0/uri"));
  doc["buffers"][0]["uri"] = "data:application/octet-stream;base64,QUJDR";  // 5 characters
  EXPECT_TRUE(fails_with(read_json(doc.dump()), ErrorCode::kParse, "/buffers/0/uri"));
  doc["buffers"][0]["uri"] = "data:application/octet-stream,plain";
  EXPECT_TRUE(fails_with(read_json(doc.dump()), ErrorCode::kUnsupported, "/buffers/0/uri"));
}

TEST(GltfReaderReject, NodeGraphCycleAndTwoParents) {
  GltfBuilder b;
  b.json()["nodes"] = {{{"children", {1}}}, {{"children", {0}}}};
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/nodes/1/children/0"));
  b.json()["nodes"] = {{{"children", {1}}}, {{"children", {2}}}, {{"children", {1}}}};
  // Node 1 gets parent 0, then node 2 lists it again.
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/nodes/2/children/0"));
  b.json()["nodes"] = {
      json::object(), {{"children", {2}}}, {{"children", {3}}}, {{"children", {1}}}};
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/nodes/3/children/0"));
  b.json()["nodes"] = {{{"children", {0}}}};
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/nodes/0/children/0"));
  b.json()["nodes"] = {
      {{"children", {1}}}, {{"children", {2}}}, json::object(), {{"children", {2}}}};
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/nodes/3/children/0"));
}

TEST(GltfReaderReject, NonFiniteTransforms) {
  GltfBuilder b = triangle();
  b.json()["nodes"][0]["translation"] = {1e39, 0, 0};  // finite as a double, not as a float
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/nodes/0/translation"));
  b = triangle();
  b.json()["nodes"][0]["matrix"] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -1e300, 1};
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/nodes/0/matrix"));
  b = triangle();
  b.json()["nodes"][0]["scale"] = {1, 1};
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/nodes/0/scale"));
}

TEST(GltfReaderReject, BadKeyTimes) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> values = {0, 0, 0, 1, 0, 0};
  for (const auto& times : {std::vector<float>{0, nan}, std::vector<float>{inf, 1},
                            std::vector<float>{-0.5f, 1}, std::vector<float>{1, 0.5f}}) {
    auto r = read_raw(animated(times, values, "translation", "VEC3", "LINEAR"));
    EXPECT_TRUE(fails_with(r, ErrorCode::kInvalid, "/animations/0/samplers/0/input"))
        << times[0] << " " << times[1];
  }
}

TEST(GltfReaderReject, AnimationOutputCountMismatch) {
  auto r = read_raw(animated({0, 1}, {0, 0, 0, 1, 0, 0}, "translation", "VEC3", "CUBICSPLINE"));
  EXPECT_TRUE(fails_with(r, ErrorCode::kInvalid, "/animations/0/samplers/0/output"));
  r = read_raw(animated({0, 1}, {0, 0, 0, 1}, "rotation", "VEC4", "LINEAR"));
  EXPECT_TRUE(fails_with(r, ErrorCode::kInvalid, "/animations/0/samplers/0/output"));
  r = read_raw(animated({0, 1}, {0, 1}, "weights", "SCALAR", "LINEAR"));  // mesh has no targets
  EXPECT_TRUE(fails_with(r, ErrorCode::kInvalid, "/animations/0/channels/0/target/node"));
  r = read_raw(animated({0, 1}, {0, 0, 0, 1, 0, 0}, "translation", "VEC3", "SMOOTH"));
  EXPECT_TRUE(fails_with(r, ErrorCode::kInvalid, "/animations/0/samplers/0/interpolation"));
}

TEST(GltfReaderReject, FileOverSizeLimit) {
  const auto glb = triangle().glb();
  io::LoadOptions options;
  options.max_file_bytes = 100;
  EXPECT_TRUE(fails_with(read_raw(glb, nullptr, options), ErrorCode::kLimit, ""));
  testing::ScratchDir dir;
  testing::write_file(dir.file("big.glb"), glb);
  EXPECT_TRUE(fails_with(io::load(dir.file("big.glb"), options), ErrorCode::kLimit, ""));
  // External buffers count too.
  const GltfBuilder b = triangle();
  std::vector<std::uint8_t> big = b.bin();
  big.resize(2000, 0);
  testing::write_file(dir.file("big.bin"), big);
  const std::string text = b.gltf_external("big.bin");
  ASSERT_LT(text.size(), 1000u);
  io::LoadOptions limited;
  limited.max_file_bytes = 1000;
  auto r =
      io::read_gltf_raw_memory(testing::as_bytes(text), "ext.gltf", dir.path().string(), limited);
  EXPECT_TRUE(fails_with(r, ErrorCode::kLimit, "/buffers/0/uri"));
  limited.max_file_bytes = 2000;
  r = io::read_gltf_raw_memory(testing::as_bytes(text), "ext.gltf", dir.path().string(), limited);
  EXPECT_TRUE(r) << error_text(r);
}

TEST(GltfReaderReject, MissingExternalBufferAndUnsupportedUris) {
  testing::ScratchDir dir;
  const GltfBuilder b = triangle();
  testing::write_file(dir.file("a.gltf"), b.gltf_external("nowhere.bin"));
  auto r = io::load(dir.file("a.gltf"));
  EXPECT_TRUE(fails_with(r, ErrorCode::kIo, "/buffers/0/uri"));
  EXPECT_EQ(r.error().path, dir.file("a.gltf"));
  testing::write_file(dir.file("b.gltf"), b.gltf_external("/etc/passwd"));
  EXPECT_TRUE(fails_with(io::load(dir.file("b.gltf")), ErrorCode::kInvalid, "/buffers/0/uri"));
  testing::write_file(dir.file("c.gltf"), b.gltf_external("https://example.com/x.bin"));
  EXPECT_TRUE(fails_with(io::load(dir.file("c.gltf")), ErrorCode::kUnsupported, "/buffers/0/uri"));
  testing::write_file(dir.file("d.gltf"), b.gltf_external("a%2x.bin"));
  EXPECT_TRUE(fails_with(io::load(dir.file("d.gltf")), ErrorCode::kInvalid, "/buffers/0/uri"));
  testing::write_file(dir.file("e.gltf"), b.gltf_external("sub/../../x.bin"));
  EXPECT_TRUE(fails_with(io::load(dir.file("e.gltf")), ErrorCode::kInvalid, "/buffers/0/uri"));
}

TEST(GltfReaderReject, ImageOutsideFolderIsAnError) {
  GltfBuilder b = triangle();
  b.json()["images"] = {{{"uri", "../secret.png"}}};
  EXPECT_TRUE(fails_with(read_raw(b), ErrorCode::kInvalid, "/images/0/uri"));
}

TEST(GltfReaderReject, LoadDispatch) {
  testing::ScratchDir dir;
  EXPECT_TRUE(fails_with(io::load(dir.file("none.gltf")), ErrorCode::kIo, ""));
  testing::write_file(dir.file("x.nope"), std::string_view("hello"));
  auto r = io::load(dir.file("x.nope"));
  EXPECT_TRUE(fails_with(r, ErrorCode::kUnsupported, ""));
  EXPECT_EQ(r.error().path, dir.file("x.nope"));
  // GLB content is recognised whatever the extension.
  testing::write_file(dir.file("model.bin3d"), triangle().glb());
  EXPECT_TRUE(io::load(dir.file("model.bin3d")));
}

}  // namespace
}  // namespace critter
