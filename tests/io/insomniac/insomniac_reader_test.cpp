// SPDX-License-Identifier: MIT
// Insomniac .model reader: synthetic files of every game family (written by the test writer from
// a RawModel) read back to the same model within packing precision, every encoding path, the
// spec's test vectors, and located errors for broken files.
#include "critter/io/insomniac/insomniac_reader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "critter/io/gltf/gltf_writer.h"
#include "critter/io/load.h"
#include "support/insomniac_writer.h"

namespace critter {
namespace {

using io::InsomniacGame;
using io::InsomniacInfo;
using io::InsomniacOptions;
using testing::InsomniacTestGame;
using testing::InsomniacWriteOptions;
using testing::InsomniacWrittenFile;

constexpr std::uint32_t kTagBuilt = 0x283D0383u;
constexpr std::uint32_t kTagSubset = 0x78D9CBDEu;
constexpr std::uint32_t kTagLook = 0x06EB7EFCu;
constexpr std::uint32_t kTagIndex = 0x0859863Du;
constexpr std::uint32_t kTagStdVert = 0xA98BE69Bu;
constexpr std::uint32_t kTagJoint = 0x15DF9D3Bu;
constexpr std::uint32_t kTagSkinBatch = 0xC61B1FF5u;
constexpr std::uint32_t kTagMorphInfo = 0x380A5744u;
constexpr std::uint32_t kTagGpuSkin = 0xCCBAFF15u;
constexpr std::uint32_t kTagSkinRemap = 0x5240C82Bu;

void put32(std::vector<std::uint8_t>& b, std::uint64_t at, std::uint32_t v) {
  for (int k = 0; k < 4; ++k)
    b[at + static_cast<std::uint64_t>(k)] = static_cast<std::uint8_t>(v >> (8 * k));
}
void put16(std::vector<std::uint8_t>& b, std::uint64_t at, std::uint16_t v) {
  b[at] = static_cast<std::uint8_t>(v);
  b[at + 1] = static_cast<std::uint8_t>(v >> 8);
}
std::uint32_t get32(const std::vector<std::uint8_t>& b, std::uint64_t at) {
  std::uint32_t v = 0;
  for (int k = 3; k >= 0; --k) v = (v << 8) | b[at + static_cast<std::uint64_t>(k)];
  return v;
}

// A height-field grid of n x n vertices; `facing` +1 faces +Z, -1 faces -Z. Triangles are
// counter-clockwise seen from the side the normals point to.
MeshPart grid_part(int n, float facing, float z0) {
  MeshPart part;
  VertexStreams& s = part.streams;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const float u = static_cast<float>(i) / static_cast<float>(n - 1);
      const float v = static_cast<float>(j) / static_cast<float>(n - 1);
      const float x = 2.0f * u - 1.0f, y = 2.0f * v - 1.0f;
      const float z = z0 + facing * 0.1f * std::sin(x) * std::cos(y);
      const float dzdx = facing * 0.1f * std::cos(x) * std::cos(y);
      const float dzdy = -facing * 0.1f * std::sin(x) * std::sin(y);
      s.positions.emplace_back(x, y, z);
      const vec3 nrm = glm::normalize(vec3(-dzdx, -dzdy, 1.0f) * facing);
      s.normals.push_back(nrm);
      const vec3 t = glm::normalize(vec3(1.0f, 0.0f, dzdx) - nrm * glm::dot(nrm, vec3(1, 0, dzdx)));
      s.tangents.emplace_back(t, (i + j) % 2 ? 1.0f : -1.0f);
      s.uv0.emplace_back(u, v);
      s.uv1.emplace_back(0.5f * u, 1.0f - v);
      s.colors.emplace_back(u, v, 0.5f, 1.0f);
    }
  for (int j = 0; j + 1 < n; ++j)
    for (int i = 0; i + 1 < n; ++i) {
      const auto a = static_cast<std::uint32_t>(j * n + i);
      const auto b = a + 1, c = a + static_cast<std::uint32_t>(n) + 1,
                 d = a + static_cast<std::uint32_t>(n);
      if (facing > 0)
        part.indices.insert(part.indices.end(), {a, b, c, a, c, d});
      else
        part.indices.insert(part.indices.end(), {a, c, b, a, d, c});
    }
  return part;
}

// Four joints, two materials, a skinned body (1-, 2- and 3-influence vertices, two morphs) and a
// head bound to one joint.
RawModel make_creature(int n = 6) {
  RawModel m;
  m.name = "creature";
  auto joint = [&](std::string name, int parent, vec3 t, quat r) {
    RawJoint j;
    j.name = std::move(name);
    j.parent = parent;
    j.rest.translation = t;
    j.rest.rotation = r;
    m.skeleton.joints.push_back(j);
  };
  joint("root", -1, {0, 0.1f, 0}, quat(1, 0, 0, 0));
  joint("spine", 0, {0, 0.5f, 0}, glm::angleAxis(0.3f, vec3(0, 0, 1)));
  joint("head", 1, {0, 0.4f, 0.1f}, glm::angleAxis(-0.2f, vec3(1, 0, 0)));
  joint("tail", 0, {0, 0, -0.5f}, glm::angleAxis(0.5f, vec3(0, 1, 0)));
  Skin skin;
  skin.name = "skin";
  std::vector<mat4> world(4);
  for (std::size_t i = 0; i < 4; ++i) {
    const RawJoint& j = m.skeleton.joints[i];
    world[i] = (j.parent < 0 ? mat4(1.0f) : world[static_cast<std::size_t>(j.parent)]) *
               j.rest.to_matrix();
    skin.joints.push_back(static_cast<std::int16_t>(i));
    skin.inverse_bind.push_back(glm::inverse(world[i]));
  }
  m.skins.push_back(skin);
  Material a, b;
  a.name = "skin_mat";
  b.name = "eye_mat";
  m.materials = {a, b};

  Mesh body;
  body.name = "sm00";
  body.skin = 0;
  MeshPart part = grid_part(n, 1.0f, 0.0f);
  part.material = 0;
  const std::size_t vc = part.vertex_count();
  part.streams.joints.assign(vc, glm::u16vec4(0));
  part.streams.weights.assign(vc, vec4(0.0f));
  for (std::size_t v = 0; v < vc; ++v) {
    if (v % 3 == 0) {
      part.streams.joints[v] = {1, 0, 0, 0};
      part.streams.weights[v] = {1, 0, 0, 0};
    } else if (v % 3 == 1) {
      part.streams.joints[v] = {1, 2, 0, 0};
      part.streams.weights[v] = {0.75f, 0.25f, 0, 0};
    } else {
      part.streams.joints[v] = {0, 1, 3, 0};
      part.streams.weights[v] = {0.5f, 0.3f, 0.2f, 0};
    }
  }
  MorphTarget smile, blink;
  smile.positions.assign(vc, vec3(0.0f));
  blink.positions.assign(vc, vec3(0.0f));
  blink.normals.assign(vc, vec3(0.0f));
  for (std::size_t v = 0; v < vc; v += 2)
    smile.positions[v] = vec3(0.0f, 0.001f * static_cast<float>(v), 0.02f);
  for (std::size_t v = 0; v < vc / 2; ++v) {
    blink.positions[v] = vec3(-0.05f, 0.0f, 0.01f * static_cast<float>(v % 5));
    blink.normals[v] = vec3(0.0f, 0.1f, -0.05f);
  }
  part.morphs.targets = {smile, blink};
  body.morph_names = {"smile", "blink"};
  body.default_weights = {0, 0};
  body.parts.push_back(std::move(part));
  m.meshes.push_back(std::move(body));

  Mesh head;
  head.name = "sm01";
  head.skin = 0;
  MeshPart hp = grid_part(n - 1, -1.0f, -0.3f);
  hp.material = 1;
  hp.streams.joints.assign(hp.vertex_count(), {2, 0, 0, 0});
  hp.streams.weights.assign(hp.vertex_count(), {1, 0, 0, 0});
  head.parts.push_back(std::move(hp));
  m.meshes.push_back(std::move(head));
  return m;
}

Result<Model> read(const InsomniacWrittenFile& f, const InsomniacOptions& opt = {},
                   Diagnostics* diag = nullptr, InsomniacInfo* info = nullptr) {
  return io::load_insomniac_memory(f.bytes, "test.model", opt, diag, info);
}

std::map<int, float> influences(const Model& model, const Mesh& mesh, const VertexStreams& s,
                                std::size_t v) {
  std::map<int, float> out;
  for (int k = 0; k < 4; ++k)
    if (s.weights[v][k] > 0.0f) {
      const Skin& skin = model.skins()[static_cast<std::size_t>(mesh.skin)];
      out[skin.joints[s.joints[v][k]]] += s.weights[v][k];
    }
  return out;
}

std::map<int, float> influences(const RawModel& model, const Mesh& mesh, const VertexStreams& s,
                                std::size_t v) {
  std::map<int, float> out;
  for (int k = 0; k < 4; ++k)
    if (s.weights[v][k] > 0.0f) {
      const Skin& skin = model.skins[static_cast<std::size_t>(mesh.skin)];
      out[skin.joints[s.joints[v][k]]] += s.weights[v][k];
    }
  return out;
}

struct Tolerance {
  float position = 1.0f / 8192.0f + 1e-6f;
  float uv = 1.0f / 32768.0f + 1e-6f;
  bool uv1 = true;
  bool colors = true;
  bool tangents = true;
};

// The model read back equals `src` within packing precision.
void expect_same(const RawModel& src, const Model& got, const Tolerance& tol = {}) {
  ASSERT_GE(got.skeleton().joint_count(), static_cast<int>(src.skeleton.joints.size()));
  for (std::size_t i = 0; i < src.skeleton.joints.size(); ++i) {
    const RawJoint& j = src.skeleton.joints[i];
    EXPECT_EQ(got.skeleton().names()[i], j.name);
    EXPECT_EQ(got.skeleton().parents()[i], j.parent);
    const Transform& t = got.skeleton().rest_pose()[i];
    EXPECT_NEAR(glm::distance(t.translation, j.rest.translation), 0.0f, 1e-6f) << j.name;
    EXPECT_NEAR(std::abs(glm::dot(t.rotation, j.rest.rotation)), 1.0f, 1e-6f) << j.name;
  }
  ASSERT_EQ(got.meshes().size(), src.meshes.size());
  for (std::size_t mi = 0; mi < src.meshes.size(); ++mi) {
    const Mesh& a = src.meshes[mi];
    const Mesh& b = got.meshes()[mi];
    SCOPED_TRACE("mesh " + std::to_string(mi));
    char name[32];
    std::snprintf(name, sizeof name, "sm%02zu", mi);
    EXPECT_EQ(b.name, name);
    ASSERT_EQ(b.parts.size(), 1u);
    const MeshPart& pa = a.parts[0];
    const MeshPart& pb = b.parts[0];
    EXPECT_EQ(pb.material, pa.material);
    ASSERT_EQ(pb.vertex_count(), pa.vertex_count());
    EXPECT_EQ(pb.indices, pa.indices);
    const VertexStreams& sa = pa.streams;
    const VertexStreams& sb = pb.streams;
    ASSERT_EQ(sb.normals.size(), sa.normals.size());
    ASSERT_EQ(sb.uv0.size(), sa.uv0.size());
    if (tol.tangents) {
      ASSERT_EQ(sb.tangents.size(), sa.tangents.size());
    }
    if (tol.uv1) {
      ASSERT_EQ(sb.uv1.size(), sa.uv1.size());
    }
    if (tol.colors) {
      ASSERT_EQ(sb.colors.size(), sa.colors.size());
    }
    for (std::size_t v = 0; v < pa.vertex_count(); ++v) {
      for (int c = 0; c < 3; ++c)
        ASSERT_NEAR(sb.positions[v][c], sa.positions[v][c], tol.position) << v;
      ASSERT_LT(glm::distance(sb.normals[v], glm::normalize(sa.normals[v])), 0.005f) << v;
      for (int c = 0; c < 2; ++c) ASSERT_NEAR(sb.uv0[v][c], sa.uv0[v][c], tol.uv) << v;
      if (tol.tangents) {
        ASSERT_LT(glm::distance(vec3(sb.tangents[v]), vec3(sa.tangents[v])), 0.005f) << v;
        ASSERT_EQ(sb.tangents[v].w, sa.tangents[v].w) << v;
      }
      if (tol.uv1) {
        for (int c = 0; c < 2; ++c) ASSERT_NEAR(sb.uv1[v][c], sa.uv1[v][c], tol.uv) << v;
      }
      if (tol.colors) {
        for (int c = 0; c < 4; ++c)
          ASSERT_NEAR(sb.colors[v][c], sa.colors[v][c], 0.5f / 255.0f + 1e-6f) << v;
      }
    }
    ASSERT_EQ(sb.joints.empty(), sa.joints.empty());
    if (!sa.joints.empty()) {
      for (std::size_t v = 0; v < pa.vertex_count(); ++v) {
        const auto wa = influences(src, a, sa, v);
        const auto wb = influences(got, b, sb, v);
        ASSERT_EQ(wa.size(), wb.size()) << v;
        float sum = 0.0f;
        for (const auto& [joint, w] : wa) {
          ASSERT_TRUE(wb.count(joint)) << "vertex " << v << " joint " << joint;
          EXPECT_NEAR(wb.at(joint), w, 1.0f / 256.0f) << v;
          sum += wb.at(joint);
        }
        EXPECT_NEAR(sum, 1.0f, 1.0f / 256.0f);
      }
    }
    ASSERT_EQ(b.morph_target_count(), a.morph_target_count());
    EXPECT_EQ(b.morph_names, a.morph_names);
    for (std::size_t t = 0; t < a.morph_target_count(); ++t) {
      const MorphTarget& ta = pa.morphs.targets[t];
      const MorphTarget& tb = pb.morphs.targets[t];
      ASSERT_EQ(tb.positions.size(), ta.positions.size());
      ASSERT_EQ(tb.normals.size(), ta.normals.size());
      for (std::size_t v = 0; v < ta.positions.size(); ++v) {
        for (int c = 0; c < 3; ++c) ASSERT_NEAR(tb.positions[v][c], ta.positions[v][c], 2e-4f) << v;
        if (!ta.normals.empty()) {
          for (int c = 0; c < 3; ++c) ASSERT_NEAR(tb.normals[v][c], ta.normals[v][c], 2e-4f) << v;
        }
      }
    }
  }
}

bool has_warning(const Diagnostics& d, std::string_view text) {
  for (const Warning& w : d.items())
    if (w.message.find(text) != std::string::npos) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// Spec vectors and codecs

TEST(InsomniacCrc, SectionNameVectors) {
  EXPECT_EQ(io::insomniac_crc32("Model Index"), 0x0859863Du);
  EXPECT_EQ(io::insomniac_crc32("Model Skin Joint Remap"), 0x5240C82Bu);
  EXPECT_EQ(io::insomniac_crc32("Ambient Shadow Prims"), 0x7CA37DA0u);
  EXPECT_EQ(io::insomniac_crc32("Model Built"), 0x283D0383u);
  EXPECT_EQ(io::insomniac_crc32("Model Std Vert"), 0xA98BE69Bu);
  // The initial value is the polynomial, not 0xFFFFFFFF, and there is no final XOR.
  EXPECT_EQ(io::insomniac_crc32(""), 0xEDB88320u);
  EXPECT_EQ(io::insomniac_crc32("Model Index"), testing::test_insomniac_crc32("Model Index"));
}

TEST(InsomniacCrc, EveryNamedTagIsTheCrcOfItsName) {
  const std::uint32_t tags[] = {0x283D0383, 0x3250BB80, 0x78D9CBDE, 0x06EB7EFC, 0x811902D7,
                                0x4CCEA4AD, 0xDF9FDF12, 0x0859863D, 0xA98BE69B, 0x6B855EED,
                                0x5CBA9DE9, 0x16F3BA18, 0x15DF9D3B, 0xEE31971C, 0xDCC88A19,
                                0x90CDB60C, 0xC5354B60, 0xB7380E8C, 0x0AD3A708, 0xC61B1FF5,
                                0xDCA379A2, 0x5240C82B, 0xCCBAFF15, 0x380A5744, 0x5E709570,
                                0xA600C108, 0x9F614FAB, 0x731CBC2E, 0xEFD92E68, 0x7CA37DA0};
  for (std::uint32_t tag : tags) {
    const std::string_view name = io::insomniac_section_name(tag);
    ASSERT_FALSE(name.empty()) << std::hex << tag;
    EXPECT_EQ(io::insomniac_crc32(name), tag) << name;
  }
  EXPECT_TRUE(io::insomniac_section_name(0x12345678u).empty());
}

TEST(InsomniacCrc, PathNormalisationAndAssetId) {
  EXPECT_EQ(io::insomniac_normalize_path("Characters\\\\Hero//Body.MATERIAL"),
            "characters/hero/body.material");
  const std::uint64_t id = io::insomniac_asset_id("a/b.material");
  EXPECT_EQ(id >> 63, 1u);
  EXPECT_EQ(id, io::insomniac_asset_id("A\\B.material"));
  EXPECT_NE(id, io::insomniac_asset_id("a/c.material"));
}

TEST(InsomniacCodec, NormalDecodesKnownCodes) {
  // a = b = 512 is the projection centre: x' = y' = 512q - sqrt2 ~ 0.00138, so n ~ (0, 0, +-1).
  const vec3 up = io::insomniac_decode_normal(512u | (512u << 10) | 0x80000000u);
  EXPECT_NEAR(up.z, 1.0f, 1e-5f);
  const vec3 down = io::insomniac_decode_normal(512u | (512u << 10));
  EXPECT_NEAR(down.z, -1.0f, 1e-5f);
  // a = 1023, b = 512: x' = sqrt2, s = 2, w = sqrt(1/2) -> n = (1, 0, 0).
  const vec3 x = io::insomniac_decode_normal(1023u | (512u << 10) | 0x80000000u);
  EXPECT_NEAR(x.x, 1.0f, 2e-3f);
  EXPECT_NEAR(x.z, 0.0f, 2e-3f);
}

TEST(InsomniacCodec, NormalEncoderAndDecoderAgreeWithinTwoCodes) {
  for (int i = 0; i < 500; ++i) {
    const float th = 0.37f * static_cast<float>(i), ph = 0.011f * static_cast<float>(i * 7 % 290);
    const vec3 n(std::cos(th) * std::sin(ph), std::sin(th) * std::sin(ph),
                 std::cos(ph) * (i % 2 ? 1.0f : -1.0f));
    const std::uint32_t code = testing::test_encode_insomniac_normal(n);
    const vec3 d = io::insomniac_decode_normal(code);
    EXPECT_LT(glm::distance(d, glm::normalize(n)), 0.005f) << i;
    const std::uint32_t again = testing::test_encode_insomniac_normal(d);
    EXPECT_LE(std::abs(static_cast<int>(again & 0x3FF) - static_cast<int>(code & 0x3FF)), 2);
    EXPECT_LE(
        std::abs(static_cast<int>((again >> 10) & 0x3FF) - static_cast<int>((code >> 10) & 0x3FF)),
        2);
  }
}

TEST(InsomniacCodec, DeltaIndicesWrapModulo65536) {
  std::vector<std::uint16_t> d = {5, 0xFFFD, 10, 0x8000, 0x8000};
  io::insomniac_delta_decode(d);
  EXPECT_EQ(d, (std::vector<std::uint16_t>{5, 2, 12, 0x800C, 12}));
  const std::vector<std::uint16_t> values = {0, 65535, 3, 40000, 2, 2};
  std::vector<std::uint16_t> enc = testing::test_delta_encode(values);
  io::insomniac_delta_decode(enc);
  EXPECT_EQ(enc, values);
}

TEST(InsomniacCodec, GameNamesAndDetection) {
  EXPECT_EQ(*io::parse_insomniac_game("RCRA"), InsomniacGame::kRcra);
  EXPECT_EQ(*io::parse_insomniac_game(""), InsomniacGame::kUnknown);
  EXPECT_EQ(io::parse_insomniac_game("zelda").error().code, ErrorCode::kUsage);
  io::LoadOptions lo;
  lo.look = 1;
  lo.lod = 2;
  lo.game = "mm";
  auto o = io::insomniac_options_from(lo);
  ASSERT_TRUE(o);
  EXPECT_EQ(o->look, 1);
  EXPECT_EQ(o->lod, 2);
  EXPECT_EQ(o->game, InsomniacGame::kMm);
  const std::uint8_t dat1[] = {0x31, 0x54, 0x41, 0x44};
  EXPECT_TRUE(io::looks_like_insomniac_model(dat1));
  const std::uint8_t gltf[] = {'g', 'l', 'T', 'F'};
  EXPECT_FALSE(io::looks_like_insomniac_model(gltf));
}

// ---------------------------------------------------------------------------------------------
// Round trips

TEST(InsomniacRead, MsmrRoundTrip) {
  const RawModel src = make_creature();
  InsomniacWriteOptions wo;
  wo.material_paths = {"Materials\\Skin.material", "materials/eye.material"};
  const auto file = testing::write_insomniac_model(src, wo);
  Diagnostics diag;
  InsomniacInfo info;
  auto model = read(file, {}, &diag, &info);
  ASSERT_TRUE(model) << model.error().to_string();
  expect_same(src, *model);
  EXPECT_EQ(info.game, InsomniacGame::kMsmr);
  EXPECT_EQ(info.family, io::InsomniacFamily::kMsmr);
  EXPECT_TRUE(info.outer_header);
  EXPECT_EQ(info.joint_count, 4u);
  EXPECT_EQ(info.subset_count, 2u);
  EXPECT_EQ(info.morph_count, 2u);
  EXPECT_EQ(info.vertex_count, 36u + 25u);
  ASSERT_EQ(info.materials.size(), 2u);
  EXPECT_EQ(info.materials[0].name, "skin_mat");
  EXPECT_EQ(info.materials[0].path, "Materials\\Skin.material");
  EXPECT_EQ(model->materials()[1].name, "eye_mat");
  EXPECT_EQ(model->format(), "insomniac");
  EXPECT_EQ(model->name(), "test");
  // Inverse binds come from part B.
  ASSERT_EQ(model->skins().size(), 1u);
  for (std::size_t j = 0; j < 4; ++j)
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r)
        EXPECT_NEAR(model->skins()[0].inverse_bind[j][c][r], src.skins[0].inverse_bind[j][c][r],
                    1e-6f);
  EXPECT_TRUE(has_warning(diag, "winding auto: 2 of 2 subsets reversed"));
}

TEST(InsomniacRead, MilesMoralesAndCc9dUseMsmrRules) {
  const RawModel src = make_creature();
  for (auto game : {InsomniacTestGame::kMm, InsomniacTestGame::kCc9d}) {
    InsomniacWriteOptions wo;
    wo.game = game;
    Diagnostics diag;
    InsomniacInfo info;
    auto model = read(testing::write_insomniac_model(src, wo), {}, &diag, &info);
    ASSERT_TRUE(model) << model.error().to_string();
    expect_same(src, *model);
    EXPECT_EQ(info.family, io::InsomniacFamily::kMsmr);
    if (game == InsomniacTestGame::kCc9d) {
      EXPECT_EQ(info.game, InsomniacGame::kCc9d);
      EXPECT_TRUE(has_warning(diag, "open question 9"));
    } else {
      EXPECT_EQ(info.game, InsomniacGame::kMm);
    }
  }
}

TEST(InsomniacRead, RiftApartPlainIndicesInterleavedVertices) {
  const RawModel src = make_creature();
  InsomniacWriteOptions wo;
  wo.game = InsomniacTestGame::kRcra;
  Diagnostics diag;
  InsomniacInfo info;
  auto model = read(testing::write_insomniac_model(src, wo), {}, &diag, &info);
  ASSERT_TRUE(model) << model.error().to_string();
  expect_same(src, *model);
  EXPECT_EQ(info.family, io::InsomniacFamily::kRcra);
  EXPECT_TRUE(has_warning(diag, "open question 1"));
}

TEST(InsomniacRead, HeaderlessFilesPickTheIndexEncodingThatFits) {
  const RawModel src = make_creature();
  for (auto game : {InsomniacTestGame::kRcra, InsomniacTestGame::kMsmr}) {
    InsomniacWriteOptions wo;
    wo.game = game;
    wo.bare_dat1 = true;
    const auto file = testing::write_insomniac_model(src, wo);
    ASSERT_EQ(get32(file.bytes, 0), 0x44415431u);
    Diagnostics diag;
    InsomniacInfo info;
    auto model = read(file, {}, &diag, &info);
    ASSERT_TRUE(model) << model.error().to_string();
    expect_same(src, *model);
    EXPECT_FALSE(info.outer_header);
    EXPECT_EQ(info.family, game == InsomniacTestGame::kRcra ? io::InsomniacFamily::kRcra
                                                            : io::InsomniacFamily::kMsmr);
    EXPECT_TRUE(has_warning(diag, "headerless DAT1"));
    // With the right hint no guessing happens; with the wrong one the indices fail.
    InsomniacOptions hint;
    hint.game = game == InsomniacTestGame::kRcra ? InsomniacGame::kRcra : InsomniacGame::kMsmr;
    auto hinted = read(file, hint);
    ASSERT_TRUE(hinted) << hinted.error().to_string();
    hint.game = game == InsomniacTestGame::kRcra ? InsomniacGame::kMsmr : InsomniacGame::kRcra;
    auto wrong = read(file, hint);
    ASSERT_FALSE(wrong);
    EXPECT_NE(wrong.error().message.find("section 0x0859863D (Model Index)"), std::string::npos)
        << wrong.error().to_string();
  }
}

TEST(InsomniacRead, GlobalIndicesWithoutLocalFlag) {
  const RawModel src = make_creature();
  for (auto game : {InsomniacTestGame::kMsmr, InsomniacTestGame::kRcra}) {
    InsomniacWriteOptions wo;
    wo.game = game;
    wo.local_indices = false;
    auto model = read(testing::write_insomniac_model(src, wo));
    ASSERT_TRUE(model) << model.error().to_string();
    expect_same(src, *model);
  }
}

TEST(InsomniacRead, XorStreamsResetEveryChunkOf0x8000Vertices) {
  RawModel src;
  Mesh mesh;
  MeshPart part = grid_part(200, 1.0f, 0.0f);  // 40000 vertices: two chunks
  mesh.parts.push_back(std::move(part));
  src.meshes.push_back(std::move(mesh));
  for (auto game : {InsomniacTestGame::kMsmr, InsomniacTestGame::kRcra}) {
    InsomniacWriteOptions wo;
    wo.game = game;
    auto model = read(testing::write_insomniac_model(src, wo));
    ASSERT_TRUE(model) << model.error().to_string();
    expect_same(src, *model);
  }
}

TEST(InsomniacRead, UvShiftScalesUvSets) {
  RawModel src = make_creature();
  for (Mesh& m : src.meshes)
    for (vec2& uv : m.parts[0].streams.uv0) uv *= 3.0f;  // beyond [-2, 2): needs a larger scale
  InsomniacWriteOptions wo;
  wo.uv_shift = 0x12;  // UV0 x4, UV1 x2
  InsomniacInfo info;
  auto model = read(testing::write_insomniac_model(src, wo), {}, nullptr, &info);
  ASSERT_TRUE(model) << model.error().to_string();
  Tolerance tol;
  tol.uv = 2.0f / 16384.0f + 1e-6f;
  expect_same(src, *model, tol);
  EXPECT_FLOAT_EQ(info.uv0_scale, 4.0f / 16384.0f);
  EXPECT_FLOAT_EQ(info.uv1_scale, 2.0f / 16384.0f);
  InsomniacOptions o;
  o.uv0_scale = 1.0f / 16384.0f;
  auto scaled = read(testing::write_insomniac_model(src, wo), o);
  ASSERT_TRUE(scaled);
  EXPECT_NEAR(scaled->meshes()[0].parts[0].streams.uv0[1].x,
              src.meshes[0].parts[0].streams.uv0[1].x / 4.0f, 1e-3f);
}

TEST(InsomniacRead, PositionScaleFromBuilt) {
  RawModel src = make_creature();
  for (Mesh& m : src.meshes)
    for (vec3& p : m.parts[0].streams.positions) p *= 10.0f;
  for (Mesh& m : src.meshes)
    for (MorphTarget& t : m.parts[0].morphs.targets)
      t.positions.assign(t.positions.size(), vec3(0));
  for (Mesh& m : src.meshes)
    for (MorphTarget& t : m.parts[0].morphs.targets) t.normals.assign(t.normals.size(), vec3(0));
  for (Mesh& m : src.meshes) {
    m.parts[0].morphs.targets.clear();
    m.morph_names.clear();
    m.default_weights.clear();
  }
  InsomniacWriteOptions wo;
  wo.position_scale = 1.0f / 1024.0f;
  auto model = read(testing::write_insomniac_model(src, wo));
  ASSERT_TRUE(model) << model.error().to_string();
  Tolerance tol;
  tol.position = 1.0f / 2048.0f + 1e-5f;
  expect_same(src, *model, tol);
}

TEST(InsomniacRead, SkinBatchesWithRemapTables) {
  const RawModel src = make_creature(9);  // 81 vertices: batches of 20 -> 5 batches
  InsomniacWriteOptions wo;
  wo.batch_vertices = 20;
  wo.remap_tables = true;
  const auto file = testing::write_insomniac_model(src, wo);
  EXPECT_GT(file.section(kTagSkinBatch).size, 16u * 5);
  EXPECT_GT(file.section(kTagSkinRemap).size, 0u);
  auto model = read(file);
  ASSERT_TRUE(model) << model.error().to_string();
  expect_same(src, *model);
}

TEST(InsomniacRead, SkinGroupsOfOneAndThreeInfluences) {
  // The head mesh is bound to one joint (k = 1 groups); the body mixes 1, 2 and 3 influences in
  // k = 3 groups, where a single bone is written as (255, +1 on the same joint).
  const RawModel src = make_creature();
  auto model = read(testing::write_insomniac_model(src));
  ASSERT_TRUE(model);
  const VertexStreams& body = model->meshes()[0].parts[0].streams;
  EXPECT_FLOAT_EQ(body.weights[0].x, 1.0f);  // duplicate pair merged
  EXPECT_EQ(body.joints[0].x, 1);
  EXPECT_FLOAT_EQ(body.weights[1].x, 0.75f);  // 192/256
  EXPECT_FLOAT_EQ(body.weights[1].y, 0.25f);  // 64/256
  const VertexStreams& head = model->meshes()[1].parts[0].streams;
  for (std::size_t v = 0; v < head.weights.size(); ++v) {
    EXPECT_EQ(head.joints[v].x, 2);
    EXPECT_FLOAT_EQ(head.weights[v].x, 1.0f);
  }
}

TEST(InsomniacRead, RiftApartGpuSkin) {
  const RawModel src = make_creature();
  for (bool remap : {false, true}) {
    InsomniacWriteOptions wo;
    wo.game = InsomniacTestGame::kRcra;
    wo.gpu_skin = true;
    wo.remap_tables = remap;
    const auto file = testing::write_insomniac_model(src, wo);
    EXPECT_EQ(file.section(kTagGpuSkin).size, 8u * (36 + 25));
    auto model = read(file);
    ASSERT_TRUE(model) << model.error().to_string();
    expect_same(src, *model);
  }
}

TEST(InsomniacRead, SunsetOverdriveHalfFloatUvs) {
  const RawModel src = make_creature();
  for (bool four : {false, true}) {
    InsomniacWriteOptions wo;
    wo.game = InsomniacTestGame::kSo;
    wo.so_four_halves = four;
    Diagnostics diag;
    InsomniacInfo info;
    auto model = read(testing::write_insomniac_model(src, wo), {}, &diag, &info);
    ASSERT_TRUE(model) << model.error().to_string();
    Tolerance tol;
    tol.uv = 1.0f / 2048.0f;  // binary16 near 1.0
    expect_same(src, *model, tol);
    EXPECT_EQ(info.family, io::InsomniacFamily::kSo);
    ASSERT_EQ(info.looks.size(), 1u);
    EXPECT_EQ(info.looks[0].lods.size(), 4u);
    EXPECT_TRUE(has_warning(diag, "open question 10"));
  }
}

TEST(InsomniacRead, MorphPagesAndFullRuns) {
  // 60 x 60 = 3600 vertices: changes in page 0 (ids < 2560) and page 1, runs of 32 consecutive
  // ids (written as read = 0), one morph with positions only and one with normals.
  RawModel src;
  Mesh mesh;
  MeshPart part = grid_part(60, 1.0f, 0.0f);
  const std::size_t vc = part.vertex_count();
  MorphTarget a, b;
  a.positions.assign(vc, vec3(0.0f));
  b.positions.assign(vc, vec3(0.0f));
  b.normals.assign(vc, vec3(0.0f));
  for (std::size_t v = 100; v < 3000; ++v)
    if (v % 97 != 0) a.positions[v] = vec3(0.001f * static_cast<float>(v % 50), 0.05f, -0.02f);
  for (std::size_t v = 2500; v < 2700; v += 3) {
    b.positions[v] = vec3(0.0f, 0.0f, 0.1f);
    b.normals[v] = vec3(0.05f, -0.05f, 0.0f);
  }
  part.morphs.targets = {a, b};
  mesh.morph_names = {"jaw_open", "brow_up"};
  mesh.default_weights = {0, 0};
  mesh.parts.push_back(std::move(part));
  src.meshes.push_back(std::move(mesh));
  for (std::uint8_t bits : {std::uint8_t{10}, std::uint8_t{16}}) {
    InsomniacWriteOptions wo;
    wo.morph_bits = bits;
    auto model = read(testing::write_insomniac_model(src, wo));
    ASSERT_TRUE(model) << model.error().to_string();
    expect_same(src, *model);
  }
}

TEST(InsomniacRead, LooksAndLods) {
  RawModel src = make_creature();
  // Subsets: 0 body, 1 head, 2 low body (LOD 1 of look 0), 3 head again for look 1.
  src.meshes.push_back(src.meshes[0]);
  src.meshes.push_back(src.meshes[1]);
  InsomniacWriteOptions wo;
  wo.looks = {{{0, 2}, {2, 1}}, {{1, 1}, {0, 0}, {3, 1}}};
  wo.look_names = {"default", "masked"};
  const auto file = testing::write_insomniac_model(src, wo);
  InsomniacInfo info;
  auto base = read(file, {}, nullptr, &info);
  ASSERT_TRUE(base) << base.error().to_string();
  ASSERT_EQ(info.looks.size(), 2u);
  EXPECT_EQ(info.looks[0].name, "default");
  EXPECT_EQ(info.looks[1].name, "masked");
  EXPECT_EQ(base->meshes().size(), 2u);
  InsomniacOptions o;
  o.look = 0;
  o.lod = 1;
  auto lod1 = read(file, o, nullptr, &info);
  ASSERT_TRUE(lod1);
  ASSERT_EQ(lod1->meshes().size(), 1u);
  EXPECT_EQ(lod1->meshes()[0].name, "sm02");
  EXPECT_EQ(info.loaded_subsets, (std::vector<std::uint32_t>{2}));
  o.look = 1;
  o.lod = 2;
  auto look1 = read(file, o);
  ASSERT_TRUE(look1);
  ASSERT_EQ(look1->meshes().size(), 1u);
  EXPECT_EQ(look1->meshes()[0].name, "sm03");
  o.lod = 1;  // empty slot
  auto empty = read(file, o);
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().code, ErrorCode::kOutOfRange);
  o.look = 2;
  o.lod = 0;
  auto missing = read(file, o);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("look 2 does not exist (2 looks)"), std::string::npos);
}

