// SPDX-License-Identifier: MIT
// The glTF document reader: maps one parsed JSON document onto a RawModel. Split over
// gltf_reader.cpp (document, nodes, skins, animations), gltf_mesh.cpp (meshes) and
// gltf_material.cpp (images, textures, materials). Not part of the public API.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "critter/asset/model.h"
#include "io/gltf/gltf_internal.h"

namespace critter::io::gltf {

class Document {
 public:
  Document(const Source& src, std::string_view base_dir, const LoadOptions& options)
      : src_(src), base_dir_(base_dir), options_(options), data_(src) {}

  // Reads the parsed document `root` of `container`; `file_bytes` (the file's size) counts
  // toward the decode budget.
  Result<RawModel> read(dom::element root, const Container& container, std::uint64_t file_bytes);

 private:
  struct SamplerState {
    std::int32_t wrap_s = 10497, wrap_t = 10497, mag = 0, min = 0;
  };
  struct TextureSlot {
    std::int32_t image = -1;
    std::int32_t sampler = -1;
  };

  Status read_asset(const Obj& root);
  Status read_extensions(const Obj& root);
  Status read_images(const Obj& root);
  Status read_samplers(const Obj& root);
  Status read_textures(const Obj& root);
  Status read_materials(const Obj& root);
  Result<TextureRef> read_texture_info(const Obj& info);
  Status read_nodes(const Obj& root);
  Status read_skins(const Obj& root);
  Status read_meshes(const Obj& root);
  Result<Mesh> decode_mesh(std::uint32_t mesh);
  // Fills `part`; false when the primitive is skipped (a warning says why).
  Result<bool> decode_primitive(const Obj& prim, MeshPart& part);
  Status read_animations(const Obj& root);
  Result<RawClip> read_animation(const Obj& anim, std::size_t index);
  Status read_scenes(const Obj& root);

  const Source& src_;
  std::string base_dir_;
  LoadOptions options_;
  Data data_;
  RawModel raw_;
  std::vector<SamplerState> samplers_;
  std::vector<TextureSlot> textures_;
  std::vector<dom::element> mesh_json_;    // the file's meshes
  std::size_t skin_count_ = 0;             // skins in the file
  std::vector<std::int32_t> node_mesh_;    // glTF mesh of each node, -1 for none
  std::vector<std::int32_t> node_skin_;    // skin of each node, -1 for none
  std::vector<std::int32_t> node_output_;  // RawModel mesh created for each node, -1 for none
};

}  // namespace critter::io::gltf
