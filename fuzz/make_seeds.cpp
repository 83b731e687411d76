// SPDX-License-Identifier: MIT
// Writes the seed corpora of the fuzz targets, one folder per target under OUT:
//   make_seeds OUT SHARED_MODELS SOURCE_DIR
// Seeds come from the shared models (small files as they are; every model critter reads, written
// again as a .glb and as a .gltf with a data: URI), from the test suite's own writers (the
// Insomniac .model writer for every game, the config fixtures, a tiny PNG) and from the
// hand-written seeds in fuzz/seeds/. Nothing here is committed: the corpora are rebuilt each run.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>

#include "critter/asset/demo_creature.h"
#include "critter/io/crit/crit_file.h"
#include "critter/io/gltf/gltf_writer.h"
#include "critter/io/image/image_writer.h"
#include "critter/io/load.h"
#include "support/config_fuzz.h"
#include "support/files.h"
#include "support/glb_builder.h"
#include "support/insomniac_writer.h"
#include "support/spec_example.h"
#include "support/test_models.h"

namespace {

namespace fs = std::filesystem;
using namespace critter;

// Seeds larger than this slow every mutation down more than they add coverage.
constexpr std::uintmax_t kMaxSeedBytes = 256 * 1024;

int written = 0;

void put(const fs::path& dir, const std::string& name, std::span<const std::uint8_t> bytes) {
  if (bytes.size() > kMaxSeedBytes) return;
  testing::write_file(dir / name, bytes);
  ++written;
}

void put_text(const fs::path& dir, const std::string& name, std::string_view text) {
  put(dir, name, testing::as_bytes(text));
}

// The .glb's JSON with its BIN chunk as a base64 data: URI: the same model as a .gltf.
std::string glb_to_data_uri_gltf(const std::vector<std::uint8_t>& glb) {
  auto u32 = [&](std::size_t at) {
    return static_cast<std::uint32_t>(glb[at]) | static_cast<std::uint32_t>(glb[at + 1]) << 8 |
           static_cast<std::uint32_t>(glb[at + 2]) << 16 |
           static_cast<std::uint32_t>(glb[at + 3]) << 24;
  };
  if (glb.size() < 20) return {};
  const std::size_t json_len = u32(12);
  if (20 + json_len > glb.size()) return {};
  nlohmann::json doc =
      nlohmann::json::parse(glb.begin() + 20, glb.begin() + 20 + json_len, nullptr, false);
  if (doc.is_discarded()) return {};
  const std::size_t bin_at = 20 + json_len;
  if (bin_at + 8 <= glb.size() && doc.contains("buffers") && !doc["buffers"].empty()) {
    const std::size_t bin_len = std::min<std::size_t>(u32(bin_at), glb.size() - bin_at - 8);
    const std::span<const std::uint8_t> bin(glb.data() + bin_at + 8, bin_len);
    doc["buffers"][0]["uri"] =
        "data:application/octet-stream;base64," + testing::base64_encode(bin);
  }
  return doc.dump();
}

// The model baked as .crit, with its exact clips and with compact clips too.
void crit_seeds(const fs::path& dir, const std::string& stem, const Model& model) {
  put(dir, stem + ".crit", io::encode_crit(model));
  if (model.clips().empty()) return;
  auto compact = with_compact_clips(*append_clips(model, {}), 1e-4f);
  if (compact) put(dir, stem + "_compact.crit", io::encode_crit(*compact));
}

void model_seeds(const fs::path& out, const std::string& stem, const Model& model) {
  crit_seeds(out / "crit", stem, model);
  auto glb = io::encode_glb(model);
  if (!glb) return;
  for (const char* target : {"gltf", "gltf_roundtrip"}) {
    put(out / target, stem + ".glb", *glb);
    put_text(out / target, stem + ".gltf", glb_to_data_uri_gltf(*glb));
  }
}

RawModel insomniac_source() {
  RawModel m;
  m.name = "seed";
  RawJoint root;
  root.name = "root";
  RawJoint child;
  child.name = "child";
  child.parent = 0;
  child.rest.translation = vec3(0, 1, 0);
  m.skeleton.joints = {root, child};
  Skin skin;
  skin.joints = {0, 1};
  skin.inverse_bind = {mat4(1.0f), glm::translate(mat4(1.0f), vec3(0, -1, 0))};
  m.skins.push_back(skin);
  Material mat;
  mat.name = "skin";
  m.materials.push_back(mat);
  Mesh mesh;
  mesh.name = "sm00";
  mesh.skin = 0;
  MeshPart part;
  part.material = 0;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) {
      part.streams.positions.emplace_back(i * 0.5f, j * 0.5f, 0.0f);
      part.streams.normals.emplace_back(0, 0, 1);
      part.streams.tangents.emplace_back(1, 0, 0, 1);
      part.streams.uv0.emplace_back(i * 0.5f, j * 0.5f);
      part.streams.colors.emplace_back(1, 1, 1, 1);
      part.streams.joints.emplace_back(j > 0 ? 1 : 0, 0, 0, 0);
      part.streams.weights.emplace_back(1, 0, 0, 0);
    }
  for (std::uint32_t j = 0; j < 2; ++j)
    for (std::uint32_t i = 0; i < 2; ++i) {
      const std::uint32_t a = j * 3 + i;
      part.indices.insert(part.indices.end(), {a, a + 1, a + 4, a, a + 4, a + 3});
    }
  MorphTarget morph;
  morph.positions.assign(part.vertex_count(), vec3(0.0f, 0.0f, 0.1f));
  part.morphs.targets.push_back(morph);
  mesh.morph_names = {"puff"};
  mesh.default_weights = {0.0f};
  mesh.parts.push_back(std::move(part));
  m.meshes.push_back(std::move(mesh));
  return m;
}

