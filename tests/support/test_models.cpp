#include "test_models.h"

#include <utility>

namespace critter::testing {

std::vector<RawJoint> two_joint_rig() {
  RawJoint root;
  root.name = "root";
  RawJoint child;
  child.name = "child";
  child.parent = 0;
  child.rest.translation = vec3(0, 1, 0);
  return {root, child};
}

Mesh morph_triangle(std::string name, std::vector<float> default_weights) {
  Mesh mesh;
  mesh.name = std::move(name);
  MeshPart part;
  part.streams.positions = {vec3(0, 0, 0), vec3(1, 0, 0), vec3(0, 1, 0)};
  for (std::size_t t = 0; t < default_weights.size(); ++t) {
    MorphTarget target;
    target.positions = {vec3(0, 0, 1), vec3(0, 0, 1), vec3(0, 0, 1)};
    part.morphs.targets.push_back(target);
  }
  mesh.parts.push_back(std::move(part));
  mesh.default_weights = std::move(default_weights);
  return mesh;
}

}  // namespace critter::testing
