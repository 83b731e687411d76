// SPDX-License-Identifier: MIT
// Import through Assimp: Collada (.dae), Blitz3D (.b3d), Wavefront OBJ (+ .mtl) and every other
// format Assimp reads (FBX, DirectX .x, .md5mesh, .iqm, .3ds, .ply, .stl, ...). Every format lands
// in the same RawModel -> build_model() path as glTF, so nothing downstream knows where a model
// came from.
//
// Mapping onto RawModel:
// - Skeleton: every aiNode is a joint (depth-first, parents first; source_index = that order),
//   named after the node ("node_<i>" when unnamed); rest = the node's decomposed transformation
//   (shear dropped, see Transform::from_matrix).
// - Meshes: every (node, aiMesh) pair is one Mesh with one MeshPart, hanging from the node's joint
//   (a mesh several nodes use is duplicated per node). Polygons are triangulated, point/line/
//   triangle primitives split into separate meshes, and vertices equal in every stream (skin
//   weights and morph deltas included, bit for bit) shared. Positions, normals, tangents (w =
//   handedness from the bitangent: -1 when dot(cross(normal, tangent), bitangent) < 0), uv0/uv1
//   with v flipped to glTF's top-left origin (v' = 1 - v), vertex colour set 0. Morph targets
//   (aiAnimMesh) become MorphTargets holding deltas from the base mesh, named after the anim mesh,
//   default weights from aiAnimMesh::mWeight.
// - Skins: a mesh with bones gets a Skin (identical skins are shared): joints = the nodes named
//   by the bones, inverse bind = aiBone::mOffsetMatrix. Per vertex the 4 largest influences are
//   kept and renormalised to sum 1; one warning per mesh whose vertices had more than 4.
// - Materials: base colour factor from the PBR base colour or else the diffuse colour, its alpha
//   times the opacity; opacity < 1 gives AlphaMode::kBlend; base colour texture from the
//   base-colour or else the diffuse slot (UV set and wrap modes kept); two-sided; emissive colour;
//   metallic/roughness when the file has them, else metallic 0 and roughness 1 (a plain diffuse
//   surface); unlit for Assimp's "no shading"/"unlit" models.
// - Images: embedded textures keep their bytes (compressed ones only; raw texel arrays are
//   skipped with a warning). External paths ('\' read as '/', "file://" dropped) resolve against
//   the model's folder; a path that does not exist there is looked up by its file name in the
//   model's folder (warning), else the Image is marked missing (warning). A path leaving the folder
//   is only followed with allow_outside_uris (else looked up by file name as above).
// - Animations: one RawClip per aiAnimation (name, or "animation_<i>"); per channel a T, R and S
//   track for each key list that is not empty (components without keys keep the rest value, as
//   in Irrlicht and glTF); times = ticks / mTicksPerSecond (25 when the file says 0) in seconds;
//   LINEAR (Assimp 5.2 has no per-key interpolation). Morph mesh channels become weights tracks of
//   every morphing Mesh made for the channel's node (or, failing that, of meshes of that name).
//   Keys are sorted by time when a file has them out of order (warning). A key lying past the
//   animation's declared duration is a warning, not an error; the clip's duration covers its keys.
//
// Coordinate conventions: converted once, here, to glTF's (right-handed, +Y up, metres), always
// through Assimp's own handling so that critter poses exactly like Assimp's scene:
// - Collada: Assimp multiplies the root node by the <unit meter> scale and by the <up_axis>
//   rotation to +Y up (Z_UP: x' = x, y' = z, z' = -y); the root node is a joint, so the correction
//   lives in the skeleton's root rest transform and skinned vertices, inverse binds and
//   animation keys stay in the file's own axes below it.
// - Blitz3D: left-handed (+Y up, +Z forward, Irrlicht's convention). Assimp's B3D importer
//   already mirrors the scene along Z (its MakeLeftHanded and FlipWindingOrder steps run inside
//   the importer), so critter applies neither step again: a second mirror would undo it.
//   B3D key frames are one-based (Blitz3D, Irrlicht and Minetest call the first key frame 0);
//   with `b3d_zero_based_frames` keys move one frame earlier so that frame numbers (and
//   ImportOptions::clips ranges) match those engines; a file whose keys start at frame 0 is not
//   moved.
// - OBJ, FBX and the rest: taken as Assimp delivers them (Assimp's scene is right-handed).
// - Textures: Assimp's UV origin is bottom-left, glTF's top-left: v is flipped (above).
//
// Quirks of real files handled here:
// - Assimp's own validation (aiProcess_ValidateDataStructure) is not run: it refuses usable files
//   such as Minetest's character.b3d, whose last key lies one frame past the declared duration.
//   critter checks instead every index and count it uses (mesh, material and vertex indices, key
//   arrays, finite values) and reports a located Error.
// - Assimp 5.2's Collada parser rejects numbers preceded by blanks inside an element ("<color>
//   0.0 0.0 0.0 1.0 </color>", written by Blender's "Better Collada" exporter); the file is
//   handed to Assimp with those leading blanks removed (text content only, a no-op in Collada).
// - Assimp 5.2 merges a Collada file's <animation_clip>s into animations called "combinedAnim_<n>";
//   when their count matches the file's clips, and each lasts no longer than its clip's `end`,
//   they get the clips' names back (document order).
// - A missing OBJ material library (mtllib) or texture is a warning, not an error.
//
// Errors: a file over max_file_bytes is refused before it is read (ErrorCode::kLimit), as is any
// file Assimp opens beside it (an .mtl, an .md5anim); a file that cannot be read is kIo; a file
// Assimp cannot parse is ErrorCode::kParse with Assimp's message (location "" unless Assimp names
// one), a format no importer reads is kUnsupported; inconsistent data is kInvalid or kOutOfRange
// naming the element ("/meshes/3/faces/7").
#pragma once

