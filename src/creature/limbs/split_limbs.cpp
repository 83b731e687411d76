// SPDX-License-Identifier: MIT
#include "critter/creature/limbs/split_limbs.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <unordered_map>

#include "critter/core/strings.h"
#include "limb_box.h"

namespace critter::creature {

namespace {

// §11 constants, in model units.
constexpr float kOnCut = 1e-3f;         // a vertex this close to its cut lies on the seam
constexpr float kNear = 0.3f;           // a box whose middle is this near the limb cut is cut there
constexpr float kSliver = 0.3f;         // a box reaching less than this past the cut is not cut
constexpr float kRigidWeight = 0.999f;  // split's rigid test: first weight strictly above this

// A part's vertex streams grow by one interpolated vertex per cut edge.
class PartCutter {
 public:
  PartCutter(MeshPart& part, const Skin& skin, const Limb& limb, const glm::mat3& frame,
             std::span<const mat4> globals)
      : part_(part), s_(part.streams), skin_(skin), limb_(limb) {
    const std::size_t n = s_.positions.size();
    frame4_ = mat4(frame);
    on_limb_.assign(n, false);
    y_.assign(n, 0.0f);
    limb_pos_.assign(n, vec3(0.0f));
    for (std::size_t v = 0; v < n; ++v) {
      if (!(s_.weights[v].x > kRigidWeight)) continue;
      const std::size_t slot = s_.joints[v].x;
      if (slot >= skin_.joints.size() || skin_.joints[slot] != limb_.joint) continue;
      const vec3 p = vec3(frame4_ * globals[static_cast<std::size_t>(limb_.joint)] *
                          skin_.inverse_bind[slot] * vec4(s_.positions[v], 1.0f));
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) continue;
      on_limb_[v] = true;
      limb_pos_[v] = p;
      y_[v] = p.y;
      any_ = true;
    }
    globals_ = globals;
  }

  bool any() const { return any_; }

  void run(std::uint16_t lower_slot, std::uint16_t seam_slot) {
    std::vector<std::uint32_t>& idx = part_.indices;
    if (idx.empty()) {
      idx.resize(s_.positions.size());
      for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<std::uint32_t>(i);
    }
    assign_cuts(idx);

    std::vector<std::uint32_t> out;
    out.reserve(idx.size() + idx.size() / 2);
    for (std::size_t t = 0; t + 2 < idx.size(); t += 3) {
      const std::uint32_t tri[3] = {idx[t], idx[t + 1], idx[t + 2]};
      bool all_on = true, pos = false, neg = false;
      for (std::uint32_t v : tri) {
        all_on = all_on && on_limb_[v];
        const int sd = side(v);
        pos = pos || sd > 0;
        neg = neg || sd < 0;
      }
      if (!(all_on && pos && neg)) {
        out.insert(out.end(), tri, tri + 3);
        continue;
      }
      std::uint32_t above[4], below[4];
      int na = 0, nb = 0;
      for (int k = 0; k < 3; ++k) {
        const std::uint32_t a = tri[k], b = tri[(k + 1) % 3];
        const int sa = side(a), sb = side(b);
        if (sa >= 0) above[na++] = a;
        if (sa <= 0) below[nb++] = a;
        if ((sa > 0 && sb < 0) || (sa < 0 && sb > 0)) {
          const std::uint32_t c = cut_vertex(a, b);
          above[na++] = c;
          below[nb++] = c;
        }
      }
      fan(above, na, out);
      fan(below, nb, out);
    }
    idx = std::move(out);

    for (std::size_t v = 0; v < on_limb_.size(); ++v) {
      if (!on_limb_[v]) continue;
      const int sd = side(static_cast<std::uint32_t>(v));
      if (sd > 0) continue;
      s_.joints[v] = glm::u16vec4(sd < 0 ? lower_slot : seam_slot, 0, 0, 0);
      s_.weights[v] = vec4(1.0f, 0.0f, 0.0f, 0.0f);
    }
  }

