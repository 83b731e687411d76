// SPDX-License-Identifier: MIT
// --texture on render and convert: the skin a game applies replaces the file's base colour.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "critter/io/image/image_decoder.h"
#include "critter/io/image/image_writer.h"
#include "support/cli_runner.h"

namespace critter {
namespace {

using test_support::CliTest;
using test_support::RunResult;
using test_support::shared_model;
using test_support::slurp;

class TextureFlagTest : public CliTest {
 protected:
  // A 4x4 image of one colour.
  std::string write_skin(const std::string& name, std::uint8_t r, std::uint8_t g, std::uint8_t b) {
    io::RgbaImage img{4, 4, {}};
    for (int i = 0; i < 16; ++i) img.pixels.insert(img.pixels.end(), {r, g, b, 255});
    const std::string path = (dir_ / name).string();
    EXPECT_TRUE(io::write_png(path, img));
    return path;
  }
};

// Pixels whose channel `c` clearly dominates the other two.
std::size_t dominated_by(const io::RgbaImage& image, std::size_t c) {
  std::size_t n = 0;
  for (std::size_t i = 0; i + 3 < image.pixels.size(); i += 4) {
    const int v = image.pixels[i + c];
    const int a = image.pixels[i + (c + 1) % 3], b = image.pixels[i + (c + 2) % 3];
    if (v > a + 60 && v > b + 60) ++n;
  }
  return n;
}

TEST_F(TextureFlagTest, RenderDrawsTheModelWithTheSkin) {
  const std::string model = shared_model("minetest_cart_b3d/carts_cart.b3d");
  const std::string red = write_skin("red.png", 230, 20, 20);
  const std::string green = write_skin("green.png", 20, 230, 20);
  const std::string out_red = (dir_ / "red_cart.png").string();
  const std::string out_green = (dir_ / "green_cart.png").string();
  RunResult r = run({"render", model, "--texture", red, "-o", out_red});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run({"render", model, "--texture", green, "-o", out_green});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto red_image = io::read_image(out_red);
  const auto green_image = io::read_image(out_green);
  ASSERT_TRUE(red_image && green_image);
  const std::size_t pixels = red_image->pixels.size() / 4;
  EXPECT_GT(dominated_by(*red_image, 0), pixels / 20);
  EXPECT_EQ(dominated_by(*red_image, 1), 0u);
  EXPECT_GT(dominated_by(*green_image, 1), pixels / 20);
  EXPECT_EQ(dominated_by(*green_image, 0), 0u);
}

TEST_F(TextureFlagTest, ConvertStoresTheSkinWithTheModel) {
  const std::string model = shared_model("minetest_cart_b3d/carts_cart.b3d");
  const std::string red = write_skin("red.png", 230, 20, 20);
  const std::string gltf = (dir_ / "out" / "cart.gltf").string();
  RunResult r = run({"convert", model, "--texture", red, "-o", gltf});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(slurp((dir_ / "out" / "cart_red.png").string()), slurp(red));
  const RunResult info = run({"info", gltf, "--json"});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("cart_red.png"), std::string::npos) << info.out;
}

TEST_F(TextureFlagTest, MissingOrBrokenSkinsAreLocatedErrors) {
  const std::string model = shared_model("minetest_cart_b3d/carts_cart.b3d");
  const std::string missing = (dir_ / "none.png").string();
  const std::string junk = (dir_ / "junk.png").string();
  { std::ofstream(junk) << "not a picture"; }
  for (const std::string& skin : {missing, junk}) {
    for (const char* cmd : {"render", "convert"}) {
      const std::string out = (dir_ / (std::string(cmd) == "render" ? "x.png" : "x.glb")).string();
      const RunResult r = run({cmd, model, "--texture", skin, "-o", out});
      EXPECT_EQ(r.exit_code, 1) << cmd << " " << skin << ": " << r.err;
      EXPECT_NE(r.err.find(skin + ":--texture:"), std::string::npos) << r.err;
      EXPECT_FALSE(std::filesystem::exists(out)) << out;
    }
  }
  const RunResult unknown =
      run({"render", model, "--texture", "fur=" + write_skin("s.png", 1, 2, 3), "-o",
           (dir_ / "x.png").string()});
  EXPECT_EQ(unknown.exit_code, 2) << unknown.err;
  EXPECT_NE(unknown.err.find("no material 'fur'"), std::string::npos) << unknown.err;
  const RunResult empty =
      run({"render", model, "--texture", "fur=", "-o", (dir_ / "x.png").string()});
  EXPECT_EQ(empty.exit_code, 2) << empty.err;
}

}  // namespace
}  // namespace critter
