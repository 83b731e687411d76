// SPDX-License-Identifier: MIT
#include "critter/io/image/image_decoder.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "critter/io/image/image_writer.h"
#include "support/gltf_validation.h"

// libjpeg, to write progressive JPEGs with many scans.
#include <jpeglib.h>

namespace critter::io {
namespace {

namespace fs = std::filesystem;
using testing::ScratchDir;

RgbaImage two_by_two() {
  RgbaImage image;
  image.width = 2;
  image.height = 2;
  image.pixels = {255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 10, 20, 30, 40};
  return image;
}

// The bytes of the file at `path` (empty when it cannot be read).
std::vector<std::uint8_t> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const std::string kUvTexture =
    std::string(CRITTER_SHARED_MODELS) + "/MorphPrimitivesTest/uv_texture.jpg";

// A PNG of two_by_two() on disk, and its bytes.
std::vector<std::uint8_t> png_file(const fs::path& path) {
  EXPECT_TRUE(write_png(path.string(), two_by_two()));
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(ImageDecoderTest, DecodesEmbeddedBytesToRgba8) {
  const ScratchDir scratch("image_decoder");
  const fs::path path = scratch / "embedded.png";
  Image image;
  image.name = "skin";
  image.bytes = png_file(path);
  Result<RgbaImage> decoded = decode_image(image);
  ASSERT_TRUE(decoded) << decoded.error().to_string();
  EXPECT_EQ(decoded->width, 2);
  EXPECT_EQ(decoded->height, 2);
  EXPECT_EQ(decoded->pixels, two_by_two().pixels);
}

TEST(ImageDecoderTest, DecodesTheResolvedFileWhenThereAreNoBytes) {
  const ScratchDir scratch("image_decoder");
  const fs::path path = scratch / "external.png";
  png_file(path);
  Image image;
  image.uri = "external.png";
  image.resolved_path = path.string();
  Result<RgbaImage> decoded = decode_image(image);
  ASSERT_TRUE(decoded) << decoded.error().to_string();
  EXPECT_EQ(decoded->pixels, two_by_two().pixels);
}

TEST(ImageDecoderTest, MissingFileIsLocatedAndSaysFileNotFound) {
  Image image;
  image.uri = "textures/gone.png";
  image.resolved_path = "/nonexistent/textures/gone.png";
  image.missing = true;
  Result<RgbaImage> decoded = decode_image(image);
  ASSERT_FALSE(decoded);
  EXPECT_EQ(decoded.error().code, ErrorCode::kIo);
  EXPECT_EQ(decoded.error().path, "/nonexistent/textures/gone.png");
  EXPECT_EQ(decoded.error().location, "image 'textures/gone.png'");
  EXPECT_EQ(decoded.error().message, "file not found");
}

TEST(ImageDecoderTest, UnopenableFileIsAnIoError) {
  const ScratchDir scratch("image_decoder");
  Image image;
  image.uri = "gone.png";
  image.resolved_path = (scratch / "never_written.png").string();
  Result<RgbaImage> decoded = decode_image(image);
  ASSERT_FALSE(decoded);
  EXPECT_EQ(decoded.error().code, ErrorCode::kIo);
  EXPECT_EQ(decoded.error().path, image.resolved_path);
  EXPECT_FALSE(decoded.error().message.empty());
}

TEST(ImageDecoderTest, GarbageBytesFailWithTheDecodersReasonAndTheImageName) {
  Image image;
  image.name = "noise";
  image.bytes = {1, 2, 3, 4, 5, 6, 7, 8};
  Result<RgbaImage> decoded = decode_image(image);
  ASSERT_FALSE(decoded);
  EXPECT_EQ(decoded.error().code, ErrorCode::kParse);
  EXPECT_EQ(decoded.error().path, "");
  EXPECT_EQ(decoded.error().location, "image 'noise'");
  EXPECT_FALSE(decoded.error().message.empty());
}

TEST(ImageDecoderTest, ImageWithNeitherBytesNorPathIsInvalid) {
  Image image;
  image.name = "empty";
  Result<RgbaImage> decoded = decode_image(image);
  ASSERT_FALSE(decoded);
  EXPECT_EQ(decoded.error().code, ErrorCode::kInvalid);
  EXPECT_EQ(decoded.error().message, "no image data");
}

TEST(ImageDecoderTest, BytesDecodeWithTheirOriginInErrors) {
  const ScratchDir scratch("image_decoder");
  const fs::path path = scratch / "bytes.png";
  const std::vector<std::uint8_t> bytes = png_file(path);
  Result<RgbaImage> decoded = decode_image_bytes(bytes, "atlas.png");
  ASSERT_TRUE(decoded) << decoded.error().to_string();
  EXPECT_EQ(decoded->pixels, two_by_two().pixels);
  const std::vector<std::uint8_t> truncated(bytes.begin(), bytes.begin() + 20);
  Result<RgbaImage> broken = decode_image_bytes(truncated, "atlas.png");
  ASSERT_FALSE(broken);
  EXPECT_EQ(broken.error().code, ErrorCode::kParse);
  EXPECT_EQ(broken.error().path, "atlas.png");
}

// Found by fuzzing (fuzz/image_fuzz.cpp): a PNG whose next chunk type is four zero bytes made stb
// report an empty reason, and the error an empty message.
TEST(ImageDecoderTest, UnknownChunkOfZeroTypeFailsWithAMessage) {
  const std::vector<std::uint8_t> png = {
      0x89, 'P',  'N',  'G',  '\r', '\n', 0x1a, '\n',  // signature
      0,    0,    0,    13,   'I',  'H',  'D',  'R',  0, 0, 0, 1,
      0,    0,    0,    1,    8,    2,    0,    0,    0,            // 1x1 RGB8
      0x90, 0x77, 0x53, 0xde,                                       // IHDR CRC
      0,    0,    0,    0,    0,    0,    0,    0,    0, 0, 0, 0};  // an empty chunk of type 00 00
                                                                    // 00 00 and its CRC
  Result<RgbaImage> image = decode_image_bytes(png, "zero.png");
  ASSERT_FALSE(image);
  EXPECT_EQ(image.error().code, ErrorCode::kParse);
  EXPECT_EQ(image.error().path, "zero.png");
  EXPECT_EQ(image.error().message, "unknown decoder failure");
}

// An IDAT chunk of length 0 before the image data (found by fuzzing: stb copied it from its still
// unallocated buffer, UBSan) decodes like the PNG without it.
TEST(ImageDecoderTest, EmptyIdatChunksAreSkipped) {
  const ScratchDir scratch("image_decoder");
  std::vector<std::uint8_t> png = png_file(scratch / "plain.png");
  // The first chunk after the 8-byte signature is IHDR: 4 + 4 + 13 + 4 bytes.
  const std::vector<std::uint8_t> empty_idat = {0,   0,   0,    0,    'I',  'D',
                                                'A', 'T', 0x35, 0xAF, 0x06, 0x1E};
  png.insert(png.begin() + 8 + 25, empty_idat.begin(), empty_idat.end());
  png.insert(png.begin() + 8 + 25, empty_idat.begin(), empty_idat.end());
  Result<RgbaImage> image = decode_image_bytes(png, "empty-idat.png");
  ASSERT_TRUE(image) << image.error().to_string();
  EXPECT_EQ(image->width, 2);
  EXPECT_EQ(image->height, 2);
  EXPECT_EQ(image->pixels, two_by_two().pixels);
}

// Found by fuzzing (fuzz/image_fuzz.cpp, UBSan): this 43-byte PNG ends inside the header of an
// empty IDAT chunk (no CRC), which the chunk screen did not walk, so stb copied zero bytes from its
// unallocated buffer. The last chunk is screened too: an empty one is taken out, a longer one
// than the bytes left is refused.
TEST(ImageDecoderTest, PngEndingInsideItsLastChunkIsScreened) {
  const std::string cut(
      "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x05\0\0\0\x03\x08\x06\0\0\0+\0\0\0"
      "\0\0\0\0IDATx\x82",
      43);
  Result<RgbaImage> image =
      decode_image_bytes(std::vector<std::uint8_t>(cut.begin(), cut.end()), "cut.png");
  ASSERT_FALSE(image);
  EXPECT_EQ(image.error().path, "cut.png");
  EXPECT_FALSE(image.error().message.empty());
  // The same file whose last chunk declares 1 GB: refused before stb grows a buffer for it.
  std::string huge = cut;
  huge[33] = 0x40;
  image = decode_image_bytes(std::vector<std::uint8_t>(huge.begin(), huge.end()), "huge.png");
  ASSERT_FALSE(image);
  EXPECT_EQ(image.error().message,
            "PNG chunk at byte 33 declares 1073741824 bytes of data, 0 follow");
}

// Found by fuzzing (fuzz/image_fuzz.cpp, UBSan): a 34-byte BMP whose height is -2^31, whose
// absolute value stb takes (undefined for that value) before it checks the size. Heights beyond
// stb's limit are refused before stb sees them; a top-down BMP (negative height) still decodes.
TEST(ImageDecoderTest, BmpHeightOutOfRangeIsRefused) {
  std::vector<std::uint8_t> b = {0x42, 0x4d, 0x46, 0x3b, 0x00, 0xff, 0xc2, 0x00, 0xff,
                                 0xdd, 0x0c, 0x00, 0x00, 0x00, 0x28, 0x00, 0x00, 0x00,
                                 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x01,
                                 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0xff};
  Result<RgbaImage> image = decode_image_bytes(b, "min.bmp");
  ASSERT_FALSE(image);
  EXPECT_EQ(image.error().path, "min.bmp");
  EXPECT_EQ(image.error().message, "BMP height -2147483648 (byte 22) is out of range");
  // A 2 x 2 24-bit BMP stored top-down: height -2.
  b = {0x42, 0x4d, 0, 0, 0,    0,    0,    0,    0, 0, 54, 0, 0, 0, 40, 0, 0,  0,
       2,    0,    0, 0, 0xfe, 0xff, 0xff, 0xff, 1, 0, 24, 0, 0, 0, 0,  0, 16, 0,
       0,    0,    0, 0, 0,    0,    0,    0,    0, 0, 0,  0, 0, 0, 0,  0, 0,  0};
  for (int row = 0; row < 2; ++row) b.insert(b.end(), {0x10, 0x20, 0x30, 0x10, 0x20, 0x30, 0, 0});
  image = decode_image_bytes(b, "top-down.bmp");
  ASSERT_TRUE(image) << image.error().to_string();
  EXPECT_EQ(image->height, 2);
  EXPECT_EQ(image->pixels[0], 0x30);
}

// A TGA header: colour map type 0, `type`, width x height, `bits` per pixel, bottom-up.
std::vector<std::uint8_t> tga(std::uint8_t type, int width, int height, std::uint8_t bits) {
  std::vector<std::uint8_t> b(18, 0);
  b[2] = type;
  b[12] = static_cast<std::uint8_t>(width);
  b[13] = static_cast<std::uint8_t>(width >> 8);
  b[14] = static_cast<std::uint8_t>(height);
  b[15] = static_cast<std::uint8_t>(height >> 8);
  b[16] = bits;
  return b;
}

// Found by fuzzing (fuzz/image_fuzz.cpp, a timeout): a 16 KB file that stb takes as an
// uncompressed 16-bit TGA of 65496 x 224 pixels, whose every pixel stb reads (zeros past the end
// of the file). A TGA whose pixel data is not all there is refused before stb sees it, and a
// run-length one that declares more pixels than its bytes can give.
TEST(ImageDecoderTest, TgaWithoutItsPixelDataIsRefused) {
  std::vector<std::uint8_t> b = tga(2, 65496, 224, 16);
  b.resize(16124, 0x5a);
  Result<RgbaImage> image = decode_image_bytes(b, "cut.tga");
  ASSERT_FALSE(image);
  EXPECT_EQ(image.error().path, "cut.tga");
  EXPECT_EQ(
      image.error().message,
      "TGA of 65496x224 pixels needs 29342208 bytes of pixel data from byte 18, 16106 follow");
  // Run-length encoded: at most 128 pixels per byte.
  b = tga(10, 1000, 1000, 24);
  b.resize(18 + 1000, 0xff);
  image = decode_image_bytes(b, "rle.tga");
  ASSERT_FALSE(image);
  EXPECT_NE(image.error().message.find("run-length TGA of 1000x1000"), std::string::npos);
  // Whole ones decode: 2 x 2 uncompressed BGR, and the same as one run-length packet of 4.
  b = tga(2, 2, 2, 24);
  for (int p = 0; p < 4; ++p) b.insert(b.end(), {0x30, 0x20, 0x10});
  image = decode_image_bytes(b, "whole.tga");
  ASSERT_TRUE(image) << image.error().to_string();
  EXPECT_EQ(image->width, 2);
  EXPECT_EQ(image->pixels[0], 0x10);
  EXPECT_EQ(image->pixels[2], 0x30);
  b = tga(10, 2, 2, 24);
  b.insert(b.end(), {0x83, 0x30, 0x20, 0x10});
  image = decode_image_bytes(b, "whole-rle.tga");
  ASSERT_TRUE(image) << image.error().to_string();
  EXPECT_EQ(image->height, 2);
  EXPECT_EQ(image->pixels[12], 0x10);
}

// Found by fuzzing (fuzz/image_fuzz.cpp, out of memory): in this 121-byte PNG the bytes after an
// IDAT chunk read as a second IDAT chunk of 1,229,278,788 bytes, and stb grew its buffer to 2 GiB
// before reading it. A chunk longer than the bytes that follow is refused before stb sees it.
TEST(ImageDecoderTest, PngChunkLongerThanTheFileIsRefusedBeforeDecoding) {
  const std::vector<std::uint8_t> png = {
      0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48,
      0x44, 0x52, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x03, 0x08, 0x06, 0x00, 0x00,
      0x00, 0x5B, 0x35, 0xC5, 0xF8, 0x00, 0x00, 0x00, 0x1B, 0x49, 0x44, 0x41, 0x54, 0x78,
      0x5E, 0x63, 0x0A, 0x1A, 0xFF, 0xD9, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00,
      0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x03, 0x08, 0x06, 0x00, 0x00, 0x00, 0x5B, 0x36,
      0xC5, 0xF8, 0x49, 0x45, 0x4E, 0x44, 0x49, 0x44, 0x41, 0x54, 0x78, 0x5E, 0x63, 0x64,
      0xD0, 0x38, 0xF1, 0x5F, 0x80, 0x81, 0x81, 0x01, 0x19, 0xB3, 0x04, 0xA0, 0x09, 0x80,
      0x24, 0xB1, 0x0A, 0x02, 0x00, 0x9E, 0xF7, 0x03, 0x59, 0xD2, 0x27, 0x78, 0xDE, 0x00,
      0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x82,
  };
  Result<RgbaImage> image = decode_image_bytes(png, "long-chunk.png");
  ASSERT_FALSE(image);
  EXPECT_EQ(image.error().path, "long-chunk.png");
  EXPECT_EQ(image.error().message,
            "PNG chunk at byte 72 declares 1229278788 bytes of data, 37 follow");
}

// A JPEG of one DHT segment holding a table of 320 codes (16 lengths of 20), after `prefix` (the
// start of image), with a declared segment length of `length` (the table's own when 0).
std::vector<std::uint8_t> jpeg_with_huffman_table_of_320_codes(std::vector<std::uint8_t> prefix,
                                                               std::size_t length = 0) {
  std::vector<std::uint8_t> jpeg = std::move(prefix);
  const std::size_t segment = jpeg.size();
  jpeg.insert(jpeg.end(), {0xFF, 0xC4, 0, 0, 0x00});  // DHT, length, class 0 id 0
  for (int i = 0; i < 16; ++i) jpeg.push_back(20);
  jpeg.insert(jpeg.end(), 320, 0);
  if (length == 0) length = jpeg.size() - segment - 2;
  jpeg[segment + 2] = static_cast<std::uint8_t>(length >> 8);
  jpeg[segment + 3] = static_cast<std::uint8_t>(length & 0xFF);
  jpeg.insert(jpeg.end(), {0xFF, 0xD9});
  return jpeg;
}

// Found by fuzzing (fuzz/image_fuzz.cpp, UBSan): a JPEG Huffman table of more than 256 codes made
// stb write past the end of its code-size array. JPEGs no longer reach stb; libjpeg refuses the
// table, from memory and from a file.
TEST(ImageDecoderTest, JpegHuffmanTableOfMoreThan256CodesIsRefused) {
  const std::vector<std::uint8_t> jpeg = jpeg_with_huffman_table_of_320_codes({0xFF, 0xD8});
  Result<RgbaImage> image = decode_image_bytes(jpeg, "huffman.jpg");
  ASSERT_FALSE(image);
  EXPECT_EQ(image.error().code, ErrorCode::kParse);
  EXPECT_EQ(image.error().path, "huffman.jpg");
  EXPECT_EQ(image.error().message, "bad JPEG: Bogus Huffman table definition");

  const ScratchDir scratch("image_decoder");
  const fs::path path = scratch / "huffman.jpg";
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(jpeg.data()), static_cast<std::streamsize>(jpeg.size()));
  Result<RgbaImage> file = read_image(path.string());
  ASSERT_FALSE(file);
  EXPECT_EQ(file.error().message, "cannot read image: bad JPEG: Bogus Huffman table definition");
}

// stb took the start of image after any number of 0xFF fill bytes, and read a DHT segment's tables
// while its declared length had bytes left (past the segment's end); libjpeg reads such files
// too, after the fill bytes, and refuses the table or the segment length.
TEST(ImageDecoderTest, JpegHuffmanTableAfterFillBytesOrPastItsSegmentIsRefused) {
  Result<RgbaImage> fill =
      decode_image_bytes(jpeg_with_huffman_table_of_320_codes({0xFF, 0xFF, 0xFF, 0xD8}), "f.jpg");
  ASSERT_FALSE(fill);
  EXPECT_EQ(fill.error().message, "bad JPEG: Bogus Huffman table definition");
  for (const std::size_t length : {3u, 4u, 18u, 19u}) {
    const std::vector<std::uint8_t> jpeg =
        jpeg_with_huffman_table_of_320_codes({0xFF, 0xD8}, length);
    Result<RgbaImage> image = decode_image_bytes(jpeg, "short.jpg");
    ASSERT_FALSE(image) << "segment length " << length;
    EXPECT_EQ(image.error().message.rfind("bad JPEG: Bogus ", 0), 0u)
        << "segment length " << length << ": " << image.error().message;
  }
}

// A real baseline JPEG with its Huffman tables decodes.
TEST(ImageDecoderTest, JpegWithOrdinaryHuffmanTablesDecodes) {
  Result<RgbaImage> image = read_image(kUvTexture);
  ASSERT_TRUE(image) << image.error().to_string();
  EXPECT_GT(image->width, 0);
  EXPECT_EQ(image->pixels.size(),
            static_cast<std::size_t>(image->width) * static_cast<std::size_t>(image->height) * 4u);
}

// Found by fuzzing (fuzz/image_fuzz.cpp, UBSan): in this 16 KB JPEG the entropy-coded data ends
// at a marker in the middle of a code, and stb 2.27 let its bit count go negative and shifted a
// byte by 34. JPEGs are decoded by libjpeg-turbo, which reports the corrupt data (the asan preset
// runs this test under UBSan).
TEST(ImageDecoderTest, JpegWhoseDataEndsInsideACodeIsDecodedByLibjpeg) {
  const std::string path =
      std::string(CRITTER_SOURCE_DIR) + "/tests/io/image/data/jpeg-entropy-bits-underflow.jpg";
  const std::vector<std::uint8_t> jpeg = file_bytes(path);
  ASSERT_GT(jpeg.size(), 16000u);
  Result<RgbaImage> image = decode_image_bytes(jpeg, "underflow.jpg");
  ASSERT_FALSE(image);
  EXPECT_EQ(image.error().path, "underflow.jpg");
  EXPECT_EQ(image.error().message.rfind("bad JPEG: ", 0), 0u) << image.error().message;
}

// A real JPEG cut inside its scan: libjpeg's warning about the missing data is an error, with
// libjpeg's words, not an image padded with grey.
TEST(ImageDecoderTest, TruncatedJpegIsRefusedWithLibjpegsReason) {
  std::vector<std::uint8_t> jpeg = file_bytes(kUvTexture);
  ASSERT_FALSE(jpeg.empty()) << kUvTexture;
  jpeg.resize(jpeg.size() * 2 / 3);
  Result<RgbaImage> image = decode_image_bytes(jpeg, "cut.jpg");
  ASSERT_FALSE(image);
  EXPECT_EQ(image.error().message.rfind("bad JPEG: ", 0), 0u) << image.error().message;
}

// Bytes between a segment and the next marker (some cameras and editors write them) are skipped,
// as stb skipped them, not refused with libjpeg's "extraneous bytes" warning.
TEST(ImageDecoderTest, JpegWithBytesBeforeAMarkerDecodes) {
  std::vector<std::uint8_t> jpeg = file_bytes(kUvTexture);
  ASSERT_FALSE(jpeg.empty()) << kUvTexture;
  Result<RgbaImage> plain = decode_image_bytes(jpeg, "plain.jpg");
  ASSERT_TRUE(plain) << plain.error().to_string();
  // After the SOI (2 bytes), the first segment's length says where the next marker starts.
  ASSERT_EQ(jpeg[2], 0xFF);
  const std::size_t next = 4 + (std::size_t{jpeg[4]} << 8 | jpeg[5]);
  ASSERT_EQ(jpeg[next], 0xFF);
  jpeg.insert(jpeg.begin() + static_cast<std::ptrdiff_t>(next), {0x12, 0x34, 0x56});
  Result<RgbaImage> image = decode_image_bytes(jpeg, "extra.jpg");
  ASSERT_TRUE(image) << image.error().to_string();
  EXPECT_EQ(image->pixels, plain->pixels);
}

// A 16 x 16 RGB progressive JPEG written by libjpeg with a scan script of one interleaved DC scan
// and, per component and AC coefficient, a first scan at Al = `bits` followed by `bits`
// refinement scans: 1 + 3 · 63 · (bits + 1) scans in all.
std::vector<std::uint8_t> progressive_jpeg(int bits) {
  std::vector<jpeg_scan_info> script;
  jpeg_scan_info dc{};
  dc.comps_in_scan = 3;
  dc.component_index[0] = 0;
  dc.component_index[1] = 1;
  dc.component_index[2] = 2;
  script.push_back(dc);
  for (int c = 0; c < 3; ++c)
    for (int k = 1; k < 64; ++k)
      for (int al = bits; al >= 0; --al) {
        jpeg_scan_info s{};
        s.comps_in_scan = 1;
        s.component_index[0] = c;
        s.Ss = k;
        s.Se = k;
        s.Ah = al == bits ? 0 : al + 1;
        s.Al = al;
        script.push_back(s);
      }
  jpeg_compress_struct cinfo{};
  jpeg_error_mgr errors{};
  cinfo.err = jpeg_std_error(&errors);
  jpeg_create_compress(&cinfo);
  unsigned char* buffer = nullptr;
  unsigned long size = 0;
  jpeg_mem_dest(&cinfo, &buffer, &size);
  cinfo.image_width = 16;
  cinfo.image_height = 16;
  cinfo.input_components = 3;
  cinfo.in_color_space = JCS_RGB;
  jpeg_set_defaults(&cinfo);
  jpeg_set_quality(&cinfo, 95, TRUE);
  cinfo.scan_info = script.data();
  cinfo.num_scans = static_cast<int>(script.size());
  jpeg_start_compress(&cinfo, TRUE);
  std::vector<unsigned char> row(16 * 3);
  while (cinfo.next_scanline < cinfo.image_height) {
    for (int x = 0; x < 16; ++x) {
      row[3 * x] = static_cast<unsigned char>(x * 16);
      row[3 * x + 1] = static_cast<unsigned char>(cinfo.next_scanline * 16);
      row[3 * x + 2] = static_cast<unsigned char>((x ^ cinfo.next_scanline) * 8);
    }
    JSAMPROW rows[1] = {row.data()};
    jpeg_write_scanlines(&cinfo, rows, 1);
  }
  jpeg_finish_compress(&cinfo);
  jpeg_destroy_compress(&cinfo);
  std::vector<std::uint8_t> jpeg(buffer, buffer + size);
  std::free(buffer);
  return jpeg;
}

// A progressive JPEG may have at most 1,000 scans (each scan is a pass over the coefficients, so
// a small file of many scans costs a lot of time): 946 decode, 2,080 are refused.
TEST(ImageDecoderTest, ProgressiveJpegOfMoreThanAThousandScansIsRefused) {
  const std::vector<std::uint8_t> fewer = progressive_jpeg(4);  // 1 + 189 · 5 = 946 scans
  Result<RgbaImage> image = decode_image_bytes(fewer, "946-scans.jpg");
  ASSERT_TRUE(image) << image.error().to_string();
  EXPECT_EQ(image->width, 16);
  EXPECT_EQ(image->height, 16);

  const std::vector<std::uint8_t> many = progressive_jpeg(10);  // 1 + 189 · 11 = 2,080 scans
  image = decode_image_bytes(many, "2080-scans.jpg");
  ASSERT_FALSE(image);
  EXPECT_EQ(image.error().path, "2080-scans.jpg");
  EXPECT_EQ(image.error().message, "bad JPEG: more than 1000 scans");
}

// Found by fuzzing (fuzz/image_fuzz.cpp, a timeout): a 31-byte run-length TGA declaring 39682 x
// 1026 pixels made stb allocate 160 MB and loop over every pixel. A header declaring more pixels
// than the bytes can hold is refused first.
TEST(ImageDecoderTest, HeaderDeclaringMorePixelsThanTheBytesHoldIsRefused) {
  const std::vector<std::uint8_t> tga = {0x00, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00,
                                         0x00, 0x00, 0x00, 0x00, 0x02, 0x9b, 0x02, 0x04,
                                         0x18, 0x00, 0x81, 0xff, 0xf8, 0x00, 0x00, 0x02,
                                         0x00, 0x02, 0x04, 0x18, 0x00, 0xff, 0xff};
  Result<RgbaImage> image = decode_image_bytes(tga, "huge.tga");
  ASSERT_FALSE(image);
  EXPECT_EQ(image.error().code, ErrorCode::kParse);
  EXPECT_EQ(image.error().message,
            "image of 39682x1026 pixels is larger than its 31 bytes can hold or 64 megapixels");
}

// Found by fuzzing (fuzz/image_fuzz.cpp, ASan): a binary PGM with a 16-bit maximum value and too
// few samples made stb read past the end of its buffer. 16-bit PNM is refused before stb sees it.
TEST(ImageDecoderTest, SixteenBitPnmIsRefused) {
  const std::string pgm = "P5\n2 1\n2555\xff";
  const std::vector<std::uint8_t> bytes(pgm.begin(), pgm.end());
  Result<RgbaImage> image = decode_image_bytes(bytes, "deep.pgm");
  ASSERT_FALSE(image);
  EXPECT_EQ(image.error().code, ErrorCode::kParse);
  EXPECT_EQ(image.error().message, "16-bit PNM is not supported");
  const std::string eight = "P5\n# grey\n2 1\n255\n\x10\x20";
  Result<RgbaImage> ok = decode_image_bytes(std::vector<std::uint8_t>(eight.begin(), eight.end()));
  ASSERT_TRUE(ok) << ok.error().to_string();
  EXPECT_EQ(ok->width, 2);
}

// Found by fuzzing (fuzz/image_fuzz.cpp, ASan, a heap read past stb's buffer): in this 50-byte
// PGM a comment ends at a carriage return, which stb takes for the end of the comment and the
// screen for 16-bit samples did not, so the maximum value 444 reached stb's 16-bit path unseen.
TEST(ImageDecoderTest, SixteenBitPnmAfterACommentEndingInACarriageReturnIsRefused) {
  const std::string pgm(
      "P5\n6  5621#\0 444lllll]llll\n#l448\x89"
      "8\x89PNG\x80\0\r444lll\n\0\xff",
      50);
  const std::vector<std::uint8_t> bytes(pgm.begin(), pgm.end());
  Result<RgbaImage> image = decode_image_bytes(bytes, "cr.pgm");
  ASSERT_FALSE(image);
  EXPECT_EQ(image.error().message, "16-bit PNM is not supported");
  const std::string eight = "P5\n# grey\r2 1\n255\n\x10\x20";
  Result<RgbaImage> ok = decode_image_bytes(std::vector<std::uint8_t>(eight.begin(), eight.end()));
  ASSERT_TRUE(ok) << ok.error().to_string();
  EXPECT_EQ(ok->width, 2);
}

// Found by fuzzing (fuzz/image_fuzz.cpp, UBSan): a PPM header whose width has 16 digits overflowed
// stb's int while it read the header. Header numbers over 9 significant digits are refused first;
// leading zeros do not count.
TEST(ImageDecoderTest, PnmHeaderNumbersTooLongAreRefused) {
  const std::string ppm = "P6\n2444444444444444,44444444444444 1\n25\xf2";
  Result<RgbaImage> image =
      decode_image_bytes(std::vector<std::uint8_t>(ppm.begin(), ppm.end()), "huge.ppm");
  ASSERT_FALSE(image);
  EXPECT_EQ(image.error().code, ErrorCode::kParse);
  EXPECT_EQ(image.error().message, "PNM width has more than 9 digits (byte 12)");
  const std::string padded = "P5\n0000000000002 1\n255\n\x10\x20";
  Result<RgbaImage> ok =
      decode_image_bytes(std::vector<std::uint8_t>(padded.begin(), padded.end()));
  ASSERT_TRUE(ok) << ok.error().to_string();
  EXPECT_EQ(ok->width, 2);
}

TEST(ImageDecoderTest, ReadImageFailsWithItsPathWhenUnreadable) {
  const ScratchDir scratch("image_decoder");
  const std::string path = (scratch / "absent.png").string();
  Result<RgbaImage> image = read_image(path);
  ASSERT_FALSE(image);
  EXPECT_EQ(image.error().code, ErrorCode::kIo);
  EXPECT_EQ(image.error().path, path);
  EXPECT_EQ(image.error().message.rfind("cannot read image: ", 0), 0u) << image.error().message;
}

}  // namespace
}  // namespace critter::io
