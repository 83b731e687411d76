// SPDX-License-Identifier: MIT
// `critter pose|render --config`: the controller's morph weights (animation-config.md §19) are
// printed and drawn as a plain clip's are. The model is a quad built here whose morph weights
// follow linear keys, so the expected weights are computed by hand.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "critter/asset/model.h"
#include "critter/io/gltf/gltf_writer.h"
#include "critter/io/image/image_writer.h"
#include "support/cli_runner.h"
#include "support/glb_builder.h"

namespace critter {
namespace {

using test_support::CliTest;
using test_support::RunResult;

// One joint; mesh "face": a unit quad facing +Z with two morph targets, "stretch" (the top edge
// up by 1.5 m) and "lean" (the top edge 0.5 m to the side), default weights (0.2, 0.4). Clips:
//   "blink" (1 s): weights from (0, 0.4) to (1, 0.4), linear: stretch = t.
//   "hold"  (1 s): the joint stays at the origin; no weights track.
RawModel morph_quad() {
  RawModel raw;
  raw.name = "morph_quad";
  raw.format = "code";
  raw.skeleton.joints.push_back(RawJoint{"root", -1, Transform{}, -1});
  MeshPart part;
  part.streams.positions = {vec3(-0.5f, 0, 0), vec3(0.5f, 0, 0), vec3(0.5f, 1, 0),
                            vec3(-0.5f, 1, 0)};
  part.streams.normals.assign(4, vec3(0, 0, 1));
  part.indices = {0, 1, 2, 0, 2, 3};
  part.material = 0;
  MorphTarget stretch;
  stretch.positions = {vec3(0), vec3(0), vec3(0, 1.5f, 0), vec3(0, 1.5f, 0)};
  MorphTarget lean;
  lean.positions = {vec3(0), vec3(0), vec3(0.5f, 0, 0), vec3(0.5f, 0, 0)};
  part.morphs.targets = {stretch, lean};
  Mesh mesh;
  mesh.name = "face";
  mesh.parts.push_back(std::move(part));
  mesh.morph_names = {"stretch", "lean"};
  mesh.default_weights = {0.2f, 0.4f};
  raw.meshes.push_back(std::move(mesh));
  Material m;
  m.name = "skin";
  m.base_color_factor = vec4(0.9f, 0.5f, 0.3f, 1.0f);
  raw.materials.push_back(m);

  RawClip blink;
  blink.name = "blink";
  RawTrack weights;
  weights.target = TrackTarget::kWeights;
  weights.index = 0;
  weights.components = 2;
  weights.times = {0.0f, 1.0f};
  weights.values = {0.0f, 0.4f, 1.0f, 0.4f};
  blink.tracks.push_back(std::move(weights));
  RawClip hold;
  hold.name = "hold";
  RawTrack still;
  still.index = 0;
  still.times = {0.0f, 1.0f};
  still.values = {0, 0, 0, 0, 0, 0};
  hold.tracks.push_back(std::move(still));
  raw.clips = {blink, hold};
  return raw;
}

// Talk blinks, otherwise the face holds; both cut in at once.
constexpr const char* kConfig = R"({
  "animations": {
    "blink": { "source": "blink", "blendDuration": 0 },
    "hold": { "source": "hold", "blendDuration": 0 }
  },
  "states": {
    "face": { "layer": "Base", "rules": [
      { "condition": "[Talk]", "animation": "blink" },
      { "condition": "true", "animation": "hold" } ] }
  }
})";

class ConfigMorphTest : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    Result<Model> model = build_model(morph_quad());
    ASSERT_TRUE(model) << model.error().to_string();
    model_ = (dir_ / "quad.glb").string();
    ASSERT_TRUE(io::write_gltf(*model, model_));
    config_ = (dir_ / "face.json").string();
    testing::write_file(config_, kConfig);
  }

  // The weights `pose --json` prints for the first time, mesh "face".
  std::vector<double> face_weights(const std::vector<std::string>& extra) const {
    std::vector<std::string> args = {"pose", model_, "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    if (r.exit_code != 0) return {};
    const auto doc = nlohmann::json::parse(r.out);
    const auto& morph = doc["times"][0]["morph"];
    EXPECT_EQ(morph.size(), 1u);
    if (morph.size() != 1) return {};
    EXPECT_EQ(morph[0]["mesh"], "face");
    return morph[0]["weights"].get<std::vector<double>>();
  }

  io::RgbaImage render(const std::string& name, const std::vector<std::string>& extra) const {
    const std::string png = (dir_ / name).string();
    std::vector<std::string> args = {"render", model_, "-o", png, "--size", "64x64"};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    Result<io::RgbaImage> image = io::read_image(png);
    EXPECT_TRUE(image) << name;
    return image ? *image : io::RgbaImage{};
  }

  std::string model_;
  std::string config_;
};

TEST_F(ConfigMorphTest, PoseConfigPrintsTheControllerWeights) {
  // 15 steps of 1/60 s: blink is 0.25 s in, stretch = 0.25; lean keeps its key value 0.4.
  std::vector<double> w =
      face_weights({"--config", config_, "--param", "Talk=true", "--time", "0.25"});
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NEAR(w[0], 0.25, 1e-4);
  EXPECT_NEAR(w[1], 0.4, 1e-4);
  // The plain clip at the same time prints the same weights.
  w = face_weights({"--anim", "blink", "--time", "0.25"});
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NEAR(w[0], 0.25, 1e-4);
  // A clip without a weights track shows the defaults.
  w = face_weights({"--config", config_, "--time", "0.25"});
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NEAR(w[0], 0.2, 1e-6);
  EXPECT_NEAR(w[1], 0.4, 1e-6);
}

TEST_F(ConfigMorphTest, PoseConfigTextListsTheWeights) {
  const RunResult r =
      run({"pose", model_, "--config", config_, "--param", "Talk=true", "--time", "0.5"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("  morph face: 0.5 0.4\n"), std::string::npos) << r.out;
}

TEST_F(ConfigMorphTest, RenderConfigDrawsTheControllerWeights) {
  const io::RgbaImage talk =
      render("talk.png", {"--config", config_, "--param", "Talk=true", "--time", "0.75"});
  const io::RgbaImage hold = render("hold.png", {"--config", config_, "--time", "0.75"});
  const io::RgbaImage clip = render("clip.png", {"--anim", "blink", "--time", "0.75"});
  ASSERT_EQ(talk.pixels.size(), hold.pixels.size());
  ASSERT_EQ(talk.pixels.size(), clip.pixels.size());
  ASSERT_FALSE(talk.pixels.empty());
  std::size_t differ_hold = 0;
  std::size_t differ_clip = 0;
  for (std::size_t i = 0; i + 3 < talk.pixels.size(); i += 4) {
    bool h = false;
    bool c = false;
    for (std::size_t k = 0; k < 3; ++k) {
      h = h || std::abs(int{talk.pixels[i + k]} - int{hold.pixels[i + k]}) > 24;
      c = c || std::abs(int{talk.pixels[i + k]} - int{clip.pixels[i + k]}) > 24;
    }
    differ_hold += h ? 1 : 0;
    differ_clip += c ? 1 : 0;
  }
  const std::size_t pixels = talk.pixels.size() / 4;
  // Stretched to 0.75 the quad's outline differs from the held defaults (0.2); drawn from the
  // clip at the same time it is the same picture, up to rounding at a few edge pixels.
  EXPECT_GT(differ_hold, pixels / 50);
  EXPECT_LT(differ_clip, pixels / 200 + 1);
}

}  // namespace
}  // namespace critter
