// SPDX-License-Identifier: MIT
#include "support/glb_builder.h"

#include <cstring>

namespace critter::testing {

namespace {

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

}  // namespace

GltfBuilder::GltfBuilder() {
  doc_ = nlohmann::json::object();
  doc_["asset"] = {{"version", "2.0"}};
}

std::size_t GltfBuilder::components(std::string_view type) {
  if (type == "SCALAR") return 1;
  if (type == "VEC2") return 2;
  if (type == "VEC3") return 3;
  if (type == "VEC4" || type == "MAT2") return 4;
  if (type == "MAT3") return 9;
  if (type == "MAT4") return 16;
  throw std::invalid_argument("unknown accessor type");
}

int GltfBuilder::add_view(const void* data, std::size_t size, int stride) {
  while (bin_.size() % 4 != 0) bin_.push_back(0);
  const std::size_t offset = bin_.size();
  bin_.resize(offset + size);
  if (size != 0) std::memcpy(bin_.data() + offset, data, size);
  nlohmann::json view = {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", size}};
  if (stride != 0) view["byteStride"] = stride;
  doc_["bufferViews"].push_back(view);
  return static_cast<int>(doc_["bufferViews"].size()) - 1;
}

int GltfBuilder::add_accessor(int view, int component_type, std::string_view type,
                              std::size_t count, bool normalized, std::size_t byte_offset) {
  nlohmann::json a = {{"componentType", component_type}, {"type", type}, {"count", count}};
  if (view >= 0) a["bufferView"] = view;
  if (byte_offset != 0) a["byteOffset"] = byte_offset;
  if (normalized) a["normalized"] = true;
  doc_["accessors"].push_back(a);
  return static_cast<int>(doc_["accessors"].size()) - 1;
}

int GltfBuilder::add_node(std::string_view name, int mesh) {
  nlohmann::json n = {{"name", name}};
  if (mesh >= 0) n["mesh"] = mesh;
  doc_["nodes"].push_back(n);
  return static_cast<int>(doc_["nodes"].size()) - 1;
}

int GltfBuilder::add_mesh(std::string_view name, int positions, int indices) {
  nlohmann::json prim = {{"attributes", {{"POSITION", positions}}}};
  if (indices >= 0) prim["indices"] = indices;
  doc_["meshes"].push_back({{"name", name}, {"primitives", nlohmann::json::array({prim})}});
  return static_cast<int>(doc_["meshes"].size()) - 1;
}

nlohmann::json GltfBuilder::with_buffer0(const nlohmann::json* uri) const {
  nlohmann::json doc = doc_;
  if (bin_.empty() && !doc.contains("buffers")) return doc;
  nlohmann::json b = {{"byteLength", bin_.size()}};
  if (uri) b["uri"] = *uri;
  if (!doc.contains("buffers")) doc["buffers"] = nlohmann::json::array();
  if (doc["buffers"].empty()) {
    doc["buffers"].push_back(b);
  } else {
    doc["buffers"][0] = b;
  }
  return doc;
}

std::vector<std::uint8_t> GltfBuilder::glb() const {
  return make_glb(with_buffer0(nullptr).dump(), bin_, !bin_.empty());
}

std::string GltfBuilder::gltf_embedded() const {
  const nlohmann::json uri = "data:application/octet-stream;base64," + base64_encode(bin_);
  return with_buffer0(&uri).dump();
}

std::string GltfBuilder::gltf_external(std::string_view bin_uri) const {
  const nlohmann::json uri = std::string(bin_uri);
  return with_buffer0(&uri).dump();
}

std::vector<std::uint8_t> make_glb(std::string_view json, std::span<const std::uint8_t> bin,
                                   bool with_bin) {
  std::string text(json);
  while (text.size() % 4 != 0) text.push_back(' ');
  std::vector<std::uint8_t> padded(bin.begin(), bin.end());
  while (padded.size() % 4 != 0) padded.push_back(0);
  const std::size_t total = 12 + 8 + text.size() + (with_bin ? 8 + padded.size() : 0);
  std::vector<std::uint8_t> out;
  out.reserve(total);
  put_u32(out, 0x46546C67);
  put_u32(out, 2);
  put_u32(out, static_cast<std::uint32_t>(total));
  put_u32(out, static_cast<std::uint32_t>(text.size()));
  put_u32(out, 0x4E4F534A);
  out.insert(out.end(), text.begin(), text.end());
  if (with_bin) {
    put_u32(out, static_cast<std::uint32_t>(padded.size()));
    put_u32(out, 0x004E4942);
    out.insert(out.end(), padded.begin(), padded.end());
  }
  return out;
}

std::string base64_encode(std::span<const std::uint8_t> bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t v =
        (std::uint32_t{bytes[i]} << 16) | (std::uint32_t{bytes[i + 1]} << 8) | bytes[i + 2];
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (bytes.size() - i == 1) {
    const std::uint32_t v = std::uint32_t{bytes[i]} << 16;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += "==";
  } else if (bytes.size() - i == 2) {
    const std::uint32_t v = (std::uint32_t{bytes[i]} << 16) | (std::uint32_t{bytes[i + 1]} << 8);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += '=';
  }
  return out;
}

std::span<const std::uint8_t> as_bytes(std::string_view text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

}  // namespace critter::testing
