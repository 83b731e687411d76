// SPDX-License-Identifier: MIT
// `critter render FILE --crowd N`: N creatures of the model on a grid, each with its own
// instance and phase offset, drawn as one skinned crowd (creature::Crowd through
// gl::Renderer). Prints the draw calls and the time of a frame split into its CPU parts, and
// writes the last frame as a PNG or, with gif_frames > 0, every frame as an animated GIF.
#pragma once

#include <iosfwd>
#include <string>

#include "critter/asset/model.h"
#include "picture.h"

namespace critter::cli {

struct CrowdRender {
  const Model* model = nullptr;  // required
  int clip = -1;                 // clip every creature plays; -1: rest pose
  int count = 1;                 // creatures, >= 1
  int width = 320;
  int height = 240;
  int frames = 5;      // timed frames of a PNG, each 1/30 s of animation after the previous
  std::string output;  // .png, or .gif with gif_frames > 0
  int gif_frames = 0;  // > 0: an animated GIF of this many frames, each 1/fps s after the last
  float fps = 15.0f;   // GIF frames per second, > 0
  PictureStyle style;  // background and ground grid
};

// Returns a process exit code (command.h); errors go to `err` through report().
int render_crowd(const CrowdRender& request, std::ostream& out, std::ostream& err);

}  // namespace critter::cli
