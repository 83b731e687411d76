// SPDX-License-Identifier: MIT
#include "critter/io/gltf/gltf_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <set>
#include <tuple>

#include <glm/gtc/matrix_transform.hpp>
#include <nlohmann/json.hpp>

#include "critter/anim/local_to_model_job.h"
#include "critter/anim/pose.h"
#include "critter/anim/sampling_job.h"
#include "critter/asset/demo_creature.h"
#include "critter/deform/skin_mesh_part.h"
#include "critter/io/gltf/gltf_reader.h"
#include "critter/io/load.h"
#include "support/files.h"
#include "support/glb_builder.h"
#include "support/gltf_validation.h"
#include "support/test_models.h"

namespace critter {
namespace {

namespace fs = std::filesystem;
using testing::read_bytes;
using testing::read_text;
using testing::ScratchDir;
using testing::validate_gltf;

const std::vector<std::uint8_t> kPng = testing::tiny_png();

nlohmann::json read_json(const fs::path& p) {
  return nlohmann::json::parse(read_text(p));
}

std::string warnings_of(const Diagnostics& d) {
  std::string out;
  for (const Warning& w : d.items()) out += w.to_string() + "\n";
  return out;
}

// ---- poses: SamplingJob + LocalToModelJob, deformed vertices through the deform module ----

struct Sampled {
  std::vector<mat4> model;     // model_from_joint per joint
  std::vector<float> weights;  // flat morph weights (MorphLayout order)
  anim::MorphLayout layout;
};

Sampled sample(const Model& m, int clip, float time) {
  Sampled s;
  s.layout = anim::MorphLayout::of(m);
  anim::Pose pose = anim::Pose::rest(m, s.layout);
  if (clip >= 0) {
    anim::SamplingContext ctx;
    anim::SamplingJob job;
    job.clip = &m.clips()[static_cast<std::size_t>(clip)];
    job.time = time;
    job.context = &ctx;
    job.rest = m.skeleton().rest_pose();
    job.default_weights = s.layout.defaults;
    job.weight_offsets = s.layout.offsets;
    job.output = pose.locals;
    job.output_weights = pose.weights;
    auto r = job.run();
    EXPECT_TRUE(r) << r.error().to_string();
  }
  s.model.resize(pose.locals.size());
  anim::LocalToModelJob l2m;
  l2m.parents = m.skeleton().parents();
  l2m.input = pose.locals;
  l2m.output = s.model;
  auto r = l2m.run();
  EXPECT_TRUE(r) << r.error().to_string();
  s.weights = pose.weights;
  return s;
}

// |a - b| <= 1e-5 relative to the larger magnitude (at least 1).
bool near_rel(float a, float b) {
  return std::abs(a - b) <= 1e-5f * std::max({1.0f, std::abs(a), std::abs(b)});
}

::testing::AssertionResult matrices_near(const mat4& a, const mat4& b) {
  float scale = 1.0f;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) scale = std::max(scale, std::abs(a[c][r]));
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r)
      if (std::abs(a[c][r] - b[c][r]) > 1e-5f * scale)
        return ::testing::AssertionFailure()
               << "element [" << c << "][" << r << "]: " << a[c][r] << " vs " << b[c][r];
  return ::testing::AssertionSuccess();
}

std::vector<vec3> deformed_positions(const Model& m, const Sampled& s, std::size_t mesh,
                                     std::size_t part) {
  const Mesh& me = m.meshes()[mesh];
  std::vector<vec3> out(me.parts[part].vertex_count());
  std::vector<mat4> palette(
      me.skin >= 0 ? m.skins()[static_cast<std::size_t>(me.skin)].joints.size() : 0);
  auto r = deform::skin_mesh_part(m, mesh, part, s.model,
                                  s.layout.mesh_weights(std::span<const float>(s.weights), mesh),
                                  palette, out);
  EXPECT_TRUE(r) << r.error().to_string();
  return out;
}

// Index of the joint of `copy` that came from node `source` (node i = joint i of the original).
std::vector<int> joint_map(const Model& original, const Model& copy) {
  std::vector<int> map(static_cast<std::size_t>(original.skeleton().joint_count()), -1);
  const auto src = copy.skeleton().source_indices();
  for (std::size_t r = 0; r < src.size(); ++r)
    if (src[r] >= 0 && src[r] < original.skeleton().joint_count())
      map[static_cast<std::size_t>(src[r])] = static_cast<int>(r);
  return map;
}

std::vector<int> mesh_map(const Model& original, const Model& copy) {
  std::vector<int> map(original.meshes().size(), -1);
  for (std::size_t r = 0; r < copy.meshes().size(); ++r) {
    const int s = copy.meshes()[r].source_index;
    if (s >= 0 && static_cast<std::size_t>(s) < map.size())
      map[static_cast<std::size_t>(s)] = static_cast<int>(r);
  }
  return map;
}

