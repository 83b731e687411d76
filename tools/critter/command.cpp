// SPDX-License-Identifier: MIT
#include "command.h"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <ostream>

#include "critter/io/clip_ranges.h"

namespace critter::cli {

namespace {

std::string format_located(std::string path, const std::string& location,
                           const std::string& message) {
  if (path == "critter" || path.starts_with("critter ")) path.clear();
  std::string out = "critter: ";
  if (!path.empty()) {
    out += path;
    if (!location.empty()) out += ":" + location;
    out += ": ";
  } else if (!location.empty()) {
    out += location + ": ";
  }
  return out + message;
}

}  // namespace

std::string format_error(const Error& error) {
  return format_located(error.path, error.location, error.message);
}

std::string format_warning(const Warning& warning) {
  return format_located(warning.path, warning.location, "warning: " + warning.message);
}

int report(const Error& error, std::ostream& err) {
  err << format_error(error) << "\n";
  return error.code == ErrorCode::kUsage ? kExitUsage : kExitBadInput;
}

Status create_output_folder(const std::string& path) {
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  if (folder.empty()) return {};
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (!std::filesystem::is_directory(folder))
    return fail(Error::at(ErrorCode::kIo, path, "",
                          "cannot create the output folder '" + folder.string() + "'" +
                              (ec ? ": " + ec.message() : std::string())));
  return {};
}

void add_load_flags(CLI::App* app, LoadFlags& flags) {
  app->add_flag("--allow-outside-uris", flags.allow_outside_uris,
                "Let models reference files outside their own folder");
  app->add_option("--clips", flags.clips,
                  "Cut a file's single long animation into named frame ranges: "
                  "name:start-end,... (B3D and other frame-based files)");
  app->add_option("--clips-fps", flags.clips_fps,
                  "Rate the --clips ranges play at, in frames per second (default: the file's)");
  app->add_option("--look", flags.look, "Insomniac .model: which look (default 0)")
      ->check(CLI::NonNegativeNumber);
  app->add_option("--lod", flags.lod, "Insomniac .model: which LOD (default 0)")
      ->check(CLI::NonNegativeNumber);
  app->add_option("--game", flags.game,
                  "Insomniac .model without a header: msmr, mm, rcra or so (default: detect)");
  flags.compact =
      app->add_option("--compact", flags.compact_tolerance,
                      "Play compact clips: keys reduced and quantised within TOL times the "
                      "character's size (--compact alone: 1e-4); default: the exact keys")
          ->expected(0, 1);
}

Result<io::LoadOptions> load_options_from(const LoadFlags& flags) {
  io::LoadOptions options;
  options.allow_outside_uris = flags.allow_outside_uris;
  // A bad model from a mod must not take the command down with Assimp.
  options.assimp_isolation = io::AssimpIsolation::kChildProcess;
  options.look = flags.look;
  options.lod = flags.lod;
  options.game = flags.game;
  if (flags.compact != nullptr && flags.compact->count() > 0) {
    double tolerance = 1e-4;
    const std::string& text = flags.compact_tolerance;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), tolerance);
    if (!text.empty() && (ec != std::errc() || end != text.data() + text.size())) tolerance = -1.0;
    if (!(std::isfinite(tolerance) && tolerance > 0.0))
      return fail(Error::at(ErrorCode::kUsage, "--compact", "",
                            "the tolerance must be a finite number > 0, got '" + text + "'"));
    options.compact_tolerance = tolerance;
  }
  if (!flags.clips.empty()) {
    auto ranges = io::parse_clip_ranges(flags.clips, "--clips");
    if (!ranges) return std::unexpected(std::move(ranges.error()));
    options.clips = std::move(*ranges);
  }
  if (flags.clips_fps) {
    const double fps = *flags.clips_fps;
    if (!std::isfinite(fps) || !(fps > 0.0)) {
      return fail(
          Error::at(ErrorCode::kUsage, "--clips-fps", "",
                    "frames per second must be finite and > 0, got " + std::to_string(fps)));
    }
    if (flags.clips.empty()) {
      return fail(Error::at(ErrorCode::kUsage, "--clips-fps", "",
                            "needs --clips (it gives the rate the ranges are counted in)"));
    }
    options.clips_fps = fps;
  }
  return options;
}

void add_limbs_flag(CLI::App* app, bool& limbs) {
  app->add_flag("--limbs", limbs,
                "Cut block limbs (Arm_Right, Arm_Left, Leg_Right, Leg_Left) at the knees and "
                "elbows so they can bend");
}

void add_texture_flag(CLI::App* app, std::vector<std::string>& texts) {
  app->add_option("--texture", texts,
                  "Skin to apply, as a game does: FILE on every material's base colour, or "
                  "MATERIAL=FILE on one material (repeatable; later ones win)")
      ->allow_extra_args(false);
}

Result<std::vector<io::TextureOverride>> texture_overrides_from(
    const std::vector<std::string>& texts) {
  std::vector<io::TextureOverride> out;
  for (const std::string& text : texts) {
    auto o = io::parse_texture_override(text, "--texture");
    if (!o) return fail(std::move(o.error()));
    out.push_back(std::move(*o));
  }
  return out;
}

Result<Model> with_textures(Result<Model> model, std::span<const io::TextureOverride> overrides) {
  if (!model || overrides.empty()) return model;
  return io::apply_texture_overrides(*model, overrides);
}

}  // namespace critter::cli
