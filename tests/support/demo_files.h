// SPDX-License-Identifier: MIT
// The demo creatures (asset/demo_creature.h) written as model files, for tests that run the CLI
// on them. Header-only so that only programs that link the io module use it.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "critter/asset/demo_creature.h"
#include "critter/io/gltf/gltf_writer.h"

namespace critter::testing {

// Writes the demo quadruped as `dir`/quadruped.glb and returns that path; empty, with the test
// failed, when it could not be built or written.
inline std::string write_demo_quadruped(const std::filesystem::path& dir) {
  Result<Model> model = build_demo_quadruped();
  EXPECT_TRUE(model) << model.error().to_string();
  if (!model) return {};
  const std::string path = (dir / "quadruped.glb").string();
  const auto written = io::write_gltf(*model, path);
  EXPECT_TRUE(written) << written.error().to_string();
  if (!written) return {};
  return path;
}

}  // namespace critter::testing