// Everything a round trip must keep: names and counts, clips key for key, rest pose and the
// model-space joint matrices, morph weights and deformed vertices at 10 times of every clip.
void expect_same_model(const Model& a, const Model& b, std::size_t nodes_added) {
  const Skeleton& sa = a.skeleton();
  const Skeleton& sb = b.skeleton();
  ASSERT_EQ(sb.joint_count(), sa.joint_count() + static_cast<int>(nodes_added));
  const std::vector<int> jm = joint_map(a, b);
  for (int j = 0; j < sa.joint_count(); ++j) {
    const std::size_t uj = static_cast<std::size_t>(j);
    ASSERT_GE(jm[uj], 0) << "joint " << j << " has no node in the copy";
    const std::size_t r = static_cast<std::size_t>(jm[uj]);
    EXPECT_EQ(sb.names()[r], sa.names()[uj]);
    // Rotations are renormalised by each build, so the last bit may move.
    const Transform& ra = sa.rest_pose()[uj];
    const Transform& rb = sb.rest_pose()[r];
    EXPECT_EQ(rb.translation, ra.translation) << "joint " << j;
    EXPECT_EQ(rb.scale, ra.scale) << "joint " << j;
    for (int k = 0; k < 4; ++k) EXPECT_NEAR(rb.rotation[k], ra.rotation[k], 1e-6f) << "joint " << j;
    const int pa = sa.parents()[uj];
    EXPECT_EQ(sb.parents()[r], pa < 0 ? -1 : jm[static_cast<std::size_t>(pa)]) << "joint " << j;
  }

  ASSERT_EQ(b.meshes().size(), a.meshes().size());
  const std::vector<int> mm = mesh_map(a, b);
  for (std::size_t m = 0; m < a.meshes().size(); ++m) {
    ASSERT_GE(mm[m], 0) << "mesh " << m << " missing from the copy";
    const Mesh& ma = a.meshes()[m];
    const Mesh& mb = b.meshes()[static_cast<std::size_t>(mm[m])];
    EXPECT_EQ(mb.name, ma.name);
    EXPECT_EQ(mb.default_weights, ma.default_weights);
    EXPECT_EQ(mb.morph_names, ma.morph_names);
    ASSERT_EQ(mb.parts.size(), ma.parts.size());
    for (std::size_t p = 0; p < ma.parts.size(); ++p) {
      const MeshPart& pa = ma.parts[p];
      const MeshPart& pb = mb.parts[p];
      EXPECT_EQ(pb.streams.positions, pa.streams.positions) << "mesh " << m << " part " << p;
      EXPECT_EQ(pb.streams.uv0, pa.streams.uv0);
      EXPECT_EQ(pb.streams.uv1, pa.streams.uv1);
      EXPECT_EQ(pb.streams.colors, pa.streams.colors);
      EXPECT_EQ(pb.streams.weights, pa.streams.weights);
      EXPECT_EQ(pb.streams.joints, pa.streams.joints);
      EXPECT_EQ(pb.streams.normals.size(), pa.streams.normals.size());
      EXPECT_EQ(pb.streams.tangents.size(), pa.streams.tangents.size());
      EXPECT_EQ(pb.indices, pa.indices);
      EXPECT_EQ(pb.topology, pa.topology);
      EXPECT_EQ(pb.material, pa.material);
      ASSERT_EQ(pb.morphs.target_count(), pa.morphs.target_count());
      for (std::size_t t = 0; t < pa.morphs.target_count(); ++t) {
        EXPECT_EQ(pb.morphs.targets[t].positions, pa.morphs.targets[t].positions);
        EXPECT_EQ(pb.morphs.targets[t].normals, pa.morphs.targets[t].normals);
        EXPECT_EQ(pb.morphs.targets[t].tangents, pa.morphs.targets[t].tangents);
      }
    }
  }

  ASSERT_EQ(b.skins().size(), a.skins().size());
  for (std::size_t s = 0; s < a.skins().size(); ++s) {
    const Skin& ka = a.skins()[s];
    const Skin& kb = b.skins()[s];
    EXPECT_EQ(kb.name, ka.name);
    ASSERT_EQ(kb.joints.size(), ka.joints.size());
    for (std::size_t j = 0; j < ka.joints.size(); ++j)
      EXPECT_EQ(kb.joints[j], jm[static_cast<std::size_t>(ka.joints[j])]);
    EXPECT_EQ(kb.inverse_bind, ka.inverse_bind);
  }

  ASSERT_EQ(b.materials().size(), a.materials().size());
  for (std::size_t i = 0; i < a.materials().size(); ++i) {
    EXPECT_EQ(b.materials()[i].name, a.materials()[i].name);
    EXPECT_EQ(b.materials()[i].base_color_factor, a.materials()[i].base_color_factor);
    EXPECT_EQ(b.materials()[i].base_color_texture.valid(),
              a.materials()[i].base_color_texture.valid());
  }
  ASSERT_EQ(b.images().size(), a.images().size());

  ASSERT_EQ(b.clips().size(), a.clips().size());
  for (std::size_t c = 0; c < a.clips().size(); ++c) {
    const Clip& ca = a.clips()[c];
    const Clip& cb = b.clips()[c];
    EXPECT_EQ(cb.name(), ca.name());
    EXPECT_EQ(cb.duration(), ca.duration());
    ASSERT_EQ(cb.tracks().size(), ca.tracks().size());
    for (std::size_t t = 0; t < ca.tracks().size(); ++t) {
      const Track& ta = ca.tracks()[t];
      const Track& tb = cb.tracks()[t];
      EXPECT_EQ(tb.target, ta.target);
      EXPECT_EQ(tb.interpolation, ta.interpolation);
      EXPECT_EQ(tb.index, ta.target == TrackTarget::kWeights
                              ? mm[static_cast<std::size_t>(ta.index)]
                              : jm[static_cast<std::size_t>(ta.index)]);
      const auto xa = ca.track_times(ta), xb = cb.track_times(tb);
      const auto va = ca.track_values(ta), vb = cb.track_values(tb);
      EXPECT_TRUE(std::equal(xa.begin(), xa.end(), xb.begin(), xb.end()))
          << "clip " << c << " track " << t << " times";
      // Rotation keys are renormalised by each build (the last bit may move); the rest is exact.
      ASSERT_EQ(vb.size(), va.size()) << "clip " << c << " track " << t;
      for (std::size_t k = 0; k < va.size(); ++k) {
        if (ta.target == TrackTarget::kRotation)
          ASSERT_NEAR(vb[k], va[k], 1e-6f) << "clip " << c << " track " << t << " value " << k;
        else
          ASSERT_EQ(vb[k], va[k]) << "clip " << c << " track " << t << " value " << k;
      }
    }
  }

  // Poses: the rest pose, then 10 times spread over every clip.
  std::vector<std::pair<int, float>> moments{{-1, 0.0f}};
  for (std::size_t c = 0; c < a.clips().size(); ++c)
    for (int k = 0; k < 10; ++k)
      moments.emplace_back(static_cast<int>(c), a.clips()[c].duration() * k / 9.0f);
  for (const auto& [clip, time] : moments) {
    const Sampled pa = sample(a, clip, time);
    const Sampled pb = sample(b, clip, time);
    for (int j = 0; j < sa.joint_count(); ++j)
      ASSERT_TRUE(
          matrices_near(pa.model[static_cast<std::size_t>(j)],
                        pb.model[static_cast<std::size_t>(jm[static_cast<std::size_t>(j)])]))
          << "joint " << j << " clip " << clip << " t " << time;
    for (std::size_t m = 0; m < a.meshes().size(); ++m) {
      const std::size_t r = static_cast<std::size_t>(mm[m]);
      const auto wa = pa.layout.mesh_weights(std::span<const float>(pa.weights), m);
      const auto wb = pb.layout.mesh_weights(std::span<const float>(pb.weights), r);
      ASSERT_TRUE(std::equal(wa.begin(), wa.end(), wb.begin(), wb.end()))
          << "weights of mesh " << m << " clip " << clip << " t " << time;
      // Deformed vertices at the rest pose and the middle of each clip keep the check fast.
      if (clip >= 0 &&
          std::abs(time - a.clips()[static_cast<std::size_t>(clip)].duration() * 5 / 9.0f) > 1e-6f)
        continue;
      for (std::size_t p = 0; p < a.meshes()[m].parts.size(); ++p) {
        const auto va = deformed_positions(a, pa, m, p);
        const auto vb = deformed_positions(b, pb, r, p);
        ASSERT_EQ(va.size(), vb.size());
        for (std::size_t v = 0; v < va.size(); ++v)
          for (int k = 0; k < 3; ++k)
            ASSERT_TRUE(near_rel(va[v][k], vb[v][k]))
                << "mesh " << m << " part " << p << " vertex " << v << " clip " << clip << " t "
                << time << ": " << va[v][k] << " vs " << vb[v][k];
      }
    }
  }
}

// ---- every shared glTF model, both containers ----

struct SharedCase {
  const char* file;  // relative to CRITTER_SHARED_MODELS
  const char* ext;   // "glb" or "gltf"
};

class SharedModelRoundTrip : public ::testing::TestWithParam<SharedCase> {};

TEST_P(SharedModelRoundTrip, ValidatesAndReimportsTheSameModel) {
  const SharedCase c = GetParam();
  const fs::path source = fs::path(CRITTER_SHARED_MODELS) / c.file;
  auto original = io::load(source.string());
  ASSERT_TRUE(original) << original.error().to_string();

  ScratchDir dir("gltf_writer");
  const fs::path out = dir / (source.stem().string() + "." + c.ext);
  Diagnostics diag;
  auto report = io::write_gltf(*original, out.string(), {}, &diag);
  ASSERT_TRUE(report) << report.error().to_string();
  EXPECT_TRUE(diag.empty()) << warnings_of(diag);
  EXPECT_EQ(report->files.front(), out.string());
  for (const std::string& f : report->files) EXPECT_TRUE(fs::exists(f)) << f;
  EXPECT_EQ(report->bytes, fs::file_size(out));

  const auto v = validate_gltf(out);
  EXPECT_EQ(v.exit_code, 0) << v.summary();
  EXPECT_EQ(v.errors, 0) << v.summary();

  auto copy = io::load(out.string());
  ASSERT_TRUE(copy) << copy.error().to_string();
  EXPECT_EQ(copy->format(), c.ext);
  expect_same_model(*original, *copy, report->mesh_nodes_added);

  // Written again, the copy is a fixed point: every mesh already sits on a suitable node.
  const fs::path again = dir / (std::string("again.") + c.ext);
  auto report2 = io::write_gltf(*copy, again.string());
  ASSERT_TRUE(report2) << report2.error().to_string();
  EXPECT_EQ(report2->mesh_nodes_added, 0u);
  EXPECT_EQ(report2->node_count, report->node_count);
}

