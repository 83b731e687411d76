// SPDX-License-Identifier: MIT
// The viewer application: a GLFW window with Dear ImGui over critter's renderer (Survivalcraft's
// ModelWidget as an app). It opens a model (command line or drag-and-drop), orbits, zooms and
// pans the camera, switches projection, auto-rotates, drives the Player (clip list, the seven
// playback modes, timeline scrub, rate, crossfade), pins morph weights, draws bones and their
// names, toggles render modes, wireframe and CPU/GPU skinning, and shows the frame rate. With an
// animation config (`config`) the creature is driven by a creature::CreatureModel instead of the
// Player, and a "Controller" window edits its body state and parameters and shows its layers and
// events (controller_panel.h); a .json file dropped on the window is loaded as the config of the
// model shown. With `creature` (--creature KIND) a legacy creature rig simulates the model instead
// (creature_panel.h), and a "Creature" window edits its state and shows what the rig does. With
// `frames` > 0 it draws that many frames, optionally writes a screenshot, and exits (in a window
// under Xvfb, or with `headless` offscreen through EGL).
#pragma once

#include <string>
#include <vector>

#include "../common/creature_spec.h"

namespace critter::viewer {

struct ViewerOptions {
  std::string model;  // file to open at start; empty: open one by drag-and-drop
  int width = 1280;   // window size in screen units
  int height = 720;
  int frames = 0;          // > 0: draw this many frames, then exit
  std::string screenshot;  // PNG written after the last frame (requires frames > 0)
  bool hide_ui = false;    // no ImGui panels (screenshots of the model alone)
  // Draw offscreen through EGL (no window, no display; requires frames > 0): the frames, the
  // panels unless hide_ui, and the screenshot are the same as in a window of width x height.
  bool headless = false;
  // --anim: clip to play at start, name or index (tools::clip_from_arg); empty: the first clip.
  // A name the model lacks makes run_viewer() fail.
  std::string anim;
  int mode = 4;  // playback mode 0..6 (anim::PlaybackMode; default LoopForward)
  // --clips name:start-end,...: frame ranges cutting a file's single long track into clips
  // (io::parse_clip_ranges syntax, checked before run_viewer); empty: the file's own clips.
  std::string clips;
  // --texture FILE|MATERIAL=FILE (repeatable): skins applied to every model opened, as
  // `critter render --texture` (io::parse_texture_override syntax, checked before run_viewer).
  std::vector<std::string> textures;
  float rate = 1.0f;
  // --limbs: block limbs cut at the knees and elbows (tools::with_limbs) in every model opened.
  bool limbs = false;
  bool orthographic = false;
  bool cpu_skinning = false;
  bool wireframe = false;
  bool bones = false;
  float auto_rotate = 0.0f;  // degrees per second, 0: off
  float fixed_dt = 0.0f;     // > 0: advance animation by this many seconds per frame
  // Animation config driving the model (requires `model`); empty: the Player plays clips.
  std::string config;
  std::vector<std::string> asset_roots;  // searched for the config's extends, template, file:
  // --allow-outside-uris: the model's files and the config's paths may leave their folders.
  bool allow_outside_uris = false;
  std::vector<std::string> params;  // NAME=VALUE, set once after the config loads
  // --creature KIND [--species NAME] [--state NAME=VALUE ...] [--rig-param NAME=VALUE ...]: a
  // legacy creature rig drives the model (requires `model`, excludes `config`); creature.creature
  // empty: no creature.
  tools::CreatureFlags creature;
  // --motion NAME=VALUE (tools::set_limb_motion names, checked before run_viewer): with --limbs
  // the limb animator bends the split limbs after the clip with this body motion.
  std::vector<std::string> motion;
};

// Runs the viewer; returns the process exit code (0 on success, 1 when the window (or the
// headless context), the renderer or the start-up model could not be created (no display: the
// message says so), the --anim
// clip is not in the start-up model (the clip names on stderr), the config failed to load (the
// located error on stderr), a --param named no parameter of the config or did not fit its
// parameter, the
// --creature rig found the model without the bones it needs, or the screenshot could not be
// written; 2 when the rig rejects the --species or a --rig-param, or a --texture is malformed (the
// located error on stderr).
int run_viewer(const ViewerOptions& options);

}  // namespace critter::viewer