TEST(InsomniacRead, LocatorsBecomeExtraBones) {
  const RawModel src = make_creature();
  InsomniacWriteOptions wo;
  testing::InsomniacTestLocator hand;
  hand.name = "weapon_attach";
  hand.joint = 2;
  hand.local.translation = vec3(0.1f, -0.2f, 0.3f);
  hand.local.rotation = glm::angleAxis(0.7f, glm::normalize(vec3(1, 1, 0)));
  testing::InsomniacTestLocator world;
  world.name = "ground";
  world.joint = -1;
  wo.locators = {hand, world};
  InsomniacInfo info;
  auto model = read(testing::write_insomniac_model(src, wo), {}, nullptr, &info);
  ASSERT_TRUE(model) << model.error().to_string();
  EXPECT_EQ(info.locator_count, 2u);
  ASSERT_EQ(model->skeleton().joint_count(), 6);
  const int i = model->find_bone("weapon_attach");
  ASSERT_GE(i, 0);
  EXPECT_EQ(model->skeleton().parents()[static_cast<std::size_t>(i)], model->find_bone("head"));
  const Transform& t = model->skeleton().rest_pose()[static_cast<std::size_t>(i)];
  EXPECT_NEAR(glm::distance(t.translation, hand.local.translation), 0.0f, 1e-6f);
  EXPECT_NEAR(std::abs(glm::dot(t.rotation, hand.local.rotation)), 1.0f, 1e-5f);
  EXPECT_EQ(model->skeleton().parents()[static_cast<std::size_t>(model->find_bone("ground"))], -1);
  // Locators are not skin joints.
  EXPECT_EQ(model->skins()[0].joints.size(), 4u);
}