const SharedCase kSharedCases[] = {
    {"RiggedFigure/RiggedFigure.glb", "glb"},
    {"RiggedFigure/RiggedFigure.glb", "gltf"},
    {"SimpleSkin/SimpleSkin.gltf", "glb"},
    {"SimpleSkin/SimpleSkin.gltf", "gltf"},
    {"girl/girl.glb", "glb"},
    {"girl/girl.glb", "gltf"},
    {"greenman/greenman.glb", "glb"},
    {"greenman/greenman.glb", "gltf"},
    {"Wizard/Wizard.glb", "glb"},
    {"Wizard/Wizard.glb", "gltf"},
    {"ozz_cubicspline/cubicspline.gltf", "glb"},
    {"ozz_cubicspline/cubicspline.gltf", "gltf"},
    {"ozz_multiple_roots/multiple_roots.gltf", "glb"},
    {"ozz_multiple_roots/multiple_roots.gltf", "gltf"},
    {"MorphStressTest/MorphStressTest.gltf", "glb"},
    {"MorphStressTest/MorphStressTest.gltf", "gltf"},
    {"AnimatedMorphSphere/AnimatedMorphSphere.gltf", "glb"},
    {"AnimatedMorphSphere/AnimatedMorphSphere.gltf", "gltf"},
    {"MorphPrimitivesTest/MorphPrimitivesTest.gltf", "glb"},
    {"MorphPrimitivesTest/MorphPrimitivesTest.gltf", "gltf"},
    {"AnimatedTriangle/AnimatedTriangle.gltf", "glb"},
    {"AnimatedTriangle/AnimatedTriangle.gltf", "gltf"},
    {"assimp_interpolation_synthetic/animation_interpolation_step.gltf", "glb"},
    {"assimp_interpolation_synthetic/animation_interpolation_step.gltf", "gltf"},
    {"assimp_interpolation_synthetic/animation_interpolation_linear.gltf", "glb"},
    {"assimp_interpolation_synthetic/animation_interpolation_linear.gltf", "gltf"},
    {"assimp_interpolation_synthetic/animation_interpolation_cubic.gltf", "glb"},
    {"assimp_interpolation_synthetic/animation_interpolation_cubic.gltf", "gltf"},
};

std::string shared_case_name(const ::testing::TestParamInfo<SharedCase>& param) {
  std::string name = fs::path(param.param.file).stem().string() + "_" + param.param.ext;
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Shared, SharedModelRoundTrip, ::testing::ValuesIn(kSharedCases),
                         shared_case_name);

// ---- a model built in code: every stream, STEP and CUBICSPLINE, morphs, textures ----

