// SPDX-License-Identifier: MIT
// `critter pose FILE [--anim NAME|INDEX] --time T [--time T2 ...] [--mode M] [--json]`: every
// node's local TRS and model-space matrix, and every morphed mesh's weights, at given clip times.
// This is how critter's poses are compared with other implementations: keep the output stable.
// With `--config C.json [--param NAME=VALUE ...]` the pose comes from the config's controller
// simulated to each time instead of from one clip; with `--creature KIND [--state NAME=VALUE ...]`
// from a legacy creature rig simulated the same way. `--timeline FILE.json` changes either's
// values over the simulated time.
#include <algorithm>
#include <charconv>
#include <iostream>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "command.h"
#include "controller_flags.h"
#include "creature_flags.h"
#include "creature_pose.h"
#include "critter/anim/instance.h"
#include "critter/anim/player.h"
#include "critter/anim/pose.h"
#include "critter/core/strings.h"
#include "critter/io/load.h"
#include "describe.h"
#include "limb_pose.h"
#include "limbs_arg.h"
#include "opened_pose.h"

namespace critter::cli {
namespace {

struct PoseOptions {
  std::string file;
  std::string anim;
  std::vector<float> times;
  std::string mode;  // empty: loop_forward
  bool json = false;
  LoadFlags load;
  ControllerFlags controller;
  CreatureFlags creature;
  LimbFlags limbs;
  std::string timeline;
};

// Bones in file order: by source (glTF node) index where the format has one, else bone order;
// bones without one (such as those --limbs adds) after those with one.
std::vector<int> report_order(const Model& model) {
  const auto source = model.skeleton().source_indices();
  std::vector<int> order(source.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const int sa = source[static_cast<std::size_t>(a)], sb = source[static_cast<std::size_t>(b)];
    if (sa < 0 || sb < 0) return sa >= 0 && sb < 0;
    return sa < sb;
  });
  return order;
}

int report_index(const Model& model, int bone) {
  const int source = model.skeleton().source_indices()[static_cast<std::size_t>(bone)];
  return source >= 0 ? source : bone;
}

// `local` is the pose the instance was built from (the player's, or a controller's).
nlohmann::json pose_json(const anim::Instance& inst, std::span<const Transform> local_pose,
                         const std::vector<int>& order, float t) {
  const Model& model = inst.model();
  nlohmann::json nodes = nlohmann::json::array();
  for (int bone : order) {
    const Transform& local = local_pose[static_cast<std::size_t>(bone)];
    const mat4& world = inst.model_transforms()[static_cast<std::size_t>(bone)];
    nlohmann::json m = nlohmann::json::array();
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) m.push_back(json_number(world[c][r]));
    nodes.push_back({
        {"index", report_index(model, bone)},
        {"name", model.skeleton().names()[static_cast<std::size_t>(bone)]},
        {"world", m},
        {"local",
         {{"t", json_vec(local.translation)},
          {"r",
           {json_number(local.rotation.x), json_number(local.rotation.y),
            json_number(local.rotation.z), json_number(local.rotation.w)}},
          {"s", json_vec(local.scale)}}},
    });
  }
  // The instance's weights: the player's, or the controller's that place() gave it.
  const anim::MorphLayout layout = anim::MorphLayout::of(model);
  nlohmann::json morph = nlohmann::json::array();
  for (std::size_t m = 0; m < model.meshes().size(); ++m) {
    const auto w = layout.mesh_weights(inst.morph_weights(), m);
    if (w.empty()) continue;
    nlohmann::json weights = nlohmann::json::array();
    for (float x : w) weights.push_back(json_number(x));
    morph.push_back({{"mesh", model.meshes()[m].name}, {"weights", weights}});
  }
  return {{"t", json_number(t)}, {"nodes", nodes}, {"morph", morph}};
}

