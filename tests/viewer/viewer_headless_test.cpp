// Runs the built critter-viewer under a virtual X server (xvfb-run) as CTest does: a few frames,
// a screenshot, then checks of the picture.
#include <gtest/gtest.h>
#include <stb/stb_image.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "support/cli_runner.h"

namespace {

namespace fs = std::filesystem;
using critter::test_support::shared_model;
using critter::test_support::slurp;

// The viewer's clear colour (0.18, 0.2, 0.24) as 8-bit values.
constexpr int kBackground[3] = {46, 51, 61};

class ViewerHeadless : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("critter_viewer_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs the viewer with `args` under xvfb-run; returns its exit status.
  int run(const std::string& args) const {
    const std::string cmd = "xvfb-run -a -s '-screen 0 640x480x24' '" CRITTER_VIEWER "' " + args +
                            " >'" + (dir_ / "out.txt").string() + "' 2>'" +
                            (dir_ / "err.txt").string() + "'";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string err() const { return slurp(dir_ / "err.txt"); }

  fs::path dir_;
};

struct Picture {
  int width = 0, height = 0;
  int changed = 0;         // pixels away from the background colour
  int changed_centre = 0;  // of those, in the middle third of the picture
};

Picture inspect(const fs::path& png) {
  Picture p;
  int channels = 0;
  unsigned char* data = stbi_load(png.string().c_str(), &p.width, &p.height, &channels, 3);
  if (!data) return p;
  for (int y = 0; y < p.height; ++y) {
    for (int x = 0; x < p.width; ++x) {
      const unsigned char* px = data + (static_cast<std::size_t>(y) * p.width + x) * 3;
      bool differs = false;
      for (int c = 0; c < 3; ++c) differs |= std::abs(px[c] - kBackground[c]) > 12;
      if (!differs) continue;
      ++p.changed;
      if (x > p.width / 3 && x < 2 * p.width / 3 && y > p.height / 3 && y < 2 * p.height / 3)
        ++p.changed_centre;
    }
  }
  stbi_image_free(data);
  return p;
}

TEST_F(ViewerHeadless, DrawsAnAnimatedModelIntoAScreenshot) {
  const fs::path png = dir_ / "shot.png";
  ASSERT_EQ(run("'" + shared_model("greenman/greenman.glb") +
                "' --frames 5 --width 320 --height 240 --hide-ui --clip 2_move --screenshot '" +
                png.string() + "'"),
            0)
      << err();
  ASSERT_TRUE(fs::exists(png));
  const Picture p = inspect(png);
  EXPECT_EQ(p.width, 320);
  EXPECT_EQ(p.height, 240);
  // The framed model covers a good part of the view and its centre; the rest is background.
  EXPECT_GT(p.changed, 320 * 240 / 20);
  EXPECT_LT(p.changed, 320 * 240 * 9 / 10);
  EXPECT_GT(p.changed_centre, 0);
}

TEST_F(ViewerHeadless, CpuSkinningDrawsTheSameSilhouette) {
  const fs::path gpu = dir_ / "gpu.png";
  const fs::path cpu = dir_ / "cpu.png";
  const std::string common = "'" + shared_model("RiggedFigure/RiggedFigure.glb") +
                             "' --frames 3 --dt 0.3 --width 200 --height 200 --hide-ui";
  ASSERT_EQ(run(common + " --screenshot '" + gpu.string() + "'"), 0) << err();
  ASSERT_EQ(run(common + " --cpu-skinning --screenshot '" + cpu.string() + "'"), 0) << err();
  const Picture g = inspect(gpu);
  const Picture c = inspect(cpu);
  ASSERT_GT(g.changed, 200);
  // Same pose, same camera: the covered areas agree within a few percent (anti-aliased edges).
  EXPECT_NEAR(c.changed, g.changed, g.changed / 20 + 20);
}

TEST_F(ViewerHeadless, UnreadableModelFailsWithTheLoaderError) {
  EXPECT_EQ(run("'" + (dir_ / "missing.glb").string() + "' --frames 1"), 1);
  EXPECT_NE(err().find("missing.glb"), std::string::npos) << err();
}

TEST_F(ViewerHeadless, ScreenshotNeedsFrames) {
  EXPECT_EQ(run("--screenshot x.png"), 2);
  EXPECT_NE(err().find("--screenshot needs --frames"), std::string::npos) << err();
}

}  // namespace
