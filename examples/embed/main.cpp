// SPDX-License-Identifier: MIT
// embed MODEL [TIME]: loads MODEL, plays its first clip (or shows the rest pose) to TIME seconds
// (default 0.5), skins its first mesh on the CPU, and prints the last joint's model-space matrix
// and the first skinned vertex.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "critter/anim/instance.h"
#include "critter/anim/player.h"
#include "critter/deform/skin_mesh_part.h"
#include "critter/io/load.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: embed MODEL [TIME]\n");
    return 2;
  }
  const float time = argc > 2 ? std::strtof(argv[2], nullptr) : 0.5f;

  critter::Result<critter::Model> model = critter::io::load(argv[1]);
  if (!model) {
    std::fprintf(stderr, "%s\n", model.error().to_string().c_str());
    return 1;
  }

  // A player is one pose source; the instance turns its local pose into model matrices.
  critter::anim::Player player(*model);
  if (!model->clips().empty()) {
    if (auto played = player.play(0, critter::anim::PlaybackMode::kLoopForward); !played) {
      std::fprintf(stderr, "%s\n", played.error().to_string().c_str());
      return 1;
    }
    player.update(time);
  }
  critter::anim::Instance instance(*model);
  if (auto posed = instance.pose(player.local_pose(), player.weights()); !posed) {
    std::fprintf(stderr, "%s\n", posed.error().to_string().c_str());
    return 1;
  }

  const auto matrices = instance.model_transforms();
  if (matrices.empty()) {
    std::fprintf(stderr, "%s: no joints\n", argv[1]);
    return 1;
  }
  const critter::mat4& m = matrices.back();
  std::printf("joint %zu model matrix:\n", matrices.size() - 1);
  for (int row = 0; row < 4; ++row) {
    std::printf("  %9.4f %9.4f %9.4f %9.4f\n", m[0][row], m[1][row], m[2][row], m[3][row]);
  }

  if (!model->meshes().empty() && !model->meshes()[0].parts.empty()) {
    const std::size_t vertices = model->meshes()[0].parts[0].vertex_count();
    std::vector<critter::vec3> positions(vertices);
    std::size_t joints = 0;  // palette scratch: the largest skin's joint count
    for (const critter::Skin& skin : model->skins()) joints = std::max(joints, skin.joints.size());
    std::vector<critter::mat4> palette(joints);
    if (auto skinned =
            critter::deform::skin_mesh_part(*model, 0, 0, matrices, {}, palette, positions);
        !skinned) {
      std::fprintf(stderr, "%s\n", skinned.error().to_string().c_str());
      return 1;
    }
    if (!positions.empty()) {
      std::printf("first vertex: %.4f %.4f %.4f (%zu vertices skinned)\n", positions[0].x,
                  positions[0].y, positions[0].z, vertices);
    }
  }
  return 0;
}