TEST(InsomniacRead, UnknownSectionsAreKeptAndListed) {
  const RawModel src = make_creature();
  InsomniacWriteOptions wo;
  wo.extra_sections = {{0x12345678u, std::vector<std::uint8_t>(20, 0xAB)},
                       {0xEE31971Cu, std::vector<std::uint8_t>(8, 0)}};
  const auto file = testing::write_insomniac_model(src, wo);
  Diagnostics diag;
  InsomniacInfo info;
  auto model = read(file, {}, &diag, &info);
  ASSERT_TRUE(model) << model.error().to_string();
  int found = 0;
  for (const io::InsomniacSection& s : info.sections) {
    if (s.tag == 0x12345678u) {
      ++found;
      EXPECT_FALSE(s.interpreted);
      EXPECT_EQ(s.size, 20u);
      EXPECT_TRUE(s.name.empty());
      EXPECT_EQ(file.bytes[s.offset], 0xAB);
    }
    if (s.tag == 0xEE31971Cu) {
      ++found;
      EXPECT_FALSE(s.interpreted);
      EXPECT_EQ(s.name, "Model Joint Lookup");
    }
    if (s.tag == kTagIndex) {
      EXPECT_TRUE(s.interpreted);
    }
  }
  EXPECT_EQ(found, 2);
  EXPECT_TRUE(has_warning(diag, "section 0x12345678, 20 bytes: not interpreted, kept raw"));
  EXPECT_TRUE(has_warning(diag, "section 0xEE31971C (Model Joint Lookup), 8 bytes"));
}