// Joints: root (0, 1, 0) -> spine (0, 0.5, 0) -> tip (0, 0.5, 0).
// Meshes: "body" skinned (bone -1: a new root node), 4 vertices with every stream and two morph
// targets; "hat" rigid on tip with a line part and a triangle part; "floor" on no bone.
RawModel code_model(const fs::path& external_png) {
  RawModel m;
  m.name = "code";
  m.format = "code";
  RawJoint root{"root", -1, {}, -1};
  root.rest.translation = vec3(0, 1, 0);
  RawJoint spine{"spine", 0, {}, -1};
  spine.rest.translation = vec3(0, 0.5f, 0);
  spine.rest.rotation = quat_xyzw(0, 0, 0.70710677f, 0.70710677f);
  RawJoint tip{"tip", 1, {}, -1};
  tip.rest.translation = vec3(0, 0.5f, 0);
  tip.rest.scale = vec3(2, 2, 2);
  m.skeleton.joints = {root, spine, tip};

  Mesh body;
  body.name = "body";
  body.skin = 0;
  MeshPart p;
  VertexStreams& s = p.streams;
  s.positions = {{-0.5f, 0, 0}, {0.5f, 0, 0}, {0.5f, 1, 0}, {-0.5f, 1, 0}};
  s.normals.assign(4, vec3(0, 0, 1));
  s.tangents = {{1, 0, 0, 1}, {1, 0, 0, 1}, {1, 0, 0, -1}, {1, 0, 0, -1}};
  s.uv0 = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
  s.uv1 = {{0.25f, 0.75f}, {0.5f, 0.75f}, {0.5f, 0.5f}, {0.25f, 0.5f}};
  s.colors = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 0.5f}, {1, 1, 1, 0.25f}};
  s.joints = {glm::u16vec4(0, 1, 0, 0), glm::u16vec4(0, 1, 0, 0), glm::u16vec4(1, 2, 0, 0),
              glm::u16vec4(2, 0, 0, 0)};
  s.weights = {{0.5f, 0.5f, 0, 0}, {0.75f, 0.25f, 0, 0}, {0.5f, 0.5f, 0, 0}, {1, 0, 0, 0}};
  p.indices = {0, 1, 2, 0, 2, 3};
  p.material = 0;
  MorphTarget smile;
  smile.positions = {{0, 0.125f, 0}, {0, 0.25f, 0}, {0, 0, 0}, {0, 0, 0.5f}};
  smile.normals = {{0, 0, 0}, {0.25f, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  smile.tangents = {{0, 0, 0}, {0, 0, 0}, {0, 0.5f, 0}, {0, 0, 0}};
  MorphTarget frown;
  frown.positions = {{0, -0.125f, 0}, {0, 0, 0}, {0, 0, 0}, {0, -0.5f, 0}};
  p.morphs.targets = {smile, frown};
  body.parts.push_back(p);
  body.morph_names = {"smile", "frown"};
  body.default_weights = {0.25f, 0.0f};
  m.meshes.push_back(body);

  Mesh hat;
  hat.name = "hat";
  hat.bone = 2;
  MeshPart lines;
  lines.topology = Topology::kLines;
  lines.streams.positions = {{0, 0, 0}, {0, 0.25f, 0}, {0.25f, 0, 0}, {0, 0, 0.25f}};
  hat.parts.push_back(lines);
  MeshPart cone;
  cone.streams.positions = {{-0.25f, 0, 0}, {0.25f, 0, 0}, {0, 0.5f, 0}};
  cone.streams.uv0 = {{0, 0}, {1, 0}, {0.5f, 1}};
  cone.material = 1;
  hat.parts.push_back(cone);
  m.meshes.push_back(hat);

  Mesh floor;
  floor.name = "floor";
  MeshPart tri;
  tri.streams.positions = {{-2, 0, -2}, {2, 0, -2}, {0, 0, 2}};
  tri.indices = {0, 2, 1};
  floor.parts.push_back(tri);
  m.meshes.push_back(floor);

  Skin skin;
  skin.name = "rig";
  skin.joints = {0, 1, 2};
  skin.skeleton_root = 0;
  // Inverse rest model transforms of root (0,1,0), spine and tip, computed by hand: spine sits at
  // (0, 1.5, 0) turned 90 degrees about Z; tip 0.5 further along the spine's local +Y, i.e. at
  // (-0.5, 1.5, 0), scaled by 2.
  const mat4 root_m = glm::translate(mat4(1.0f), vec3(0, 1, 0));
  const mat4 spine_m = root_m * glm::translate(mat4(1.0f), vec3(0, 0.5f, 0)) *
                       glm::mat4_cast(quat_xyzw(0, 0, 0.70710677f, 0.70710677f));
  const mat4 tip_m =
      spine_m * glm::translate(mat4(1.0f), vec3(0, 0.5f, 0)) * glm::scale(mat4(1.0f), vec3(2.0f));
  skin.inverse_bind = {glm::inverse(root_m), glm::inverse(spine_m), glm::inverse(tip_m)};
  m.skins.push_back(skin);

  Material skin_mat;
  skin_mat.name = "skin_mat";
  skin_mat.base_color_factor = vec4(0.5f, 0.25f, 1.0f, 1.0f);
  skin_mat.base_color_texture.image = 0;
  skin_mat.base_color_texture.texcoord = 1;
  skin_mat.base_color_texture.has_transform = true;
  skin_mat.base_color_texture.offset = vec2(0.5f, 0.0f);
  skin_mat.base_color_texture.rotation = 0.25f;
  skin_mat.base_color_texture.scale = vec2(2.0f, 2.0f);
  skin_mat.base_color_texture.wrap_s = 33071;     // CLAMP_TO_EDGE
  skin_mat.base_color_texture.mag_filter = 9729;  // LINEAR
  skin_mat.normal_texture.image = 0;
  skin_mat.metallic_factor = 0.25f;
  skin_mat.roughness_factor = 0.75f;
  skin_mat.emissive_factor = vec3(0.125f, 0.25f, 0.5f);
  skin_mat.alpha_mode = AlphaMode::kMask;
  skin_mat.alpha_cutoff = 0.375f;
  skin_mat.double_sided = true;
  m.materials.push_back(skin_mat);
  Material hat_mat;
  hat_mat.name = "hat_mat";
  hat_mat.unlit = true;
  hat_mat.alpha_mode = AlphaMode::kBlend;
  hat_mat.base_color_texture.image = 1;
  m.materials.push_back(hat_mat);

  Image embedded;
  embedded.name = "checker";
  embedded.mime_type = "image/png";
  embedded.bytes = kPng;
  m.images.push_back(embedded);
  Image external;
  external.uri = "tex.png";
  external.resolved_path = external_png.string();
  m.images.push_back(external);

  // "steps": STEP translation of spine, STEP weights of body.
  RawClip steps;
  steps.name = "steps";
  RawTrack st;
  st.target = TrackTarget::kTranslation;
  st.index = 1;
  st.interpolation = Interpolation::kStep;
  st.times = {0, 0.5f, 1};
  st.values = {0, 0.5f, 0, 0, 2, 0, 0, 3, 0};
  steps.tracks.push_back(st);
  RawTrack sw;
  sw.target = TrackTarget::kWeights;
  sw.index = 0;
  sw.components = 2;
  sw.interpolation = Interpolation::kStep;
  sw.times = {0, 0.5f};
  sw.values = {1, 0, 0, 1};
  steps.tracks.push_back(sw);
  m.clips.push_back(steps);

  // "curves": CUBICSPLINE translation of tip (zero tangents), CUBICSPLINE weights, LINEAR
  // rotation of root.
  RawClip curves;
  curves.name = "curves";
  RawTrack ct;
  ct.target = TrackTarget::kTranslation;
  ct.index = 2;
  ct.interpolation = Interpolation::kCubicSpline;
  ct.times = {0, 1};
  ct.values = {0, 0, 0, /*value*/ 0, 0, 0, 0, 0, 0,  // key 0: in, value, out
               0, 0, 0, /*value*/ 1, 0, 0, 0, 0, 0};
  curves.tracks.push_back(ct);
  RawTrack cw;
  cw.target = TrackTarget::kWeights;
  cw.index = 0;
  cw.components = 2;
  cw.interpolation = Interpolation::kCubicSpline;
  cw.times = {0, 2};
  cw.values = {0, 0, 0, 1, 0, 0,  // key 0: in (2), value (2), out (2)
               0, 0, 1, 0, 0, 0};
  curves.tracks.push_back(cw);
  RawTrack cr;
  cr.target = TrackTarget::kRotation;
  cr.index = 0;
  cr.components = 4;
  cr.times = {0, 2};
  cr.values = {0, 0, 0, 1, 0, 0.70710677f, 0, 0.70710677f};
  curves.tracks.push_back(cr);
  m.clips.push_back(curves);
  return m;
}

class CodeModel : public ::testing::TestWithParam<const char*> {};

TEST_P(CodeModel, WritesEveryFeatureAndReadsItBack) {
  ScratchDir dir("gltf_writer_code");
  ScratchDir src("gltf_writer_src");
  {
    std::ofstream(src / "tex.png", std::ios::binary)
        .write(reinterpret_cast<const char*>(kPng.data()),
               static_cast<std::streamsize>(kPng.size()));
  }
  Diagnostics build_diag;
  auto model = build_model(code_model(src / "tex.png"), &build_diag);
  ASSERT_TRUE(model) << model.error().to_string();

  const std::string ext = GetParam();
  const fs::path out = dir / ("creature." + ext);
  Diagnostics diag;
  auto report = io::write_gltf(*model, out.string(), {}, &diag);
  ASSERT_TRUE(report) << report.error().to_string();
  EXPECT_TRUE(diag.empty()) << warnings_of(diag);
  // body (skinned, no bone) and floor (no bone) get new root nodes; hat sits on tip.
  EXPECT_EQ(report->mesh_nodes_added, 2u);
  EXPECT_EQ(report->node_count, 5u);

  const auto v = validate_gltf(out);
  EXPECT_EQ(v.errors, 0) << v.summary();
  EXPECT_EQ(v.warnings, 0) << v.summary();

  if (ext == "gltf") {
    // Files beside the JSON: the buffer, the embedded image as a file, the copied external one.
    EXPECT_EQ(dir.list(), (std::vector<std::string>{"creature.bin", "creature.gltf",
                                                    "creature_checker.png", "tex.png"}));
    EXPECT_EQ(read_bytes(dir / "tex.png"), kPng);
    EXPECT_EQ(read_bytes(dir / "creature_checker.png"), kPng);
    const auto doc = read_json(out);
    EXPECT_EQ(doc["asset"]["generator"], "critter");
    EXPECT_EQ(doc["asset"]["version"], "2.0");
    EXPECT_EQ(doc["buffers"][0]["uri"], "creature.bin");
    EXPECT_EQ(doc["buffers"][0]["byteLength"], fs::file_size(dir / "creature.bin"));
    const auto used = doc["extensionsUsed"].get<std::vector<std::string>>();
    EXPECT_NE(std::find(used.begin(), used.end(), "KHR_texture_transform"), used.end());
    EXPECT_NE(std::find(used.begin(), used.end(), "KHR_materials_unlit"), used.end());
    // Node 2 (tip) holds the hat directly; nodes 3 and 4 are the new roots of body and floor.
    EXPECT_EQ(doc["nodes"][2]["mesh"], 1);
    EXPECT_EQ(doc["nodes"][3]["mesh"], 0);
    EXPECT_EQ(doc["nodes"][3]["skin"], 0);
    EXPECT_FALSE(doc["nodes"][3].contains("translation"));
    EXPECT_EQ(doc["scenes"][0]["nodes"], nlohmann::json::array({0, 3, 4}));
    // Joint indices 0..2 fit a byte; 4 indices fit 16 bits; POSITION has exact bounds.
    const auto& prim = doc["meshes"][0]["primitives"][0];
    EXPECT_EQ(doc["accessors"][prim["attributes"]["JOINTS_0"].get<int>()]["componentType"], 5121);
    EXPECT_EQ(doc["accessors"][prim["indices"].get<int>()]["componentType"], 5123);
    const auto& pos = doc["accessors"][prim["attributes"]["POSITION"].get<int>()];
    EXPECT_EQ(pos["min"], nlohmann::json::array({-0.5, 0.0, 0.0}));
    EXPECT_EQ(pos["max"], nlohmann::json::array({0.5, 1.0, 0.0}));
    EXPECT_EQ(doc["meshes"][0]["extras"]["targetNames"], nlohmann::json::array({"smile", "frown"}));
    EXPECT_EQ(doc["meshes"][0]["weights"], nlohmann::json::array({0.25, 0.0}));
    EXPECT_EQ(doc["meshes"][1]["primitives"][0]["mode"], 1);
    // Every buffer view starts on a 4-byte boundary.
    for (const auto& view : doc["bufferViews"]) EXPECT_EQ(view.value("byteOffset", 0) % 4, 0);
    // The weights channel of the body targets the body's node.
    const auto& channels = doc["animations"][0]["channels"];
    EXPECT_EQ(channels[1]["target"]["node"], 3);
    EXPECT_EQ(channels[1]["target"]["path"], "weights");
    EXPECT_EQ(doc["animations"][1]["samplers"][0]["interpolation"], "CUBICSPLINE");
    EXPECT_EQ(doc["animations"][0]["samplers"][0]["interpolation"], "STEP");
  } else {
    EXPECT_EQ(dir.list(), (std::vector<std::string>{"creature.glb"}));
  }

  auto copy = io::load(out.string());
  ASSERT_TRUE(copy) << copy.error().to_string();
  expect_same_model(*model, *copy, report->mesh_nodes_added);

  // Streams and materials in detail.
  const int body = copy->find_mesh("body");
  ASSERT_GE(body, 0);
  const MeshPart& bp = copy->meshes()[static_cast<std::size_t>(body)].parts[0];
  EXPECT_EQ(bp.streams.tangents, model->meshes()[0].parts[0].streams.tangents);
  EXPECT_EQ(bp.streams.normals, model->meshes()[0].parts[0].streams.normals);
  const Material& m0 = copy->materials()[0];
  EXPECT_EQ(m0.base_color_texture.texcoord, 1);
  EXPECT_TRUE(m0.base_color_texture.has_transform);
  EXPECT_EQ(m0.base_color_texture.offset, vec2(0.5f, 0.0f));
  EXPECT_EQ(m0.base_color_texture.rotation, 0.25f);
  EXPECT_EQ(m0.base_color_texture.scale, vec2(2.0f, 2.0f));
  EXPECT_EQ(m0.base_color_texture.wrap_s, 33071);
  EXPECT_EQ(m0.base_color_texture.wrap_t, 10497);
  EXPECT_EQ(m0.base_color_texture.mag_filter, 9729);
  EXPECT_TRUE(m0.normal_texture.valid());
  EXPECT_EQ(m0.metallic_factor, 0.25f);
  EXPECT_EQ(m0.roughness_factor, 0.75f);
  EXPECT_EQ(m0.emissive_factor, vec3(0.125f, 0.25f, 0.5f));
  EXPECT_EQ(m0.alpha_mode, AlphaMode::kMask);
  EXPECT_EQ(m0.alpha_cutoff, 0.375f);
  EXPECT_TRUE(m0.double_sided);
  const Material& m1 = copy->materials()[1];
  EXPECT_TRUE(m1.unlit);
  EXPECT_EQ(m1.alpha_mode, AlphaMode::kBlend);
  ASSERT_EQ(copy->images().size(), 2u);
  for (const Image& img : copy->images()) {
    EXPECT_FALSE(img.missing);
    if (ext == "glb") {
      EXPECT_EQ(img.bytes, kPng);
    }
  }

  // Hand-computed samples of the copy. STEP holds the key at 0.5 until 1: spine at y = 2.
  const int steps = copy->find_clip("steps");
  const int curves = copy->find_clip("curves");
  ASSERT_GE(steps, 0);
  ASSERT_GE(curves, 0);
  const int spine = copy->find_bone("spine");
  const int tip = copy->find_bone("tip");
  {
    const Sampled s = sample(*copy, steps, 0.75f);
    const mat4& root_m = s.model[static_cast<std::size_t>(copy->find_bone("root"))];
    const vec3 local = vec3(glm::inverse(root_m) * s.model[static_cast<std::size_t>(spine)][3]);
    EXPECT_NEAR(local.y, 2.0f, 1e-6f);
    const auto w =
        s.layout.mesh_weights(std::span<const float>(s.weights), static_cast<std::size_t>(body));
    EXPECT_EQ(w[0], 0.0f);  // second key (0, 1) holds from 0.5 on
    EXPECT_EQ(w[1], 1.0f);
  }
  {
    // Cubic Hermite with zero tangents at u = 0.25: 3u^2 - 2u^3 = 0.15625 of the way.
    const Sampled s = sample(*copy, curves, 0.25f);
    const mat4 local = glm::inverse(s.model[static_cast<std::size_t>(spine)]) *
                       s.model[static_cast<std::size_t>(tip)];
    EXPECT_NEAR(local[3].x, 0.15625f, 1e-6f);
    // Weights over [0, 2] at t = 0.25 (u = 0.125): 3u^2 - 2u^3 = 0.04296875.
    const auto w =
        s.layout.mesh_weights(std::span<const float>(s.weights), static_cast<std::size_t>(body));
    EXPECT_NEAR(w[0], 0.04296875f, 1e-6f);
    EXPECT_NEAR(w[1], 1.0f - 0.04296875f, 1e-6f);
  }
}

INSTANTIATE_TEST_SUITE_P(Containers, CodeModel, ::testing::Values("glb", "gltf"));

// A skin with 300 joints and a part with 70000 vertices: JOINTS_0 needs 16 bits and the indices
// 32 bits.
TEST(GltfWriter, WidensJointsAndIndicesWhenNeeded) {
  RawModel m;
  for (int j = 0; j < 300; ++j) {
    RawJoint joint{"j" + std::to_string(j), j - 1, {}, -1};
    joint.rest.translation = vec3(0, 0.01f, 0);
    m.skeleton.joints.push_back(joint);
  }
  Skin skin;
  for (int j = 0; j < 300; ++j) skin.joints.push_back(static_cast<std::int16_t>(j));
  m.skins.push_back(skin);
  Mesh mesh;
  mesh.name = "big";
  mesh.skin = 0;
  MeshPart p;
  const std::uint32_t n = 70000;
  for (std::uint32_t i = 0; i < n; ++i) {
    p.streams.positions.emplace_back(static_cast<float>(i % 100), static_cast<float>(i / 100), 0);
    p.streams.joints.emplace_back(static_cast<std::uint16_t>(i % 300), 0, 0, 0);
    p.streams.weights.emplace_back(1, 0, 0, 0);
  }
  for (std::uint32_t i = 0; i + 2 < n; i += 3) p.indices.insert(p.indices.end(), {i, i + 1, i + 2});
  mesh.parts.push_back(std::move(p));
  m.meshes.push_back(std::move(mesh));
  auto model = build_model(std::move(m));
  ASSERT_TRUE(model) << model.error().to_string();
  // The inverse binds are identities: skinning moves vertices by the joints' rest positions.
  ScratchDir dir("gltf_writer_wide");
  const fs::path out = dir / "wide.gltf";
  auto report = io::write_gltf(*model, out.string());
  ASSERT_TRUE(report) << report.error().to_string();
  const auto doc = read_json(out);
  const auto& prim = doc["meshes"][0]["primitives"][0];
  EXPECT_EQ(doc["accessors"][prim["attributes"]["JOINTS_0"].get<int>()]["componentType"], 5123);
  EXPECT_EQ(doc["accessors"][prim["indices"].get<int>()]["componentType"], 5125);
  const auto v = validate_gltf(out);
  EXPECT_EQ(v.errors, 0) << v.summary();
  auto copy = io::load(out.string());
  ASSERT_TRUE(copy) << copy.error().to_string();
  EXPECT_EQ(copy->meshes()[0].parts[0].streams.joints, model->meshes()[0].parts[0].streams.joints);
  EXPECT_EQ(copy->meshes()[0].parts[0].indices, model->meshes()[0].parts[0].indices);
}

TEST(GltfWriter, LeavesOutMissingImagesWithAWarning) {
  RawModel m = code_model("/nonexistent/tex.png");
  m.images[1].missing = true;
  m.images[1].resolved_path.clear();
  auto model = build_model(std::move(m));
  ASSERT_TRUE(model) << model.error().to_string();
  ScratchDir dir("gltf_writer_missing");
  const fs::path out = dir / "m.gltf";
  Diagnostics diag;
  auto report = io::write_gltf(*model, out.string(), {}, &diag);
  ASSERT_TRUE(report) << report.error().to_string();
  ASSERT_EQ(diag.size(), 1u);
  EXPECT_EQ(diag.items()[0].location, "/images/1");
  EXPECT_NE(diag.items()[0].message.find("missing"), std::string::npos);
  const auto doc = read_json(out);
  EXPECT_EQ(doc["images"].size(), 1u);
  // hat_mat used the missing image: its base colour texture is gone, the material stays.
  EXPECT_FALSE(doc["materials"][1]["pbrMetallicRoughness"].contains("baseColorTexture"));
  EXPECT_TRUE(doc["materials"][0]["pbrMetallicRoughness"].contains("baseColorTexture"));
  const auto v = validate_gltf(out);
  EXPECT_EQ(v.errors, 0) << v.summary();
}

// GLB layout (glTF 2.0 §4.4): header, then a JSON chunk and a BIN chunk, each 4-byte aligned.
TEST(GltfWriter, GlbContainerLayout) {
  auto model = build_demo_quadruped();
  ASSERT_TRUE(model) << model.error().to_string();
  auto bytes = io::encode_glb(*model);
  ASSERT_TRUE(bytes) << bytes.error().to_string();
  const auto& b = *bytes;
  auto u32 = [&](std::size_t at) {
    return static_cast<std::uint32_t>(b[at]) | static_cast<std::uint32_t>(b[at + 1]) << 8 |
           static_cast<std::uint32_t>(b[at + 2]) << 16 |
           static_cast<std::uint32_t>(b[at + 3]) << 24;
  };
  ASSERT_GE(b.size(), 28u);
  EXPECT_EQ(std::string(b.begin(), b.begin() + 4), "glTF");
  EXPECT_EQ(u32(4), 2u);
  EXPECT_EQ(u32(8), b.size());
  const std::uint32_t json_len = u32(12);
  EXPECT_EQ(json_len % 4, 0u);
  EXPECT_EQ(std::string(b.begin() + 16, b.begin() + 20), "JSON");
  const std::size_t bin_at = 20 + json_len;
  ASSERT_LT(bin_at + 8, b.size());
  const std::uint32_t bin_len = u32(bin_at);
  EXPECT_EQ(bin_len % 4, 0u);
  EXPECT_EQ(std::string(b.begin() + static_cast<std::ptrdiff_t>(bin_at) + 4,
                        b.begin() + static_cast<std::ptrdiff_t>(bin_at) + 8),
            std::string("BIN\0", 4));
  EXPECT_EQ(bin_at + 8 + bin_len, b.size());
  const auto doc = nlohmann::json::parse(b.begin() + 20, b.begin() + 20 + json_len);
  EXPECT_FALSE(doc["buffers"][0].contains("uri"));
  EXPECT_LE(doc["buffers"][0]["byteLength"].get<std::uint32_t>(), bin_len);
  // The demo quadruped: 18 joints + one new root node for its skinned mesh; two clips.
  EXPECT_EQ(doc["nodes"].size(), 19u);
  EXPECT_EQ(doc["animations"].size(), 2u);

  ScratchDir dir("gltf_writer_demo");
  const fs::path out = dir / "demo.glb";
  auto report = io::write_gltf(*model, out.string());
  ASSERT_TRUE(report) << report.error().to_string();
  EXPECT_EQ(read_bytes(out), b);
  const auto v = validate_gltf(out);
  EXPECT_EQ(v.errors, 0) << v.summary();
  EXPECT_EQ(v.warnings, 0) << v.summary();
}

// A failed write leaves nothing behind and keeps what was there: here the .bin of a .gltf cannot
// be written because a folder has its name.
TEST(GltfWriter, FailedWriteKeepsTheExistingOutput) {
  auto model = build_demo_quadruped();
  ASSERT_TRUE(model) << model.error().to_string();
  ScratchDir dir("gltf_writer_fail");
  const fs::path out = dir / "demo.gltf";
  { std::ofstream(out) << "old contents"; }
  fs::create_directory(dir / "demo.bin");
  auto report = io::write_gltf(*model, out.string());
  ASSERT_FALSE(report);
  EXPECT_EQ(report.error().code, ErrorCode::kIo);
  EXPECT_EQ(report.error().path, (dir / "demo.bin").string());
  EXPECT_EQ(read_text(out), "old contents");
  EXPECT_EQ(dir.list(), (std::vector<std::string>{"demo.bin", "demo.gltf"}));
}

TEST(GltfWriter, MissingFolderIsAnIoError) {
  auto model = build_demo_quadruped();
  ASSERT_TRUE(model) << model.error().to_string();
  ScratchDir dir("gltf_writer_nofolder");
  const fs::path out = dir / "no" / "such" / "demo.glb";
  auto report = io::write_gltf(*model, out.string());
  ASSERT_FALSE(report);
  EXPECT_EQ(report.error().code, ErrorCode::kIo);
  EXPECT_EQ(report.error().path, out.string());
  EXPECT_TRUE(dir.list().empty());
}

// ---- issue fixes: no null members, node tree kept, degenerate normals repaired ----

// The JSON pointer of the first null anywhere in `j`, or "" when there is none.
std::string first_null(const nlohmann::json& j, const std::string& at = "") {
  if (j.is_null()) return at.empty() ? "/" : at;
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      if (std::string n = first_null(it.value(), at + "/" + it.key()); !n.empty()) return n;
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i)
      if (std::string n = first_null(j[i], at + "/" + std::to_string(i)); !n.empty()) return n;
  }
  return {};
}

