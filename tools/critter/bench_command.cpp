// SPDX-License-Identifier: MIT
// `critter bench FILE [--clip NAME] [--iterations N] [--json]`: how fast critter loads, samples,
// blends, poses and skins one model, so users can measure their own assets. Each figure is the
// median over repetitions of a timed batch of operations, per operation.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "command.h"
#include "critter/anim/blending_job.h"
#include "critter/anim/compact_sampling_job.h"
#include "critter/anim/local_to_model_job.h"
#include "critter/anim/pose.h"
#include "critter/anim/sampling_job.h"
#include "critter/deform/skin_mesh_part.h"
#include "critter/io/crit/crit_file.h"

namespace critter::cli {
namespace {

struct BenchOptions {
  std::string file;
  std::string clip;
  int iterations = 200;
  bool json = false;
  LoadFlags load;
};

constexpr int kRepetitions = 9;

// Median over kRepetitions of the time per call of `op`, run `n` times per repetition, in ns.
template <class F>
double median_ns(int n, F&& op) {
  std::vector<double> runs;
  op(0);  // warm caches and lazily sized buffers
  for (int r = 0; r < kRepetitions; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) op(i);
    const auto end = std::chrono::steady_clock::now();
    runs.push_back(std::chrono::duration<double, std::nano>(end - start).count() / n);
  }
  std::nth_element(runs.begin(), runs.begin() + kRepetitions / 2, runs.end());
  return runs[kRepetitions / 2];
}

struct Figure {
  std::string name;
  double ns = 0.0;
  std::string note;
};

std::string format_ns(double ns) {
  char text[32];
  if (ns >= 1e6)
    std::snprintf(text, sizeof text, "%.2f ms", ns / 1e6);
  else if (ns >= 1e3)
    std::snprintf(text, sizeof text, "%.2f us", ns / 1e3);
  else
    std::snprintf(text, sizeof text, "%.0f ns", ns);
  return text;
}

int run_bench(const BenchOptions& o, std::ostream& out, std::ostream& err) {
  if (o.iterations < 1)
    return report(Error::at(ErrorCode::kUsage, "bench", "--iterations", "needs at least 1"), err);
  Result<io::LoadOptions> load_options = load_options_from(o.load);
  if (!load_options) return report(load_options.error(), err);
  Result<Model> loaded = load_model(o.file, *load_options, nullptr);
  if (!loaded) return report(loaded.error(), err);
  const Model& model = *loaded;
  std::vector<Figure> figures;

  // Loading: the file as given, and the same model baked into .crit bytes (read from memory).
  const int load_runs = std::max(1, std::min(o.iterations, 20));
  figures.push_back({"load",
                     median_ns(load_runs,
                               [&](int) {
                                 auto m = load_model(o.file, *load_options, nullptr);
                                 if (!m) std::abort();
                               }),
                     o.file});
  const std::vector<std::uint8_t> baked = io::encode_crit(model);
  figures.push_back({"load_crit",
                     median_ns(load_runs * 5,
                               [&](int) {
                                 auto m = io::read_crit(baked);
                                 if (!m) std::abort();
                               }),
                     std::to_string(baked.size()) + " bytes"});

  const auto rest = model.skeleton().rest_pose();
  const anim::MorphLayout layout = anim::MorphLayout::of(model);
  std::vector<Transform> pose_a(rest.begin(), rest.end()), pose_b(pose_a), blended(pose_a);
  std::vector<float> wa(layout.defaults), wb(layout.defaults), wout(layout.defaults);
  std::vector<mat4> model_space(rest.size());
  const int n = o.iterations;
  int clip_index = model.clips().empty() ? -1 : 0;
  if (!o.clip.empty()) {
    auto c = clip_from_arg(model, o.clip, o.file);
    if (!c) return report(c.error(), err);
    clip_index = *c;
  }
  nlohmann::json compact_json;
  if (clip_index >= 0) {
    const Clip& clip = model.clips()[static_cast<std::size_t>(clip_index)];
    const float step = 1.0f / 60.0f;
    const auto clip_time = [&](int i) {
      return clip.duration() > 0.0f ? std::fmod(static_cast<float>(i) * step, clip.duration())
                                    : 0.0f;
    };
    anim::SamplingContext context(clip.tracks().size());
    figures.push_back(
        {"sample",
         median_ns(n,
                   [&](int i) {
                     const anim::SamplingJob job{.clip = &clip,
                                                 .time = clip_time(i),
                                                 .context = &context,
                                                 .rest = rest,
                                                 .default_weights = layout.defaults,
                                                 .weight_offsets = layout.offsets,
                                                 .output = pose_a,
                                                 .output_weights = wa};
                     (void)job.run();
                   }),
         clip.name() + ", exact keys, " + std::to_string(clip.byte_size()) + " bytes"});
    // The compact form: the model's own, or one built at the default tolerance.
    std::vector<CompactClipStats> stats;
    Result<Model> compacted = model.compact_clips().empty()
                                  ? with_compact_clips(*append_clips(model, {}), 1e-4f, &stats)
                                  : Result<Model>(std::unexpected(Error{}));
    const Model& with_compact = compacted ? *compacted : model;
    if (!with_compact.compact_clips().empty()) {
      const CompactClip& compact =
          with_compact.compact_clips()[static_cast<std::size_t>(clip_index)];
      anim::CompactSamplingContext cc(compact.tracks().size());
      figures.push_back(
          {"sample_compact",
           median_ns(n,
                     [&](int i) {
                       const anim::CompactSamplingJob job{.clip = &compact,
                                                          .time = clip_time(i),
                                                          .context = &cc,
                                                          .rest = rest,
                                                          .default_weights = layout.defaults,
                                                          .weight_offsets = layout.offsets,
                                                          .output = pose_b,
                                                          .output_weights = wb};
                       (void)job.run();
                     }),
           clip.name() + ", compact, " + std::to_string(compact.byte_size()) + " bytes"});
      if (!stats.empty()) {
        const CompactClipStats& s = stats[static_cast<std::size_t>(clip_index)];
        compact_json = {{"tolerance", s.tolerance},     {"max_error", s.max_error},
                        {"exact_bytes", s.exact_bytes}, {"bytes", s.bytes},
                        {"keys_in", s.keys_in},         {"keys_out", s.keys_out}};
      }
    }
  }
  anim::BlendingLayer layers[2];
  layers[0].pose = pose_a;
  layers[0].weight = 1.0f;
  layers[1].pose = pose_b;
  layers[1].weight = 0.5f;
  anim::BlendingJob blend{.layers = layers,
                          .rest = rest,
                          .default_weights = layout.defaults,
                          .mesh_offsets = layout.offsets,
                          .output = blended,
                          .output_weights = wout};
  figures.push_back({"blend", median_ns(n, [&](int) { (void)blend.run(); }), "2 layers"});
  blend.rotations = anim::RotationBlend::kNlerp;
  figures.push_back({"blend_nlerp", median_ns(n, [&](int) { (void)blend.run(); }),
                     "2 layers, rotations by nlerp"});
  const anim::LocalToModelJob ltm{
      .parents = model.skeleton().parents(), .input = blended, .output = model_space};
  figures.push_back({"local_to_model", median_ns(n, [&](int) { (void)ltm.run(); }),
                     std::to_string(rest.size()) + " joints"});

  // Skinning: every part of every mesh, positions and normals.
  std::size_t vertices = 0, palette_size = 0;
  for (const Mesh& mesh : model.meshes()) {
    for (const MeshPart& part : mesh.parts) vertices += part.vertex_count();
    if (mesh.skin >= 0)
      palette_size =
          std::max(palette_size, model.skins()[static_cast<std::size_t>(mesh.skin)].joints.size());
  }
  if (vertices > 0) {
    std::vector<mat4> palette(palette_size);
    std::vector<vec3> positions(vertices), normals(vertices);
    deform::NormalTransform normal_transform = deform::NormalTransform::kInverseTranspose;
    const auto skin_all = [&](int) {
      std::size_t at = 0;
      for (std::size_t m = 0; m < model.meshes().size(); ++m) {
        const Mesh& mesh = model.meshes()[m];
        for (std::size_t p = 0; p < mesh.parts.size(); ++p) {
          const std::size_t count = mesh.parts[p].vertex_count();
          const bool has_normals = !mesh.parts[p].streams.normals.empty();
          deform::SkinMeshPartJob job;
          job.model = &model;
          job.mesh = m;
          job.part = p;
          job.model_transforms = model_space;
          job.palette = palette;
          job.out_positions = std::span<vec3>(positions).subspan(at, count);
          if (has_normals) job.out_normals = std::span<vec3>(normals).subspan(at, count);
          job.normal_transform = normal_transform;
          (void)job.run();
          at += count;
        }
      }
    };
    const int skin_runs = std::max(1, static_cast<int>(std::min<std::size_t>(
                                          static_cast<std::size_t>(n), 2000000 / vertices + 1)));
    figures.push_back(
        {"skinning", median_ns(skin_runs, skin_all), std::to_string(vertices) + " vertices"});
    normal_transform = deform::NormalTransform::kMatrix;
    figures.push_back({"skin_matrix_n", median_ns(skin_runs, skin_all),
                       "normals by the matrix, not its inverse transpose"});
  }

  if (o.json) {
    nlohmann::json j;
    j["file"] = o.file;
    j["joints"] = rest.size();
    j["iterations"] = n;
    j["repetitions"] = kRepetitions;
    if (clip_index >= 0) j["clip"] = model.clips()[static_cast<std::size_t>(clip_index)].name();
    for (const Figure& f : figures) j["ns"][f.name] = f.ns;
    if (!compact_json.is_null()) j["compact"] = compact_json;
    out << j.dump(2) << "\n";
    return kExitOk;
  }
  out << o.file << ": " << rest.size() << " joints, median of " << kRepetitions
      << " repetitions, per operation\n";
  for (const Figure& f : figures) {
    char line[160];
    std::snprintf(line, sizeof line, "  %-16s %12s  %s\n", f.name.c_str(), format_ns(f.ns).c_str(),
                  f.note.c_str());
    out << line;
  }
  if (!compact_json.is_null()) {
    char line[160];
    std::snprintf(line, sizeof line, "  compact clip: tolerance %.3g, measured max error %.3g\n",
                  compact_json["tolerance"].get<double>(), compact_json["max_error"].get<double>());
    out << line;
  }
  return kExitOk;
}

}  // namespace

Command add_bench_command(CLI::App& root) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* app = root.add_subcommand(
      "bench", "Time loading, sampling, blending, local-to-model and skinning of a model");
  app->add_option("FILE", options->file, "Model file (any format critter reads)")->required();
  app->add_option("--clip", options->clip, "Clip to sample (name or index; default the first)");
  app->add_option("--iterations", options->iterations,
                  "Operations per timed repetition (default 200)");
  app->add_flag("--json", options->json, "Print the figures (ns per operation) as JSON");
  add_load_flags(app, options->load);
  return Command{app, [options](std::ostream& out, std::ostream& err) {
                   return run_bench(*options, out, err);
                 }};
}

}  // namespace critter::cli
