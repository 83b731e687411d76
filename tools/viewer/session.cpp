// SPDX-License-Identifier: MIT
#include "session.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "../common/builtin_models.h"
#include "critter/creature/limbs/split_limbs.h"

namespace critter::viewer {
namespace {

std::unexpected<Error> usage(std::string message) {
  return fail(Error::at(ErrorCode::kUsage, "viewer", "", std::move(message)));
}

}  // namespace

Session::Session(Model model)
    : model_(std::make_unique<Model>(std::move(model))),
      player_(std::make_unique<anim::Player>(*model_)),
      instance_(std::make_unique<anim::Instance>(*model_)),
      pinned_(model_->meshes().size()) {}

Result<std::unique_ptr<Session>> Session::open(std::string_view path, Diagnostics* diag,
                                               const io::LoadOptions& options,
                                               std::span<const io::TextureOverride> textures) {
  Result<Model> model = tools::load_model(std::string(path), options, diag);
  if (!model) return std::unexpected(model.error());
  if (!textures.empty()) model = io::apply_texture_overrides(*model, textures);
  if (!model) return std::unexpected(model.error());
  return std::make_unique<Session>(std::move(*model));
}

std::string Session::clip_label(int clip) const {
  const auto clips = model_->clips();
  if (clip < 0 || static_cast<std::size_t>(clip) >= clips.size()) return {};
  const std::string& name = clips[static_cast<std::size_t>(clip)].name();
  return name.empty() ? "clip " + std::to_string(clip) : name;
}

Status Session::play(int clip) {
  anim::PlayOptions options;
  options.rate = rate_;
  if (Status s = player_->play(clip, mode_, options); !s) return s;
  clip_ = clip;
  return {};
}

Status Session::crossfade_to(int clip) {
  anim::PlayOptions options;
  options.rate = rate_;
  options.blend_duration = crossfade_;
  options.curve = anim::BlendCurve::kSmoothstep;
  if (Status s = player_->play(clip, mode_, options); !s) return s;
  clip_ = clip;
  return {};
}

Status Session::set_mode(anim::PlaybackMode mode) {
  if (static_cast<int>(mode) > 6) return usage("playback mode outside 0..6");
  anim::Player& player = *player_;
  if (clip_ < 0 || player.clip() == nullptr) {
    mode_ = mode;
    return {};
  }
  // A backward mode reads its offset as the fraction already played (playback.md §5.3), so the
  // position on screen u becomes offset 1 - u there.
  const float u = player.cursor();
  const bool backward =
      mode == anim::PlaybackMode::kOnceBackward || mode == anim::PlaybackMode::kLoopBackward;
  anim::PlayOptions options;
  options.rate = rate_;
  options.offset = backward ? 1.0f - u : u;
  if (Status s = player.play(clip_, mode, options); !s) return s;
  mode_ = mode;
  return {};
}

void Session::set_rate(float rate) {
  rate_ = std::isfinite(rate) && rate > 0.0f ? rate : 0.0f;
  player_->set_rate(rate_);
}

void Session::scrub(float cursor) {
  if (!std::isfinite(cursor)) return;
  player_->set_cursor(std::clamp(cursor, 0.0f, 1.0f));
}

Status Session::set_morph_weight(int mesh, int target, float weight) {
  const auto meshes = model_->meshes();
  if (mesh < 0 || static_cast<std::size_t>(mesh) >= meshes.size())
    return usage("no mesh " + std::to_string(mesh));
  const std::size_t m = static_cast<std::size_t>(mesh);
  const std::size_t count = meshes[m].morph_target_count();
  if (target < 0 || static_cast<std::size_t>(target) >= count)
    return usage("mesh " + std::to_string(mesh) + " has no morph target " + std::to_string(target));
  if (!std::isfinite(weight)) return usage("morph weight is not finite");
  std::vector<float>& pinned = pinned_[m];
  if (pinned.empty()) {
    const auto shown = player_->morph_weights(mesh);
    pinned.assign(shown.begin(), shown.end());
    pinned.resize(count, 0.0f);
  }
  pinned[static_cast<std::size_t>(target)] = weight;
  return player_->set_morph_weights(mesh, pinned);
}

bool Session::morph_pinned(int mesh) const {
  return mesh >= 0 && static_cast<std::size_t>(mesh) < pinned_.size() &&
         !pinned_[static_cast<std::size_t>(mesh)].empty();
}

void Session::clear_morph_weights() {
  for (auto& pinned : pinned_) pinned.clear();
  player_->clear_morph_weights();
}

Status Session::enable_limbs(const tools::LimbMotion& motion, Diagnostics* diag) {
  creature::FoundLimbs found = creature::recover_limbs(*model_);
  std::vector<creature::Limb> limbs = std::move(found.limbs);
  if (limbs.empty()) {
    Result<creature::LimbSplit> split = creature::split_limbs(*model_);
    if (!split) return fail(split.error());
    if (diag) {
      for (const Warning& w : split->warnings) diag->warn(w.path, w.location, w.message);
    }
    if (split->limbs.empty()) return {};
    limbs = std::move(split->limbs);
    limbs_.reset();
    instance_.reset();
    player_.reset();
    model_ = std::make_unique<Model>(std::move(split->model));
    player_ = std::make_unique<anim::Player>(*model_);
    instance_ = std::make_unique<anim::Instance>(*model_);
    pinned_.assign(model_->meshes().size(), {});
    clip_ = -1;
  }
  auto sim = tools::LimbSim::create(*model_, limbs);
  if (!sim) return fail(sim.error());
  limbs_ = std::move(*sim);
  limbs_->set_motion(motion);
  return {};
}

void Session::update(float dt) {
  player_->update(paused_ ? 0.0f : dt);
  // The player's pose and weights are sized for the model: the instance cannot refuse them.
  (void)instance_->pose(player_->local_pose(), player_->weights());
  if (limbs_) {
    (void)limbs_->step(paused_ ? 0.0f : dt, player_->local_pose(),
                       instance_->writable_model_transforms());
  }
  player_->drain([this](const anim::PlayerRecord& r) {
    const std::string clip_name = r.clip ? r.clip->name() : std::string();
    switch (r.kind) {
      case anim::RecordKind::kEvent:
        char line[48];
        std::snprintf(line, sizeof line, " x%llu @%.2f", static_cast<unsigned long long>(r.count),
                      static_cast<double>(r.phase));
        log_.push_back("event " + std::string(r.name) + line);
        break;
      case anim::RecordKind::kCompleted:
        log_.push_back("completed " + clip_name);
        break;
      case anim::RecordKind::kInterrupted:
        log_.push_back("interrupted " + clip_name);
        break;
    }
    if (log_.size() > kLogLength) log_.pop_front();
  });
}

}  // namespace critter::viewer