TEST(InsomniacRead, WindingOptionAndNoFrameSentinel) {
  const RawModel src = make_creature();
  InsomniacWriteOptions wo;
  wo.no_tangent_frames = false;
  const auto file = testing::write_insomniac_model(src, wo);
  InsomniacOptions o;
  o.winding = io::InsomniacWinding::kFile;
  auto file_order = read(file, o);
  ASSERT_TRUE(file_order);
  const auto& idx = file_order->meshes()[0].parts[0].indices;
  const auto& want = src.meshes[0].parts[0].indices;
  EXPECT_EQ(idx[0], want[2]);
  EXPECT_EQ(idx[2], want[0]);
  wo.clockwise = false;
  auto ccw = read(testing::write_insomniac_model(src, wo));
  ASSERT_TRUE(ccw);
  EXPECT_EQ(ccw->meshes()[0].parts[0].indices, want);  // auto keeps counter-clockwise files

  InsomniacWriteOptions nf;
  nf.no_tangent_frames = true;
  auto no_frames = read(testing::write_insomniac_model(src, nf));
  ASSERT_TRUE(no_frames);
  EXPECT_TRUE(no_frames->meshes()[0].parts[0].streams.tangents.empty());
}

TEST(InsomniacRead, LoadDispatchesModelFiles) {
  const auto file = testing::write_insomniac_model(make_creature());
  const auto dir = std::filesystem::temp_directory_path() / "critter_insomniac_load_test";
  std::filesystem::create_directories(dir);
  const auto path = dir / "hero.model";
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(file.bytes.data()),
              static_cast<std::streamsize>(file.bytes.size()));
  }
  auto model = io::load(path.string());
  ASSERT_TRUE(model) << model.error().to_string();
  EXPECT_EQ(model->format(), "insomniac");
  EXPECT_EQ(model->name(), "hero");
  io::LoadOptions lo;
  lo.game = "n64";
  auto bad = io::load(path.string(), lo);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ErrorCode::kUsage);
  std::filesystem::remove_all(dir);
}

