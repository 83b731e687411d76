// SPDX-License-Identifier: MIT
// critter-viewer: interactive viewer for creature models (see viewer_app.h).
#include <CLI/CLI.hpp>

#include "../common/anim_args.h"
#include "../common/creature_spec.h"
#include "../common/limb_motion.h"
#include "../common/param_arg.h"
#include "critter/io/clip_ranges.h"
#include "critter/io/texture_override.h"
#include "viewer_app.h"

int main(int argc, char** argv) {
  critter::viewer::ViewerOptions o;
  CLI::App app{"critter-viewer " CRITTER_VERSION ": view and play rigged creature models"};
  app.add_option("model", o.model, "Model file to open (or drop one on the window)");
  app.add_option("--width", o.width, "Window width")->check(CLI::Range(64, 16384));
  app.add_option("--height", o.height, "Window height")->check(CLI::Range(64, 16384));
  app.add_option("--frames", o.frames, "Draw this many frames, then exit")
      ->check(CLI::Range(1, 1000000));
  app.add_option("--screenshot", o.screenshot, "Write the last frame to this PNG (with --frames)");
  app.add_flag("--hide-ui", o.hide_ui, "No UI panels");
  app.add_flag("--headless", o.headless,
               "No window: draw the --frames offscreen through EGL (no display needed), e.g. "
               "for a --screenshot");
  app.add_option("--anim", o.anim, "Animation to play: clip name or index (default: the first)");
  app.add_option("--clip", o.anim, "Same as --anim")->group("");
  std::string mode;
  app.add_option("--mode", mode,
                 "Playback mode: none, once_forward, once_backward, once_pingpong, loop_forward "
                 "(default), loop_backward, loop_pingpong, or Defold's number 0..6");
  app.add_option("--clips", o.clips,
                 "Cut a file's single long animation into named frame ranges: "
                 "name:start-end,... (B3D and other frame-based files)");
  app.add_option("--texture", o.textures,
                 "Skin to apply, as a game does: FILE on every material's base colour, or "
                 "MATERIAL=FILE on one material (repeatable; later ones win)")
      ->allow_extra_args(false);
  app.add_flag("--limbs", o.limbs,
               "Cut block limbs (Arm_Right, Arm_Left, Leg_Right, Leg_Left) at the knees and "
               "elbows so they can bend");
  app.add_option("--rate", o.rate, "Playback rate")->check(CLI::NonNegativeNumber);
  app.add_flag("--ortho", o.orthographic, "Orthographic projection");
  app.add_flag("--cpu-skinning", o.cpu_skinning, "Skin on the CPU (reference path)");
  app.add_flag("--wireframe", o.wireframe, "Draw triangle edges only");
  app.add_flag("--bones", o.bones, "Draw the skeleton over the model");
  app.add_option("--auto-rotate", o.auto_rotate, "Turn the camera, degrees per second");
  app.add_option("--dt", o.fixed_dt, "Fixed animation step per frame, seconds")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--config", o.config,
                 "Animation config (.json) driving the model: a creature with a body state and a "
                 "Controller window (parameters, layers, events)");
  app.add_option("--asset-root", o.asset_roots,
                 "Folder searched for the config's extends, template and file: paths (repeatable)");
  app.add_flag("--allow-outside-uris", o.allow_outside_uris,
               "Let the model's files and the config's extends, template and file: paths lead "
               "outside their folders and the asset roots");
  app.add_option("--param", o.params,
                 "Controller parameter NAME=VALUE set once the config loads (repeatable): "
                 "true/false is a bool, a number a float, [x,y] or [x,y,z] a vector, 'text' or any "
                 "other word a string; built-ins of the body (Speed, IsOnGround, Health...) set "
                 "the body state");
  app.add_option(
      "--creature", o.creature.creature,
      "Simulate a legacy creature rig on the model: " + critter::tools::creature_kind_list() +
          "; a Creature window edits its state (60 Hz steps, as critter pose)");
  app.add_option("--species", o.creature.species,
                 "Species preset of the --creature rig (e.g. wolf, horse, cow, camel)");
  app.add_option("--state", o.creature.states,
                 "Creature state NAME=VALUE at start (repeatable; the names of critter pose "
                 "--help, e.g. speed=2, health=0, yaw=90, row=both)");
  app.add_option("--rig-param", o.creature.rig_params,
                 "Rig setting NAME=VALUE overriding the species preset (repeatable)");
  app.add_option("--motion", o.motion,
                 "With --limbs: body motion NAME=VALUE (repeatable; the names of critter pose "
                 "--help, e.g. water=swim, speed=1.5, grounded=false)");
  CLI11_PARSE(app, argc, argv);
  if (!o.motion.empty() && !o.limbs) {
    std::fprintf(stderr,
                 "critter-viewer: --motion sets the body motion of the limb animator; "
                 "add --limbs\n");
    return 2;
  }
  {
    critter::tools::LimbMotion motion;
    for (const std::string& m : o.motion) {
      if (auto s = critter::tools::set_limb_motion(motion, m, "critter-viewer"); !s) {
        std::fprintf(stderr, "critter-viewer: %s\n", s.error().to_string().c_str());
        return 2;
      }
    }
  }
  if (!mode.empty()) {
    o.mode = critter::tools::parse_playback_mode(mode);
    if (o.mode < 0) {
      std::fprintf(stderr, "critter-viewer: %s\n",
                   critter::tools::unknown_playback_mode(o.model, mode).to_string().c_str());
      return 2;
    }
  }
  if (!o.clips.empty()) {
    if (auto ranges = critter::io::parse_clip_ranges(o.clips, "--clips"); !ranges) {
      std::fprintf(stderr, "critter-viewer: %s\n", ranges.error().to_string().c_str());
      return 2;
    }
  }
  for (const std::string& texture : o.textures) {
    if (auto parsed = critter::io::parse_texture_override(texture, "--texture"); !parsed) {
      std::fprintf(stderr, "critter-viewer: %s\n", parsed.error().to_string().c_str());
      return 2;
    }
  }
  const bool creature = !o.creature.creature.empty();
  if (o.creature.any() && !creature) {
    std::fprintf(stderr,
                 "critter-viewer: --species, --state and --rig-param set up a --creature\n");
    return 2;
  }
  if (creature && o.model.empty()) {
    std::fprintf(stderr, "critter-viewer: --creature needs a model\n");
    return 2;
  }
  if (creature && !o.config.empty()) {
    std::fprintf(stderr,
                 "critter-viewer: --creature and --config are two pose sources; give one\n");
    return 2;
  }
  // The kind, the state names and values and the rig settings' syntax before a window opens;
  // the species and setting names are checked against the rig once the model loads.
  if (creature) {
    if (auto spec = critter::tools::parse_creature_flags(o.creature, o.model); !spec) {
      std::fprintf(stderr, "critter-viewer: %s\n", spec.error().to_string().c_str());
      return 2;
    }
  }
  if (!o.config.empty() && o.model.empty()) {
    std::fprintf(stderr, "critter-viewer: --config needs a model\n");
    return 2;
  }
  if (!o.params.empty() && o.config.empty()) {
    std::fprintf(stderr, "critter-viewer: --param needs --config\n");
    return 2;
  }
  // Syntax first, before a window opens; names are checked against the config once it loads.
  for (const std::string& param : o.params) {
    if (auto arg = critter::tools::parse_param_arg(param, o.config); !arg) {
      std::fprintf(stderr, "critter-viewer: %s\n", arg.error().to_string().c_str());
      return 2;
    }
  }
  if (o.headless && o.frames == 0) {
    std::fprintf(stderr, "critter-viewer: --headless needs --frames\n");
    return 2;
  }
  if (!o.screenshot.empty() && o.frames == 0) {
    std::fprintf(stderr, "critter-viewer: --screenshot needs --frames\n");
    return 2;
  }
  return critter::viewer::run_viewer(o);
}