// `heading` follows "t = T s" in parentheses: the clip time, or what the controller's layers show.
void pose_text(const anim::Instance& inst, std::span<const Transform> local_pose,
               const std::vector<int>& order, float t, const std::string& heading,
               std::ostream& out) {
  const Model& model = inst.model();
  out << "t = " << format_number(t) << " s (" << heading << ")\n";
  for (int bone : order) {
    const Transform& l = local_pose[static_cast<std::size_t>(bone)];
    const vec3 p(inst.model_transforms()[static_cast<std::size_t>(bone)][3]);
    out << "  [" << report_index(model, bone) << "] "
        << model.skeleton().names()[static_cast<std::size_t>(bone)] << "  t "
        << format_vec(l.translation) << "  r (" << format_number(l.rotation.x) << ", "
        << format_number(l.rotation.y) << ", " << format_number(l.rotation.z) << ", "
        << format_number(l.rotation.w) << ")  s " << format_vec(l.scale) << "  world "
        << format_vec(p) << "\n";
  }
  const anim::MorphLayout layout = anim::MorphLayout::of(model);
  for (std::size_t m = 0; m < model.meshes().size(); ++m) {
    const auto w = layout.mesh_weights(inst.morph_weights(), m);
    if (w.empty()) continue;
    out << "  morph " << model.meshes()[m].name << ":";
    for (float x : w) out << " " << format_number(x);
    out << "\n";
  }
}

// "Base: walk at 0.5 s, weight 1; Head: LookAt" for the layers that show something.
std::string layers_heading(const std::vector<LayerSummary>& layers) {
  std::string text;
  for (const LayerSummary& l : layers) {
    if (!l.active) continue;
    text.append(text.empty() ? "" : "; ").append(l.name).append(": ");
    if (!l.clip.empty()) {
      text.append(l.clip).append(" at ").append(format_number(l.clip_time)).append(" s");
    } else {
      text.append(l.driver.empty() ? "driver" : l.driver);
    }
    if (l.weight < 1.0f) text.append(", weight ").append(format_number(l.weight));
  }
  return text.empty() ? "no active layer: rest pose" : text;
}

nlohmann::json layers_json(const std::vector<LayerSummary>& layers) {
  nlohmann::json out = nlohmann::json::array();
  for (const LayerSummary& l : layers) {
    out.push_back(
        {{"name", l.name},
         {"active", l.active},
         {"weight", json_number(l.weight)},
         {"clip", l.clip.empty() ? nlohmann::json(nullptr) : nlohmann::json(l.clip)},
         {"clip_time", json_number(l.clip_time)},
         {"driver", l.driver.empty() ? nlohmann::json(nullptr) : nlohmann::json(l.driver)}});
  }
  return out;
}

nlohmann::json fired_json(const std::vector<FiredRecord>& fired) {
  nlohmann::json out = nlohmann::json::array();
  for (const FiredRecord& f : fired) {
    out.push_back({{"t", json_number(static_cast<float>(f.time))},
                   {"layer", f.layer},
                   {"kind", f.kind},
                   {"name", f.name},
                   {"data", f.data},
                   {"count", f.count}});
  }
  return out;
}

nlohmann::json creature_json(const CreatureFrameInfo& info) {
  nlohmann::json events = nlohmann::json::array();
  for (const CreatureEvent& e : info.events) {
    events.push_back({{"t", json_number(static_cast<float>(e.t))}, {"name", e.name}});
  }
  return {{"kind", tools::to_string(info.kind)},
          {"gait", info.gait},
          {"phase", json_number(info.phase)},
          {"bob", json_number(info.bob)},
          {"death_phase", json_number(info.death_phase)},
          {"events", events}};
}

nlohmann::json limbs_json(LimbPose& limbs, nlohmann::json& frame) {
  const creature::LimbAnimator& a = limbs.animator();
  nlohmann::json list = nlohmann::json::array();
  for (std::size_t i = 0; i < a.limbs().size(); ++i) {
    const creature::Limb& l = a.limbs()[i];
    const creature::LimbFrame& f = a.limb_frames()[i];
    list.push_back({{"name", l.name},
                    {"kind", creature::to_string(l.kind)},
                    {"side", creature::to_string(l.side)},
                    {"bend", json_number(f.bend)},
                    {"pitch", json_number(f.pitch)},
                    {"spread", json_number(f.spread)},
                    {"end", json_vec(f.end)}});
  }
  nlohmann::json events = nlohmann::json::array();
  for (const creature::StrokeEvent& e : limbs.take_events()) {
    events.push_back({{"t", json_number(e.t)},
                      {"limb", e.hand ? "hand" : "foot"},
                      {"side", creature::to_string(e.side)},
                      {"into", e.into},
                      {"speed", json_number(e.speed)},
                      {"pos", json_vec(e.pos)}});
  }
  frame["limbs"] = list;
  frame["drop"] = json_number(a.drop());
  frame["lean"] = json_number(a.lean());
  frame["bank"] = json_number(a.bank());
  frame["water_pose"] = creature::to_string(a.water_pose());
  // A controller's frame has its fired "events" already; the strokes then get their own key.
  frame[frame.contains("events") ? "stroke_events" : "events"] = events;
  return frame;
}

