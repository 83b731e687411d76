// SPDX-License-Identifier: MIT
// `critter render FILE --crowd N`: N creatures of the model on a grid, each with its own
// instance and phase offset, drawn as one skinned crowd (creature::Crowd through
// gl::Renderer). Prints the draw calls and
// the time of a frame split into its CPU parts, and writes the last frame as a PNG.
#pragma once

#include <iosfwd>
#include <string>

#include "critter/asset/model.h"

namespace critter::cli {

struct CrowdRender {
  const Model* model = nullptr;  // required
  int clip = -1;                 // clip every creature plays; -1: rest pose
  int count = 1;                 // creatures, >= 1
  int width = 320;
  int height = 240;
  int frames = 5;      // timed frames, each 1/30 s of animation after the previous
  std::string output;  // .png
};

// Returns a process exit code (command.h); errors go to `err` through report().
int render_crowd(const CrowdRender& request, std::ostream& out, std::ostream& err);

}  // namespace critter::cli
