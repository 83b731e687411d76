// SPDX-License-Identifier: MIT
#include "critter/io/texture_override.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <vector>

#include "critter/core/strings.h"
#include "critter/io/image/image_decoder.h"
#include "io/image/output_images.h"

namespace critter::io {

Result<TextureOverride> parse_texture_override(std::string_view text, std::string_view option) {
  const auto usage = [&](std::string message) {
    return fail(Error::at(ErrorCode::kUsage, std::string(option), "", std::move(message)));
  };
  if (text.empty()) return usage("no image file given (expected FILE or MATERIAL=FILE)");
  std::error_code ec;
  const std::size_t eq = text.find('=');
  if (eq == std::string_view::npos || std::filesystem::exists(std::string(text), ec)) {
    return TextureOverride{{}, std::string(text)};
  }
  TextureOverride out{std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
  if (out.material.empty()) return usage(in_quotes(text) + ": missing material name before '='");
  if (out.path.empty()) return usage(in_quotes(text) + ": missing image file after '='");
  return out;
}

Result<Model> apply_texture_overrides(const Model& model,
                                      std::span<const TextureOverride> overrides) {
  std::vector<Material> materials(model.materials().begin(), model.materials().end());
  std::vector<Image> images(model.images().begin(), model.images().end());
  // One image per distinct file, decoded once to refuse what no renderer could show.
  std::map<std::string, std::int32_t> image_of_path;
  std::set<std::int32_t> with_holes;  // images with transparent texels
  for (const TextureOverride& o : overrides) {
    const bool known =
        o.material.empty() || std::any_of(materials.begin(), materials.end(),
                                          [&](const Material& m) { return m.name == o.material; });
    if (!known) {
      std::string names;
      for (const Material& m : materials) names += (names.empty() ? "" : ", ") + in_quotes(m.name);
      return fail(Error::at(ErrorCode::kUsage, "--texture", "",
                            "no material " + in_quotes(o.material) +
                                " (have: " + (names.empty() ? "none" : names) + ")"));
    }
    std::int32_t index = 0;
    if (const auto it = image_of_path.find(o.path); it != image_of_path.end()) {
      index = it->second;
    } else {
      Image img;
      std::vector<std::uint8_t> bytes;
      if (!detail::read_whole_file(o.path, &bytes)) {
        return fail(Error::at(ErrorCode::kIo, o.path, "--texture", "cannot read image file"));
      }
      auto decoded = decode_image_bytes(bytes, o.path);
      if (!decoded) {
        return fail(Error::at(ErrorCode::kParse, o.path, "--texture",
                              "not an image: " + decoded.error().message));
      }
      bool holes = false;
      for (std::size_t a = 3; a < decoded->pixels.size() && !holes; a += 4) {
        holes = decoded->pixels[a] < 255;
      }
      if (holes) with_holes.insert(static_cast<std::int32_t>(images.size()));
      img.name = std::filesystem::path(o.path).stem().string();
      img.mime_type = detail::image_mime(img, bytes);
      img.bytes = std::move(bytes);
      index = static_cast<std::int32_t>(images.size());
      images.push_back(std::move(img));
      image_of_path.emplace(o.path, index);
    }
    for (Material& m : materials) {
      if (!o.material.empty() && m.name != o.material) continue;
      m.base_color_texture = TextureRef{};
      m.base_color_texture.image = index;
      // Games draw skins with an alpha test: Minetest's character.png leaves most of the hat
      // layer around the head transparent, which an opaque material would draw black.
      if (m.alpha_mode == AlphaMode::kOpaque && with_holes.contains(index)) {
        m.alpha_mode = AlphaMode::kMask;
        m.alpha_cutoff = 0.5f;
      }
    }
  }
  // Drop images no material refers to (the file's own skin replaced by the override), so a
  // converted model does not carry them.
  std::vector<std::int32_t> remap(images.size(), -1);
  std::vector<Image> kept;
  const auto keep = [&](TextureRef& t) {
    if (t.image < 0) return;
    auto& slot = remap[static_cast<std::size_t>(t.image)];
    if (slot < 0) {
      slot = static_cast<std::int32_t>(kept.size());
      kept.push_back(images[static_cast<std::size_t>(t.image)]);
    }
    t.image = slot;
  };
  for (Material& m : materials) {
    keep(m.base_color_texture);
    keep(m.normal_texture);
  }
  return replace_materials(model, std::move(materials), std::move(kept));
}

}  // namespace critter::io
