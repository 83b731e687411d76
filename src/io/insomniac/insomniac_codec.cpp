// SPDX-License-Identifier: MIT
// Insomniac .model hashes, section names, detection and the small per-value decoders.
#include <array>
#include <cmath>
#include <cstring>

#include "critter/core/strings.h"
#include "critter/io/insomniac/insomniac_reader.h"

namespace critter::io {

namespace {

constexpr std::array<std::uint32_t, 256> make_crc32_table() {
  std::array<std::uint32_t, 256> t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    t[i] = c;
  }
  return t;
}

constexpr std::array<std::uint64_t, 256> make_crc64_table() {
  std::array<std::uint64_t, 256> t{};
  for (std::uint64_t i = 0; i < 256; ++i) {
    std::uint64_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? (c >> 1) ^ 0xC96C5795D7870F42ull : c >> 1;
    t[i] = c;
  }
  return t;
}

constexpr auto kCrc32Table = make_crc32_table();
constexpr auto kCrc64Table = make_crc64_table();

struct NamedTag {
  std::uint32_t tag;
  std::string_view name;
};

// §5. Unnamed tags are listed with an empty name by falling through to "".
constexpr NamedTag kSectionNames[] = {
    {0x283D0383u, "Model Built"},
    {0x3250BB80u, "Model Material"},
    {0x78D9CBDEu, "Model Subset"},
    {0x06EB7EFCu, "Model Look"},
    {0x811902D7u, "Model Look Built"},
    {0x4CCEA4ADu, "Model Look Group"},
    {0xDF9FDF12u, "Model Look BVH Info"},
    {0x0859863Du, "Model Index"},
    {0xA98BE69Bu, "Model Std Vert"},
    {0x6B855EEDu, "Model UV1 Vert"},
    {0x5CBA9DE9u, "Model Col Vert"},
    {0x16F3BA18u, "Model Tex Vert"},
    {0x15DF9D3Bu, "Model Joint"},
    {0xEE31971Cu, "Model Joint Lookup"},
    {0xDCC88A19u, "Model Bind Pose"},
    {0x90CDB60Cu, "Model Joint Hierarchy"},
    {0xC5354B60u, "Model Mirror Ids"},
    {0xB7380E8Cu, "Model Leaf Ids"},
    {0x0AD3A708u, "Model Joint Bspheres"},
    {0xC61B1FF5u, "Model Skin Batch"},
    {0xDCA379A2u, "Model Skin Data"},
    {0x5240C82Bu, "Model Skin Joint Remap"},
    {0xCCBAFF15u, "Model GPU Skin"},
    {0x380A5744u, "Model Anim Morph Info"},
    {0x5E709570u, "Model Anim Morph Data"},
    {0xA600C108u, "Model Anim Morph Indices"},
    {0x9F614FABu, "Model Locator"},
    {0x731CBC2Eu, "Model Locator Lookup"},
    {0xEFD92E68u, "Model Physics Data"},
    {0x7CA37DA0u, "Ambient Shadow Prims"},
    {0x3C9DABDFu, "Model Spline Subsets"},
    {0x27CA5246u, "Model Splines"},
    {0xBB7303D5u, "Model Spline Skin Binding"},
    {0x14D8B13Cu, "Model Spline Joint Binding"},
    {0x5D5CF541u, "Model Spline Joint Weights"},
    {0xADD1CBD3u, "Model Anim Dynamics Def"},
    {0xCD903318u, "Model Anim Geom Info"},
    {0x42349A17u, "Model Anim Ziva Info"},
    {0x244E5823u, "Model Anim Ziva Data"},
    {0xBCE86B01u, "Model Render Overrides"},
    {0x00823787u, "Model Texture Overrides"},
    {0x237D59F1u, "Model Morph Info"},
    {0x45079BC5u, "Model Morph Data"},
    {0x5796FEF6u, "Model Collision Index Data"},
    {0xF4CB2F37u, "Model Collision Vertex Data"},
    {0x4AD86765u, "Model Parent Ids"},
};

std::uint32_t le32(std::span<const std::uint8_t> b, std::size_t off) {
  return static_cast<std::uint32_t>(b[off]) | (static_cast<std::uint32_t>(b[off + 1]) << 8) |
         (static_cast<std::uint32_t>(b[off + 2]) << 16) |
         (static_cast<std::uint32_t>(b[off + 3]) << 24);
}

// Inverse of the equal-area projection of §7.5 from two 10-bit codes and the z sign.
vec3 decode_lambert(std::uint32_t a, std::uint32_t b, bool z_positive) {
  constexpr float kSqrt2 = 1.41421356237f;
  constexpr float kQ = 2.0f * kSqrt2 / 1023.0f;
  const float x = static_cast<float>(a) * kQ - kSqrt2;
  const float y = static_cast<float>(b) * kQ - kSqrt2;
  const float s = x * x + y * y;
  const float w = std::sqrt(std::max(0.0f, 1.0f - s / 4.0f));
  vec3 n(x * w, y * w, 1.0f - s / 2.0f);
  if (!z_positive) n.z = -n.z;
  // Codes outside the unit disc (s > 2) give a slightly long vector; keep the result unit.
  const float len = glm::length(n);
  return len > 0.0f ? n / len : vec3(0.0f, 0.0f, 1.0f);
}

}  // namespace