TEST(InsomniacRead, ConvertedGlbPassesTheValidator) {
  InsomniacWriteOptions wo;
  testing::InsomniacTestLocator hand;
  hand.name = "weapon_attach";
  hand.joint = 2;
  wo.locators = {hand};
  auto model = read(testing::write_insomniac_model(make_creature(), wo));
  ASSERT_TRUE(model) << model.error().to_string();
  auto glb = io::encode_glb(*model, "creature.glb");
  ASSERT_TRUE(glb) << glb.error().to_string();
  const auto dir = std::filesystem::temp_directory_path() / "critter_insomniac_glb_test";
  std::filesystem::create_directories(dir);
  const auto path = dir / "creature.glb";
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(glb->data()),
              static_cast<std::streamsize>(glb->size()));
  }
  const std::string report = (dir / "report.json").string();
  const std::string cmd = "node '" + std::string(CRITTER_SOURCE_DIR) +
                          "/scripts/validate_gltf.mjs' '" + path.string() + "' > '" + report +
                          "' 2>&1";
  const int rc = std::system(cmd.c_str());
  std::ifstream in(report);
  std::string text, line;
  while (std::getline(in, line))
    for (char c : line)
      if (c != ' ') text.push_back(c);
  EXPECT_EQ(rc, 0) << text;
  EXPECT_NE(text.find("\"numErrors\":0,"), std::string::npos) << text;
  std::filesystem::remove_all(dir);
}