void limbs_text(LimbPose& limbs, std::ostream& out) {
  const creature::LimbAnimator& a = limbs.animator();
  out << "  body: water pose " << creature::to_string(a.water_pose()) << ", drop "
      << format_number(a.drop()) << ", lean " << format_number(a.lean()) << ", bank "
      << format_number(a.bank()) << "\n";
  for (std::size_t i = 0; i < a.limbs().size(); ++i) {
    const creature::Limb& l = a.limbs()[i];
    const creature::LimbFrame& f = a.limb_frames()[i];
    out << "  limb " << l.name << "  bend " << format_number(f.bend) << "  pitch "
        << format_number(f.pitch) << "  spread " << format_number(f.spread) << "  end "
        << format_vec(f.end) << "\n";
  }
  for (const creature::StrokeEvent& e : limbs.take_events()) {
    out << "  stroke at " << format_number(e.t) << " s: " << (e.hand ? "hand" : "foot") << " "
        << creature::to_string(e.side) << (e.into ? " into" : " out of") << " the water at "
        << format_vec(e.pos) << ", speed " << format_number(e.speed) << "\n";
  }
}

// "four-legged: trot, phase 0.25, bob 0.01, death phase 0" for the text heading.
std::string creature_heading(const CreatureFrameInfo& info) {
  return std::string(tools::to_string(info.kind)) + ": " + info.gait + ", phase " +
         format_number(info.phase) + ", bob " + format_number(info.bob) + ", death phase " +
         format_number(info.death_phase);
}

