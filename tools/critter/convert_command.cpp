// SPDX-License-Identifier: MIT
// `critter convert IN... (-o OUT | --out-dir DIR) [--format glb|gltf|obj] [--clips RANGES]
// [--anim NAME --time T] [-j N]`: loads model files and writes them as glTF (.glb or .gltf) or
// OBJ. Every output is written atomically; a file that fails is reported with its location and
// the batch goes on.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "command.h"
#include "critter/core/strings.h"
#include "critter/io/clip_ranges.h"
#include "critter/io/crit/crit_file.h"
#include "critter/io/gltf/gltf_writer.h"
#include "critter/io/load.h"
#include "critter/io/obj/obj_writer.h"
#include "limbs_arg.h"

namespace critter::cli {
namespace {

namespace fs = std::filesystem;

struct ConvertOptions {
  std::vector<std::string> inputs;
  std::string output;
  std::string out_dir;
  std::string format;
  std::string anim;
  double time = 0.0;
  bool time_given = false;
  int jobs = 1;
  LoadFlags load;
  bool limbs = false;
  std::vector<std::string> textures;
  bool quiet = false;
};

// "glb", "gltf", "obj" or "crit" from an output file name; empty when the extension is none of
// them.
std::string format_of(const std::string& path) {
  std::string ext = lower_extension(path);
  if (ext == "glb" || ext == "gltf" || ext == "obj" || ext == "crit") return ext;
  return {};
}

Error usage(std::string location, std::string message) {
  return Error::at(ErrorCode::kUsage, "critter convert", std::move(location), std::move(message));
}

// One conversion to do and, once done, how it went.
struct Job {
  std::string input;
  std::string output;
  bool ok = false;
  Error error;
  std::vector<Warning> warnings;
  std::vector<std::string> files;
};

// True when `a` and `b` name one file: the same file on disk (links, hard links and other
// spellings included) or, when either does not exist yet, the same normalised absolute path.
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::equivalent(a, b, ec)) return true;
  const fs::path x = fs::absolute(a, ec).lexically_normal();
  const fs::path y = fs::absolute(b, ec).lexically_normal();
  return !ec && x == y;
}

// `write_lock` is held while the outputs are written: image files beside .gltf and .obj outputs
// are named after what the folder already holds, so writes into one folder take turns.
void convert_one(Job& job, const ConvertOptions& o, const io::LoadOptions& load_options,
                 std::span<const io::TextureOverride> textures, const std::string& format,
                 std::mutex& write_lock) {
  Diagnostics diag;
  auto finish = [&](Error e) {
    job.ok = false;
    job.error = std::move(e);
    job.warnings.assign(diag.items().begin(), diag.items().end());
  };
  if (same_file(job.input, job.output)) {
    return finish(Error::at(ErrorCode::kUsage, job.output, "",
                            "is also the input; converting a file onto itself is refused so that "
                            "the original stays as it is (write to another path)"));
  }
  Result<Model> model = tools::with_limbs(
      with_textures(load_model(job.input, load_options, &diag), textures), o.limbs, &diag);
  if (!model) return finish(std::move(model.error()));
  if (Status folder = create_output_folder(job.output); !folder)
    return finish(std::move(folder.error()));
  std::unique_lock<std::mutex> writing(write_lock, std::defer_lock);
  if (format != "glb") writing.lock();
  if (format == "crit") {
    if (auto r = io::write_crit(*model, job.output); !r) return finish(std::move(r.error()));
    job.files = {job.output};
  } else if (format == "obj") {
    io::ObjWriteOptions wo;
    if (!o.anim.empty()) {
      auto clip = clip_from_arg(*model, o.anim, job.input);
      if (!clip) return finish(std::move(clip.error()));
      wo.clip = *clip;
      wo.time = static_cast<float>(o.time);
    }
    auto r = io::write_obj(*model, job.output, wo, &diag);
    if (!r) return finish(std::move(r.error()));
    job.files = r->files;
  } else {
    io::GltfWriteOptions wo;
    wo.container = format == "glb" ? io::GltfContainer::kGlb : io::GltfContainer::kGltf;
    auto r = io::write_gltf(*model, job.output, wo, &diag);
    if (!r) return finish(std::move(r.error()));
    job.files = r->files;
  }
  job.ok = true;
  job.warnings.assign(diag.items().begin(), diag.items().end());
}

// "[#######.............] 7/20" redrawn in place.
void draw_progress(std::ostream& out, std::size_t done, std::size_t total) {
  constexpr std::size_t kWidth = 30;
  const std::size_t filled = total == 0 ? kWidth : done * kWidth / total;
  out << "\r[" << std::string(filled, '#') << std::string(kWidth - filled, '.') << "] " << done
      << "/" << total << std::flush;
}

