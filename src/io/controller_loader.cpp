// SPDX-License-Identifier: MIT
#include "critter/io/controller_loader.h"

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "critter/config/animation_config.h"
#include "critter/config/bind.h"
#include "critter/core/strings.h"
#include "critter/creature/default_drivers.h"
#include "critter/io/load.h"

namespace critter::io {
namespace {

using config::AnimationAlias;
using config::AnimationReference;
using config::RuleConfig;
using config::SourceKind;
using config::StateConfig;

namespace fs = std::filesystem;

// Every `file:` reference a rule of `rules` (groups included) writes.
void collect_rules(const std::vector<RuleConfig>& rules,
                   std::vector<const AnimationReference*>& out) {
  for (const RuleConfig& r : rules) {
    if (r.is_group) {
      collect_rules(r.rules, out);
    } else if (r.animation && r.animation->source && r.animation->kind == SourceKind::kFile) {
      out.push_back(&*r.animation);
    }
  }
}

// One loaded `file:` model and what retargeting its clips dropped.
struct SourceFile {
  std::string path;
  const AnimationReference* first = nullptr;  // the first reference naming it (warning location)
  std::shared_ptr<const Model> model;
  std::vector<std::string> missing_bones;  // first-seen order, no repeats
  std::size_t dropped_bone_tracks = 0;
  std::size_t dropped_weight_tracks = 0;
};

// The target mesh a Weights track of `from`'s mesh `mesh` drives: the target mesh of the same
// name, else the one at the same index; -1 when neither exists.
int target_mesh(const Model& from, const Model& to, std::int32_t mesh) {
  const std::string& name = from.meshes()[static_cast<std::size_t>(mesh)].name;
  const int by_name = name.empty() ? -1 : to.find_mesh(name);
  if (by_name >= 0) return by_name;
  return mesh < static_cast<std::int32_t>(to.meshes().size()) ? mesh : -1;
}

// `clip` of `file.model` with its tracks moved onto `to`'s joints and meshes; what cannot move is
// counted in `file`.
RawClip retarget(const Clip& clip, SourceFile& file, const Model& to) {
  const Model& from = *file.model;
  RawClip out;
  for (const Track& t : clip.tracks()) {
    RawTrack r;
    r.target = t.target;
    r.interpolation = t.interpolation;
    r.components = t.components;
    if (t.target == TrackTarget::kWeights) {
      const int mesh = target_mesh(from, to, t.index);
      if (mesh < 0 ||
          to.meshes()[static_cast<std::size_t>(mesh)].default_weights.size() != t.components) {
        ++file.dropped_weight_tracks;
        continue;
      }
      r.index = mesh;
    } else {
      const std::string& name = from.skeleton().names()[static_cast<std::size_t>(t.index)];
      r.index = to.find_bone(name);
      if (r.index < 0) {
        ++file.dropped_bone_tracks;
        if (std::find(file.missing_bones.begin(), file.missing_bones.end(), name) ==
            file.missing_bones.end()) {
          file.missing_bones.push_back(name);
        }
        continue;
      }
    }
    const auto times = clip.track_times(t);
    const auto values = clip.track_values(t);
    r.times.assign(times.begin(), times.end());
    r.values.assign(values.begin(), values.end());
    out.tracks.push_back(std::move(r));
  }
  return out;
}

// "file:<stem>#<clip>" (the clip's index when it has no name), made unique among `taken` with a
// "~2", "~3"... suffix.
std::string appended_name(const std::string& path, const Clip& clip, int index,
                          const std::vector<std::string>& taken) {
  const std::string base = "file:" + fs::path(path).stem().string() + "#" +
                           (clip.name().empty() ? std::to_string(index) : clip.name());
  auto is_taken = [&](const std::string& n) {
    return std::any_of(taken.begin(), taken.end(),
                       [&](const std::string& t) { return iequals(t, n); });
  };
  std::string name = base;
  for (int k = 2; is_taken(name); ++k) name = base + "~" + std::to_string(k);
  return name;
}

}  // namespace

Result<LoadedController> load_controller(std::string_view config_path,
                                         std::shared_ptr<const Model> model,
                                         const ControllerLoadOptions& options, Diagnostics* diag,
                                         std::vector<Error>* all_errors) {
  if (!model) {
    Error e =
        Error::at(ErrorCode::kUsage, std::string(config_path), "", "load_controller needs a model");
    if (all_errors != nullptr) all_errors->push_back(e);
    return fail(std::move(e));
  }
  config::AnimationConfigOptions config_options;
  config_options.asset_roots = options.asset_roots;
  config_options.allow_outside = options.allow_outside;
  config::AnimationConfig partial_config;
  auto config = config::load_animation_config(config_path, config_options, diag, all_errors,
                                              all_errors != nullptr ? &partial_config : nullptr);
  // A checker binds and compiles what did parse, so one pass lists every error of the file.
  std::optional<Error> parse_error;
  if (!config) {
    if (all_errors == nullptr || partial_config.path.empty())
      return fail(std::move(config.error()));
    parse_error = std::move(config.error());
    config = std::move(partial_config);
  }

  config::ConfigPathRules rules;
  rules.asset_roots = options.asset_roots;
  rules.home = fs::path(config->path).parent_path().string();
  rules.allow_outside = options.allow_outside;
  std::vector<const AnimationReference*> refs;
  for (const AnimationAlias& a : config->animations) {
    if (a.reference.kind == SourceKind::kFile) refs.push_back(&a.reference);
  }
  for (const StateConfig& s : config->states) collect_rules(s.rules, refs);

  // Each file is loaded once and each of its clips appended once, whatever the number of
  // references (and the case of the clip names) that lead to it. What fails is reported by bind
  // at the reference, through `file_clips` below.
  std::vector<SourceFile> files;
  std::map<std::string, Result<std::shared_ptr<const Model>>> loaded;  // by resolved path
  std::map<std::pair<std::size_t, int>, int> appended;  // (file, clip in file) -> clip in model
  std::unordered_map<const AnimationReference*, Result<int>> clip_of;
  std::vector<RawClip> clips;
  std::vector<std::string> taken;
  for (const Clip& c : model->clips()) taken.push_back(c.name());
  for (const AnimationReference* ref : refs) {
    const SourceLocation& where = ref->source_where;
    auto ref_error = [&](std::string message) {
      clip_of.insert_or_assign(
          ref, Result<int>(fail(
                   Error::at(ErrorCode::kInvalid, where.file, where.pointer, std::move(message)))));
    };
    const config::ConfigFileLookup lookup =
        config::resolve_config_file(ref->target, where.file, rules);
    if (!lookup.found()) continue;  // bind reports the file as not found or refused
    const std::optional<std::string> path = lookup.path;
    auto it = loaded.find(*path);
    if (it == loaded.end()) {
      auto m = load(*path, options.model_options);
      Result<std::shared_ptr<const Model>> shared =
          m ? Result<std::shared_ptr<const Model>>(std::make_shared<const Model>(std::move(*m)))
            : fail(std::move(m.error()));
      it = loaded.emplace(*path, std::move(shared)).first;
    }
    if (!it->second) {
      ref_error("file '" + ref->target + "' does not load: " + it->second.error().to_string());
      continue;
    }
    std::size_t f = 0;
    while (f < files.size() && files[f].path != *path) ++f;
    if (f == files.size()) {
      files.push_back(SourceFile{*path, ref, *it->second, {}, 0, 0});
    }
    SourceFile& file = files[f];
    const int in_file = ref->file_clip.empty() ? (file.model->clips().empty() ? -1 : 0)
                                               : file.model->find_clip(ref->file_clip);
    if (in_file < 0) {
      ref_error("file '" + ref->target + "' has no clip" +
                (ref->file_clip.empty() ? std::string() : " '" + ref->file_clip + "'"));
      continue;
    }
    auto [at, added] = appended.try_emplace({f, in_file}, -1);
    if (added) {
      const Clip& clip = file.model->clips()[static_cast<std::size_t>(in_file)];
      RawClip raw = retarget(clip, file, *model);
      if (!raw.tracks.empty()) {
        raw.name = appended_name(*path, clip, in_file, taken);
        taken.push_back(raw.name);
        at->second = static_cast<int>(model->clips().size() + clips.size());
        clips.push_back(std::move(raw));
      }
    }
    if (at->second < 0) {
      const Clip& clip = file.model->clips()[static_cast<std::size_t>(in_file)];
      ref_error("clip '" + clip.name() + "' of file '" + ref->target +
                "' animates no bone or morph target of the model");
      continue;
    }
    clip_of.insert_or_assign(ref, Result<int>(at->second));
  }
  if (diag != nullptr) {
    for (const SourceFile& file : files) {
      const SourceLocation& where = file.first->source_where;
      if (file.dropped_bone_tracks > 0) {
        diag->warn(where.file, where.pointer,
                   "file '" + file.first->target + "': dropped " +
                       std::to_string(file.dropped_bone_tracks) +
                       " track(s) of bones the model lacks: " + quoted_list(file.missing_bones));
      }
      if (file.dropped_weight_tracks > 0) {
        diag->warn(where.file, where.pointer,
                   "file '" + file.first->target + "': dropped " +
                       std::to_string(file.dropped_weight_tracks) +
                       " morph weight track(s): the model has no such mesh with that target count");
      }
    }
  }

  std::shared_ptr<const Model> target = model;
  if (!clips.empty()) {
    auto extended = append_clips(*model, std::move(clips));
    if (!extended) return fail(parse_error ? std::move(*parse_error) : std::move(extended.error()));
    target = std::make_shared<const Model>(std::move(*extended));
  }

  const anim::DriverRegistry* drivers =
      options.drivers != nullptr ? options.drivers : &creature::default_drivers();
  config::BindOptions bind_options;
  bind_options.asset_roots = options.asset_roots;
  bind_options.allow_outside = options.allow_outside;
  bind_options.drivers = drivers;
  bind_options.host_parameters = options.host_parameters;
  bind_options.complete_schema = options.complete_schema;
  bind_options.file_clips = [&](const AnimationReference& ref) -> Result<int> {
    const auto it = clip_of.find(&ref);
    if (it == clip_of.end()) {
      return fail(Error::at(ErrorCode::kInvalid, ref.source_where.file, ref.source_where.pointer,
                            "file '" + ref.target + "' was not loaded"));
    }
    return it->second;
  };
  anim::ControllerDesc partial;
  auto desc = config::bind(*config, *target, bind_options, diag, all_errors,
                           all_errors != nullptr ? &partial : nullptr);
  if (!desc) {
    // A checker still gets the expression errors of what did bind.
    if (all_errors != nullptr) {
      (void)anim::ControllerProgram::compile(*target, std::move(partial), drivers, diag,
                                             all_errors);
    }
    return fail(parse_error ? std::move(*parse_error) : std::move(desc.error()));
  }
  if (parse_error) {
    (void)anim::ControllerProgram::compile(*target, std::move(*desc), drivers, diag, all_errors);
    return fail(std::move(*parse_error));
  }

  auto program =
      anim::ControllerProgram::compile(*target, std::move(*desc), drivers, diag, all_errors);
  if (!program) return fail(std::move(program.error()));
  return LoadedController{std::move(target), std::move(*program)};
}

}  // namespace critter::io