 private:
  // §11 step 2: each box's vertices take the middle of the box's side triangles, the first one
  // assigned wins; the rest keep the limb's cut.
  void assign_cuts(const std::vector<std::uint32_t>& idx) {
    const float cut_y = limb_.cut_y;
    cut_.assign(s_.positions.size(), cut_y);
    std::vector<bool> assigned(s_.positions.size(), false);
    for (std::size_t t = 0; t + 2 < idx.size(); t += 3) {
      const std::uint32_t a = idx[t], b = idx[t + 1], c = idx[t + 2];
      if (!on_limb_[a] || !on_limb_[b] || !on_limb_[c]) continue;
      const float lo = std::min({y_[a], y_[b], y_[c]});
      const float hi = std::max({y_[a], y_[b], y_[c]});
      if (!(lo < cut_y - kOnCut && hi > cut_y + kOnCut)) continue;
      const float mid = 0.5f * (lo + hi);
      float own = std::abs(mid - cut_y) < kNear ? mid : cut_y;
      if (hi - cut_y < kSliver)
        own = hi + 1.0f;
      else if (cut_y - lo < kSliver)
        own = lo - 1.0f;
      for (std::uint32_t v : {a, b, c})
        if (!assigned[v]) {
          assigned[v] = true;
          cut_[v] = own;
        }
    }
  }

  int side(std::uint32_t v) const {
    if (y_[v] > cut_[v] + kOnCut) return 1;
    if (y_[v] < cut_[v] - kOnCut) return -1;
    return 0;
  }

  static void fan(const std::uint32_t* poly, int n, std::vector<std::uint32_t>& out) {
    for (int i = 1; i + 1 < n; ++i) {
      out.push_back(poly[0]);
      out.push_back(poly[i]);
      out.push_back(poly[i + 1]);
    }
  }

  // §11 step 4: one vertex per undirected edge, at the cut of the edge's lower-numbered vertex.
  std::uint32_t cut_vertex(std::uint32_t v0, std::uint32_t v1) {
    const std::uint32_t a = std::min(v0, v1), b = std::max(v0, v1);
    const std::uint64_t key = (std::uint64_t{a} << 32) | b;
    if (auto it = edges_.find(key); it != edges_.end()) return it->second;

    const float c = cut_[a];
    const float dy = y_[b] - y_[a];
    float t = dy != 0.0f ? (c - y_[a]) / dy : 0.5f;
    const bool inside = t >= 0.0f && t <= 1.0f;
    t = std::clamp(t, 0.0f, 1.0f);
    vec3 lp = glm::mix(limb_pos_[a], limb_pos_[b], t);
    if (inside) lp.y = c;

    const std::size_t slot = s_.joints[a].x;
    const mat4 to_limb =
        frame4_ * globals_[static_cast<std::size_t>(limb_.joint)] * skin_.inverse_bind[slot];
    const vec3 mesh_pos = vec3(glm::inverse(to_limb) * vec4(lp, 1.0f));

    const auto v = static_cast<std::uint32_t>(s_.positions.size());
    s_.positions.push_back(mesh_pos);
    if (!s_.normals.empty()) {
      const vec3 n = glm::mix(s_.normals[a], s_.normals[b], t);
      const float len = glm::length(n);
      s_.normals.push_back(len >= 1e-6f ? n / len : s_.normals[a]);
    }
    if (!s_.tangents.empty()) {
      const vec3 d = glm::mix(vec3(s_.tangents[a]), vec3(s_.tangents[b]), t);
      const float len = glm::length(d);
      s_.tangents.push_back(len >= 1e-6f ? vec4(d / len, s_.tangents[a].w) : s_.tangents[a]);
    }
    if (!s_.uv0.empty()) s_.uv0.push_back(glm::mix(s_.uv0[a], s_.uv0[b], t));
    if (!s_.uv1.empty()) s_.uv1.push_back(glm::mix(s_.uv1[a], s_.uv1[b], t));
    if (!s_.colors.empty()) s_.colors.push_back(glm::mix(s_.colors[a], s_.colors[b], t));
    s_.joints.push_back(glm::u16vec4(static_cast<std::uint16_t>(slot), 0, 0, 0));
    s_.weights.push_back(vec4(1.0f, 0.0f, 0.0f, 0.0f));
    for (MorphTarget& m : part_.morphs.targets) {
      if (!m.positions.empty()) m.positions.push_back(glm::mix(m.positions[a], m.positions[b], t));
      if (!m.normals.empty()) m.normals.push_back(glm::mix(m.normals[a], m.normals[b], t));
      if (!m.tangents.empty()) m.tangents.push_back(glm::mix(m.tangents[a], m.tangents[b], t));
    }
    on_limb_.push_back(true);
    y_.push_back(lp.y);
    limb_pos_.push_back(lp);
    cut_.push_back(inside ? c : lp.y);
    edges_.emplace(key, v);
    return v;
  }

