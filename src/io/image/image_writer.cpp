// SPDX-License-Identifier: MIT
#include "critter/io/image/image_writer.h"

#include <gif_lib.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "critter/io/atomic_file.h"
#include "io/image/stb_codec.h"

namespace critter::io {
namespace {

Error usage(std::string_view path, std::string message) {
  return Error::at(ErrorCode::kUsage, std::string(path), "", std::move(message));
}

// 5 bits per channel: the histogram the palette is cut from and the lookup pixels map through.
constexpr int kBins = 32 * 32 * 32;

int bin_of(int r, int g, int b) {
  return ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);
}

struct Bin {
  std::uint64_t count = 0;
  std::uint64_t sum[3] = {0, 0, 0};
};

struct Box {
  std::vector<int> bins;  // indices of non-empty histogram bins
  std::uint64_t count = 0;
  int widest = 0;  // channel with the largest range
  int range = 0;
};

void measure(Box& box, const std::vector<Bin>& hist) {
  int lo[3] = {31, 31, 31};
  int hi[3] = {0, 0, 0};
  box.count = 0;
  for (int b : box.bins) {
    const int c[3] = {(b >> 10) & 31, (b >> 5) & 31, b & 31};
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], c[k]);
      hi[k] = std::max(hi[k], c[k]);
    }
    box.count += hist[static_cast<std::size_t>(b)].count;
  }
  box.range = -1;
  for (int k = 0; k < 3; ++k) {
    // Green counts more to the eye; weight ranges like luma so splits follow visible contrast.
    static constexpr int kWeight[3] = {3, 4, 2};
    const int r = (hi[k] - lo[k]) * kWeight[k];
    if (r > box.range) {
      box.range = r;
      box.widest = k;
    }
  }
}

std::vector<Bin> histogram(std::span<const RgbaImage> frames) {
  std::vector<Bin> hist(kBins);
  for (const RgbaImage& f : frames) {
    for (std::size_t i = 0; i + 3 < f.pixels.size(); i += 4) {
      const int r = f.pixels[i];
      const int g = f.pixels[i + 1];
      const int b = f.pixels[i + 2];
      Bin& bin = hist[static_cast<std::size_t>(bin_of(r, g, b))];
      ++bin.count;
      bin.sum[0] += static_cast<std::uint64_t>(r);
      bin.sum[1] += static_cast<std::uint64_t>(g);
      bin.sum[2] += static_cast<std::uint64_t>(b);
    }
  }
  return hist;
}

std::vector<std::uint8_t> cut(const std::vector<Bin>& hist, int colours) {
  std::vector<Box> boxes(1);
  for (int b = 0; b < kBins; ++b) {
    if (hist[static_cast<std::size_t>(b)].count > 0) boxes[0].bins.push_back(b);
  }
  if (boxes[0].bins.empty()) return {0, 0, 0};
  measure(boxes[0], hist);
  while (static_cast<int>(boxes.size()) < colours) {
    // Split the box with the most pixels times spread: big uniform areas keep few entries,
    // gradients get many.
    std::size_t best = boxes.size();
    double best_score = 0.0;
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      if (boxes[i].bins.size() < 2 || boxes[i].range <= 0) continue;
      const double score =
          static_cast<double>(boxes[i].range) * std::sqrt(static_cast<double>(boxes[i].count));
      if (score > best_score) {
        best_score = score;
        best = i;
      }
    }
    if (best == boxes.size()) break;
    Box& box = boxes[best];
    const int shift = 10 - 5 * box.widest;
    std::sort(box.bins.begin(), box.bins.end(),
              [shift](int a, int b) { return ((a >> shift) & 31) < ((b >> shift) & 31); });
    // Weighted median: the first bin where half the pixels are behind.
    std::uint64_t acc = 0;
    std::size_t split = 1;
    for (std::size_t i = 0; i + 1 < box.bins.size(); ++i) {
      acc += hist[static_cast<std::size_t>(box.bins[i])].count;
      split = i + 1;
      if (acc * 2 >= box.count) break;
    }
    Box other;
    other.bins.assign(box.bins.begin() + static_cast<std::ptrdiff_t>(split), box.bins.end());
    box.bins.resize(split);
    measure(box, hist);
    measure(other, hist);
    boxes.push_back(std::move(other));
  }
  std::vector<std::uint8_t> palette;
  for (const Box& box : boxes) {
    std::uint64_t sum[3] = {0, 0, 0};
    std::uint64_t count = 0;
    for (int b : box.bins) {
      const Bin& bin = hist[static_cast<std::size_t>(b)];
      for (int k = 0; k < 3; ++k) sum[k] += bin.sum[k];
      count += bin.count;
    }
    for (int k = 0; k < 3; ++k) {
      palette.push_back(
          static_cast<std::uint8_t>((sum[k] + count / 2) / std::max<std::uint64_t>(count, 1)));
    }
  }
  return palette;
}

