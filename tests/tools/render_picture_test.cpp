// SPDX-License-Identifier: MIT
// How `critter render` pictures look: the blob shadow from the posed bounds, auto-framing, the
// ground grid, backgrounds (transparent PNG and GIF), contact-sheet cells and their time labels,
// and crowd GIFs. Boxes written as OBJ files with a red material make every measure exact: the
// red pixels are the model, everything else background, grid or shadow.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <string>

#include "critter/io/image/image_writer.h"
#include "support/cli_runner.h"

namespace critter {
namespace {

using test_support::CliTest;
using test_support::RunResult;

constexpr int kSky[3] = {204, 219, 235};

struct Rect {
  int left = 1 << 30, top = 1 << 30, right = -1, bottom = -1;  // inclusive; right < 0: empty
  int width() const { return right - left + 1; }
  int height() const { return bottom - top + 1; }
};

const std::uint8_t* pixel(const io::RgbaImage& image, int x, int y) {
  return image.pixels.data() +
         (static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width) +
          static_cast<std::size_t>(x)) *
             4;
}

bool is_red(const std::uint8_t* p) {
  return p[3] > 200 && p[0] > 60 && p[0] > p[1] + 30 && p[0] > p[2] + 30;
}

bool is_sky(const std::uint8_t* p, int tolerance = 3) {
  for (int k = 0; k < 3; ++k) {
    if (std::abs(int{p[k]} - kSky[k]) > tolerance) return false;
  }
  return true;
}

Rect red_rect(const io::RgbaImage& image) {
  Rect r;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      if (!is_red(pixel(image, x, y))) continue;
      r.left = std::min(r.left, x);
      r.right = std::max(r.right, x);
      r.top = std::min(r.top, y);
      r.bottom = std::max(r.bottom, y);
    }
  }
  return r;
}

class RenderPictureTest : public CliTest {
 protected:
  // An OBJ box sx x sy x sz standing on y = 0 (centred on x and z) with a red material.
  std::string box(const std::string& name, float sx, float sy, float sz) const {
    write_text(name + ".mtl", "newmtl red\nKd 0.9 0.1 0.1\n");
    std::ostringstream obj;
    obj << "mtllib " << name << ".mtl\nusemtl red\n";
    for (int i = 0; i < 8; ++i) {
      obj << "v " << ((i & 1) ? sx / 2 : -sx / 2) << " " << ((i & 2) ? sy : 0.0f) << " "
          << ((i & 4) ? sz / 2 : -sz / 2) << "\n";
    }
    // Corners 1-based: bit 0 x, bit 1 y, bit 2 z; faces wound outward.
    obj << "f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n";
    return write_text(name + ".obj", obj.str());
  }

  io::RgbaImage render(const std::vector<std::string>& args, const std::string& out_name) {
    const std::string out = (dir_ / out_name).string();
    std::vector<std::string> all = {"render"};
    all.insert(all.end(), args.begin(), args.end());
    all.insert(all.end(), {"-o", out});
    const RunResult r = run(all);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    Result<io::RgbaImage> image = io::read_image(out);
    EXPECT_TRUE(image) << (image ? "" : image.error().to_string());
    return image ? *image : io::RgbaImage{};
  }
};

TEST_F(RenderPictureTest, AModelInCentimetresGetsAShadow) {
  // A fox-sized box in centimetre units: 40 wide, 60 tall, 100 long.
  const io::RgbaImage image = render(
      {box("fox", 40.0f, 60.0f, 100.0f), "--camera", "90,25", "--size", "160x120"}, "fox.png");
  const Rect r = red_rect(image);
  ASSERT_GT(r.right, 0);
  // Beside the box's foot, left and right of it, the ground is darkened by the blob.
  const int y = r.bottom - 1;
  for (int x : {r.left - 3, r.right + 3}) {
    ASSERT_GE(x, 0);
    ASSERT_LT(x, image.width);
    const std::uint8_t* p = pixel(image, x, y);
    EXPECT_LT(int{p[2]}, kSky[2] - 15) << "x " << x << " y " << y;
  }
  // Far from the foot, the sky is untouched.
  EXPECT_TRUE(is_sky(pixel(image, 1, 1)));
}

