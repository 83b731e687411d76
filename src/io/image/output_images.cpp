// SPDX-License-Identifier: MIT
#include "io/image/output_images.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "critter/core/strings.h"

namespace critter::io::detail {

namespace {

namespace fs = std::filesystem;

// A file-name fragment from an arbitrary name: portable characters only, bounded length, never
// hidden (no leading dot).
std::string sanitize(std::string_view name) {
  std::string out;
  for (unsigned char c : name) {
    if (out.size() >= 64) break;
    out += (std::isalnum(c) || c == '-' || c == '_' || c == '.') ? static_cast<char>(c) : '_';
  }
  while (!out.empty() && out.front() == '.') out.erase(out.begin());
  return out;
}

// True when the file at `path` exists and holds exactly `bytes`.
bool holds(const fs::path& path, std::span<const std::uint8_t> bytes) {
  std::vector<std::uint8_t> there;
  if (!read_whole_file(path.string(), &there)) return false;
  return std::equal(there.begin(), there.end(), bytes.begin(), bytes.end());
}

}  // namespace

std::string image_mime(const Image& img, std::span<const std::uint8_t> bytes) {
  if (!img.mime_type.empty()) return img.mime_type;
  if (bytes.size() >= 8 && bytes[0] == 0x89 && bytes[1] == 'P' && bytes[2] == 'N' &&
      bytes[3] == 'G')
    return "image/png";
  if (bytes.size() >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF)
    return "image/jpeg";
  const std::string ext = lower_extension(img.resolved_path.empty() ? img.uri : img.resolved_path);
  if (ext == "png") return "image/png";
  if (ext == "jpg" || ext == "jpeg") return "image/jpeg";
  if (ext == "ktx2") return "image/ktx2";
  if (ext == "webp") return "image/webp";
  return {};
}

std::string extension_for_mime(std::string_view mime) {
  if (mime == "image/png") return ".png";
  if (mime == "image/jpeg") return ".jpg";
  if (mime == "image/ktx2") return ".ktx2";
  if (mime == "image/webp") return ".webp";
  return ".bin";
}

bool read_whole_file(const std::string& path, std::vector<std::uint8_t>* out) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  out->clear();
  std::uint8_t buffer[1 << 16];
  bool ok = true;
  for (;;) {
    const std::size_t n = std::fread(buffer, 1, sizeof buffer, f);
    out->insert(out->end(), buffer, buffer + n);
    if (n < sizeof buffer) {
      ok = !std::ferror(f);
      break;
    }
  }
  std::fclose(f);
  return ok;
}

std::string percent_encode(std::string_view name) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : name) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string OutputImages::reserve(std::string name) {
  if (used_.insert(name).second) return name;
  const fs::path p(name);
  const std::string base = p.stem().string();
  const std::string ext = p.extension().string();
  for (std::size_t n = 2;; ++n) {
    std::string candidate = base + "_" + std::to_string(n) + ext;
    if (used_.insert(candidate).second) return candidate;
  }
}

OutputImages::Slot OutputImages::claim(const std::string& name,
                                       std::span<const std::uint8_t> bytes) {
  const fs::path p(name);
  const std::string base = p.stem().string();
  const std::string ext = p.extension().string();
  for (std::size_t n = 1;; ++n) {
    std::string candidate = n == 1 ? name : base + "_" + std::to_string(n) + ext;
    if (used_.contains(candidate)) continue;
    std::error_code ec;
    const fs::path target = dir_ / candidate;
    if (!fs::exists(target, ec) && !ec) {
      used_.insert(candidate);
      return {std::move(candidate), true};
    }
    // A file already there is reused when it holds the same bytes and otherwise left alone.
    if (fs::is_regular_file(target, ec) && holds(target, bytes)) {
      used_.insert(candidate);
      return {std::move(candidate), false};
    }
  }
}

Result<std::string> OutputImages::place(const Image& img, std::size_t index) {
  if (img.missing) return std::string();
  if (!img.bytes.empty()) {
    std::string base = sanitize(img.name);
    if (base.empty()) base = "image" + std::to_string(index);
    Slot slot =
        claim(stem_ + "_" + base + extension_for_mime(image_mime(img, img.bytes)), img.bytes);
    if (!slot.write) return std::move(slot.name);
    const std::string path = (dir_ / slot.name).string();
    if (auto r = files_->stage(path, img.bytes); !r) return std::unexpected(std::move(r.error()));
    written_.push_back(path);
    return std::move(slot.name);
  }
  if (img.resolved_path.empty()) return std::string();
  // Probe first: an unreadable source is a missing image (a warning), not a failed write.
  std::vector<std::uint8_t> source;
  if (!read_whole_file(img.resolved_path, &source)) return std::string();
  std::string base = sanitize(fs::path(img.resolved_path).filename().string());
  if (base.empty()) base = "image" + std::to_string(index);
  Slot slot = claim(base, source);
  if (!slot.write) return std::move(slot.name);
  const std::string path = (dir_ / slot.name).string();
  if (auto r = files_->stage(path, source); !r) return std::unexpected(std::move(r.error()));
  written_.push_back(path);
  return std::move(slot.name);
}

}  // namespace critter::io::detail