// The JSON of a written .gltf or .glb.
nlohmann::json written_json(const fs::path& p) {
  if (p.extension() != ".glb") return read_json(p);
  const auto b = read_bytes(p);
  const std::uint32_t len =
      static_cast<std::uint32_t>(b[12]) | static_cast<std::uint32_t>(b[13]) << 8 |
      static_cast<std::uint32_t>(b[14]) << 16 | static_cast<std::uint32_t>(b[15]) << 24;
  return nlohmann::json::parse(b.begin() + 20, b.begin() + 20 + len);
}

std::string node_name(const nlohmann::json& node) {
  const auto it = node.find("name");
  const std::string* name = it != node.end() ? it->get_ptr<const std::string*>() : nullptr;
  return name ? *name : std::string();
}

std::size_t clips_with_tracks(const Model& m) {
  return static_cast<std::size_t>(std::count_if(m.clips().begin(), m.clips().end(),
                                                [](const Clip& c) { return !c.tracks().empty(); }));
}

// One triangle (positions only) as mesh `name` of `b`; returns the mesh index.
int add_triangle(testing::GltfBuilder& b, const std::string& name) {
  const int pos = b.add_floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3");
  b.json()["accessors"][pos]["min"] = {0, 0, 0};
  b.json()["accessors"][pos]["max"] = {1, 1, 0};
  return b.add_mesh(name, pos);
}