// ---------------------------------------------------------------------------------------------
// Rejections: located errors, never crashes

struct Broken {
  InsomniacWrittenFile file;
  explicit Broken(InsomniacTestGame game = InsomniacTestGame::kRcra) {
    InsomniacWriteOptions wo;
    wo.game = game;
    file = testing::write_insomniac_model(make_creature(4), wo);
  }
  Error error() const {
    auto r = io::read_insomniac_raw_memory(file.bytes, "bad.model");
    EXPECT_FALSE(r) << "expected an error";
    return r ? Error{} : r.error();
  }
};

void expect_error(const Error& e, ErrorCode code, std::uint64_t byte, std::string_view text) {
  EXPECT_EQ(e.code, code) << e.to_string();
  EXPECT_EQ(e.path, "bad.model");
  EXPECT_EQ(e.location, "byte " + std::to_string(byte)) << e.to_string();
  EXPECT_NE(e.message.find(text), std::string::npos) << e.to_string();
}

TEST(InsomniacReject, IndexPastVertexCount) {
  Broken b;
  const auto& s = b.file.section(kTagIndex);
  put16(b.file.bytes, s.offset + 2 * 4, 999);
  expect_error(b.error(), ErrorCode::kOutOfRange, s.offset + 8,
               "section 0x0859863D (Model Index): index 999 of subset 0 triangle 1");
}

