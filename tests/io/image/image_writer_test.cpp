// SPDX-License-Identifier: MIT
#include "critter/io/image/image_writer.h"
#include "support/gltf_validation.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

namespace critter::io {
namespace {

namespace fs = std::filesystem;
using testing::ScratchDir;

RgbaImage three_colours() {
  RgbaImage image;
  image.width = 3;
  image.height = 2;
  image.pixels = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255,
                  255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0};
  return image;
}

TEST(ImageWriterTest, PngRoundTripsExactly) {
  const ScratchDir scratch("image_writer");
  const RgbaImage image = three_colours();
  const fs::path path = scratch / "round.png";
  ASSERT_TRUE(write_png(path.string(), image));
  Result<RgbaImage> back = read_image(path.string());
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(back->width, 3);
  EXPECT_EQ(back->height, 2);
  EXPECT_EQ(back->pixels, image.pixels);
}

TEST(ImageWriterTest, PngRejectsMismatchedBuffers) {
  const ScratchDir scratch("image_writer");
  RgbaImage image = three_colours();
  image.pixels.pop_back();
  const Status s = write_png((scratch / "bad.png").string(), image);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::kUsage);
}

TEST(ImageWriterTest, MedianCutKeepsFewColoursExactly) {
  const RgbaImage image = three_colours();
  const std::vector<std::uint8_t> palette = median_cut_palette({&image, 1}, 256);
  ASSERT_EQ(palette.size(), 9u);
  std::set<std::tuple<int, int, int>> got;
  for (std::size_t i = 0; i < 9; i += 3) got.insert({palette[i], palette[i + 1], palette[i + 2]});
  const std::set<std::tuple<int, int, int>> want = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}};
  EXPECT_EQ(got, want);
}

TEST(ImageWriterTest, MedianCutSplitsAGradientIntoTheRequestedCount) {
  RgbaImage ramp;
  ramp.width = 256;
  ramp.height = 1;
  for (int x = 0; x < 256; ++x) {
    const auto v = static_cast<std::uint8_t>(x);
    ramp.pixels.insert(ramp.pixels.end(), {v, v, v, 255});
  }
  const std::vector<std::uint8_t> palette = median_cut_palette({&ramp, 1}, 4);
  ASSERT_EQ(palette.size(), 12u);
  // Four equal quarters of a uniform ramp: means near 32, 96, 160, 224 (5-bit bins blur by < 8).
  std::vector<int> greys;
  for (std::size_t i = 0; i < 12; i += 3) greys.push_back(palette[i]);
  std::sort(greys.begin(), greys.end());
  const int want[4] = {32, 96, 160, 224};
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(greys[static_cast<std::size_t>(k)], want[k], 8);
}

TEST(ImageWriterTest, GifHasHeaderLoopAndTrailer) {
  const ScratchDir scratch("image_writer");
  const RgbaImage frames[2] = {three_colours(), three_colours()};
  const fs::path path = scratch / "anim.gif";
  ASSERT_TRUE(write_gif(path.string(), frames));
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  const std::string bytes = text.str();
  ASSERT_GT(bytes.size(), 30u);
  EXPECT_EQ(bytes.substr(0, 6), "GIF89a");
  EXPECT_EQ(static_cast<unsigned char>(bytes[6]), 3u);  // width 3, little-endian
  EXPECT_EQ(static_cast<unsigned char>(bytes[8]), 2u);  // height 2
  EXPECT_NE(bytes.find("NETSCAPE2.0"), std::string::npos);
  EXPECT_EQ(bytes.back(), ';');
}

TEST(ImageWriterTest, TransparentGifClearsTheLowAlphaPixelsOnly) {
  const ScratchDir scratch("image_writer");
  // three_colours(): alpha 255 but for the last two pixels (128: opaque, 0: clear), and a black
  // opaque pixel that must not take the (black) transparent entry.
  RgbaImage image = three_colours();
  image.pixels[8] = 0;
  image.pixels[9] = 0;
  image.pixels[10] = 0;
  const RgbaImage frames[1] = {image};
  const fs::path path = scratch / "clear.gif";
  GifOptions options;
  options.transparent = true;
  ASSERT_TRUE(write_gif(path.string(), frames, options));
  Result<RgbaImage> read = read_image(path.string());
  ASSERT_TRUE(read) << read.error().to_string();
  ASSERT_EQ(read->pixels.size(), image.pixels.size());
  for (std::size_t i = 0; i < 6; ++i) {
    const std::uint8_t* p = read->pixels.data() + 4 * i;
    SCOPED_TRACE(i);
    EXPECT_EQ(p[3], i == 5 ? 0 : 255);
    if (i == 5) continue;
    for (std::size_t k = 0; k < 3; ++k) EXPECT_NEAR(p[k], image.pixels[4 * i + k], 8);
  }
  // Without the option every pixel is opaque.
  ASSERT_TRUE(write_gif(path.string(), frames));
  read = read_image(path.string());
  ASSERT_TRUE(read);
  EXPECT_EQ(read->pixels[23], 255);
}

TEST(ImageWriterTest, GifRejectsMismatchedFrames) {
  const ScratchDir scratch("image_writer");
  RgbaImage small = three_colours();
  RgbaImage other = three_colours();
  other.width = 2;
  other.height = 3;
  const RgbaImage frames[2] = {small, other};
  const Status s = write_gif((scratch / "bad.gif").string(), frames);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, "frames must be non-empty and all the same size");
  EXPECT_FALSE(write_gif((scratch / "none.gif").string(), {}));
}

}  // namespace
}  // namespace critter::io

namespace critter::io {
namespace {

// Images go through a temporary file and a rename: a failed write leaves the old file untouched,
// and a new file gets the process's usual permissions (giflib alone would create it 0600).
TEST(ImageWriterTest, WritesAreAtomicAndReadableByOthers) {
  const ScratchDir scratch("image_writer");
  const fs::path& dir = scratch.path();
  const std::vector<RgbaImage> frames = {three_colours(), three_colours()};
  const fs::path gif = dir / "a.gif";
  ASSERT_TRUE(write_gif(gif.string(), frames));
  ASSERT_TRUE(write_png((dir / "a.png").string(), three_colours()));
  const mode_t mask = ::umask(0);
  ::umask(mask);
  const auto expected_others = (fs::perms::others_read & static_cast<fs::perms>(~mask & 0777));
  EXPECT_EQ(fs::status(gif).permissions() & fs::perms::others_read, expected_others);
  EXPECT_EQ(fs::status(dir / "a.png").permissions() & fs::perms::others_read, expected_others);

  // A folder where the file should go: the write fails and nothing else appears.
  fs::create_directories(dir / "taken.gif");
  const Status s = write_gif((dir / "taken.gif").string(), frames);
  ASSERT_FALSE(s);
  EXPECT_TRUE(fs::is_directory(dir / "taken.gif"));
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 3u);  // a.gif, a.png, taken.gif: no temporary left behind
}

}  // namespace
}  // namespace critter::io