#include <string_view>

#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"
#include "critter/io/clip_ranges.h"
#include "critter/io/load_options.h"

namespace critter::io {

// LoadOptions (file size limit, outside-folder rule) plus Assimp-specific choices. `clips` (from
// LoadOptions) cuts the file's first animation into named clips with split_clip(), frames at the
// animation's ticks per second (B3D: the file's fps; frames zero-based, see above); the first
// animation is replaced by the cut clips, other animations are kept. A non-zero `clips_fps` plays
// the cut clips at that rate (scale_clip_time): same frames, n frames lasting n / clips_fps s.
// Ranges given for a file without animation are an ErrorCode::kUsage error.
struct ImportOptions : LoadOptions {
  // B3D key frame 1 becomes frame 0 (Irrlicht/Minetest numbering). Off: times = frame / fps.
  bool b3d_zero_based_frames = true;

  // The import options that carry `options` (every LoadOptions field) and the defaults above.
  static ImportOptions from(const LoadOptions& options) {
    ImportOptions out;
    static_cast<LoadOptions&>(out) = options;
    return out;
  }
};

// True for the extensions io::load hands to Assimp (lower or upper case): dae zae b3d obj fbx x
// md5mesh iqm smd ms3d 3ds ply stl blend lwo lws ac ase cob off x3d md2 md3 mdl irrmesh ogex 3mf
// amf bvh. glTF stays with critter's own reader.
bool is_assimp_extension(std::string_view path);

// Imports a file into a RawModel (format: "collada", "b3d", "obj", "fbx", or the lower-case
// extension; name: the file name without extension; source_path: `path`).
Result<RawModel> import_assimp_raw(std::string_view path, const ImportOptions& options = {},
                                   Diagnostics* diag = nullptr);

// import_assimp_raw() followed by build_model().
Result<Model> import_assimp(std::string_view path, const ImportOptions& options = {},
                            Diagnostics* diag = nullptr);

}  // namespace critter::io
