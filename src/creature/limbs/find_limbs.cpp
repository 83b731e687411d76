// SPDX-License-Identifier: MIT
#include "critter/creature/limbs/find_limbs.h"

#include <cmath>

#include "critter/core/strings.h"
#include "limb_box.h"

namespace critter::creature {

namespace {

// §10 step 4: an upright limb is at least this many times taller than wide or deep.
constexpr float kUprightRatio = 1.5f;

}  // namespace

FoundLimbs find_limbs(const Model& model, const LimbOptions& options) {
  FoundLimbs out;
  const std::string path = detail::model_path(model);
  vec3 forward;
  if (!horizontal_forward(options.forward, forward))
    out.warnings.push_back(Warning{path, "",
                                   "limb forward (" + detail::number(options.forward.x) + ", " +
                                       detail::number(options.forward.y) + ", " +
                                       detail::number(options.forward.z) +
                                       ") has no horizontal direction; using -Z"});
  const glm::mat3 frame = limb_frame(forward);
  const Skeleton& skeleton = model.skeleton();
  const std::vector<mat4> globals = detail::rest_globals(skeleton);

  std::vector<std::string> missing;
  for (const detail::LimbName& name : detail::kLimbNames) {
    const int joint = detail::last_joint_named(skeleton, name.name);
    if (joint < 0) {
      missing.emplace_back(name.name);
      continue;
    }
    const std::string where = "joint " + in_quotes(name.name);
    auto skip = [&](const std::string& why) {
      out.warnings.push_back(Warning{path, where, why + "; this limb is not split"});
    };
    const int joints[] = {joint};
    const detail::RigidBox rigid = detail::rigid_box(model, globals, frame, joints);
    if (rigid.non_finite > 0)
      out.warnings.push_back(Warning{path, where,
                                     std::to_string(rigid.non_finite) +
                                         " vertices rigid on the joint have no finite rest "
                                         "position; left out of the limb"});
    if (rigid.vertices == 0) {
      skip("no vertex is bound rigidly (weight >= 0.999) to the joint");
      continue;
    }
    const Aabb& box = rigid.box;
    const float height = box.max.y - box.min.y;
    const float width = box.max.x - box.min.x;
    const float depth = box.max.z - box.min.z;
    if (!(height > 1e-6f) || !std::isfinite(height)) {
      skip("the limb's vertices have no height (a zero-scaled or flat limb)");
      continue;
    }
    if (height < kUprightRatio * std::max(width, depth)) {
      skip("not an upright limb: height " + detail::number(height) + " < 1.5 x max(width " +
           detail::number(width) + ", depth " + detail::number(depth) + ")");
      continue;
    }
    const float jp = (frame * vec3(globals[static_cast<std::size_t>(joint)][3])).y;
    if (!(std::abs(jp - box.max.y) <= std::abs(jp - box.min.y))) {
      skip("the limb does not hang from its joint: the joint (y " + detail::number(jp) +
           ") is nearer the bottom (y " + detail::number(box.min.y) + ") than the top (y " +
           detail::number(box.max.y) + ")");
      continue;
    }
    Limb limb;
    limb.name = std::string(name.name);
    limb.kind = name.kind;
    limb.side = name.side;
    limb.joint = joint;
    detail::place_limb(box, frame, limb);
    out.limbs.push_back(std::move(limb));
  }
  if (!missing.empty()) {
    std::string list;
    for (std::size_t i = 0; i < missing.size(); ++i)
      list += (i ? ", " : "") + in_quotes(missing[i]);
    out.warnings.push_back(
        Warning{path, "",
                missing.size() == detail::kLimbNames.size()
                    ? "no joint named " + list + ": the model has no block limbs to split"
                    : "no joint named " + list + ": those limbs are not split"});
  }
  return out;
}

}  // namespace critter::creature