// Writes `bytes` to `path` through a temporary file in the same folder, renamed on success.
Status write_file_atomically(const std::string& path, std::span<const std::uint8_t> bytes) {
  AtomicFileSet files;
  if (auto r = files.stage(path, bytes); !r) return r;
  return files.commit();
}

int nearest(const std::vector<std::uint8_t>& palette, int r, int g, int b) {
  int best = 0;
  int best_d = 1 << 30;
  for (std::size_t i = 0; i < palette.size() / 3; ++i) {
    const int dr = r - palette[3 * i];
    const int dg = g - palette[3 * i + 1];
    const int db = b - palette[3 * i + 2];
    const int d = 3 * dr * dr + 4 * dg * dg + 2 * db * db;
    if (d < best_d) {
      best_d = d;
      best = static_cast<int>(i);
    }
  }
  return best;
}

}  // namespace

Status write_png(std::string_view path, const RgbaImage& image) {
  if (image.width <= 0 || image.height <= 0 || image.pixels.size() != image.byte_count()) {
    return fail(usage(path, "image is empty or its pixel buffer does not match its size"));
  }
  const std::string p(path);
  std::vector<std::uint8_t> bytes;
  if (!stb::encode_png(image, bytes)) {
    return fail(Error::at(ErrorCode::kIo, p, "", "cannot encode PNG"));
  }
  return write_file_atomically(p, bytes);
}

std::vector<std::uint8_t> median_cut_palette(std::span<const RgbaImage> frames, int colours) {
  return cut(histogram(frames), std::clamp(colours, 1, 256));
}