  MeshPart& part_;
  VertexStreams& s_;
  const Skin& skin_;
  const Limb& limb_;
  mat4 frame4_{1.0f};
  std::span<const mat4> globals_;
  bool any_ = false;
  std::vector<bool> on_limb_;
  std::vector<float> y_;
  std::vector<vec3> limb_pos_;
  std::vector<float> cut_;
  std::unordered_map<std::uint64_t, std::uint32_t> edges_;
};

// The limb joint's rest skin matrices (one per skin slot holding it) must be invertible: the cut
// vertices are placed back into mesh space through them.
bool invertible_skin_matrices(const Model& model, std::span<const mat4> globals, const Limb& limb) {
  for (const Skin& skin : model.skins())
    for (std::size_t slot = 0; slot < skin.joints.size(); ++slot) {
      if (skin.joints[slot] != limb.joint) continue;
      const mat4 m = globals[static_cast<std::size_t>(limb.joint)] * skin.inverse_bind[slot];
      const float det = glm::determinant(glm::mat3(m));
      if (!std::isfinite(det) || std::abs(det) < 1e-12f) return false;
    }
  return true;
}

}  // namespace

Result<LimbSplit> split_limbs(const Model& model, const LimbOptions& options) {
  FoundLimbs found = find_limbs(model, options);
  LimbSplit out;
  out.warnings = std::move(found.warnings);
  const std::string path = detail::model_path(model);
  const std::vector<mat4> globals = detail::rest_globals(model.skeleton());

  std::vector<Limb> limbs;
  for (Limb& limb : found.limbs) {
    if (!invertible_skin_matrices(model, globals, limb)) {
      out.warnings.push_back(Warning{path, "joint " + in_quotes(limb.name),
                                     "the joint's rest skin matrix is not invertible (a "
                                     "zero-scaled bone); this limb is not split"});
      continue;
    }
    limbs.push_back(std::move(limb));
  }
  if (limbs.empty()) {
    auto copy = append_clips(model, {});
    if (!copy) return std::unexpected(std::move(copy.error()));
    out.model = std::move(*copy);
    return out;
  }

  vec3 forward;
  horizontal_forward(options.forward, forward);
  const glm::mat3 frame = limb_frame(forward);
  std::vector<Mesh> meshes(model.meshes().begin(), model.meshes().end());
  std::vector<Skin> skins(model.skins().begin(), model.skins().end());
  std::vector<RawJoint> added;
  int next = model.skeleton().joint_count();
  for (Limb& limb : limbs) {
    limb.bone = next++;
    limb.seam_bone = next++;
    added.push_back(RawJoint{limb.name + std::string(kLimbLowerSuffix), limb.joint, {}, -1});
    added.push_back(RawJoint{limb.name + std::string(kLimbSeamSuffix), limb.joint, {}, -1});
    // Per skin: the slots of the added joints, or -1 where the skin lacks the limb joint.
    std::vector<int> lower_slot(skins.size(), -1);
    for (std::size_t s = 0; s < skins.size(); ++s) {
      Skin& skin = skins[s];
      const auto it = std::find(skin.joints.begin(), skin.joints.end(), limb.joint);
      if (it == skin.joints.end()) continue;
      if (skin.joints.size() + 2 > std::numeric_limits<std::uint16_t>::max() ||
          next > Skeleton::kMaxJoints)
        return fail(Error::at(ErrorCode::kLimit, path, "/skins/" + std::to_string(s),
                              "no room for the limb joints of " + in_quotes(limb.name)));
      const mat4 inverse_bind =
          skin.inverse_bind[static_cast<std::size_t>(it - skin.joints.begin())];
      lower_slot[s] = static_cast<int>(skin.joints.size());
      skin.joints.push_back(static_cast<std::int16_t>(limb.bone));
      skin.joints.push_back(static_cast<std::int16_t>(limb.seam_bone));
      skin.inverse_bind.push_back(inverse_bind);
      skin.inverse_bind.push_back(inverse_bind);
    }
    for (Mesh& mesh : meshes) {
      if (mesh.skin < 0 || lower_slot[static_cast<std::size_t>(mesh.skin)] < 0) continue;
      const Skin& skin = skins[static_cast<std::size_t>(mesh.skin)];
      const auto slot = static_cast<std::uint16_t>(lower_slot[static_cast<std::size_t>(mesh.skin)]);
      for (MeshPart& part : mesh.parts) {
        if (part.topology != Topology::kTriangles || part.streams.joints.empty()) continue;
        PartCutter cutter(part, skin, limb, frame, globals);
        if (cutter.any()) cutter.run(slot, static_cast<std::uint16_t>(slot + 1));
      }
    }
  }

  Diagnostics diag;
  auto built = append_joints(model, std::move(added), std::move(meshes), std::move(skins), &diag);
  if (!built) return std::unexpected(std::move(built.error()));
  for (const Warning& w : diag.items()) out.warnings.push_back(w);
  out.model = std::move(*built);
  out.limbs = std::move(limbs);
  return out;
}

