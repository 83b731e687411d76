// SPDX-License-Identifier: MIT
// Isolated Assimp imports (LoadOptions::assimp_isolation = kChildProcess): hostile files that
// abort Assimp or make it allocate without bound end the child only and come back as errors
// naming the file; on good files the isolated import gives the same raw model as in-process.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "critter/io/assimp/assimp_importer.h"
#include "critter/io/load.h"
#include "io/assimp/assimp_isolation.h"
#include "support/files.h"

namespace critter {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

using testing::ScratchDir;
using testing::write_file;

const std::string kModels = CRITTER_SHARED_MODELS;
const std::string kCharacter =
    "/usr/share/games/minetest/games/minetest_game/mods/player_api/models/character.b3d";

io::ImportOptions isolated() {
  io::ImportOptions o;
  o.assimp_isolation = io::AssimpIsolation::kChildProcess;
  return o;
}

// `<polygons count="2-">` with fewer primitives than counted: Debian's Assimp keeps ai_assert on
// and aborts the process on it.
constexpr const char* kAbortingCollada =
    "<?xml version=\"1.0\"?><COLLADA><library_geometries><geometry><mesh><polygons "
    "count=\"2-\"><p>0</p></polygons></mesh></geometry></library_geometries></COLLADA>";

// A 93-byte B3D whose VRTS chunk claims 2 GB: Assimp sizes its vertex array from the chunk size
// (gigabytes) before reading a vertex.
std::vector<std::uint8_t> memory_bomb_b3d() {
  std::vector<std::uint8_t> out;
  const auto tag = [&](const char* t) { out.insert(out.end(), t, t + 4); };
  const auto i32 = [&](std::uint32_t v) {
    for (int k = 0; k < 4; ++k) out.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
  };
  const auto f32 = [&](float f) {
    std::uint32_t v;
    static_assert(sizeof v == sizeof f);
    __builtin_memcpy(&v, &f, sizeof v);
    i32(v);
  };
  tag("BB3D");
  i32(0x7ffffffe);
  i32(1);
  tag("NODE");
  i32(0x7ffffffc);
  out.push_back(0);  // name ""
  for (float f : {0.f, 0.f, 0.f, 1.f, 1.f, 1.f, 1.f, 0.f, 0.f, 0.f}) f32(f);
  tag("MESH");
  i32(0x7ffffff8);
  i32(0xffffffff);  // brush -1
  tag("VRTS");
  i32(0x7ffffff0);
  i32(0);
  i32(0);
  i32(0);
  return out;
}

TEST(AssimpIsolation, AnAbortInsideAssimpIsAnErrorNamingTheFile) {
  ScratchDir dir;
  const std::string path = dir.file("hostile.dae");
  write_file(path, kAbortingCollada);
  auto raw = io::import_assimp_raw(path, isolated());
  ASSERT_FALSE(raw);
  EXPECT_EQ(raw.error().code, ErrorCode::kParse);
  EXPECT_EQ(raw.error().path, path);
  EXPECT_NE(raw.error().message.find("Assimp aborted on this file (SIGABRT)"), std::string::npos)
      << raw.error().to_string();
  // io::load takes the same path.
  io::LoadOptions options;
  options.assimp_isolation = io::AssimpIsolation::kChildProcess;
  auto model = io::load(path, options);
  ASSERT_FALSE(model);
  EXPECT_EQ(model.error().path, path);
}

TEST(AssimpIsolation, AMemoryBombIsStoppedByTheLimit) {
  ScratchDir dir;
  const std::string path = dir.file("bomb.b3d");
  const std::vector<std::uint8_t> bomb = memory_bomb_b3d();
  ASSERT_EQ(bomb.size(), 93u);
  write_file(path, bomb);
  io::ImportOptions options = isolated();
  options.isolation_memory_bytes = std::uint64_t{512} << 20;
  auto raw = io::import_assimp_raw(path, options);
  ASSERT_FALSE(raw);
  EXPECT_EQ(raw.error().path, path);
  if (kAddressSanitizer) {
    // AddressSanitizer's allocator meets the limit first and ends the child with its own report
    // and exit status 1; the parent still gets an error naming the file.
    EXPECT_NE(raw.error().message.find("ended with exit status"), std::string::npos)
        << raw.error().to_string();
    return;
  }
  EXPECT_EQ(raw.error().code, ErrorCode::kLimit) << raw.error().to_string();
  EXPECT_NE(raw.error().message.find("memory limit of 536870912 bytes"), std::string::npos)
      << raw.error().to_string();
}

TEST(AssimpIsolation, BadLimitsAreUsageErrors) {
  io::ImportOptions options = isolated();
  options.isolation_seconds = 0.0;
  auto raw = io::import_assimp_raw(kModels + "/minetest_cart_b3d/carts_cart.b3d", options);
  ASSERT_FALSE(raw);
  EXPECT_EQ(raw.error().code, ErrorCode::kUsage);
}

TEST(AssimpIsolation, ErrorsAndWarningsOfTheChildComeBack) {
  ScratchDir dir;
  const std::string path = dir.file("junk.obj");
  write_file(path, "this is not a model\n");
  auto in_process = io::import_assimp_raw(path);
  auto child = io::import_assimp_raw(path, isolated());
  ASSERT_FALSE(in_process);
  ASSERT_FALSE(child);
  EXPECT_EQ(child.error().to_string(), in_process.error().to_string());
  EXPECT_EQ(child.error().code, in_process.error().code);
}

// ---- time limits
// ---------------------------------------------------------------------------------

// Stand-ins for an import that never ends: one blocked (an importer waiting forever uses no CPU
// time, so only the parent's wall-clock deadline ends it) and one looping (the CPU-time limit
// ends it, or the deadline when the machine gives the child less than its share of a core).
Result<RawModel> import_that_blocks(const std::string&, const io::ImportOptions&, Diagnostics*) {
  for (;;) pause();
}

Result<RawModel> import_that_loops(const std::string&, const io::ImportOptions&, Diagnostics*) {
  volatile std::uint64_t spins = 0;
  for (;;) spins = spins + 1;
}

// True when this process has no child left, running or unreaped.
bool no_child_left() {
  return waitpid(-1, nullptr, WNOHANG) == -1 && errno == ECHILD;
}

TEST(AssimpIsolation, AnImportThatBlocksIsStoppedAtTheDeadline) {
  io::ImportOptions options = isolated();
  options.isolation_seconds = 0.5;
  const auto start = std::chrono::steady_clock::now();
  auto raw = io::assimp_detail::import_in_child("stuck.obj", options, nullptr, import_that_blocks);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(raw);
  EXPECT_EQ(raw.error().code, ErrorCode::kLimit);
  EXPECT_EQ(raw.error().path, "stuck.obj");
  EXPECT_EQ(raw.error().message,
            "the isolated Assimp import took longer than 0.500000 s and was stopped");
  // The deadline is the limit plus one second of grace for starting the child and sending back.
  EXPECT_GE(took.count(), 1.4);
  EXPECT_LT(took.count(), 10.0);
  EXPECT_TRUE(no_child_left());
}

TEST(AssimpIsolation, AnImportThatLoopsIsStoppedByTheTimeLimit) {
  io::ImportOptions options = isolated();
  options.isolation_seconds = 0.5;
  const auto start = std::chrono::steady_clock::now();
  auto raw = io::assimp_detail::import_in_child("loop.dae", options, nullptr, import_that_loops);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(raw);
  EXPECT_EQ(raw.error().code, ErrorCode::kLimit);
  EXPECT_EQ(raw.error().path, "loop.dae");
  const std::string& message = raw.error().message;
  EXPECT_TRUE(message ==
                  "the isolated Assimp import used more than 0.500000 s of CPU time and was "
                  "stopped (SIGXCPU)" ||
              message == "the isolated Assimp import took longer than 0.500000 s and was stopped")
      << message;
  EXPECT_LT(took.count(), 10.0);
  EXPECT_TRUE(no_child_left());
}

// ---- the same model either way ------------------------------------------------------------------

void expect_same(const RawModel& a, const RawModel& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.format, b.format);
  EXPECT_EQ(a.source_path, b.source_path);
  ASSERT_EQ(a.skeleton.joints.size(), b.skeleton.joints.size());
  for (std::size_t i = 0; i < a.skeleton.joints.size(); ++i) {
    const RawJoint& x = a.skeleton.joints[i];
    const RawJoint& y = b.skeleton.joints[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.parent, y.parent);
    EXPECT_EQ(x.rest.translation, y.rest.translation);
    EXPECT_EQ(x.rest.rotation, y.rest.rotation);
    EXPECT_EQ(x.rest.scale, y.rest.scale);
  }
  ASSERT_EQ(a.meshes.size(), b.meshes.size());
  for (std::size_t i = 0; i < a.meshes.size(); ++i) {
    const Mesh& x = a.meshes[i];
    const Mesh& y = b.meshes[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.bone, y.bone);
    EXPECT_EQ(x.skin, y.skin);
    EXPECT_EQ(x.morph_names, y.morph_names);
    EXPECT_EQ(x.default_weights, y.default_weights);
    ASSERT_EQ(x.parts.size(), y.parts.size());
    for (std::size_t p = 0; p < x.parts.size(); ++p) {
      const MeshPart& s = x.parts[p];
      const MeshPart& t = y.parts[p];
      EXPECT_EQ(s.streams.positions, t.streams.positions);
      EXPECT_EQ(s.streams.normals, t.streams.normals);
      EXPECT_EQ(s.streams.tangents, t.streams.tangents);
      EXPECT_EQ(s.streams.uv0, t.streams.uv0);
      EXPECT_EQ(s.streams.uv1, t.streams.uv1);
      EXPECT_EQ(s.streams.colors, t.streams.colors);
      EXPECT_EQ(s.streams.joints, t.streams.joints);
      EXPECT_EQ(s.streams.weights, t.streams.weights);
      EXPECT_EQ(s.indices, t.indices);
      EXPECT_EQ(s.topology, t.topology);
      EXPECT_EQ(s.material, t.material);
      ASSERT_EQ(s.morphs.targets.size(), t.morphs.targets.size());
      for (std::size_t m = 0; m < s.morphs.targets.size(); ++m) {
        EXPECT_EQ(s.morphs.targets[m].positions, t.morphs.targets[m].positions);
        EXPECT_EQ(s.morphs.targets[m].normals, t.morphs.targets[m].normals);
      }
    }
  }
  ASSERT_EQ(a.skins.size(), b.skins.size());
  for (std::size_t i = 0; i < a.skins.size(); ++i) {
    EXPECT_EQ(a.skins[i].joints, b.skins[i].joints);
    EXPECT_EQ(a.skins[i].inverse_bind, b.skins[i].inverse_bind);
  }
  ASSERT_EQ(a.clips.size(), b.clips.size());
  for (std::size_t i = 0; i < a.clips.size(); ++i) {
    EXPECT_EQ(a.clips[i].name, b.clips[i].name);
    ASSERT_EQ(a.clips[i].tracks.size(), b.clips[i].tracks.size());
    for (std::size_t k = 0; k < a.clips[i].tracks.size(); ++k) {
      const RawTrack& x = a.clips[i].tracks[k];
      const RawTrack& y = b.clips[i].tracks[k];
      EXPECT_EQ(x.target, y.target);
      EXPECT_EQ(x.index, y.index);
      EXPECT_EQ(x.interpolation, y.interpolation);
      EXPECT_EQ(x.times, y.times);
      EXPECT_EQ(x.values, y.values);
    }
  }
  ASSERT_EQ(a.materials.size(), b.materials.size());
  for (std::size_t i = 0; i < a.materials.size(); ++i) {
    EXPECT_EQ(a.materials[i].name, b.materials[i].name);
    EXPECT_EQ(a.materials[i].base_color_factor, b.materials[i].base_color_factor);
    EXPECT_EQ(a.materials[i].base_color_texture.image, b.materials[i].base_color_texture.image);
    EXPECT_EQ(a.materials[i].alpha_mode, b.materials[i].alpha_mode);
    EXPECT_EQ(a.materials[i].double_sided, b.materials[i].double_sided);
  }
  ASSERT_EQ(a.images.size(), b.images.size());
  for (std::size_t i = 0; i < a.images.size(); ++i) {
    EXPECT_EQ(a.images[i].uri, b.images[i].uri);
    EXPECT_EQ(a.images[i].resolved_path, b.images[i].resolved_path);
    EXPECT_EQ(a.images[i].bytes, b.images[i].bytes);
    EXPECT_EQ(a.images[i].missing, b.images[i].missing);
  }
}