TEST(InsomniacReject, SectionPastTheEnd) {
  Broken b;
  const auto& s = b.file.section(kTagStdVert);
  put32(b.file.bytes, s.entry + 8, 0x7FFFFFF0u);
  expect_error(b.error(), ErrorCode::kOutOfRange, s.entry,
               "section 0xA98BE69B (Model Std Vert): offset");
}

TEST(InsomniacReject, SectionOverlappingTheTable) {
  Broken b;
  const auto& s = b.file.section(kTagLook);
  put32(b.file.bytes, s.entry + 4, 20);
  expect_error(b.error(), ErrorCode::kInvalid, s.entry, "overlaps the section table");
}

TEST(InsomniacReject, PayloadsOverlapping) {
  Broken b;
  const auto& look = b.file.section(kTagLook);
  const auto& subset = b.file.section(kTagSubset);
  put32(b.file.bytes, look.entry + 4,
        static_cast<std::uint32_t>(subset.offset - b.file.dat1_offset + 8));
  const Error e = b.error();
  EXPECT_EQ(e.code, ErrorCode::kInvalid);
  EXPECT_NE(e.message.find("overlaps"), std::string::npos) << e.to_string();
}

TEST(InsomniacReject, TruncatedBuilt) {
  Broken b;
  const auto& s = b.file.section(kTagBuilt);
  put32(b.file.bytes, s.entry + 8, 100);
  expect_error(b.error(), ErrorCode::kParse, s.offset,
               "section 0x283D0383 (Model Built): Model Built needs 120 bytes");
}