FoundLimbs recover_limbs(const Model& model, const LimbOptions& options) {
  FoundLimbs out;
  const std::string path = detail::model_path(model);
  vec3 forward;
  horizontal_forward(options.forward, forward);
  const glm::mat3 frame = limb_frame(forward);
  const Skeleton& skeleton = model.skeleton();
  const std::vector<mat4> globals = detail::rest_globals(skeleton);
  const auto names = skeleton.names();
  const auto parents = skeleton.parents();
  for (const detail::LimbName& name : detail::kLimbNames) {
    const int joint = detail::last_joint_named(skeleton, name.name);
    if (joint < 0) continue;
    const std::string lower_name = std::string(name.name) + std::string(kLimbLowerSuffix);
    const std::string seam_name = std::string(name.name) + std::string(kLimbSeamSuffix);
    int lower = -1, seam = -1;
    for (std::size_t j = 0; j < names.size(); ++j) {
      if (parents[j] != joint) continue;
      if (names[j] == lower_name) lower = static_cast<int>(j);
      if (names[j] == seam_name) seam = static_cast<int>(j);
    }
    const std::string where = "joint " + in_quotes(name.name);
    if (lower < 0 || seam < 0) {
      out.warnings.push_back(Warning{path, where,
                                     "the joint has no " + in_quotes(lower_name) + " and " +
                                         in_quotes(seam_name) +
                                         " children: the limb was not split"});
      continue;
    }
    const int joints[] = {joint, lower, seam};
    const detail::RigidBox rigid = detail::rigid_box(model, globals, frame, joints);
    if (rigid.vertices == 0) {
      out.warnings.push_back(
          Warning{path, where, "no vertex is bound rigidly to the limb; it is left out"});
      continue;
    }
    Limb limb;
    limb.name = std::string(name.name);
    limb.kind = name.kind;
    limb.side = name.side;
    limb.joint = joint;
    limb.bone = lower;
    limb.seam_bone = seam;
    detail::place_limb(rigid.box, frame, limb);
    out.limbs.push_back(std::move(limb));
  }
  return out;
}

}  // namespace critter::creature