int run_pose(const PoseOptions& o, std::ostream& out, std::ostream& err) {
  const PoseSources sources{.config = !o.controller.config.empty(),
                            .params = !o.controller.params.empty(),
                            .anim = !o.anim.empty(),
                            .mode = !o.mode.empty(),
                            .timeline = !o.timeline.empty(),
                            .limbs = o.limbs.limbs};
  if (Status s = check_creature_usage(o.creature, sources, o.file); !s)
    return report(s.error(), err);
  if (Status s = check_limb_usage(o.limbs, o.file); !s) return report(s.error(), err);
  const bool creature = !o.creature.creature.empty();
  std::optional<CreatureSpec> spec;
  if (creature) {
    Result<CreatureSpec> parsed = parse_creature_flags(o.creature, o.file);
    if (!parsed) return report(parsed.error(), err);
    spec = std::move(*parsed);
  }
  const bool controlled = !o.controller.config.empty() || creature;
  if (controlled && !o.anim.empty())
    return report(Error::at(ErrorCode::kUsage, o.file, "--anim",
                            "--anim plays one clip; with --config the controller's rules pick "
                            "the animations"),
                  err);
  if (controlled && !o.mode.empty())
    return report(Error::at(ErrorCode::kUsage, o.file, "--mode",
                            "--mode applies to --anim; with --config the config sets looping"),
                  err);
  if (!controlled && !o.controller.params.empty())
    return report(
        Error::at(ErrorCode::kUsage, o.file, "--param", "--param sets a parameter of --config"),
        err);
  if (o.controller.config.empty() && !o.controller.rotation_blend.empty())
    return report(Error::at(ErrorCode::kUsage, o.file, "--rotation-blend",
                            "--rotation-blend sets how the controller of --config blends"),
                  err);
  const int mode = tools::parse_playback_mode(o.mode.empty() ? "loop_forward" : o.mode);
  if (mode < 0) return report(tools::unknown_playback_mode(o.file, o.mode), err);
  for (float t : o.times) {
    if (!std::isfinite(t) || t < 0.0f)
      return report(Error::at(ErrorCode::kUsage, o.file, "--time",
                              "time " + format_number(t) + " must be a finite number >= 0"),
                    err);
    if (controlled && t > kMaxControllerTime)
      return report(
          Error::at(ErrorCode::kUsage, o.file, "--time",
                    "time " + format_number(t) + " is more than the " +
                        format_number(kMaxControllerTime) + " s a controller is simulated"),
          err);
  }

  std::optional<Timeline> timeline;
  if (!o.timeline.empty()) {
    Result<Timeline> t = Timeline::load(o.timeline);
    if (!t) return report(t.error(), err);
    timeline = std::move(*t);
  }

  Result<io::LoadOptions> load_options = load_options_from(o.load);
  if (!load_options) return report(load_options.error(), err);
  Diagnostics diag;
  Result<Model> loaded =
      tools::with_limbs(load_model(o.file, *load_options, &diag), o.limbs.limbs, &diag);
  if (!loaded) return report(loaded.error(), err);
  const auto model = std::make_shared<const Model>(std::move(*loaded));
  Result<OpenedPose> opened =
      open_pose(pose_request(o, spec, *load_options, timeline), model, &diag);
  if (!opened) return report(opened.error(), err);
  std::optional<ControllerPose>& controller = opened->controller;
  std::optional<CreaturePose>& simulated = opened->simulated;
  std::optional<LimbPose>& limbs = opened->limbs;
  const int clip = opened->clip;

  const float default_time = controlled ? kDefaultSettleTime : 0.0f;
  const std::vector<float> times = o.times.empty() ? std::vector<float>{default_time} : o.times;
  const Model& shown = controller ? controller->model() : *model;
  const std::vector<int> order = report_order(shown);
  anim::Player player(shown);
  anim::Instance inst(shown);
  nlohmann::json jtimes = nlohmann::json::array();
  const bool followed = follows(*opened);
  for (float t : times) {
    if (limbs && !followed) {
      // One simulation through the times in order; an earlier time starts it again.
      if (t < limbs->time()) {
        if (Status s = limbs->restart(); !s) return report(s.error(), err);
      }
      if (Status s = limbs->advance_to(t); !s) return report(s.error(), err);
      if (Status s = limbs->place(inst); !s) return report(s.error(), err);
      if (o.json) {
        nlohmann::json j = pose_json(inst, limbs->local_pose(), order, t);
        jtimes.push_back(limbs_json(*limbs, j));
      } else {
        pose_text(inst, limbs->local_pose(), order, t,
                  "clip time " + format_number(limbs->clip_time()) + " s", out);
        limbs_text(*limbs, out);
      }
      continue;
    }
    if (simulated) {
      // Each time is a fresh simulation from 0, as for a controller.
      if (Status s = start_at(*opened, t, inst); !s) return report(s.error(), err);
      const CreatureFrameInfo info = simulated->info();
      if (o.json) {
        nlohmann::json j = pose_json(inst, simulated->local_pose(), order, t);
        j["creature"] = creature_json(info);
        if (followed) j = limbs_json(*limbs, j);
        jtimes.push_back(std::move(j));
      } else {
        pose_text(inst, simulated->local_pose(), order, t, creature_heading(info), out);
        if (followed) limbs_text(*limbs, out);
        print_creature_events(info.events, err);
      }
      continue;
    }
    if (controller) {
      // Each time is a fresh simulation from 0, as a game started then would show it.
      if (Status s = start_at(*opened, t, inst); !s) return report(s.error(), err);
      const std::vector<LayerSummary> layers = controller->layers();
      if (o.json) {
        nlohmann::json j = pose_json(inst, controller->local_pose(), order, t);
        j["layers"] = layers_json(layers);
        j["events"] = fired_json(controller->fired());
        if (followed) j = limbs_json(*limbs, j);
        jtimes.push_back(std::move(j));
      } else {
        pose_text(inst, controller->local_pose(), order, t, layers_heading(layers), out);
        if (followed) limbs_text(*limbs, out);
        print_fired(controller->fired(), err);
      }
      continue;
    }
    // Each time is a fresh play advanced by t, so times outside the clip follow the mode's rule.
    if (clip >= 0) {
      if (auto s = player.play(clip, static_cast<anim::PlaybackMode>(mode)); !s)
        return report(s.error(), err);
      player.update(t);
      player.clear_records();
      if (Status s = inst.pose(player.local_pose(), player.weights()); !s)
        return report(s.error(), err);
    }
    if (o.json)
      jtimes.push_back(pose_json(inst, player.local_pose(), order, t));
    else
      pose_text(inst, player.local_pose(), order, t,
                "clip time " + format_number(player.clip_time()) + " s", out);
  }
  if (o.json && simulated) {
    nlohmann::json states = nlohmann::json::array();
    for (const std::string& p : o.creature.states) states.push_back(p);
    nlohmann::json rig_params = nlohmann::json::array();
    for (const std::string& p : o.creature.rig_params) rig_params.push_back(p);
    nlohmann::json doc = {
        {"model", o.file},
        {"creature", tools::to_string(spec->kind)},
        {"species",
         spec->species.empty() ? nlohmann::json(nullptr) : nlohmann::json(spec->species)},
        {"state", states},
        {"rig_params", rig_params},
        {"timeline", o.timeline.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.timeline)},
        {"step", json_number(static_cast<float>(kControllerStep))},
        {"times", jtimes}};
    out << doc.dump(2) << "\n";
  } else if (o.json && controller) {
    nlohmann::json params = nlohmann::json::array();
    for (const std::string& p : o.controller.params) params.push_back(p);
    nlohmann::json doc = {
        {"model", o.file},
        {"config", o.controller.config},
        {"params", params},
        {"timeline", o.timeline.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.timeline)},
        {"step", json_number(static_cast<float>(kControllerStep))},
        {"times", jtimes}};
    out << doc.dump(2) << "\n";
  } else if (o.json) {
    const Clip* c = clip >= 0 ? &model->clips()[static_cast<std::size_t>(clip)] : nullptr;
    nlohmann::json doc = {{"model", o.file},
                          {"anim", c ? nlohmann::json(c->name()) : nlohmann::json(nullptr)},
                          {"duration", json_number(c ? c->duration() : 0.0f)},
                          {"mode", tools::kPlaybackModeNames[mode]},
                          {"times", jtimes}};
    if (limbs) {
      nlohmann::json motion = nlohmann::json::array();
      for (const std::string& m : o.limbs.motion) motion.push_back(m);
      doc["limbs"] = true;
      doc["motion"] = motion;
      doc["timeline"] = o.timeline.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.timeline);
      doc["step"] = json_number(static_cast<float>(kControllerStep));
    }
    out << doc.dump(2) << "\n";
  }
  print_warnings(diag.items(), err);
  if (controller) print_warnings(controller->runtime_warnings(), err);
  return kExitOk;
}

}  // namespace

