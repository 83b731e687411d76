// SPDX-License-Identifier: MIT
#include "critter/deform/skinning_job.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numbers>
#include <random>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include "support/math_helpers.h"

namespace critter::deform {
namespace {

using critter::testing::expect_vec_near;
using critter::testing::kPi;

// Separate streams for one mesh, plus the outputs.
struct Mesh {
  std::vector<vec3> positions, normals;
  std::vector<vec4> tangents;
  std::vector<glm::u16vec4> joints;
  std::vector<vec4> weights;
  std::vector<vec3> out_positions, out_normals;
  std::vector<vec4> out_tangents;

  void add(vec3 p, vec3 n, vec4 t, glm::u16vec4 j, vec4 w) {
    positions.push_back(p);
    normals.push_back(n);
    tangents.push_back(t);
    joints.push_back(j);
    weights.push_back(w);
  }

  SkinningJob job(std::span<const mat4> palette) {
    out_positions.assign(positions.size(), vec3(-99.0f));
    out_normals.assign(normals.size(), vec3(-99.0f));
    out_tangents.assign(tangents.size(), vec4(-99.0f));
    SkinningJob j;
    j.palette = palette;
    j.set_positions(positions, out_positions);
    j.set_normals(normals, out_normals);
    j.set_tangents(tangents, out_tangents);
    j.set_influences(joints, weights);
    return j;
  }
};

const SkinningPath kAllPaths[] = {SkinningPath::kScalar, SkinningPath::kSse2, SkinningPath::kAvx2,
                                  SkinningPath::kAvx512, SkinningPath::kAuto};

bool path_available(SkinningPath p) {
  if (p == SkinningPath::kAvx2) return cpu_has_avx2_fma();
  if (p == SkinningPath::kAvx512) return cpu_has_avx512();
  return true;
}

// 20 vertices so that every SIMD path runs at least one full block plus a scalar tail.
Mesh bend_mesh() {
  Mesh m;
  for (int i = 0; i < 20; ++i) {
    m.add(vec3(0.0f, 2.0f, 0.0f), vec3(1.0f, 0.0f, 0.0f), vec4(0.0f, 1.0f, 0.0f, -1.0f),
          glm::u16vec4(1, 0, 0, 0), vec4(1.0f, 0.0f, 0.0f, 0.0f));
  }
  return m;
}

// Joint 0 at the origin, joint 1 bound at (0, 1, 0) and bent 90 degrees about +Z.
std::vector<mat4> bend_palette() {
  const mat4 bind1 = glm::translate(mat4(1.0f), vec3(0.0f, 1.0f, 0.0f));
  const mat4 model1 = bind1 * glm::rotate(mat4(1.0f), kPi / 2, vec3(0.0f, 0.0f, 1.0f));
  return {mat4(1.0f), model1 * glm::inverse(bind1)};
}

TEST(SkinningJob, ValidatesEachRule) {
  Mesh m = bend_mesh();
  const std::vector<mat4> palette = bend_palette();
  ASSERT_TRUE(m.job(palette).validate());

  auto broken = [&](auto&& edit, const char* needle) {
    SkinningJob j = m.job(palette);
    edit(j);
    const Status s = j.validate();
    ASSERT_FALSE(s) << needle;
    EXPECT_EQ(s.error().code, ErrorCode::kUsage);
    EXPECT_NE(s.error().message.find(needle), std::string::npos) << s.error().message;
    EXPECT_FALSE(j.run()) << needle;
  };
  broken([](SkinningJob& j) { j.palette = {}; }, "palette is empty");
  const std::vector<mat4> huge(65537, mat4(1.0f));
  broken([&](SkinningJob& j) { j.palette = huge; }, "65536");
  broken([](SkinningJob& j) { j.joints.data = nullptr; }, "joints is null");
  broken([](SkinningJob& j) { j.joints.stride = 6; }, "joints stride 6");
  broken([](SkinningJob& j) { j.joints.stride = 9; }, "joints stride 9");
  broken([](SkinningJob& j) { j.weights.data = nullptr; }, "weights is null");
  broken([](SkinningJob& j) { j.weights.stride = 12; }, "weights stride 12");
  broken([](SkinningJob& j) { j.in_positions.data = nullptr; }, "in_positions is null");
  broken([](SkinningJob& j) { j.in_positions.stride = 8; }, "in_positions stride 8");
  broken([](SkinningJob& j) { j.in_positions.stride = 0; }, "in_positions stride 0");
  broken([](SkinningJob& j) { j.in_positions.stride = 14; }, "not a multiple of 4");
  broken(
      [](SkinningJob& j) {
        j.in_positions.data =
            reinterpret_cast<const float*>(reinterpret_cast<const char*>(j.in_positions.data) + 1);
      },
      "in_positions is not 4-byte aligned");
  broken([](SkinningJob& j) { j.out_positions.data = nullptr; }, "out_positions is null");
  broken([](SkinningJob& j) { j.out_positions.stride = 4; }, "out_positions stride 4");
  broken([](SkinningJob& j) { j.out_normals.data = nullptr; }, "normals: input and output");
  broken([](SkinningJob& j) { j.in_tangents.data = nullptr; }, "tangents: input and output");
  broken([](SkinningJob& j) { j.in_normals.stride = 4; }, "in_normals stride 4");
  broken([](SkinningJob& j) { j.out_normals.stride = 8; }, "out_normals stride 8");
  broken([](SkinningJob& j) { j.in_tangents.stride = 12; }, "in_tangents stride 12");
  broken([](SkinningJob& j) { j.out_tangents.stride = 12; }, "out_tangents stride 12");
  broken([](SkinningJob& j) { j.normal_transform = static_cast<NormalTransform>(2); },
         "normal_transform");
  if (!cpu_has_avx2_fma()) {
    broken([](SkinningJob& j) { j.path = SkinningPath::kAvx2; }, "AVX2");
  }
  if (!cpu_has_avx512()) {
    broken([](SkinningJob& j) { j.path = SkinningPath::kAvx512; }, "AVX-512");
  }

  // Allowed: stride 0 for influences, no vertex at all, absent normals and tangents.
  SkinningJob j = m.job(palette);
  j.joints.stride = 0;
  j.weights.stride = 0;
  EXPECT_TRUE(j.validate());
  j = m.job(palette);
  j.vertex_count = 0;
  j.in_positions = {};
  j.out_positions = {};
  EXPECT_TRUE(j.run());
  j = m.job(palette);
  j.in_normals = {};
  j.out_normals = {};
  j.in_tangents = {};
  j.out_tangents = {};
  EXPECT_TRUE(j.run());
}

TEST(SkinningJob, IdentityPaletteReturnsInputs) {
  Mesh m;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-3.0f, 3.0f);
  for (int i = 0; i < 37; ++i) {
    const vec3 n = glm::normalize(vec3(u(rng), u(rng), u(rng)) + vec3(0.0f, 0.0f, 10.0f));
    const vec3 t = glm::normalize(glm::cross(n, vec3(1.0f, 0.0f, 0.0f)));
    m.add(vec3(u(rng), u(rng), u(rng)), n, vec4(t, i % 2 ? 1.0f : -1.0f),
          glm::u16vec4(i % 3, (i + 1) % 3, 2, 0), vec4(0.25f, 0.25f, 0.5f, 0.0f));
  }
  const std::vector<mat4> palette(3, mat4(1.0f));
  for (SkinningPath path : kAllPaths) {
    if (!path_available(path)) continue;
    SkinningJob j = m.job(palette);
    j.path = path;
    ASSERT_TRUE(j.run());
    for (std::size_t v = 0; v < m.positions.size(); ++v) {
      expect_vec_near(m.out_positions[v], m.positions[v], 1e-6f, "position");
      expect_vec_near(m.out_normals[v], m.normals[v], 1e-6f, "normal");
      expect_vec_near(vec3(m.out_tangents[v]), vec3(m.tangents[v]), 1e-6f, "tangent");
      EXPECT_EQ(m.out_tangents[v].w, m.tangents[v].w);
    }
  }
}

TEST(SkinningJob, TwoJointBendMatchesHandComputedVertices) {
  const std::vector<mat4> palette = bend_palette();
  Mesh m;
  const float h = std::sqrt(0.5f);
  // Expected values worked by hand: joint 1 rotates +90 degrees about Z around (0, 1, 0), so
  // (x, y) -> (1 - y, x) ... relative to the pivot: (x, y - 1) -> (-(y - 1), x).
  struct Case {
    vec3 p, n;
    vec4 t;
    glm::u16vec4 j;
    vec4 w;
    vec3 want_p, want_n;
    vec4 want_t;
  };
  const std::vector<Case> cases = {
      // Fully on joint 1: the tip (0, 2, 0) swings to (-1, 1, 0).
      {vec3(0, 2, 0),
       vec3(1, 0, 0),
       vec4(0, 1, 0, -1),
       {1, 0, 0, 0},
       vec4(1, 0, 0, 0),
       vec3(-1, 1, 0),
       vec3(0, 1, 0),
       vec4(-1, 0, 0, -1)},
      // The pivot does not move.
      {vec3(0, 1, 0),
       vec3(0, 0, 1),
       vec4(1, 0, 0, 1),
       {1, 0, 0, 0},
       vec4(1, 0, 0, 0),
       vec3(0, 1, 0),
       vec3(0, 0, 1),
       vec4(0, 1, 0, 1)},
      // Fully on joint 0 (the identity), listed second to test the influence order.
      {vec3(0.5f, 1.5f, 0),
       vec3(1, 0, 0),
       vec4(0, 1, 0, 1),
       {1, 0, 0, 0},
       vec4(0, 1, 0, 0),
       vec3(0.5f, 1.5f, 0),
       vec3(1, 0, 0),
       vec4(0, 1, 0, 1)},
      // Half and half: joint 0 keeps (0.5, 1.5, 0), joint 1 gives (-0.5, 1.5, 0); the blended
      // 3x3 is 0.5 * (I + Rz90), a scaled 45-degree rotation, so normals turn by 45 degrees.
      {vec3(0.5f, 1.5f, 0),
       vec3(1, 0, 0),
       vec4(0, 1, 0, 1),
       {0, 1, 0, 0},
       vec4(0.5f, 0.5f, 0, 0),
       vec3(0, 1.5f, 0),
       vec3(h, h, 0),
       vec4(-h, h, 0, 1)},
      // A quarter on joint 1, three influences used (two of them on joint 0).
      {vec3(0, 2, 0),
       vec3(0, 1, 0),
       vec4(0, 0, 1, 1),
       {0, 1, 0, 1},
       vec4(0.5f, 0.25f, 0.25f, 0),
       vec3(-0.25f, 1.75f, 0),
       glm::normalize(vec3(-0.25f, 0.75f, 0)),
       vec4(0, 0, 1, 1)},
  };
  for (int rep = 0; rep < 5; ++rep) {  // 25 vertices: full SIMD blocks and a tail
    for (const Case& c : cases) m.add(c.p, c.n, c.t, c.j, c.w);
  }
  for (SkinningPath path : kAllPaths) {
    if (!path_available(path)) continue;
    SkinningJob j = m.job(palette);
    j.path = path;
    ASSERT_TRUE(j.run());
    for (std::size_t v = 0; v < m.positions.size(); ++v) {
      const Case& c = cases[v % cases.size()];
      SCOPED_TRACE(::testing::Message() << "path " << static_cast<int>(path) << " vertex " << v);
      expect_vec_near(m.out_positions[v], c.want_p, 1e-6f, "position");
      expect_vec_near(m.out_normals[v], c.want_n, 1e-6f, "normal");
      expect_vec_near(vec3(m.out_tangents[v]), vec3(c.want_t), 1e-6f, "tangent");
      EXPECT_EQ(m.out_tangents[v].w, c.want_t.w);
    }
  }
}

TEST(SkinningJob, NormalsUseInverseTransposeUnderNonUniformScaleAndMirror) {
  Mesh m;
  for (int i = 0; i < 10; ++i) {
    m.add(vec3(1, 1, 1), glm::normalize(vec3(1, 1, 0)), vec4(1, 1, 0, 1), {0, 0, 0, 0},
          vec4(1, 0, 0, 0));
    m.add(vec3(1, 2, 3), vec3(1, 0, 0), vec4(0, 1, 0, 1), {1, 0, 0, 0}, vec4(1, 0, 0, 0));
  }
  const std::vector<mat4> palette = {glm::scale(mat4(1.0f), vec3(2, 1, 1)),
                                     glm::scale(mat4(1.0f), vec3(-1, 1, 1))};
  for (SkinningPath path : kAllPaths) {
    if (!path_available(path)) continue;
    SkinningJob j = m.job(palette);
    j.path = path;
    ASSERT_TRUE(j.run());
    for (std::size_t v = 0; v < m.positions.size(); v += 2) {
      // Scale x by 2: the surface x + y = const becomes x / 2 + y = const, normal (1, 2, 0) /
      // sqrt 5.
      expect_vec_near(m.out_positions[v], vec3(2, 1, 1), 1e-6f, "scaled position");
      expect_vec_near(m.out_normals[v], vec3(1, 2, 0) / std::sqrt(5.0f), 1e-6f, "scaled normal");
      expect_vec_near(vec3(m.out_tangents[v]), vec3(2, 1, 0) / std::sqrt(5.0f), 1e-6f,
                      "scaled tangent");
      // Mirror in x: the outward normal (1, 0, 0) mirrors to (-1, 0, 0), not back to (1, 0, 0).
      expect_vec_near(m.out_positions[v + 1], vec3(-1, 2, 3), 1e-6f, "mirrored position");
      expect_vec_near(m.out_normals[v + 1], vec3(-1, 0, 0), 1e-6f, "mirrored normal");
    }
  }
}

// NormalTransform::kMatrix turns normals as tangents are turned: normalize(M3 * n). Under a
// non-uniform scale that is not the inverse transpose; under rotations alone it is the same
// direction.
TEST(SkinningJob, NormalsByTheMatrixFollowTheMatrixOnEveryPath) {
  Mesh scaled;
  for (int i = 0; i < 20; ++i) {
    scaled.add(vec3(1, 1, 1), glm::normalize(vec3(1, 1, 0)), vec4(1, 1, 0, 1), {0, 0, 0, 0},
               vec4(1, 0, 0, 0));
  }
  const std::vector<mat4> scale = {glm::scale(mat4(1.0f), vec3(2, 1, 1))};
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::uniform_real_distribution<float> u01(0.05f, 1.0f);
  // Rotations and translations only, blended between joints of the same rotation: the blended
  // M3 is that rotation, whose inverse transpose is itself.
  const mat4 r = glm::rotate(mat4(1.0f), 1.1f, glm::normalize(vec3(1.0f, 0.3f, 0.2f)));
  std::vector<mat4> rigid;
  for (int j = 0; j < 8; ++j)
    rigid.push_back(glm::translate(mat4(1.0f), vec3(u(rng), u(rng), 0)) * r);
  Mesh turned;
  for (int i = 0; i < 37; ++i) {
    vec4 w(u01(rng), u01(rng), u01(rng), u01(rng));
    turned.add(vec3(u(rng), u(rng), u(rng)), glm::normalize(vec3(u(rng), u(rng), 1.0f)),
               vec4(1, 0, 0, 1), glm::u16vec4(i % 8, (i + 3) % 8, (i + 5) % 8, (i + 6) % 8),
               w / (w.x + w.y + w.z + w.w));
  }
  for (SkinningPath path : kAllPaths) {
    if (!path_available(path)) continue;
    SkinningJob j = scaled.job(scale);
    j.path = path;
    j.normal_transform = NormalTransform::kMatrix;
    ASSERT_TRUE(j.run());
    for (const vec3& n : scaled.out_normals)
      expect_vec_near(n, vec3(2, 1, 0) / std::sqrt(5.0f), 1e-6f, "normal by the matrix");

    SkinningJob a = turned.job(rigid);
    a.path = path;
    ASSERT_TRUE(a.run());
    const std::vector<vec3> by_inverse_transpose = turned.out_normals;
    SkinningJob b = turned.job(rigid);
    b.path = path;
    b.normal_transform = NormalTransform::kMatrix;
    ASSERT_TRUE(b.run());
    for (std::size_t v = 0; v < turned.normals.size(); ++v) {
      expect_vec_near(turned.out_normals[v], by_inverse_transpose[v], 1e-5f, "rigid palette");
      expect_vec_near(turned.out_normals[v], vec3(r * vec4(turned.normals[v], 0.0f)), 1e-5f,
                      "rotated normal");
    }
  }
}

TEST(SkinningJob, HostileJointIndexReadsTheLastPaletteEntry) {
  Mesh m;
  for (int i = 0; i < 19; ++i) {
    m.add(vec3(1, 0, 0), vec3(0, 1, 0), vec4(1, 0, 0, 1), {65535, 2, 0, 0}, vec4(1.0f, 0.0f, 0, 0));
  }
  const std::vector<mat4> palette = {mat4(1.0f), glm::translate(mat4(1.0f), vec3(0, 0, 5))};
  for (SkinningPath path : kAllPaths) {
    if (!path_available(path)) continue;
    SkinningJob j = m.job(palette);
    j.path = path;
    ASSERT_TRUE(j.run());
    for (const vec3& p : m.out_positions) expect_vec_near(p, vec3(1, 0, 5), 0.0f, "clamped");
  }
}

// A random affine matrix: rotation, non-uniform scale in [0.5, 2], translation in [-5, 5].
mat4 random_affine(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::uniform_real_distribution<float> s(0.5f, 2.0f);
  const vec3 axis = glm::normalize(vec3(u(rng), u(rng), u(rng)) + vec3(0.0f, 0.0f, 0.01f));
  return glm::translate(mat4(1.0f), 5.0f * vec3(u(rng), u(rng), u(rng))) *
         glm::rotate(mat4(1.0f), kPi * u(rng), axis) *
         glm::scale(mat4(1.0f), vec3(s(rng), s(rng), s(rng)));
}

// Joint indices and weights interleaved in one vertex struct (a stride other than a packed
// u16vec4), some indices past the palette: every path reads them as the scalar path does.
TEST(SkinningJob, InterleavedInfluencesWithHostileIndicesMatchScalar) {
  struct Influence {
    std::uint16_t joint[4];
    float weight[4];
  };
  std::mt19937 rng(99);
  std::uniform_int_distribution<int> joint(0, 80);  // the palette has 64 entries
  std::uniform_real_distribution<float> u01(0.05f, 1.0f);
  std::vector<mat4> palette(64);
  for (mat4& m : palette) m = random_affine(rng);
  Mesh m;
  std::vector<Influence> influences;
  for (int v = 0; v < 45; ++v) {
    Influence in{};
    float sum = 0.0f;
    for (int k = 0; k < 4; ++k) {
      in.joint[k] = static_cast<std::uint16_t>(v % 7 == 0 ? 65535 : joint(rng));
      in.weight[k] = u01(rng);
      sum += in.weight[k];
    }
    for (float& w : in.weight) w /= sum;
    influences.push_back(in);
    const float f = static_cast<float>(v);
    m.add(vec3(f, 1.0f, -f), glm::normalize(vec3(1.0f, f, 0.5f)), vec4(1, 0, 0, 1),
          {in.joint[0], in.joint[1], in.joint[2], in.joint[3]},
          vec4(in.weight[0], in.weight[1], in.weight[2], in.weight[3]));
  }
  SkinningJob ref = m.job(palette);
  ref.path = SkinningPath::kScalar;
  ASSERT_TRUE(ref.run());
  const std::vector<vec3> want_p = m.out_positions, want_n = m.out_normals;
  for (SkinningPath path : kAllPaths) {
    if (!path_available(path)) continue;
    SkinningJob j = m.job(palette);
    j.joints = {influences[0].joint, sizeof(Influence)};
    j.weights = {influences[0].weight, sizeof(Influence)};
    j.path = path;
    ASSERT_TRUE(j.run());
    for (std::size_t v = 0; v < want_p.size(); ++v) {
      const float scale = std::max(1.0f, glm::length(want_p[v]));
      EXPECT_LE(glm::length(m.out_positions[v] - want_p[v]) / scale, 1e-5f)
          << "path " << static_cast<int>(path) << " vertex " << v;
      EXPECT_LE(glm::length(m.out_normals[v] - want_n[v]), 1e-5f)
          << "path " << static_cast<int>(path) << " vertex " << v;
    }
  }
}

TEST(SkinningJob, ZeroWeightsGiveZeroNotNaN) {
  Mesh m;
  for (int i = 0; i < 11; ++i) {
    m.add(vec3(1, 2, 3), vec3(0, 1, 0), vec4(1, 0, 0, -1), {0, 0, 0, 0}, vec4(0.0f));
  }
  const std::vector<mat4> palette = {glm::translate(mat4(1.0f), vec3(4, 5, 6))};
  for (SkinningPath path : kAllPaths) {
    if (!path_available(path)) continue;
    SkinningJob j = m.job(palette);
    j.path = path;
    ASSERT_TRUE(j.run());
    for (std::size_t v = 0; v < m.positions.size(); ++v) {
      EXPECT_EQ(m.out_positions[v], vec3(0.0f));
      EXPECT_EQ(m.out_normals[v], vec3(0.0f));
      EXPECT_EQ(m.out_tangents[v], vec4(0, 0, 0, -1));
    }
  }
}

// Interleaved vertex: position, normal, uv, padding (36 bytes). Skinning in place must change
// only the position and normal bytes.
struct Interleaved {
  float p[3], n[3], uv[2], pad;
};
static_assert(sizeof(Interleaved) == 36);

TEST(SkinningJob, InterleavedInPlaceMatchesSeparateStreams) {
  const std::vector<mat4> palette = bend_palette();
  Mesh m;
  for (int i = 0; i < 23; ++i) {
    const float f = static_cast<float>(i) * 0.1f;
    m.add(vec3(f, 1.0f + f, -f), glm::normalize(vec3(1.0f, f, 0.5f)), vec4(0, 0, 1, 1),
          {0, 1, 0, 0}, vec4(1.0f - f / 3.0f, f / 3.0f, 0, 0));
  }
  for (SkinningPath path : kAllPaths) {
    if (!path_available(path)) continue;
    SkinningJob ref = m.job(palette);
    ref.path = SkinningPath::kScalar;
    ASSERT_TRUE(ref.run());

    std::vector<Interleaved> buf(m.positions.size());
    for (std::size_t v = 0; v < buf.size(); ++v) {
      std::memcpy(buf[v].p, &m.positions[v], 12);
      std::memcpy(buf[v].n, &m.normals[v], 12);
      buf[v].uv[0] = static_cast<float>(v);
      buf[v].uv[1] = -static_cast<float>(v);
      buf[v].pad = 42.0f;
    }
    SkinningJob j;
    j.vertex_count = buf.size();
    j.palette = palette;
    j.set_influences(m.joints, m.weights);
    j.in_positions = {buf[0].p, sizeof(Interleaved)};
    j.out_positions = {buf[0].p, sizeof(Interleaved)};
    j.in_normals = {buf[0].n, sizeof(Interleaved)};
    j.out_normals = {buf[0].n, sizeof(Interleaved)};
    j.path = path;
    ASSERT_TRUE(j.run());
    for (std::size_t v = 0; v < buf.size(); ++v) {
      expect_vec_near(vec3(buf[v].p[0], buf[v].p[1], buf[v].p[2]), m.out_positions[v], 1e-5f,
                      "position");
      expect_vec_near(vec3(buf[v].n[0], buf[v].n[1], buf[v].n[2]), m.out_normals[v], 1e-5f,
                      "normal");
      EXPECT_EQ(buf[v].uv[0], static_cast<float>(v));
      EXPECT_EQ(buf[v].uv[1], -static_cast<float>(v));
      EXPECT_EQ(buf[v].pad, 42.0f);
    }
  }
}

TEST(SkinningJob, StrideZeroInfluencesPlaceRigidly) {
  Mesh m = bend_mesh();
  const std::vector<mat4> palette = {glm::translate(mat4(1.0f), vec3(1, 2, 3))};
  const std::uint16_t joints[4] = {0, 0, 0, 0};
  const float weights[4] = {1, 0, 0, 0};
  SkinningJob j = m.job(palette);
  j.joints = {joints, 0};
  j.weights = {weights, 0};
  ASSERT_TRUE(j.run());
  for (const vec3& p : m.out_positions) expect_vec_near(p, vec3(1, 4, 3), 0.0f, "placed");
}

TEST(SkinningJob, SimdPathsMatchScalarOnRandomData) {
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::uniform_real_distribution<float> u01(0.0f, 1.0f);
  std::uniform_int_distribution<int> joint(0, 63);
  std::vector<mat4> palette(64);
  for (mat4& m : palette) m = random_affine(rng);

  // 10k vertices plus counts around the block sizes to exercise the tails.
  for (std::size_t count :
       {std::size_t{10003}, std::size_t{1}, std::size_t{4}, std::size_t{5}, std::size_t{8},
        std::size_t{9}, std::size_t{16}, std::size_t{17}, std::size_t{33}, std::size_t{40},
        // Around one whole run of blocks of the AVX2 and AVX-512 kernels (64 vertices).
        std::size_t{64}, std::size_t{65}, std::size_t{73}, std::size_t{129}}) {
    Mesh m;
    for (std::size_t v = 0; v < count; ++v) {
      vec4 w(u01(rng), u01(rng), u01(rng), u01(rng));
      if (v % 5 == 0) w.w = 0.0f;  // vertices with fewer influences
      w /= (w.x + w.y + w.z + w.w);
      const vec3 n = glm::normalize(vec3(u(rng), u(rng), u(rng)) + vec3(0.0f, 0.01f, 0.0f));
      const vec3 t = glm::normalize(glm::cross(n, vec3(0.3f, 0.5f, 0.8f)));
      m.add(10.0f * vec3(u(rng), u(rng), u(rng)), n, vec4(t, v % 2 ? 1.0f : -1.0f),
            glm::u16vec4(joint(rng), joint(rng), joint(rng), joint(rng)), w);
    }
    for (NormalTransform normals : {NormalTransform::kInverseTranspose, NormalTransform::kMatrix}) {
      SkinningJob ref = m.job(palette);
      ref.path = SkinningPath::kScalar;
      ref.normal_transform = normals;
      ASSERT_TRUE(ref.run());
      const std::vector<vec3> want_p = m.out_positions, want_n = m.out_normals;
      const std::vector<vec4> want_t = m.out_tangents;
      for (SkinningPath path :
           {SkinningPath::kSse2, SkinningPath::kAvx2, SkinningPath::kAvx512, SkinningPath::kAuto}) {
        if (!path_available(path)) continue;
        SkinningJob j = m.job(palette);
        j.path = path;
        j.normal_transform = normals;
        ASSERT_TRUE(j.run());
        float worst_p = 0.0f, worst_n = 0.0f, worst_t = 0.0f;
        for (std::size_t v = 0; v < count; ++v) {
          // Positions reach ~50 units: compare relative to max(1, |p|).
          const float scale = std::max(1.0f, glm::length(want_p[v]));
          worst_p = std::max(worst_p, glm::length(m.out_positions[v] - want_p[v]) / scale);
          worst_n = std::max(worst_n, glm::length(m.out_normals[v] - want_n[v]));
          worst_t = std::max(worst_t, glm::length(vec3(m.out_tangents[v]) - vec3(want_t[v])));
          ASSERT_EQ(m.out_tangents[v].w, want_t[v].w);
        }
        EXPECT_LE(worst_p, 1e-5f) << "path " << static_cast<int>(path) << " count " << count;
        EXPECT_LE(worst_n, 1e-5f) << "path " << static_cast<int>(path) << " count " << count;
        EXPECT_LE(worst_t, 1e-5f) << "path " << static_cast<int>(path) << " count " << count;
      }
    }
  }
}

// The SIMD kernels' other cases: positions alone and positions with normals (no tangents), in
// separate packed streams and in place, with a palette that starts on a cache line, one that
// does not (run() then works on an aligned copy) and one too large to copy.
TEST(SkinningJob, SimdPathsMatchScalarForEachPaletteAndStreamSet) {
  std::mt19937 rng(99);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::uniform_real_distribution<float> u01(0.0f, 1.0f);
  constexpr std::size_t kCount = 1031;
  struct Case {
    const char* name;
    std::size_t joints;
    std::size_t shift;  // matrices' start, in floats past a 64-byte boundary
  };
  for (const Case& c : {Case{"aligned", 64, 0}, Case{"16 bytes past a line", 64, 4},
                        Case{"48 bytes past a line", 64, 12}, Case{"too large to copy", 300, 4}}) {
    std::vector<float> storage(c.joints * 16 + 32);
    float* base = storage.data();
    while (reinterpret_cast<std::uintptr_t>(base) % 64 != 0) ++base;
    const std::span<mat4> palette(reinterpret_cast<mat4*>(base + c.shift), c.joints);
    for (mat4& m : palette) m = random_affine(rng);
    std::uniform_int_distribution<int> joint(0, static_cast<int>(c.joints) - 1);
    std::vector<vec3> positions, normals;
    std::vector<glm::u16vec4> joints;
    std::vector<vec4> weights;
    for (std::size_t v = 0; v < kCount; ++v) {
      positions.push_back(10.0f * vec3(u(rng), u(rng), u(rng)));
      normals.push_back(glm::normalize(vec3(u(rng), u(rng), u(rng)) + vec3(0.0f, 0.01f, 0.0f)));
      joints.emplace_back(joint(rng), joint(rng), joint(rng), joint(rng));
      vec4 w(u01(rng), u01(rng), u01(rng), u01(rng));
      weights.push_back(w / (w.x + w.y + w.z + w.w));
    }
    for (int mode = 0; mode < 3; ++mode) {
      const bool with_normals = mode > 0;
      for (bool in_place : {false, true}) {
        std::vector<vec3> want_p(kCount), want_n(kCount);
        SkinningJob ref;
        ref.normal_transform =
            mode == 2 ? NormalTransform::kMatrix : NormalTransform::kInverseTranspose;
        ref.palette = palette;
        ref.set_influences(joints, weights);
        ref.set_positions(positions, want_p);
        if (with_normals) ref.set_normals(normals, want_n);
        ref.path = SkinningPath::kScalar;
        ASSERT_TRUE(ref.run());
        for (SkinningPath path :
             {SkinningPath::kSse2, SkinningPath::kAvx2, SkinningPath::kAvx512}) {
          if (!path_available(path)) continue;
          std::vector<vec3> p = positions, n = normals;
          std::vector<vec3> out_p(kCount, vec3(-99.0f)), out_n(kCount, vec3(-99.0f));
          SkinningJob j = ref;
          j.path = path;
          j.set_positions(p, in_place ? std::span<vec3>(p) : std::span<vec3>(out_p));
          if (with_normals)
            j.set_normals(n, in_place ? std::span<vec3>(n) : std::span<vec3>(out_n));
          ASSERT_TRUE(j.run());
          const std::vector<vec3>& got_p = in_place ? p : out_p;
          const std::vector<vec3>& got_n = in_place ? n : out_n;
          float worst_p = 0.0f, worst_n = 0.0f;
          for (std::size_t v = 0; v < kCount; ++v) {
            const float scale = std::max(1.0f, glm::length(want_p[v]));
            worst_p = std::max(worst_p, glm::length(got_p[v] - want_p[v]) / scale);
            if (with_normals) worst_n = std::max(worst_n, glm::length(got_n[v] - want_n[v]));
          }
          const std::string where = std::string(c.name) + ", path " +
                                    std::to_string(static_cast<int>(path)) +
                                    (mode == 2      ? ", normals by the matrix"
                                     : with_normals ? ", normals"
                                                    : ", positions only") +
                                    (in_place ? ", in place" : "");
          EXPECT_LE(worst_p, 1e-5f) << where;
          EXPECT_LE(worst_n, 1e-5f) << where;
        }
      }
    }
  }
}

}  // namespace
}  // namespace critter::deform