void expect_same_either_way(const std::string& path, const io::ImportOptions& base = {}) {
  SCOPED_TRACE(path);
  Diagnostics in_diag;
  Diagnostics child_diag;
  auto in_process = io::import_assimp_raw(path, base, &in_diag);
  io::ImportOptions options = base;
  options.assimp_isolation = io::AssimpIsolation::kChildProcess;
  auto child = io::import_assimp_raw(path, options, &child_diag);
  ASSERT_TRUE(in_process) << in_process.error().to_string();
  ASSERT_TRUE(child) << child.error().to_string();
  expect_same(*in_process, *child);
  ASSERT_EQ(in_diag.size(), child_diag.size());
  for (std::size_t i = 0; i < in_diag.size(); ++i)
    EXPECT_EQ(in_diag.items()[i].to_string(), child_diag.items()[i].to_string());
}

TEST(AssimpIsolation, SharedModelsAreTheSameIsolatedAndInProcess) {
  expect_same_either_way(kModels + "/library_animation_clips_collada/library_animation_clips.dae");
  expect_same_either_way(kModels + "/minetest_cart_b3d/carts_cart.b3d");
  expect_same_either_way(kModels + "/minetest_boat_obj/boats_boat.obj");
  expect_same_either_way(kCharacter);
  io::ImportOptions clips;
  clips.clips = {{"stand", 0, 79}, {"walk", 168, 187}};
  clips.clips_fps = 30.0;
  expect_same_either_way(kCharacter, clips);
}

TEST(AssimpIsolation, ObjWithMaterialsAndTexturesIsTheSame) {
  ScratchDir dir;
  write_file(dir.file("box.obj"),
             "mtllib box.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nvn 0 0 1\n"
             "usemtl skin\nf 1/1/1 2/2/1 3/3/1\n");
  write_file(dir.file("box.mtl"), "newmtl skin\nKd 0.5 0.25 1\nmap_Kd skin.png\n");
  write_file(dir.file("skin.png"), "not really a png, only its path travels");
  expect_same_either_way(dir.file("box.obj"));
}

}  // namespace
}  // namespace critter