TEST(InsomniacReject, SizeNotAMultipleOfTheRecord) {
  Broken b;
  const auto& s = b.file.section(kTagStdVert);
  put32(b.file.bytes, s.entry + 8, static_cast<std::uint32_t>(s.size - 8));
  expect_error(b.error(), ErrorCode::kInvalid, s.offset, "not a multiple of the 16-byte vertex");
}

TEST(InsomniacReject, HostileCounts) {
  {
    Broken b;  // subset index count far past the index buffer
    const auto& s = b.file.section(kTagSubset);
    put32(b.file.bytes, s.offset + 0x1C, 0xFFFFFFF0u);
    expect_error(b.error(), ErrorCode::kOutOfRange, s.offset, "run past the index count");
  }
  {
    Broken b;  // section count far past the DAT1 block
    put16(b.file.bytes, b.file.dat1_offset + 12, 0xFFFF);
    expect_error(b.error(), ErrorCode::kParse, b.file.dat1_offset + 12, "65535 sections");
  }
  {
    Broken b;  // morph count far past the morph table
    const auto& s = b.file.section(kTagMorphInfo);
    put16(b.file.bytes, s.offset + 8, 0xFFFF);
    const Error e = b.error();
    EXPECT_EQ(e.code, ErrorCode::kParse);
    EXPECT_NE(e.message.find("section 0x380A5744 (Model Anim Morph Info): morph table"),
              std::string::npos)
        << e.to_string();
  }
  {
    Broken b;  // skin batch with more vertices than its subset
    const auto& s = b.file.section(kTagSkinBatch);
    put16(b.file.bytes, s.offset + 12, 0xFFFF);
    expect_error(b.error(), ErrorCode::kOutOfRange, s.offset, "run past the subset's");
  }
  {
    Broken b;  // vertex range of a subset past Std Vert
    const auto& s = b.file.section(kTagSubset);
    put32(b.file.bytes, s.offset + 0x14, 0x7FFFFFFFu);
    expect_error(b.error(), ErrorCode::kOutOfRange, s.offset, "run past the vertex count");
  }
}

TEST(InsomniacReject, BadStringsAndJoints) {
  {
    Broken b;
    const auto& s = b.file.section(kTagJoint);
    put32(b.file.bytes, s.offset + 12, 0x00FFFFFFu);
    expect_error(b.error(), ErrorCode::kOutOfRange, s.offset + 12,
                 "section 0x15DF9D3B (Model Joint): string offset 16777215 is outside");
  }
  {
    Broken b;  // a parent after its child
    const auto& s = b.file.section(kTagJoint);
    put16(b.file.bytes, s.offset + 16, 3);
    expect_error(b.error(), ErrorCode::kInvalid, s.offset + 16, "parents must come before");
  }
}

TEST(InsomniacReject, NotAModelAndCompressedDat1) {
  std::vector<std::uint8_t> junk = {'P', 'K', 3, 4, 0, 0, 0, 0};
  auto r = io::read_insomniac_raw_memory(junk, "bad.model");
  ASSERT_FALSE(r);
  expect_error(r.error(), ErrorCode::kParse, 0, "not an Insomniac .model file");
  InsomniacWriteOptions wo;
  wo.bare_dat1 = true;
  auto file = testing::write_insomniac_model(make_creature(4), wo);
  file.bytes.insert(file.bytes.begin(), 0x42);
  auto c = io::read_insomniac_raw_memory(file.bytes, "bad.model");
  ASSERT_FALSE(c);
  expect_error(c.error(), ErrorCode::kUnsupported, 0, "compressed DAT1 not supported");
}

TEST(InsomniacReject, EveryTruncationIsAnError) {
  for (auto game : {InsomniacTestGame::kMsmr, InsomniacTestGame::kRcra, InsomniacTestGame::kSo}) {
    InsomniacWriteOptions wo;
    wo.game = game;
    const auto file = testing::write_insomniac_model(make_creature(4), wo);
    for (std::size_t n = 0; n < file.bytes.size(); ++n) {
      const std::span<const std::uint8_t> prefix(file.bytes.data(), n);
      auto r = io::load_insomniac_memory(prefix, "cut.model");
      ASSERT_FALSE(r) << "prefix of " << n << " bytes loaded";
      EXPECT_EQ(r.error().path, "cut.model");
      EXPECT_EQ(r.error().location.rfind("byte ", 0), 0u) << r.error().to_string();
    }
  }
}

TEST(InsomniacReject, ByteMutationsNeverCrash) {
  // Not a check of outcomes: every mutated file either loads or gives a located error.
  const auto file = testing::write_insomniac_model(make_creature(4));
  std::size_t errors = 0;
  for (std::size_t i = 0; i < file.bytes.size(); ++i)
    for (std::uint8_t v : {std::uint8_t{0x00}, std::uint8_t{0xFF}, std::uint8_t{0x7F}}) {
      std::vector<std::uint8_t> b = file.bytes;
      if (b[i] == v) continue;
      b[i] = v;
      auto r = io::load_insomniac_memory(b, "mut.model");
      if (!r) {
        ++errors;
        EXPECT_FALSE(r.error().message.empty());
      }
    }
  EXPECT_GT(errors, 0u);
}

}  // namespace
}  // namespace critter
