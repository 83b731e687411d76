// `critter pose FILE [--anim NAME|INDEX] --time T [--time T2 ...] [--mode M] [--json]`: every
// node's local TRS and model-space matrix, and every morphed mesh's weights, at given clip times.
// This is how critter's poses are compared with other implementations: keep the output stable.
#include <algorithm>
#include <charconv>
#include <iostream>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "command.h"
#include "critter/anim/instance.h"
#include "critter/io/load.h"
#include "describe.h"

namespace critter::cli {
namespace {

struct PoseOptions {
  std::string file;
  std::string anim;
  std::vector<float> times;
  std::string mode = "loop_forward";
  bool json = false;
  LoadFlags load;
};

constexpr const char* kModeNames[] = {"none",          "once_forward", "once_backward",
                                      "once_pingpong", "loop_forward", "loop_backward",
                                      "loop_pingpong"};

// A mode by name (any case, '-' or '_') or by its Defold number 0..6; -1 when unknown.
int parse_mode(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) {
    return c == '-' ? '_' : static_cast<char>(std::tolower(c));
  });
  for (int i = 0; i < 7; ++i)
    if (text == kModeNames[i] || text == std::to_string(i)) return i;
  return -1;
}

// Bones in file order: by source (glTF node) index where the format has one, else bone order.
std::vector<int> report_order(const Model& model) {
  const auto source = model.skeleton().source_indices();
  std::vector<int> order(source.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const int sa = source[static_cast<std::size_t>(a)], sb = source[static_cast<std::size_t>(b)];
    if (sa < 0 || sb < 0) return false;
    return sa < sb;
  });
  return order;
}

int report_index(const Model& model, int bone) {
  const int source = model.skeleton().source_indices()[static_cast<std::size_t>(bone)];
  return source >= 0 ? source : bone;
}

nlohmann::json pose_json(const anim::Instance& inst, const std::vector<int>& order, float t) {
  const Model& model = inst.model();
  nlohmann::json nodes = nlohmann::json::array();
  for (int bone : order) {
    const Transform& local = inst.local_pose()[static_cast<std::size_t>(bone)];
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
  nlohmann::json morph = nlohmann::json::array();
  for (std::size_t m = 0; m < model.meshes().size(); ++m) {
    const auto w = inst.player().morph_weights(static_cast<int>(m));
    if (w.empty()) continue;
    nlohmann::json weights = nlohmann::json::array();
    for (float x : w) weights.push_back(json_number(x));
    morph.push_back({{"mesh", model.meshes()[m].name}, {"weights", weights}});
  }
  return {{"t", json_number(t)}, {"nodes", nodes}, {"morph", morph}};
}

void pose_text(const anim::Instance& inst, const std::vector<int>& order, float t,
               std::ostream& out) {
  const Model& model = inst.model();
  out << "t = " << format_number(t) << " s (clip time " << format_number(inst.player().clip_time())
      << " s)\n";
  for (int bone : order) {
    const Transform& l = inst.local_pose()[static_cast<std::size_t>(bone)];
    const vec3 p(inst.model_transforms()[static_cast<std::size_t>(bone)][3]);
    out << "  [" << report_index(model, bone) << "] "
        << model.skeleton().names()[static_cast<std::size_t>(bone)] << "  t "
        << format_vec(l.translation) << "  r (" << format_number(l.rotation.x) << ", "
        << format_number(l.rotation.y) << ", " << format_number(l.rotation.z) << ", "
        << format_number(l.rotation.w) << ")  s " << format_vec(l.scale) << "  world "
        << format_vec(p) << "\n";
  }
  for (std::size_t m = 0; m < model.meshes().size(); ++m) {
    const auto w = inst.player().morph_weights(static_cast<int>(m));
    if (w.empty()) continue;
    out << "  morph " << model.meshes()[m].name << ":";
    for (float x : w) out << " " << format_number(x);
    out << "\n";
  }
}

int run_pose(const PoseOptions& o, std::ostream& out, std::ostream& err) {
  const int mode = parse_mode(o.mode);
  if (mode < 0)
    return report(Error::at(ErrorCode::kUsage, o.file, "--mode",
                            "unknown playback mode '" + o.mode +
                                "' (none, once_forward, once_backward, once_pingpong, "
                                "loop_forward, loop_backward, loop_pingpong or 0..6)"),
                  err);
  for (float t : o.times)
    if (!std::isfinite(t) || t < 0.0f)
      return report(Error::at(ErrorCode::kUsage, o.file, "--time",
                              "time " + format_number(t) + " must be a finite number >= 0"),
                    err);

  Result<io::LoadOptions> load_options = load_options_from(o.load);
  if (!load_options) return report(load_options.error(), err);
  Diagnostics diag;
  Result<Model> model = io::load(o.file, *load_options, &diag);
  if (!model) return report(model.error(), err);
  const Result<int> clip = clip_from_arg(*model, o.anim, o.file);
  if (!clip) return report(clip.error(), err);

  const std::vector<float> times = o.times.empty() ? std::vector<float>{0.0f} : o.times;
  const std::vector<int> order = report_order(*model);
  anim::Instance inst(*model);
  nlohmann::json jtimes = nlohmann::json::array();
  for (float t : times) {
    // Each time is a fresh play advanced by t, so times outside the clip follow the mode's rule.
    if (*clip >= 0) {
      if (auto s = inst.player().play(*clip, static_cast<anim::PlaybackMode>(mode)); !s)
        return report(s.error(), err);
      inst.update(t);
      inst.player().clear_records();
    }
    if (o.json)
      jtimes.push_back(pose_json(inst, order, t));
    else
      pose_text(inst, order, t, out);
  }
  if (o.json) {
    const Clip* c = *clip >= 0 ? &model->clips()[static_cast<std::size_t>(*clip)] : nullptr;
    nlohmann::json doc = {{"model", o.file},
                          {"anim", c ? nlohmann::json(c->name()) : nlohmann::json(nullptr)},
                          {"duration", json_number(c ? c->duration() : 0.0f)},
                          {"mode", kModeNames[mode]},
                          {"times", jtimes}};
    out << doc.dump(2) << "\n";
  }
  for (const Warning& w : diag.items()) err << w.to_string() << "\n";
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
  app->add_option("--time", options->times, "Time in seconds; repeat for several (default 0)");
  app->add_option("--mode", options->mode,
                  "Playback mode for times outside the clip (default loop_forward)");
  app->add_flag("--json", options->json, "Print JSON");
  add_load_flags(app, options->load);
  return Command{app, [options](std::ostream& out, std::ostream& err) {
                   return run_pose(*options, out, err);
                 }};
}

}  // namespace critter::cli