std::uint32_t insomniac_crc32(std::string_view bytes) {
  std::uint32_t crc = 0xEDB88320u;
  for (char ch : bytes)
    crc = kCrc32Table[(crc ^ static_cast<std::uint8_t>(ch)) & 0xFFu] ^ (crc >> 8);
  return crc;
}

std::string insomniac_normalize_path(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (char ch : path) {
    const char c = ch == '\\' ? '/' : ascii_lower(ch);
    if (c == '/' && !out.empty() && out.back() == '/') continue;
    out.push_back(c);
  }
  return out;
}

std::uint64_t insomniac_asset_id(std::string_view path) {
  const std::string norm = insomniac_normalize_path(path);
  std::uint64_t crc = 0xC96C5795D7870F42ull;
  for (char ch : norm)
    crc = kCrc64Table[(crc ^ static_cast<std::uint8_t>(ch)) & 0xFFu] ^ (crc >> 8);
  return (crc >> 2) | 0x8000000000000000ull;
}

std::string_view insomniac_section_name(std::uint32_t tag) {
  for (const NamedTag& t : kSectionNames)
    if (t.tag == tag) return t.name;
  return {};
}

vec3 insomniac_decode_normal(std::uint32_t packed) {
  return decode_lambert(packed & 0x3FFu, (packed >> 10) & 0x3FFu, (packed >> 31) != 0);
}

vec3 insomniac_decode_tangent(std::uint32_t packed, std::int16_t w) {
  const std::uint32_t abs_w = static_cast<std::uint32_t>(std::abs(static_cast<int>(w)));
  return decode_lambert((packed >> 20) & 0x3FFu, abs_w & 0x3FFu, ((packed >> 30) & 1u) != 0);
}

void insomniac_delta_decode(std::span<std::uint16_t> values) {
  std::uint16_t acc = 0;
  for (std::uint16_t& v : values) {
    acc = static_cast<std::uint16_t>(acc + v);
    v = acc;
  }
}

bool looks_like_insomniac_model(std::span<const std::uint8_t> head) {
  if (head.size() < 4) return false;
  const std::uint32_t m = le32(head, 0);
  if (m == kDat1Magic || m == kInsomniacMagicMsmr || m == kInsomniacMagicMm ||
      m == kInsomniacMagicRcra || m == kInsomniacMagicCc9d || m == kInsomniacMagicSo)
    return true;
  return head.size() >= 40 && le32(head, 36) == kDat1Magic;
}

Result<InsomniacGame> parse_insomniac_game(std::string_view text) {
  const std::string t = to_lower(text);
  if (t.empty() || t == "auto") return InsomniacGame::kUnknown;
  if (t == "msmr") return InsomniacGame::kMsmr;
  if (t == "mm") return InsomniacGame::kMm;
  if (t == "rcra") return InsomniacGame::kRcra;
  if (t == "so") return InsomniacGame::kSo;
  return fail(
      Error::at(ErrorCode::kUsage, {}, "game",
                "unknown game '" + std::string(text) + "' (expected msmr, mm, rcra or so)"));
}

std::string_view to_string(InsomniacGame game) {
  switch (game) {
    case InsomniacGame::kUnknown:
      return "unknown";
    case InsomniacGame::kMsmr:
      return "msmr";
    case InsomniacGame::kMm:
      return "mm";
    case InsomniacGame::kRcra:
      return "rcra";
    case InsomniacGame::kSo:
      return "so";
    case InsomniacGame::kCc9d:
      return "0xCC9DAFF8";
  }
  return "unknown";
}

std::string_view to_string(InsomniacFamily family) {
  switch (family) {
    case InsomniacFamily::kMsmr:
      return "MSMR";
    case InsomniacFamily::kRcra:
      return "RCRA";
    case InsomniacFamily::kSo:
      return "SO";
  }
  return "MSMR";
}

Result<InsomniacOptions> insomniac_options_from(const LoadOptions& options) {
  InsomniacOptions out;
  out.look = options.look;
  out.lod = options.lod;
  out.max_file_bytes = options.max_file_bytes;
  auto game = parse_insomniac_game(options.game);
  if (!game) return fail(game.error());
  out.game = *game;
  return out;
}

}  // namespace critter::io