void insomniac_seeds(const fs::path& dir) {
  using testing::InsomniacTestGame;
  const RawModel source = insomniac_source();
  int n = 0;
  for (InsomniacTestGame game :
       {InsomniacTestGame::kMsmr, InsomniacTestGame::kMm, InsomniacTestGame::kRcra,
        InsomniacTestGame::kSo, InsomniacTestGame::kCc9d}) {
    for (int variant = 0; variant < 3; ++variant) {
      testing::InsomniacWriteOptions options;
      options.game = game;
      options.bare_dat1 = variant == 1;
      options.local_indices = variant != 2;
      options.remap_tables = variant == 2;
      options.gpu_skin = variant == 2 && game == InsomniacTestGame::kRcra;
      options.so_four_halves = variant == 1 && game == InsomniacTestGame::kSo;
      testing::InsomniacTestLocator locator;
      locator.name = "hand";
      locator.joint = 1;
      options.locators = {locator};
      const auto file = testing::write_insomniac_model(source, options);
      put(dir, "seed" + std::to_string(n++) + ".model", file.bytes);
    }
  }
}

void copy_hand_seeds(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  if (!fs::is_directory(from, ec)) return;
  for (const auto& e : fs::directory_iterator(from))
    if (e.is_regular_file()) put(to, e.path().filename().string(), testing::read_bytes(e.path()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: make_seeds OUT SHARED_MODELS SOURCE_DIR\n");
    return 2;
  }
  const fs::path out = argv[1];
  const fs::path shared = argv[2];
  const fs::path source = argv[3];
  for (const char* t :
       {"gltf", "gltf_roundtrip", "insomniac", "config", "expression", "assimp", "image", "crit"})
    fs::create_directories(out / t);

  // Shared models: small files as they are, and every model critter reads written again.
  std::vector<fs::path> files;
  std::error_code ec;
  if (fs::is_directory(shared, ec))
    for (const auto& e : fs::recursive_directory_iterator(shared))
      if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    const std::string ext = f.extension().string();
    const std::string stem = f.parent_path().filename().string() + "_" + f.stem().string();
    const auto size = fs::file_size(f, ec);
    if (ec || size > kMaxSeedBytes) continue;
    if (ext == ".glb" || ext == ".gltf") {
      put(out / "gltf", stem + ext, testing::read_bytes(f));
    } else if (ext == ".b3d" || ext == ".dae") {
      put(out / "assimp", stem + ext, testing::read_bytes(f));
    } else if (ext == ".obj") {
      put_text(out / "assimp", stem + ext,
               testing::read_text(f) + "\n#MTL\nnewmtl boat\nKd 0.8 0.6 0.4\nmap_Kd boat.png\n");
    } else if (ext == ".png" || ext == ".jpg") {
      put(out / "image", stem + ext, testing::read_bytes(f));
    }
    if (ext == ".glb" || ext == ".gltf" || ext == ".b3d" || ext == ".dae" || ext == ".obj") {
      auto model = io::load(f.string());
      if (model) model_seeds(out, stem, *model);
    }
  }

  // Models and files the test suite writes.
  model_seeds(out, "spec_quadruped", test_support::spec_example_quadruped());
  if (auto demo = build_model(make_demo_quadruped())) model_seeds(out, "demo_quadruped", *demo);
  insomniac_seeds(out / "insomniac");
  put_text(out / "config", "spec_example.json", test_support::kSpecExampleConfig);
  put_text(out / "config", "feature.json", test_support::kFeatureConfig);
  put_text(out / "config", "fuzz_base.json", test_support::kFuzzBaseConfig);
  put_text(out / "config", "fuzz_template.json", test_support::kFuzzTemplate);
  if (fs::is_directory(source / "docs/examples", ec))
    for (const auto& e : fs::directory_iterator(source / "docs/examples"))
      if (e.path().extension() == ".json")
        put(out / "config", e.path().filename().string(), testing::read_bytes(e.path()));
  put(out / "image", "tiny.png", testing::tiny_png());
  RgbaImage pic;
  pic.width = 5;
  pic.height = 3;
  for (int i = 0; i < pic.width * pic.height; ++i)
    pic.pixels.insert(pic.pixels.end(), {static_cast<std::uint8_t>(i * 16), 40, 200, 255});
  const fs::path tmp = out / "image" / "written";
  if (io::write_png((tmp.string() + ".png"), pic)) ++written;
  if (io::write_gif((tmp.string() + ".gif"), std::span<const RgbaImage>(&pic, 1))) ++written;

  // Hand-written seeds (expressions, tiny OBJ/MTL, Collada and B3D files, images of other kinds).
  for (const char* t : {"gltf", "insomniac", "config", "expression", "assimp", "image"})
    copy_hand_seeds(source / "fuzz/seeds" / t, out / t);
  copy_hand_seeds(source / "fuzz/seeds/gltf", out / "gltf_roundtrip");

  std::printf("make_seeds: %d seeds under %s\n", written, out.string().c_str());
  return 0;
}