// A translation animation of `node` over two keys, with `path` as the channel's path.
void add_channel(testing::GltfBuilder& b, int node, const std::string& path) {
  const int input = b.add_floats({0, 1}, "SCALAR");
  b.json()["accessors"][input]["min"] = {0};
  b.json()["accessors"][input]["max"] = {1};
  const int output = b.add_floats({0, 0, 0, 0, 1, 0}, "VEC3");
  b.json()["animations"].push_back(
      {{"name", "move"},
       {"samplers", {{{"input", input}, {"output", output}}}},
       {"channels", {{{"sampler", 0}, {"target", {{"node", node}, {"path", path}}}}}}});
}

// Small glTF files at the edges of what the reader accepts.
std::string edge_case(const std::string& name) {
  testing::GltfBuilder b;
  if (name == "unknown_paths") {
    const int node = b.add_node("thing", add_triangle(b, "tri"));
    add_channel(b, node, "pointer");
    b.json()["scenes"] = {{{"nodes", {node}}}};
  } else if (name == "unknown_and_known_paths") {
    const int node = b.add_node("thing", add_triangle(b, "tri"));
    add_channel(b, node, "pointer");
    add_channel(b, node, "translation");
  } else if (name == "morph_only") {
    const int mesh = add_triangle(b, "blob");
    const int delta = b.add_floats({0, 0, 1, 0, 0, 1, 0, 0, 1}, "VEC3");
    b.json()["accessors"][delta]["min"] = {0, 0, 1};
    b.json()["accessors"][delta]["max"] = {0, 0, 1};
    b.json()["meshes"][mesh]["primitives"][0]["targets"] = {{{"POSITION", delta}}};
    b.json()["meshes"][mesh]["weights"] = {0.5};
    const int node = b.add_node("blob", mesh);
    const int input = b.add_floats({0, 1}, "SCALAR");
    b.json()["accessors"][input]["min"] = {0};
    b.json()["accessors"][input]["max"] = {1};
    const int output = b.add_floats({0, 1}, "SCALAR");
    b.json()["animations"].push_back(
        {{"samplers", {{{"input", input}, {"output", output}}}},
         {"channels", {{{"sampler", 0}, {"target", {{"node", node}, {"path", "weights"}}}}}}});
  } else if (name == "multiple_roots") {
    const int mesh = add_triangle(b, "tri");
    b.add_node("a", mesh);
    b.add_node("b", mesh);
    const int c = b.add_node("c");
    b.json()["nodes"][c]["translation"] = {0, 2, 0};
    add_channel(b, c, "translation");
    b.json()["scenes"] = {{{"nodes", {0, 1, 2}}}};
  } else if (name == "skinned_child") {
    // Z_UP -> (Proxy with the skinned mesh, Armature -> bone), as exporters write it.
    const int mesh = add_triangle(b, "Proxy");
    const int joints = b.add_data(std::vector<std::uint8_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                  testing::kUnsignedByte, "VEC4");
    const int weights = b.add_floats({1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, "VEC4");
    auto& attrs = b.json()["meshes"][mesh]["primitives"][0]["attributes"];
    attrs["JOINTS_0"] = joints;
    attrs["WEIGHTS_0"] = weights;
    const int root = b.add_node("Z_UP");
    const int proxy = b.add_node("Proxy", mesh);
    const int armature = b.add_node("Armature");
    const int bone = b.add_node("bone");
    b.json()["nodes"][root]["children"] = {proxy, armature};
    b.json()["nodes"][armature]["children"] = {bone};
    b.json()["nodes"][bone]["translation"] = {0, 1, 0};
    b.json()["nodes"][proxy]["skin"] = 0;
    b.json()["skins"] = {{{"joints", {bone}}}};
    add_channel(b, bone, "translation");
    b.json()["scenes"] = {{{"nodes", {root}}}};
  } else if (name == "zero_normals") {
    // Triangle 0 has an area; triangle 1 is degenerate (all three corners at one point).
    const int pos = b.add_floats({0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2}, "VEC3");
    b.json()["accessors"][pos]["min"] = {0, 0, 0};
    b.json()["accessors"][pos]["max"] = {2, 2, 2};
    const int normals = b.add_floats(std::vector<float>(18, 0.0f), "VEC3");
    const int mesh = b.add_mesh("flat", pos);
    b.json()["meshes"][mesh]["primitives"][0]["attributes"]["NORMAL"] = normals;
    b.add_node("flat", mesh);
  }
  return b.gltf_embedded();
}

class EdgeCaseRoundTrip : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

// Whatever the reader accepts, the writer writes without null members and with 0 validator
// errors, and the reader reads it back with the same counts, node tree and poses.
TEST_P(EdgeCaseRoundTrip, WritesWhatTheReaderAcceptsAndReadsItBack) {
  const auto [name, ext] = GetParam();
  ScratchDir dir("gltf_writer_edge");
  const fs::path source = dir / (name + "_in.gltf");
  testing::write_file(source, edge_case(name));
  auto original = io::load(source.string());
  ASSERT_TRUE(original) << original.error().to_string();

  const fs::path out = dir / (name + "_out." + ext);
  Diagnostics diag;
  auto report = io::write_gltf(*original, out.string(), {}, &diag);
  ASSERT_TRUE(report) << report.error().to_string();
  const auto doc = written_json(out);
  EXPECT_EQ(first_null(doc), "") << doc.dump();
  const auto v = validate_gltf(out);
  EXPECT_EQ(v.errors, 0) << v.summary();

  // The node tree is kept: no node added, names unique.
  const auto in_doc = read_json(source);
  EXPECT_EQ(report->mesh_nodes_added, 0u);
  EXPECT_EQ(doc["nodes"].size(), in_doc["nodes"].size());
  std::set<std::string> names;
  for (const auto& n : doc["nodes"]) EXPECT_TRUE(names.insert(node_name(n)).second) << n.dump();

  auto copy = io::load(out.string());
  ASSERT_TRUE(copy) << copy.error().to_string();
  EXPECT_EQ(copy->skeleton().joint_count(), original->skeleton().joint_count());
  EXPECT_EQ(copy->meshes().size(), original->meshes().size());
  EXPECT_EQ(copy->skins().size(), original->skins().size());
  EXPECT_EQ(copy->clips().size(), clips_with_tracks(*original));
  if (clips_with_tracks(*original) == original->clips().size())
    expect_same_model(*original, *copy, report->mesh_nodes_added);
}

INSTANTIATE_TEST_SUITE_P(
    Generated, EdgeCaseRoundTrip,
    ::testing::Combine(::testing::Values(std::string("unknown_paths"), "unknown_and_known_paths",
                                         "morph_only", "multiple_roots", "skinned_child",
                                         "zero_normals"),
                       ::testing::Values(std::string("glb"), "gltf")),
    [](const auto& param) { return std::get<0>(param.param) + "_" + std::get<1>(param.param); });

// Every shared model file the readers accept (glTF, OBJ, B3D, Collada, ...): written as .glb it
// has no null member and 0 validator errors, and reads back with the same counts and poses.
TEST(GltfWriter, EverySharedModelTheReadersAcceptRoundTrips) {
  ScratchDir dir("gltf_writer_every");
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(CRITTER_SHARED_MODELS))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::size_t accepted = 0;
  for (const fs::path& source : files) {
    const std::string ext = source.extension().string();
    if (ext == ".txt" || ext == ".md" || ext == ".png" || ext == ".jpg" || ext == ".bin" ||
        ext == ".mtl")
      continue;
    auto original = io::load(source.string());
    if (!original) continue;
    ++accepted;
    SCOPED_TRACE(source.string());
    const fs::path out = dir / (std::to_string(accepted) + ".glb");
    auto report = io::write_gltf(*original, out.string());
    ASSERT_TRUE(report) << report.error().to_string();
    EXPECT_EQ(first_null(written_json(out)), "");
    const auto v = validate_gltf(out);
    EXPECT_EQ(v.errors, 0) << v.summary();
    auto copy = io::load(out.string());
    ASSERT_TRUE(copy) << copy.error().to_string();
    EXPECT_EQ(copy->skeleton().joint_count(),
              original->skeleton().joint_count() + static_cast<int>(report->mesh_nodes_added));
    EXPECT_EQ(copy->meshes().size(), original->meshes().size());
    EXPECT_EQ(copy->skins().size(), original->skins().size());
    EXPECT_EQ(copy->clips().size(), clips_with_tracks(*original));
    if (clips_with_tracks(*original) == original->clips().size())
      expect_same_model(*original, *copy, report->mesh_nodes_added);
  }
  EXPECT_GE(accepted, 15u);
}