Status write_gif(std::string_view path, std::span<const RgbaImage> frames,
                 const GifOptions& options) {
  if (frames.empty()) return fail(usage(path, "no frames to write"));
  const int w = frames[0].width;
  const int h = frames[0].height;
  for (const RgbaImage& f : frames) {
    if (f.width != w || f.height != h || w <= 0 || h <= 0 || f.pixels.size() != f.byte_count()) {
      return fail(usage(path, "frames must be non-empty and all the same size"));
    }
  }
  if (w > 65535 || h > 65535) return fail(usage(path, "GIF frames are at most 65535 pixels wide"));
  if (options.colours < 2 || options.colours > 256 || !(options.frame_delay >= 0.0f)) {
    return fail(usage(path, "colours must be in 2..256 and the frame delay non-negative"));
  }
  std::vector<std::uint8_t> palette =
      median_cut_palette(frames, options.transparent ? options.colours - 1 : options.colours);
  // Opaque pixels map to the median-cut colours only, never to the transparent entry.
  const std::vector<std::uint8_t> opaque = palette;
  const std::vector<std::uint8_t>& candidates = options.transparent ? opaque : palette;
  const int clear_index = options.transparent ? static_cast<int>(palette.size() / 3) : -1;
  if (options.transparent) palette.insert(palette.end(), {0, 0, 0});
  int depth = 1;
  while ((1 << depth) < static_cast<int>(palette.size() / 3)) ++depth;
  const int entries = 1 << depth;
  palette.resize(static_cast<std::size_t>(entries) * 3, 0);

  std::vector<std::int16_t> lookup(kBins, -1);
  auto index_of = [&](int r, int g, int b) {
    std::int16_t& e = lookup[static_cast<std::size_t>(bin_of(r, g, b))];
    if (e < 0)
      e = static_cast<std::int16_t>(nearest(candidates, (r & ~7) | 4, (g & ~7) | 4, (b & ~7) | 4));
    return static_cast<GifPixelType>(e);
  };

  // Encoded in memory, then written through a temporary file and renamed, so a failure never
  // leaves a partial GIF (and the file gets the usual permissions, not giflib's 0600).
  const std::string p(path);
  std::vector<std::uint8_t> bytes;
  auto append = [](GifFileType* file, const GifByteType* data, int size) {
    auto* out = static_cast<std::vector<std::uint8_t>*>(file->UserData);
    out->insert(out->end(), data, data + size);
    return size;
  };
  int err = 0;
  GifFileType* gif = EGifOpen(&bytes, append, &err);
  if (gif == nullptr) {
    return fail(
        Error::at(ErrorCode::kIo, p, "", std::string("cannot write GIF: ") + GifErrorString(err)));
  }
  auto failed = [&](const char* step) {
    const std::string why = GifErrorString(gif->Error);
    EGifCloseFile(gif, &err);
    return fail(Error::at(ErrorCode::kIo, p, step, "cannot write GIF: " + why));
  };
  std::vector<GifColorType> colours(static_cast<std::size_t>(entries));
  for (int i = 0; i < entries; ++i) {
    colours[static_cast<std::size_t>(i)] = GifColorType{
        palette[3 * static_cast<std::size_t>(i)], palette[3 * static_cast<std::size_t>(i) + 1],
        palette[3 * static_cast<std::size_t>(i) + 2]};
  }
  ColorMapObject* map = GifMakeMapObject(entries, colours.data());
  EGifSetGifVersion(gif, true);
  const int screen = EGifPutScreenDesc(gif, w, h, depth, 0, map);
  GifFreeMapObject(map);
  if (screen == GIF_ERROR) return failed("screen descriptor");
  if (options.loop) {
    const unsigned char app[] = "NETSCAPE2.0";
    const unsigned char loop[3] = {1, 0, 0};  // sub-block 1, loop count 0 = forever
    if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(gif, 11, app) == GIF_ERROR ||
        EGifPutExtensionBlock(gif, 3, loop) == GIF_ERROR ||
        EGifPutExtensionTrailer(gif) == GIF_ERROR) {
      return failed("loop extension");
    }
  }
  // Bayer 4x4 thresholds, centred on zero, in 8-bit levels.
  static constexpr int kBayer[4][4] = {
      {0, 8, 2, 10}, {12, 4, 14, 6}, {3, 11, 1, 9}, {15, 7, 13, 5}};
  const int amplitude = options.dither ? 10 : 0;
  const int delay = std::max(2, static_cast<int>(options.frame_delay * 100.0f + 0.5f));
  std::vector<GifPixelType> line(static_cast<std::size_t>(w));
  for (const RgbaImage& f : frames) {
    GraphicsControlBlock gcb{};
    gcb.DisposalMode = options.transparent ? DISPOSE_BACKGROUND : DISPOSE_DO_NOT;
    gcb.UserInputFlag = false;
    gcb.DelayTime = delay;
    gcb.TransparentColor = options.transparent ? clear_index : NO_TRANSPARENT_COLOR;
    GifByteType ext[4];
    EGifGCBToExtension(&gcb, ext);
    if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, ext) == GIF_ERROR) {
      return failed("graphics control");
    }
    if (EGifPutImageDesc(gif, 0, 0, w, h, false, nullptr) == GIF_ERROR) return failed("image");
    for (int y = 0; y < h; ++y) {
      const std::uint8_t* row =
          f.pixels.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(w) * 4;
      for (int x = 0; x < w; ++x) {
        if (options.transparent && row[4 * x + 3] < 128) {
          line[static_cast<std::size_t>(x)] = static_cast<GifPixelType>(clear_index);
          continue;
        }
        const int d = amplitude * (2 * kBayer[y & 3][x & 3] - 15) / 32;
        const int r = std::clamp(row[4 * x] + d, 0, 255);
        const int g = std::clamp(row[4 * x + 1] + d, 0, 255);
        const int b = std::clamp(row[4 * x + 2] + d, 0, 255);
        line[static_cast<std::size_t>(x)] = index_of(r, g, b);
      }
      if (EGifPutLine(gif, line.data(), w) == GIF_ERROR) return failed("pixels");
    }
  }
  if (EGifCloseFile(gif, &err) == GIF_ERROR) {
    return fail(
        Error::at(ErrorCode::kIo, p, "", std::string("cannot finish GIF: ") + GifErrorString(err)));
  }
  return write_file_atomically(p, bytes);
}

}  // namespace critter::io