int run_convert(const ConvertOptions& o, std::ostream& out, std::ostream& err) {
  // Usage checks: everything that does not depend on the files themselves.
  auto bad = [&](std::string location, std::string message) {
    return report(usage(std::move(location), std::move(message)), err);
  };
  if (o.output.empty() == o.out_dir.empty())
    return bad("", o.output.empty() ? "give -o OUT (one input) or --out-dir DIR"
                                    : "-o and --out-dir exclude each other");
  if (!o.output.empty() && o.inputs.size() != 1)
    return bad("-o", "-o names one output; use --out-dir DIR for " +
                         std::to_string(o.inputs.size()) + " inputs");
  std::string format = to_lower(o.format);
  if (!format.empty() && format != "glb" && format != "gltf" && format != "obj" && format != "crit")
    return bad("--format", "unknown format '" + o.format + "' (glb, gltf, obj or crit)");
  if (format.empty()) {
    if (!o.output.empty()) {
      format = format_of(o.output);
      if (format.empty())
        return bad("-o", "cannot tell the format of '" + o.output +
                             "': use a .glb, .gltf, .obj or .crit name or --format");
    } else {
      format = "glb";
    }
  }
  if (!o.output.empty() && !format_of(o.output).empty() && format_of(o.output) != format)
    return bad("-o", "'" + o.output + "' does not match --format " + format);
  if (o.time_given && o.anim.empty()) return bad("--time", "--time needs --anim");
  if (!o.anim.empty() && format != "obj")
    return bad("--anim", "--anim and --time pose an OBJ export; glTF keeps every animation");
  if (o.time_given && !(std::isfinite(o.time) && o.time >= 0.0))
    return bad("--time", "time must be a finite number >= 0");
  if (o.jobs < 1) return bad("-j", "needs at least 1 job");

  Result<io::LoadOptions> loaded_options = load_options_from(o.load);
  if (!loaded_options) return report(loaded_options.error(), err);
  const io::LoadOptions& load_options = *loaded_options;
  Result<std::vector<io::TextureOverride>> textures = texture_overrides_from(o.textures);
  if (!textures) return report(textures.error(), err);

  std::vector<Job> jobs(o.inputs.size());
  std::map<std::string, std::size_t> claimed;  // output path -> input that writes it
  for (std::size_t i = 0; i < o.inputs.size(); ++i) {
    jobs[i].input = o.inputs[i];
    if (!o.output.empty()) {
      jobs[i].output = o.output;
    } else {
      jobs[i].output =
          (fs::path(o.out_dir) / (fs::path(o.inputs[i]).stem().string() + "." + format)).string();
    }
    auto [it, fresh] = claimed.emplace(jobs[i].output, i);
    if (!fresh)
      return bad("--out-dir", "'" + o.inputs[it->second] + "' and '" + o.inputs[i] +
                                  "' would both write '" + jobs[i].output + "'");
  }
  if (!o.out_dir.empty()) {
    std::error_code ec;
    fs::create_directories(o.out_dir, ec);
    if (!fs::is_directory(o.out_dir))
      return report(
          Error::at(ErrorCode::kIo, o.out_dir, "",
                    "cannot create the output folder" + (ec ? ": " + ec.message() : std::string())),
          err);
  }

  const bool batch = jobs.size() > 1;
  const bool progress = batch && !o.quiet && &out == &std::cout && ::isatty(STDOUT_FILENO);
  const auto start = std::chrono::steady_clock::now();
  std::atomic<std::size_t> next{0};
  std::size_t done = 0;
  std::mutex mutex;
  std::mutex write_lock;
  if (progress) draw_progress(out, 0, jobs.size());
  auto worker = [&]() {
    for (;;) {
      const std::size_t i = next.fetch_add(1);
      if (i >= jobs.size()) return;
      convert_one(jobs[i], o, load_options, *textures, format, write_lock);
      if (progress) {
        std::lock_guard<std::mutex> lock(mutex);
        draw_progress(out, ++done, jobs.size());
      }
    }
  };
  const std::size_t threads = std::min<std::size_t>(static_cast<std::size_t>(o.jobs), jobs.size());
  if (threads <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    pool.reserve(threads);
    for (std::size_t t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (std::thread& t : pool) t.join();
  }
  if (progress) out << "\r" << std::string(40, ' ') << "\r";

  // Reports in input order whatever the thread timing was.
  std::size_t failed = 0;
  for (const Job& job : jobs) {
    for (const Warning& w : job.warnings) err << format_warning(w) << "\n";
    if (!job.ok) {
      ++failed;
      err << format_error(job.error) << "\n";
    } else if (!batch && !o.quiet) {
      out << job.input << " -> " << job.output << "\n";
    }
  }
  if (batch) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    char time_text[32];
    std::snprintf(time_text, sizeof time_text, "%.2f", seconds);
    out << "converted " << jobs.size() - failed << " of " << jobs.size() << " files to " << format
        << " in " << o.out_dir << " (" << failed << " failed, " << time_text << " s)\n";
  }
  return failed == 0 ? kExitOk : kExitBadInput;
}

}  // namespace

Command add_convert_command(CLI::App& root) {
  auto options = std::make_shared<ConvertOptions>();
  CLI::App* app = root.add_subcommand(
      "convert",
      "Write model files as glTF (.glb, .gltf), OBJ or baked .crit; one file with -o, many with "
      "--out-dir");
  app->add_option("IN", options->inputs, "Model files to convert")->required();
  app->add_option("-o,--output", options->output,
                  "Output file for a single input; its extension picks the format");
  app->add_option("--out-dir", options->out_dir,
                  "Folder for the outputs of one or more inputs (created when missing); each is "
                  "named after its input");
  app->add_option("--format", options->format,
                  "glb, gltf, obj or crit (default: from -o, else glb)");
  app->add_option("--anim", options->anim, "OBJ only: pose with this animation (name or index)");
  app->add_option("--time", options->time, "OBJ only: seconds into --anim (default 0)")
      ->each([options](const std::string&) { options->time_given = true; });
  app->add_option("-j,--jobs", options->jobs, "Convert this many files in parallel (default 1)");
  add_load_flags(app, options->load);
  add_limbs_flag(app, options->limbs);
  add_texture_flag(app, options->textures);
  app->add_flag("-q,--quiet", options->quiet, "Print nothing but warnings and errors");
  return Command{app, [options](std::ostream& out, std::ostream& err) {
                   return run_convert(*options, out, err);
                 }};
}

}  // namespace critter::cli