// The only animation has channels with unknown paths: the clip is empty, left out with a
// warning, and the document has no "animations" member (not a null one).
TEST(GltfWriter, EmptyClipLeavesNoAnimationsMember) {
  ScratchDir dir("gltf_writer_empty_clip");
  const fs::path source = dir / "in.gltf";
  testing::write_file(source, edge_case("unknown_paths"));
  auto model = io::load(source.string());
  ASSERT_TRUE(model) << model.error().to_string();
  ASSERT_EQ(model->clips().size(), 1u);
  ASSERT_TRUE(model->clips()[0].tracks().empty());
  Diagnostics diag;
  auto bytes = io::encode_glb(*model, "out.glb", &diag);
  ASSERT_TRUE(bytes) << bytes.error().to_string();
  const std::uint32_t len =
      static_cast<std::uint32_t>((*bytes)[12]) | static_cast<std::uint32_t>((*bytes)[13]) << 8;
  const auto doc = nlohmann::json::parse(bytes->begin() + 20, bytes->begin() + 20 + len);
  EXPECT_FALSE(doc.contains("animations")) << doc.dump();
  EXPECT_EQ(first_null(doc), "");
  EXPECT_NE(warnings_of(diag).find("has no track to write and was left out"), std::string::npos)
      << warnings_of(diag);
}

