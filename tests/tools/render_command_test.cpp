// SPDX-License-Identifier: MIT
// `critter render` and `critter demo` as a user runs them: real files, headless EGL rendering.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "critter/io/image/image_writer.h"
#include "support/cli_runner.h"

namespace critter {
namespace {

using test_support::CliTest;
using test_support::RunResult;
using test_support::shared_model;
using test_support::slurp;

// The render command's background, (0.80, 0.86, 0.92) in 8 bits.
constexpr int kBackground[3] = {204, 219, 235};

double coverage(const io::RgbaImage& image) {
  std::size_t n = 0;
  for (std::size_t i = 0; i + 3 < image.pixels.size(); i += 4) {
    for (int k = 0; k < 3; ++k) {
      if (std::abs(int{image.pixels[i + static_cast<std::size_t>(k)]} - kBackground[k]) > 6) {
        ++n;
        break;
      }
    }
  }
  return static_cast<double>(n) / static_cast<double>(image.pixels.size() / 4);
}

class RenderCommandTest : public CliTest {};

TEST_F(RenderCommandTest, EverySharedModelFillsTheFramedPicture) {
  const char* models[] = {
      "RiggedFigure/RiggedFigure.glb",
      "SimpleSkin/SimpleSkin.gltf",
      "girl/girl.glb",
      "greenman/greenman.glb",
      "Wizard/Wizard.glb",
      "ozz_cubicspline/cubicspline.gltf",
      "ozz_multiple_roots/multiple_roots.gltf",
      "MorphStressTest/MorphStressTest.gltf",
      "AnimatedMorphSphere/AnimatedMorphSphere.gltf",
      "MorphPrimitivesTest/MorphPrimitivesTest.gltf",
      "AnimatedTriangle/AnimatedTriangle.gltf",
      "library_animation_clips_collada/library_animation_clips.dae",
      "minetest_cart_b3d/carts_cart.b3d",
      "minetest_boat_obj/boats_boat.obj",
  };
  for (const char* m : models) {
    SCOPED_TRACE(m);
    const std::string out = (dir_ / "out.png").string();
    const RunResult r =
        run({"render", shared_model(m), "--size", "96x72", "--time", "0.3", "-o", out});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "wrote " + out + " (96x72, 1 frame)\n");
    Result<io::RgbaImage> image = io::read_image(out);
    ASSERT_TRUE(image) << image.error().to_string();
    EXPECT_EQ(image->width, 96);
    EXPECT_EQ(image->height, 72);
    EXPECT_GE(coverage(*image), 0.05);
  }
}

TEST_F(RenderCommandTest, ModelWithoutMeshesGivesTheEmptyBackground) {
  const std::string out = (dir_ / "mover.png").string();
  const RunResult r = run({"render",
                           shared_model("assimp_interpolation_synthetic/"
                                        "animation_interpolation_linear.gltf"),
                           "--size", "16x16", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Result<io::RgbaImage> image = io::read_image(out);
  ASSERT_TRUE(image);
  EXPECT_EQ(coverage(*image), 0.0);
}

TEST_F(RenderCommandTest, GifHasOneFramePerStepOfTheClip) {
  const std::string out = (dir_ / "walk.gif").string();
  // greenman's 2_move lasts 1.25 s: 5 frames at 4 fps.
  const RunResult r = run({"render", shared_model("greenman/greenman.glb"), "--anim", "2_move",
                           "--fps", "4", "--size", "48x48", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "wrote " + out + " (48x48, 5 frames)\n");
  const std::string bytes = slurp(out);
  ASSERT_GT(bytes.size(), 13u);
  EXPECT_EQ(bytes.substr(0, 6), "GIF89a");
  EXPECT_EQ(bytes.back(), ';');  // trailer
}

TEST_F(RenderCommandTest, TurntableAndExplicitFrames) {
  const std::string out = (dir_ / "spin.gif").string();
  const RunResult r =
      run({"render", shared_model("minetest_boat_obj/boats_boat.obj"), "--turntable", "--frames",
           "6", "--size", "40x30", "--ortho", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "wrote " + out + " (40x30, 6 frames)\n");
}

TEST_F(RenderCommandTest, ContactSheetTilesTheFrames) {
  const std::string out = (dir_ / "sheet.png").string();
  const RunResult r = run({"render", shared_model("RiggedFigure/RiggedFigure.glb"), "--sheet", "5",
                           "--size", "32x24", "--camera", "0,10,4", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 5 frames: 3 columns, 2 rows.
  EXPECT_EQ(r.out, "wrote " + out + " (96x48, 5 frames)\n");
  Result<io::RgbaImage> image = io::read_image(out);
  ASSERT_TRUE(image);
  EXPECT_EQ(image->width, 96);
  EXPECT_EQ(image->height, 48);
}

TEST_F(RenderCommandTest, UsageErrorsNameTheOption) {
  const std::string model = shared_model("SimpleSkin/SimpleSkin.gltf");
  RunResult r = run({"render", model, "-o", (dir_ / "x.jpg").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "critter: -o: the output must end in .png or .gif: '" +
                       (dir_ / "x.jpg").string() + "'\n");
  r = run({"render", model, "--size", "0x10", "-o", (dir_ / "x.png").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "critter: --size:0x10: expected WIDTHxHEIGHT with each in 1..4096, e.g. 320x240\n");
  r = run({"render", model, "--anim", "dance", "-o", (dir_ / "x.png").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "critter: " + model + ":--anim: no animation 'dance' (have: animation_0)\n");
}

TEST_F(RenderCommandTest, MeaninglessNumbersAreUsageErrorsNamingTheFlag) {
  const std::string model = shared_model("SimpleSkin/SimpleSkin.gltf");
  const std::string png = (dir_ / "x.png").string();
  const std::string gif = (dir_ / "x.gif").string();
  const std::vector<std::vector<std::string>> cases = {
      {"--time", "nan", "-o", png},     {"--time", "inf", "-o", png},
      {"--time", "-1", "-o", png},      {"--frames", "0", "-o", gif},
      {"--frames", "-3", "-o", gif},    {"--frames", "100000", "-o", gif},
      {"--fps", "nan", "-o", gif},      {"--fps", "-15", "-o", gif},
      {"--fps", "inf", "-o", gif},      {"--fps", "0", "-o", gif},
      {"--size", "0x0", "-o", png},     {"--size", "99999x10", "-o", png},
      {"--sheet", "0", "-o", png},      {"--crowd", "0", "-o", png},
      {"--camera", "nan,0", "-o", png},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"render", model};
    args.insert(args.end(), c.begin(), c.end());
    const RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 2) << c[0] << " " << c[1] << ": " << r.err;
    EXPECT_NE(r.err.find(c[0]), std::string::npos) << c[0] << " " << c[1] << ": " << r.err;
    EXPECT_EQ(r.out, "");
  }
  EXPECT_FALSE(std::filesystem::exists(png));
  EXPECT_FALSE(std::filesystem::exists(gif));
}

TEST_F(RenderCommandTest, OutputIntoMissingFoldersCreatesThem) {
  const std::filesystem::path out = dir_ / "new" / "deeper" / "x.png";
  const RunResult r = run({"render", shared_model("SimpleSkin/SimpleSkin.gltf"), "--size", "16x16",
                           "-o", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(io::read_image(out.string()));
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(out.parent_path()))
    ++entries;
  EXPECT_EQ(entries, 1u);  // the picture, no temporary file
}

TEST_F(RenderCommandTest, MissingFileIsBadInput) {
  const RunResult r =
      run({"render", (dir_ / "nope.glb").string(), "-o", (dir_ / "x.png").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_FALSE(r.err.empty());
}

TEST_F(RenderCommandTest, DemoWritesTheGifWhereTold) {
  const std::string out = (dir_ / "new" / "demo.gif").string();  // the folder is created
  const RunResult r = run({"demo", "-o", out, "--frames", "3", "--size", "64x48"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("critter demo: wrote " + out + " (64x48, 3 frames, 8 s loop) in ", 0), 0u)
      << r.out;
  EXPECT_EQ(slurp(out).substr(0, 6), "GIF89a");
}

}  // namespace
}  // namespace critter
