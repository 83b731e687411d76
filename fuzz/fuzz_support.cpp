// SPDX-License-Identifier: MIT
#include "fuzz_support.h"

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "critter/core/math.h"

namespace critter::fuzz {

namespace fs = std::filesystem;

const std::string& scratch_dir() {
  // One folder per process: several fuzzing jobs (or -fork workers) may run side by side.
  static const std::string dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    fs::path p = fs::path(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") /
                 ("critter_fuzz_" + std::to_string(::getpid()));
    std::error_code ec;
    fs::create_directories(p, ec);
    return ec ? std::string() : p.string();
  }();
  return dir;
}

bool write_bytes(const std::string& path, const std::uint8_t* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return false;
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return static_cast<bool>(out);
}

void check_error(const Error& error, std::string_view stage) {
  if (error.path.empty()) fail(stage, "error without a path: " + error.to_string());
  if (error.message.empty()) fail(stage, "error without a message: " + error.to_string());
}

void check_model(const Model& model, std::string_view stage) {
  const Skeleton& skeleton = model.skeleton();
  for (const Transform& t : skeleton.rest_pose()) {
    if (!all_finite(t.translation) || !all_finite(t.rotation) || !all_finite(t.scale))
      fail(stage, "rest pose not finite");
    const float len = glm::length(t.rotation);
    if (!(std::abs(len - 1.0f) < 1e-3f)) fail(stage, "rest rotation not normalised");
  }
  for (const Skin& skin : model.skins())
    for (const mat4& m : skin.inverse_bind)
      if (!all_finite(m)) fail(stage, "inverse bind matrix not finite");
  for (const Mesh& mesh : model.meshes())
    for (const MeshPart& part : mesh.parts)
      for (std::uint32_t i : part.indices)
        if (i >= part.vertex_count()) fail(stage, "index past the vertices");
}

}  // namespace critter::fuzz
