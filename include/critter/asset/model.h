// SPDX-License-Identifier: MIT
// Model: everything loaded from one file, immutable and shareable between threads and between
// thousands of instances (DESIGN.md: runtime assets). Build it from a RawModel with build_model().
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "critter/asset/clip.h"
#include "critter/asset/compact_clip.h"
#include "critter/asset/material.h"
#include "critter/asset/mesh.h"
#include "critter/asset/skeleton.h"
#include "critter/asset/skin.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"

namespace critter {

// Editable model as importers fill it. Joint indices everywhere (Mesh::bone, Skin::joints,
// Skin::skeleton_root, T/R/S tracks) refer to RawSkeleton::joints; the builder remaps them to the
// parents-first order of the built Skeleton.
struct RawModel {
  std::string name;
  std::string format;       // "gltf", "glb", "collada", "b3d", "obj", "insomniac", "code", ...
  std::string source_path;  // the file it came from; empty for models built in code
  RawSkeleton skeleton;
  std::vector<Mesh> meshes;  // bounds are (re)computed by the builder
  std::vector<Skin> skins;
  std::vector<RawClip> clips;
  std::vector<Material> materials;
  std::vector<Image> images;
};

struct ModelParts;

class Model {
 public:
  Model() = default;
  Model(Model&&) noexcept = default;
  Model& operator=(Model&&) noexcept = default;
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  const std::string& name() const { return name_; }
  const std::string& format() const { return format_; }
  const std::string& source_path() const { return source_path_; }

  const Skeleton& skeleton() const { return skeleton_; }
  std::span<const Mesh> meshes() const { return meshes_; }
  std::span<const Skin> skins() const { return skins_; }
  std::span<const Clip> clips() const { return clips_; }
  // Compact forms of the clips (see compact_clip.h): empty, or exactly one per clip, same order.
  // Players and controllers sample these instead of clips() when present.
  std::span<const CompactClip> compact_clips() const { return compact_clips_; }
  std::span<const Material> materials() const { return materials_; }
  std::span<const Image> images() const { return images_; }

  // model_from_joint of every joint in the rest pose.
  std::span<const mat4> rest_model_transforms() const { return rest_model_; }
  // Bounds of all mesh vertices in the rest pose, in model space (skinned meshes skinned with the
  // rest pose; rigid meshes placed by their bone). Empty box for a model without meshes.
  const Aabb& bounds() const { return bounds_; }
  const Sphere& bounding_sphere() const { return sphere_; }

  // Lookup by name: exact match first, then case-insensitive; -1 when none.
  int find_bone(std::string_view name) const { return skeleton_.find(name); }
  int find_mesh(std::string_view name) const;
  int find_clip(std::string_view name) const;

 private:
  friend Result<Model> build_model(RawModel, Diagnostics*);
  friend Result<Model> append_clips(const Model&, std::vector<RawClip>);
  friend Result<Model> replace_materials(const Model&, std::vector<Material>, std::vector<Image>);
  friend Result<Model> append_joints(const Model&, std::vector<RawJoint>, std::vector<Mesh>,
                                     std::vector<Skin>, Diagnostics*);
  friend Result<Model> with_compact_clips(Model, float, std::vector<CompactClipStats>*);
  friend Model assemble_model(ModelParts);
  std::string name_, format_, source_path_;
  Skeleton skeleton_;
  std::vector<Mesh> meshes_;
  std::vector<Skin> skins_;
  std::vector<Clip> clips_;
  std::vector<CompactClip> compact_clips_;
  std::vector<Material> materials_;
  std::vector<Image> images_;
  std::vector<mat4> rest_model_;
  Aabb bounds_;
  Sphere sphere_;
};

// Validates every part of `raw` and builds the Model. The first broken rule is returned as an
// Error naming the element (e.g. "/meshes/2/parts/0: joints stream has 10 entries, expected 12").
// Rules beyond those of build_skeleton and build_clip: every stream of a part is empty or as long
// as positions; indices < vertex count and a whole number of primitives; joint indices < the skin's
// joint count; weights finite and non-negative (renormalised to sum 1, a warning when a vertex has
// no weight); material and image indices valid or -1; morph deltas empty or one per vertex; every
// part of a mesh has the same target count as default_weights; skin joints valid and unique-free
// of bounds; inverse_bind empty (identity) or one per joint, finite. Usable quirks go to `diag`.
Result<Model> build_model(RawModel raw, Diagnostics* diag = nullptr);

// The size of a character, in model units, that relative clip tolerances refer to: the diagonal of
// the rest-pose mesh bounds, or of the rest joint positions when that is larger (a model without
// meshes); 1 when both are empty.
float character_size(const Model& model);

// `model` with a compact form of every clip (build_compact_clip, tolerance = `relative_tolerance`
// * character_size(model), virtual points at 1 % of the size). `stats` (may be null) receives
// one entry per clip. Fails when a clip cannot be compacted (see build_compact_clip) or the
// tolerance is not finite and > 0.
Result<Model> with_compact_clips(Model model, float relative_tolerance,
                                 std::vector<CompactClipStats>* stats = nullptr);

// Every part of a built Model, for readers of files that hold one (the baked format), which
// check each part themselves: assemble_model does no validation. Meshes' bounds, rest model
// transforms (one per joint), bounds and sphere are taken as given; compact_clips is empty or one
// per clip.
struct ModelParts {
  std::string name, format, source_path;
  Skeleton skeleton;
  std::vector<Mesh> meshes;
  std::vector<Skin> skins;
  std::vector<Clip> clips;
  std::vector<CompactClip> compact_clips;
  std::vector<Material> materials;
  std::vector<Image> images;
  std::vector<mat4> rest_model;
  Aabb bounds;
  Sphere sphere;
};
Model assemble_model(ModelParts parts);

// A copy of `model` with `clips` built and appended after its own clips, which keep their
// indices; everything else (skeleton, meshes, skins, materials, images, bounds) is copied. Track
// indices refer to the BUILT model: T/R/S indices are joints of model.skeleton() (no remap) and
// Weights indices are meshes of model.meshes(). build_clip's rules apply; an error names the clip
// by its index in the new model ("/clips/<n>" unless the clip's source_location says otherwise)
// and the model's source_path (or name). The copy has no compact clips. `model` is not changed.
Result<Model> append_clips(const Model& model, std::vector<RawClip> clips);

// A copy of `model` whose materials and images are `materials` and `images` (a skin applied from
// outside the file); everything else is copied. There must be as many materials as before (mesh
// parts keep their material indices) and every texture's image index must be -1 or valid, else a
// kInvalid error at "/materials/<n>". `model` is not changed.
Result<Model> replace_materials(const Model& model, std::vector<Material> materials,
                                std::vector<Image> images);

// A copy of `model` whose skeleton gains `joints` after its own and whose meshes and skins are
// `meshes` and `skins` (a model transform that adds bones, such as the limb split). The model's
// joints keep their indices, so its clips are kept as they are (the new joints have no tracks);
// materials and images are kept too. `joints[i].parent` indexes the new skeleton and must be below
// model.skeleton().joint_count() + i (parents first). Meshes and skins follow build_model's rules
// and report its errors; rest transforms and bounds are recomputed. The model's compact clips are
// kept too (the new joints have no tracks). `model` is not changed.
Result<Model> append_joints(const Model& model, std::vector<RawJoint> joints,
                            std::vector<Mesh> meshes, std::vector<Skin> skins,
                            Diagnostics* diag = nullptr);

}  // namespace critter
