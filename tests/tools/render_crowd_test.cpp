// SPDX-License-Identifier: MIT
// `critter render --crowd N`: a skinned crowd drawn in one call per mesh part, its report and
// its usage errors.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "critter/io/image/image_writer.h"
#include "support/cli_runner.h"

namespace {

using critter::test_support::CliTest;
using critter::test_support::RunResult;
using critter::test_support::shared_model;

const char* const kGreenman = "greenman/greenman.glb";

std::string first_line(const std::string& s) {
  return s.substr(0, s.find('\n'));
}

// Fraction of pixels away from the render command's background (0.80, 0.86, 0.92).
double covered(const critter::io::RgbaImage& image) {
  const int background[3] = {204, 219, 235};
  std::size_t n = 0;
  for (std::size_t i = 0; i + 3 < image.pixels.size(); i += 4) {
    for (int k = 0; k < 3; ++k) {
      if (std::abs(int{image.pixels[i + static_cast<std::size_t>(k)]} - background[k]) > 12) {
        ++n;
        break;
      }
    }
  }
  return static_cast<double>(n) / static_cast<double>(image.pixels.size() / 4);
}

TEST_F(CliTest, RenderCrowdDrawsAHundredCreaturesInOneCallPerMeshPart) {
  const std::string png = (dir_ / "crowd.png").string();
  const RunResult r = run({"render", shared_model(kGreenman), "--crowd", "100", "--anim", "2_move",
                           "--size", "160x120", "-o", png});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // greenman: one mesh part; palette per creature = 14 skeleton joints + 1 identity + 12 skin
  // joints = 27, so 2700 for the crowd.
  EXPECT_EQ(first_line(r.out),
            "crowd: 100 creatures, 1 mesh part, 1 draw call per frame (100 visible, 2700 palette "
            "joints)");
  EXPECT_NE(r.out.find("frame (mean of 5): queue "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(", animate + pack palettes "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("wrote " + png + " (160x120, 1 frame)\n"), std::string::npos) << r.out;
  auto image = critter::io::read_image(png);
  ASSERT_TRUE(image) << image.error().to_string();
  EXPECT_EQ(image->width, 160);
  EXPECT_EQ(image->height, 120);
  EXPECT_GT(covered(*image), 0.05);
}

TEST_F(CliTest, RenderCrowdOfOneCostsTheSameDrawCalls) {
  const RunResult r = run({"render", shared_model(kGreenman), "--crowd", "1", "--size", "64x64",
                           "-o", (dir_ / "one.png").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(first_line(r.out),
            "crowd: 1 creature, 1 mesh part, 1 draw call per frame (1 visible, 27 palette joints)");
}

TEST_F(CliTest, RenderCrowdUsageErrors) {
  RunResult r = run({"render", shared_model(kGreenman), "--crowd", "4", "--sheet", "4", "-o",
                     (dir_ / "crowd.png").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "critter: --crowd: a crowd picture is a .png frame or a .gif, not a sheet\n");
  r = run({"render", shared_model(kGreenman), "--crowd", "0", "-o", (dir_ / "c.png").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.err), "critter: --crowd: Value 0 not in range 1 to 1000000");
}

}  // namespace
