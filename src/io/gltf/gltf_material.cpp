// SPDX-License-Identifier: MIT
#include <filesystem>

#include "io/gltf/gltf_document.h"

namespace critter::io::gltf {

Status Document::read_images(const Obj& root) {
  GLTF_TRY(list, root.opt_array("images"));
  if (!list) return {};
  raw_.images.reserve(array_size(*list));
  const Ptr list_ptr("images");
  std::size_t i = 0;
  for (dom::element e : *list) {
    GLTF_TRY(o, as_object(e, Ptr(list_ptr, i++), src_));
    Image image;
    GLTF_TRY(name, o.opt_string("name"));
    GLTF_TRY(mime, o.opt_string("mimeType"));
    GLTF_TRY(uri, o.opt_string("uri"));
    GLTF_TRY(view, o.opt_index("bufferView", data_.view_count(), "buffer view"));
    image.name = name;
    image.mime_type = mime;
    if (view >= 0) {
      const auto bytes = data_.view_bytes(static_cast<std::uint32_t>(view));
      GLTF_CHECK(data_.charge(bytes.size(), o.at("bufferView")));
      image.bytes.assign(bytes.begin(), bytes.end());
    } else if (o.has("uri")) {
      const Ptr where = o.at("uri");
      GLTF_TRY(data_uri, parse_data_uri(uri, where, src_));
      if (data_uri) {
        GLTF_TRY(size, base64_decoded_size(data_uri->base64, where, src_));
        image.bytes.resize(size);
        GLTF_CHECK(base64_decode(data_uri->base64, image.bytes.data(), where, src_));
        if (image.mime_type.empty()) image.mime_type = data_uri->mime_type;
      } else {
        image.uri = uri;
        auto path = resolve_uri(uri, base_dir_, options_.allow_outside_uris, where, src_);
        if (!path && path.error().code == ErrorCode::kUnsupported) {
          // A texture on the web does not make the model unusable.
          src_.warn(where, path.error().message + "; image left out");
          image.missing = true;
        } else if (!path) {
          return std::unexpected(std::move(path.error()));
        } else {
          std::error_code ec;
          image.missing = !std::filesystem::is_regular_file(*path, ec);
          if (image.missing) src_.warn(where, "image file '" + *path + "' not found");
          image.resolved_path = std::move(*path);
        }
      }
    } else {
      return src_.fail(ErrorCode::kInvalid, o.where, "image has neither uri nor bufferView");
    }
    raw_.images.push_back(std::move(image));
  }
  return {};
}

Status Document::read_samplers(const Obj& root) {
  GLTF_TRY(list, root.opt_array("samplers"));
  if (!list) return {};
  const Ptr list_ptr("samplers");
  std::size_t i = 0;
  for (dom::element e : *list) {
    GLTF_TRY(o, as_object(e, Ptr(list_ptr, i++), src_));
    SamplerState s;
    constexpr std::uint64_t kMax = 0x7FFFFFFF;
    GLTF_TRY(mag, o.opt_uint("magFilter", 0, kMax));
    GLTF_TRY(min, o.opt_uint("minFilter", 0, kMax));
    GLTF_TRY(wrap_s, o.opt_uint("wrapS", 10497, kMax));
    GLTF_TRY(wrap_t, o.opt_uint("wrapT", 10497, kMax));
    s.mag = static_cast<std::int32_t>(mag);
    s.min = static_cast<std::int32_t>(min);
    s.wrap_s = static_cast<std::int32_t>(wrap_s);
    s.wrap_t = static_cast<std::int32_t>(wrap_t);
    samplers_.push_back(s);
  }
  return {};
}

Status Document::read_textures(const Obj& root) {
  GLTF_TRY(list, root.opt_array("textures"));
  if (!list) return {};
  const Ptr list_ptr("textures");
  std::size_t i = 0;
  for (dom::element e : *list) {
    GLTF_TRY(o, as_object(e, Ptr(list_ptr, i++), src_));
    TextureSlot t;
    GLTF_TRY(source, o.opt_index("source", raw_.images.size(), "image"));
    GLTF_TRY(sampler, o.opt_index("sampler", samplers_.size(), "sampler"));
    t.image = source;
    t.sampler = sampler;
    // Image-format extensions (KHR_texture_basisu, EXT_texture_webp, ...) name their own source.
    GLTF_TRY(ext, o.opt_object("extensions"));
    if (t.image < 0 && ext) {
      for (dom::key_value_pair kv : ext->o) {
        GLTF_TRY(x, as_object(kv.value, ext->at(kv.key), src_));
        GLTF_TRY(alt, x.opt_index("source", raw_.images.size(), "image"));
        if (alt >= 0) {
          t.image = alt;
          break;
        }
      }
    }
    textures_.push_back(t);
  }
  return {};
}

Result<TextureRef> Document::read_texture_info(const Obj& info) {
  TextureRef ref;
  GLTF_TRY(index, info.req_index("index", textures_.size(), "texture"));
  GLTF_TRY(texcoord, info.opt_uint("texCoord", 0, 0x7FFFFFFF));
  const TextureSlot& slot = textures_[index];
  ref.image = slot.image;
  ref.texcoord = static_cast<std::int32_t>(texcoord);
  if (slot.sampler >= 0) {
    const SamplerState& s = samplers_[static_cast<std::size_t>(slot.sampler)];
    ref.wrap_s = s.wrap_s;
    ref.wrap_t = s.wrap_t;
    ref.mag_filter = s.mag;
    ref.min_filter = s.min;
  }
  GLTF_TRY(ext, info.opt_object("extensions"));
  if (ext) {
    GLTF_TRY(tt, ext->opt_object("KHR_texture_transform"));
    if (tt) {
      ref.has_transform = true;
      float offset[2] = {0.0f, 0.0f};
      float scale[2] = {1.0f, 1.0f};
      GLTF_CHECK(tt->opt_floats("offset", offset, 2));
      GLTF_CHECK(tt->opt_floats("scale", scale, 2));
      GLTF_TRY(rotation, tt->opt_float("rotation", 0.0f));
      GLTF_TRY(tc, tt->opt_uint("texCoord", texcoord, 0x7FFFFFFF));
      ref.offset = vec2(offset[0], offset[1]);
      ref.scale = vec2(scale[0], scale[1]);
      ref.rotation = rotation;
      ref.texcoord = static_cast<std::int32_t>(tc);
    }
  }
  return ref;
}

Status Document::read_materials(const Obj& root) {
  GLTF_TRY(list, root.opt_array("materials"));
  if (!list) return {};
  raw_.materials.reserve(array_size(*list));
  const Ptr list_ptr("materials");
  std::size_t i = 0;
  for (dom::element e : *list) {
    GLTF_TRY(o, as_object(e, Ptr(list_ptr, i++), src_));
    Material mat;
    GLTF_TRY(name, o.opt_string("name"));
    mat.name = name;
    GLTF_TRY(pbr, o.opt_object("pbrMetallicRoughness"));
    if (pbr) {
      GLTF_CHECK(pbr->opt_floats("baseColorFactor", &mat.base_color_factor[0], 4));
      GLTF_TRY(metallic, pbr->opt_float("metallicFactor", 1.0f));
      GLTF_TRY(roughness, pbr->opt_float("roughnessFactor", 1.0f));
      mat.metallic_factor = metallic;
      mat.roughness_factor = roughness;
      GLTF_TRY(base, pbr->opt_object("baseColorTexture"));
      if (base) {
        GLTF_TRY(ref, read_texture_info(*base));
        mat.base_color_texture = ref;
      }
    }
    GLTF_TRY(normal, o.opt_object("normalTexture"));
    if (normal) {
      GLTF_TRY(ref, read_texture_info(*normal));
      mat.normal_texture = ref;
    }
    GLTF_CHECK(o.opt_floats("emissiveFactor", &mat.emissive_factor[0], 3));
    GLTF_TRY(alpha_mode, o.opt_string("alphaMode"));
    if (alpha_mode == "MASK") {
      mat.alpha_mode = AlphaMode::kMask;
    } else if (alpha_mode == "BLEND") {
      mat.alpha_mode = AlphaMode::kBlend;
    } else if (!(alpha_mode == "OPAQUE" || (alpha_mode.empty() && !o.has("alphaMode")))) {
      return src_.fail(ErrorCode::kInvalid, o.at("alphaMode"),
                       "alphaMode '" + std::string(alpha_mode) + "' is not OPAQUE, MASK or BLEND");
    }
    GLTF_TRY(cutoff, o.opt_float("alphaCutoff", 0.5f));
    GLTF_TRY(double_sided, o.opt_bool("doubleSided", false));
    mat.alpha_cutoff = cutoff;
    mat.double_sided = double_sided;
    GLTF_TRY(ext, o.opt_object("extensions"));
    mat.unlit = ext && ext->has("KHR_materials_unlit");
    raw_.materials.push_back(std::move(mat));
  }
  return {};
}

}  // namespace critter::io::gltf
