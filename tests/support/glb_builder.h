// SPDX-License-Identifier: MIT
// Builds tiny glTF 2.0 files in test code: a JSON document (nlohmann::json) plus one binary
// buffer, written out as .glb bytes, as .gltf text with the buffer embedded as a base64 data: URI,
// or as .gltf text pointing at an external .bin. Also raw GLB container assembly for hand-made
// broken files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/files.h"

namespace critter::testing {

// glTF component types.
inline constexpr int kByte = 5120;
inline constexpr int kUnsignedByte = 5121;
inline constexpr int kShort = 5122;
inline constexpr int kUnsignedShort = 5123;
inline constexpr int kUnsignedInt = 5125;
inline constexpr int kFloat = 5126;

class GltfBuilder {
 public:
  // Starts a document with asset.version "2.0" and an empty buffer.
  GltfBuilder();

  // The document; fill nodes, meshes, animations... directly. `buffers` is written by the
  // output functions (buffer 0 holds bin()); set other buffers after buffer 0 yourself.
  nlohmann::json& json() { return doc_; }
  const nlohmann::json& json() const { return doc_; }
  // The binary buffer (buffer 0).
  std::vector<std::uint8_t>& bin() { return bin_; }
  const std::vector<std::uint8_t>& bin() const { return bin_; }

  // Appends `size` bytes (starting on a 4-byte boundary) and a bufferView over them; returns the
  // view index. `stride` 0 leaves byteStride out.
  int add_view(const void* data, std::size_t size, int stride = 0);
  template <class T>
  int add_view(const std::vector<T>& values, int stride = 0) {
    return add_view(values.data(), values.size() * sizeof(T), stride);
  }
  // Adds an accessor over `view` and returns its index.
  int add_accessor(int view, int component_type, std::string_view type, std::size_t count,
                   bool normalized = false, std::size_t byte_offset = 0);
  // A tightly packed view and an accessor over `values` (count = values.size() / components of
  // `type`).
  template <class T>
  int add_data(const std::vector<T>& values, int component_type, std::string_view type,
               bool normalized = false) {
    const int view = add_view(values);
    return add_accessor(view, component_type, type, values.size() / components(type), normalized);
  }
  int add_floats(const std::vector<float>& values, std::string_view type) {
    return add_data(values, kFloat, type);
  }

  // A node with `mesh` (or none when < 0) and a name; returns its index.
  int add_node(std::string_view name, int mesh = -1);
  // A mesh with one triangle primitive over POSITION `positions` (and `indices` when >= 0).
  int add_mesh(std::string_view name, int positions, int indices = -1);

  // Output forms. buffers[0] is set to the BIN chunk, the data: URI or `bin_uri`; when bin() is
  // empty and no other buffer exists, buffers are left out.
  std::vector<std::uint8_t> glb() const;
  std::string gltf_embedded() const;
  std::string gltf_external(std::string_view bin_uri) const;

  static std::size_t components(std::string_view type);

 private:
  nlohmann::json with_buffer0(const nlohmann::json* uri) const;
  nlohmann::json doc_;
  std::vector<std::uint8_t> bin_;
};

// A GLB container around `json` (space-padded) and, when `with_bin`, a BIN chunk (zero-padded).
std::vector<std::uint8_t> make_glb(std::string_view json, std::span<const std::uint8_t> bin,
                                   bool with_bin = true);
std::string base64_encode(std::span<const std::uint8_t> bytes);
std::span<const std::uint8_t> as_bytes(std::string_view text);

}  // namespace critter::testing