TEST_F(RenderPictureTest, TheShadowLiesBelowTheFeetAndCutsNoShin) {
  // A 1.8 m character-sized box seen from the front: its front face is one flat colour from the
  // top to the last row, so no blob cuts across its lower part.
  const io::RgbaImage image =
      render({box("man", 0.5f, 1.8f, 0.3f), "--camera", "0,20", "--size", "120x240"}, "man.png");
  const Rect r = red_rect(image);
  ASSERT_GT(r.height(), 100);
  const int x = (r.left + r.right) / 2;
  // The last red row may be an antialiased edge; the row above it is the face, lit as the face
  // a little higher up (vertex lighting changes it by a level or so over ten rows).
  const std::uint8_t* higher = pixel(image, x, r.bottom - 12);
  const std::uint8_t* low = pixel(image, x, r.bottom - 1);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(int{low[k]}, int{higher[k]}, 3) << k;
  // And the shadow is there, around the feet.
  EXPECT_LT(int{pixel(image, r.left - 3, r.bottom)[2]}, kSky[2] - 15);
}

TEST_F(RenderPictureTest, FramingFillsEightyPercentOfTheLimitingDimension) {
  struct Case {
    const char* name;
    float sx, sy, sz;
    std::vector<std::string> args;
    int by_height;  // 1: the height limits, 0: the width, -1: either
  };
  const Case cases[] = {
      {"tall", 1.0f, 2.0f, 1.0f, {"--camera", "0,0"}, 1},
      {"tall_angled", 1.0f, 2.0f, 1.0f, {}, 1},
      {"wide", 4.0f, 0.5f, 0.5f, {"--camera", "0,10"}, 0},
      {"wide_ortho", 4.0f, 0.5f, 0.5f, {"--camera", "0,10", "--ortho"}, 0},
      {"big", 300.0f, 200.0f, 100.0f, {"--camera", "20,30"}, -1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<std::string> args = {box(c.name, c.sx, c.sy, c.sz), "--size", "320x240"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const io::RgbaImage image = render(args, std::string(c.name) + ".png");
    const Rect r = red_rect(image);
    ASSERT_GT(r.right, 0);
    const double fill_h = static_cast<double>(r.height()) / image.height;
    const double fill_w = static_cast<double>(r.width()) / image.width;
    const double fill = std::max(fill_h, fill_w);
    EXPECT_GE(fill, 0.75) << fill_w << " x " << fill_h;
    EXPECT_LE(fill, 0.85) << fill_w << " x " << fill_h;
    if (c.by_height >= 0) {
      EXPECT_EQ(fill_h > fill_w, c.by_height == 1) << fill_w << " x " << fill_h;
    }
    // Centred: the margins on either side differ by a few pixels at most.
    EXPECT_NEAR(r.left, image.width - 1 - r.right, 4);
    EXPECT_NEAR(r.top, image.height - 1 - r.bottom, 4);
  }
}

TEST_F(RenderPictureTest, GridDrawsLinesOnTheGroundOnly) {
  const std::string model = box("grid", 1.0f, 1.0f, 1.0f);
  const io::RgbaImage plain = render({model, "--size", "160x120"}, "plain.png");
  const io::RgbaImage grid = render({model, "--size", "160x120", "--grid"}, "grid.png");
  ASSERT_EQ(plain.pixels.size(), grid.pixels.size());
  const Rect r = red_rect(plain);
  int changed_model = 0;
  int changed_ground = 0;
  for (int y = 0; y < plain.height; ++y) {
    for (int x = 0; x < plain.width; ++x) {
      const bool differs = std::abs(int{pixel(plain, x, y)[1]} - int{pixel(grid, x, y)[1]}) > 8;
      if (!differs) continue;
      // Inside the model (its antialiased outline blends with what is behind it).
      const bool inside = x > 0 && y > 0 && x + 1 < plain.width && y + 1 < plain.height &&
                          is_red(pixel(plain, x - 1, y)) && is_red(pixel(plain, x + 1, y)) &&
                          is_red(pixel(plain, x, y - 1)) && is_red(pixel(plain, x, y + 1));
      if (inside) ++changed_model;
      if (y > r.bottom) ++changed_ground;
    }
  }
  EXPECT_EQ(changed_model, 0);
  EXPECT_GT(changed_ground, 100);
}

TEST_F(RenderPictureTest, TransparentBackgroundPngAndGif) {
  const std::string model = box("clear", 1.0f, 1.0f, 1.0f);
  const io::RgbaImage png = render(
      {model, "--size", "80x60", "--camera", "0,30", "--background", "transparent"}, "clear.png");
  ASSERT_EQ(png.width, 80);
  EXPECT_EQ(pixel(png, 0, 0)[3], 0);
  const Rect r = red_rect(png);
  ASSERT_GT(r.right, 0);
  const std::uint8_t* centre = pixel(png, (r.left + r.right) / 2, (r.top + r.bottom) / 2);
  EXPECT_EQ(centre[3], 255);
  // Straight colours: the box is as red as on the sky.
  const io::RgbaImage sky = render({model, "--size", "80x60", "--camera", "0,30"}, "sky.png");
  const std::uint8_t* sky_centre = pixel(sky, (r.left + r.right) / 2, (r.top + r.bottom) / 2);
  EXPECT_NEAR(int{centre[0]}, int{sky_centre[0]}, 2);
  // The blob shadow shows as partly transparent black around the feet.
  const std::uint8_t* foot = pixel(png, r.left - 3, r.bottom);
  EXPECT_GT(foot[3], 10);
  EXPECT_LT(foot[3], 200);

  const io::RgbaImage gif = render({model, "--size", "80x60", "--camera", "0,30", "--frames", "2",
                                    "--background", "transparent"},
                                   "clear.gif");
  ASSERT_EQ(gif.width, 80);
  EXPECT_EQ(pixel(gif, 0, 0)[3], 0);
  EXPECT_EQ(pixel(gif, (r.left + r.right) / 2, (r.top + r.bottom) / 2)[3], 255);
}

TEST_F(RenderPictureTest, BackgroundColoursAndBadValues) {
  const std::string model = box("bg", 1.0f, 1.0f, 1.0f);
  const io::RgbaImage white =
      render({model, "--size", "40x30", "--background", "#00ff80"}, "w.png");
  ASSERT_EQ(white.width, 40);
  EXPECT_EQ(pixel(white, 0, 0)[0], 0);
  EXPECT_EQ(pixel(white, 0, 0)[1], 255);
  EXPECT_EQ(pixel(white, 0, 0)[2], 128);
  const RunResult r =
      run({"render", model, "--background", "mauve", "-o", (dir_ / "x.png").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(test_support::contains(
      r.err,
      "--background: expected transparent, #RRGGBB, white, black, grey or sky, got "
      "'mauve'"))
      << r.err;
}

TEST_F(RenderPictureTest, SheetCellsCarryTimeLabelsAndUnusedCellsAreBackground) {
  // 5 frames of RiggedFigure's 1.25 s clip: 3 x 2 cells, the last one unused.
  const io::RgbaImage sheet = render({test_support::shared_model("RiggedFigure/RiggedFigure.glb"),
                                      "--sheet", "5", "--size", "80x60"},
                                     "sheet.png");
  ASSERT_EQ(sheet.width, 240);
  ASSERT_EQ(sheet.height, 120);
  for (int y = 60; y < 120; ++y) {
    for (int x = 160; x < 240; ++x) ASSERT_TRUE(is_sky(pixel(sheet, x, y), 0)) << x << "," << y;
  }
  // Each used cell has dark label pixels in its bottom-left corner, and the labels differ
  // ("0.00 s", "0.25 s", ...).
  auto label = [&](int cell) {
    std::string bits;
    const int cx = (cell % 3) * 80;
    const int cy = (cell / 3) * 60;
    for (int y = cy + 60 - 12; y < cy + 60; ++y) {
      for (int x = cx; x < cx + 40; ++x) {
        const std::uint8_t* p = pixel(sheet, x, y);
        bits += (p[0] == 40 && p[1] == 40 && p[2] == 40) ? '#' : '.';
      }
    }
    return bits;
  };
  std::string previous;
  for (int cell = 0; cell < 5; ++cell) {
    SCOPED_TRACE(cell);
    const std::string bits = label(cell);
    EXPECT_GT(std::count(bits.begin(), bits.end(), '#'), 20);
    EXPECT_NE(bits, previous);
    previous = bits;
  }
  const std::string unused = label(5);
  EXPECT_EQ(std::count(unused.begin(), unused.end(), '#'), 0);
}

TEST_F(RenderPictureTest, CrowdWritesAnAnimatedGif) {
  const std::string out = (dir_ / "crowd.gif").string();
  const RunResult r = run({"render", "builtin:quadruped", "--crowd", "4", "--frames", "3", "--size",
                           "64x48", "--grid", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(test_support::contains(r.out, "wrote " + out + " (64x48, 3 frames)\n")) << r.out;
  const std::string bytes = test_support::slurp(out);
  ASSERT_GT(bytes.size(), 13u);
  EXPECT_EQ(bytes.substr(0, 6), "GIF89a");
  // Three image descriptors (',' after a graphic control block), one per frame.
  std::size_t frames = 0;
  for (std::size_t at = bytes.find("\x21\xf9\x04"); at != std::string::npos;
       at = bytes.find("\x21\xf9\x04", at + 1))
    ++frames;
  EXPECT_EQ(frames, 3u);
  const RunResult sheet = run({"render", "builtin:quadruped", "--crowd", "4", "--sheet", "2", "-o",
                               (dir_ / "crowd.png").string()});
  EXPECT_EQ(sheet.exit_code, 2);
}

}  // namespace
}  // namespace critter
