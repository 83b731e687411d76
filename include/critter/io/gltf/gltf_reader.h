// SPDX-License-Identifier: MIT
// glTF 2.0 reader: `.gltf` (JSON with external files or base64 `data:` URIs) and `.glb` (binary
// container). Reads the file once, decodes accessors straight into the model's vectors and never
// decodes images. Every problem is an Error naming the file and a JSON pointer
// ("/accessors/7/count") or, for GLB container problems, a byte offset ("byte 12").
//
// Mapping onto RawModel:
// - Every node becomes a joint: source_index = node index, name = node name or "node_<i>", rest =
//   TRS or the decomposed `matrix`, parent from `children`. Nodes outside the default scene are
//   kept as well (scenes only group roots; all scenes share one skeleton).
// - Every (node, mesh) pair becomes a Mesh hanging from that node's joint, with the node's skin
//   (or -1) and source_index = glTF mesh index; a mesh used by several nodes is duplicated, once
//   per node, in node order. Meshes no node uses are not loaded. Each primitive becomes a
//   MeshPart; strips and fans become triangle lists, line strips and loops become line lists.
//   Primitives without POSITION are skipped with a warning.
// - Skins: joints are node (= raw joint) indices; inverse bind matrices are identity when absent.
// - Animations: one RawClip per animation (name or "animation_<i>"); one RawTrack per channel,
//   keys and interpolation as authored, normalized-integer outputs decoded to float. A weights
//   channel targets the Mesh created for its node. Channels without a node or with a path other
//   than translation/rotation/scale/weights are skipped with a warning.
// - Materials: metallic-roughness factors, base colour and normal textures (with sampler state
//   and KHR_texture_transform), emissive factor, alpha mode and cutoff, double-sided,
//   KHR_materials_unlit. Images keep `bytes` (data: URI or buffer view) or `resolved_path`
//   (external file; a missing file is a warning and sets Image::missing).
//
// Accepted: every accessor component type, normalized integers, byteStride, sparse accessors,
// accessors without a buffer view (zeros), KHR_mesh_quantization attributes. Refused: required
// extensions critter does not implement (KHR_draco_mesh_compression, EXT_meshopt_compression,
// any unknown one) with ErrorCode::kUnsupported at "/extensionsRequired/<i>".
//
// External URIs are percent-decoded and resolved against `base_dir`; URIs with a scheme other
// than `data:` are unsupported, and URIs that leave the folder (absolute paths, "..") are refused
// unless LoadOptions::allow_outside_uris, as is a path inside the folder whose symbolic links lead
// out of it (the rule of core/path_confinement.h).
//
// Hostile input is rejected before anything is allocated for it: sizes and counts are checked
// against the bytes that exist, and the decoded output of a file (meshes duplicated per node
// included) may not exceed kDecodeBudgetBase + kDecodeBudgetFactor times the input bytes
// (ErrorCode::kLimit).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"
#include "critter/io/load_options.h"

namespace critter::io {

// Decoded-output budget (bytes): base plus factor times the bytes read (file and buffers).
inline constexpr std::uint64_t kDecodeBudgetBase = std::uint64_t{64} << 20;
inline constexpr std::uint64_t kDecodeBudgetFactor = 32;

// Reads a .gltf or .glb file (chosen by content: GLB starts with "glTF") into a RawModel.
// format is "glb" or "gltf", name is the file name without extension, source_path = `path`.
Result<RawModel> read_gltf_raw(std::string_view path, const LoadOptions& options = {},
                               Diagnostics* diag = nullptr);

// Same from bytes in memory (the caller keeps them alive during the call). `path_for_errors`
// names the source in errors and becomes source_path; external URIs resolve against `base_dir`
// (the current folder when empty).
Result<RawModel> read_gltf_raw_memory(std::span<const std::uint8_t> bytes,
                                      std::string_view path_for_errors, std::string_view base_dir,
                                      const LoadOptions& options = {}, Diagnostics* diag = nullptr);

// read_gltf_raw / read_gltf_raw_memory followed by build_model().
Result<Model> load_gltf(std::string_view path, const LoadOptions& options = {},
                        Diagnostics* diag = nullptr);
Result<Model> load_gltf_memory(std::span<const std::uint8_t> bytes,
                               std::string_view path_for_errors, std::string_view base_dir,
                               const LoadOptions& options = {}, Diagnostics* diag = nullptr);

}  // namespace critter::io