Command add_pose_command(CLI::App& root) {
  auto options = std::make_shared<PoseOptions>();
  CLI::App* app = root.add_subcommand(
      "pose",
      "Print every node's local TRS and model-space matrix, and morph weights, at clip times");
  app->add_option("FILE", options->file, "Model file")->required();
  app->add_option("--anim", options->anim, "Animation name or index (default: the first)");
  app->add_option("--time", options->times,
                  "Time in seconds; repeat for several (default 0; with --config 1, simulated "
                  "from 0 for each time)");
  app->add_option("--mode", options->mode,
                  "Playback mode for times outside the clip (default loop_forward)");
  app->add_flag("--json", options->json,
                "Print JSON (with --config each time also lists the layers and the events fired, "
                "which otherwise go to stderr)");
  add_load_flags(app, options->load);
  add_limbs_flag(app, options->limbs.limbs);
  add_controller_flags(app, options->controller);
  add_creature_flags(app, options->creature);
  add_motion_flag(app, options->limbs);
  add_timeline_flag(app, options->timeline);
  app->footer(creature_state_help() + "\n" + legacy_driver_param_help() + "\n" + timeline_help() +
              "\n" + tools::limb_motion_help());
  return Command{app, [options](std::ostream& out, std::ostream& err) {
                   return run_pose(*options, out, err);
                 }};
}

}  // namespace critter::cli