// RiggedFigure's skinned mesh sits on "Proxy", a child of the root: it stays there, with the same
// nodes and names as the source, none duplicated.
TEST(GltfWriter, KeepsTheNodeTreeOfASkinnedModel) {
  const fs::path source = fs::path(CRITTER_SHARED_MODELS) / "RiggedFigure/RiggedFigure.glb";
  auto model = io::load(source.string());
  ASSERT_TRUE(model) << model.error().to_string();
  ScratchDir dir("gltf_writer_tree");
  const fs::path out = dir / "figure.glb";
  auto report = io::write_gltf(*model, out.string());
  ASSERT_TRUE(report) << report.error().to_string();
  EXPECT_EQ(report->mesh_nodes_added, 0u);
  const auto in_doc = written_json(source);
  const auto out_doc = written_json(out);
  std::multiset<std::string> in_names, out_names;
  for (const auto& n : in_doc["nodes"]) in_names.insert(node_name(n));
  for (const auto& n : out_doc["nodes"]) out_names.insert(node_name(n));
  EXPECT_EQ(out_names, in_names);
  EXPECT_EQ(std::set<std::string>(out_names.begin(), out_names.end()).size(), out_names.size());
  ASSERT_EQ(out_doc["scenes"][0]["nodes"].size(), in_doc["scenes"][0]["nodes"].size());
  // The skinned mesh is on the node named "Proxy", a child of the root "Z_UP".
  const auto& nodes = out_doc["nodes"];
  int proxy = -1;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].contains("mesh")) proxy = static_cast<int>(i);
  ASSERT_GE(proxy, 0);
  EXPECT_EQ(nodes[static_cast<std::size_t>(proxy)]["name"], "Proxy");
  EXPECT_TRUE(nodes[static_cast<std::size_t>(proxy)].contains("skin"));
  const int root = out_doc["scenes"][0]["nodes"][0].get<int>();
  EXPECT_EQ(nodes[static_cast<std::size_t>(root)]["name"], "Z_UP");
  const auto& children = nodes[static_cast<std::size_t>(root)]["children"];
  EXPECT_NE(std::find(children.begin(), children.end(), proxy), children.end());
}

// A node added for a mesh whose name a joint already has gets a unique name.
TEST(GltfWriter, AddedMeshNodesGetUniqueNames) {
  RawModel m;
  m.skeleton.joints = {RawJoint{"body", -1, {}, -1}, RawJoint{"body_2", 0, {}, -1}};
  Skin skin;
  skin.joints = {0, 1};
  m.skins.push_back(skin);
  for (int k = 0; k < 2; ++k) {
    Mesh mesh;
    mesh.name = "body";
    mesh.skin = 0;  // bone -1: a new root node each
    MeshPart p;
    p.streams.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    p.streams.joints.assign(3, glm::u16vec4(0));
    p.streams.weights.assign(3, vec4(1, 0, 0, 0));
    mesh.parts.push_back(p);
    m.meshes.push_back(mesh);
  }
  auto model = build_model(std::move(m));
  ASSERT_TRUE(model) << model.error().to_string();
  ScratchDir dir("gltf_writer_names");
  const fs::path out = dir / "names.gltf";
  auto report = io::write_gltf(*model, out.string());
  ASSERT_TRUE(report) << report.error().to_string();
  EXPECT_EQ(report->mesh_nodes_added, 2u);
  const auto doc = read_json(out);
  std::vector<std::string> names;
  for (const auto& n : doc["nodes"]) names.push_back(node_name(n));
  EXPECT_EQ(names, (std::vector<std::string>{"body", "body_2", "body_3", "body_4"}));
  EXPECT_EQ(validate_gltf(out).errors, 0);
}

// Zero and non-finite normals (degenerate triangles) are replaced by the face normal where the
// vertex has a triangle with an area, else by +Y, with a warning; the output has 0 errors.
TEST(GltfWriter, RepairsZeroAndNonFiniteNormals) {
  RawModel m;
  m.skeleton.joints = {RawJoint{"root", -1, {}, -1}};
  Mesh mesh;
  mesh.name = "flat";
  mesh.bone = 0;
  MeshPart p;
  p.streams.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {2, 2, 2}, {2, 2, 2}, {2, 2, 2}};
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  p.streams.normals = {{0, 0, 0}, {nan, 0, 1}, {0, 0, 1}, {0, 0, 0}, {inf, 0, 0}, {0, 0, 0}};
  p.streams.tangents = {{0, 0, 0, 1}, {1, 0, 0, 1}, {1, 0, 0, 1},
                        {1, 0, 0, 1}, {1, 0, 0, 1}, {nan, 0, 0, -1}};
  p.indices = {0, 1, 2, 3, 4, 5};
  mesh.parts.push_back(p);
  m.meshes.push_back(mesh);
  auto model = build_model(std::move(m));
  ASSERT_TRUE(model) << model.error().to_string();
  ScratchDir dir("gltf_writer_normals");
  for (const char* ext : {"glb", "gltf"}) {
    const fs::path out = dir / (std::string("flat.") + ext);
    Diagnostics diag;
    auto report = io::write_gltf(*model, out.string(), {}, &diag);
    ASSERT_TRUE(report) << report.error().to_string();
    EXPECT_NE(warnings_of(diag).find("5 normals were zero or not finite"), std::string::npos)
        << warnings_of(diag);
    EXPECT_NE(warnings_of(diag).find("tangents"), std::string::npos) << warnings_of(diag);
    const auto v = validate_gltf(out);
    EXPECT_EQ(v.errors, 0) << v.summary();
    auto copy = io::load(out.string());
    ASSERT_TRUE(copy) << copy.error().to_string();
    const auto& n = copy->meshes()[0].parts[0].streams.normals;
    ASSERT_EQ(n.size(), 6u);
    EXPECT_EQ(n[0], vec3(0, 0, 1));  // face normal of triangle 0
    EXPECT_EQ(n[1], vec3(0, 0, 1));
    EXPECT_EQ(n[2], vec3(0, 0, 1));  // was fine
    EXPECT_EQ(n[3], vec3(0, 1, 0));  // degenerate triangle: +Y
    EXPECT_EQ(n[4], vec3(0, 1, 0));
    EXPECT_EQ(n[5], vec3(0, 1, 0));
    for (const vec4& t : copy->meshes()[0].parts[0].streams.tangents)
      EXPECT_NEAR(glm::length(vec3(t)), 1.0f, 1e-5f);
    const vec4 t0 = copy->meshes()[0].parts[0].streams.tangents[0];
    EXPECT_NEAR(glm::dot(vec3(t0), n[0]), 0.0f, 1e-6f);
    EXPECT_EQ(copy->meshes()[0].parts[0].streams.tangents[5].w, -1.0f);
  }
}

}  // namespace
}  // namespace critter
