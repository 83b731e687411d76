// The viewer application: a GLFW window with Dear ImGui over critter's renderer (Survivalcraft's
// ModelWidget as an app). It opens a model (command line or drag-and-drop), orbits, zooms and
// pans the camera, switches projection, auto-rotates, drives the Player (clip list, the seven
// playback modes, timeline scrub, rate, crossfade), pins morph weights, draws bones and their
// names, toggles render modes, wireframe and CPU/GPU skinning, and shows the frame rate. With
// `frames` > 0 it draws that many frames, optionally writes a screenshot, and exits (tests run it
// under Xvfb).
#pragma once

#include <string>

namespace critter::viewer {

struct ViewerOptions {
  std::string model;  // file to open at start; empty: open one by drag-and-drop
  int width = 1280;   // window size in screen units
  int height = 720;
  int frames = 0;          // > 0: draw this many frames, then exit
  std::string screenshot;  // PNG written after the last frame (requires frames > 0)
  bool hide_ui = false;    // no ImGui panels (screenshots of the model alone)
  std::string clip;        // clip to play at start: name or index; empty: the first clip
  int mode = 4;            // playback mode 0..6 (default LoopForward)
  float rate = 1.0f;
  bool orthographic = false;
  bool cpu_skinning = false;
  bool wireframe = false;
  bool bones = false;
  float auto_rotate = 0.0f;  // degrees per second, 0: off
  float fixed_dt = 0.0f;     // > 0: advance animation by this many seconds per frame
};

// Runs the viewer; returns the process exit code (0 on success, 1 when the window, the renderer
// or the start-up model could not be created, or the screenshot could not be written).
int run_viewer(const ViewerOptions& options);

}  // namespace critter::viewer
