// SPDX-License-Identifier: MIT
// Soak: many creatures (a controller with a config, legacy procedural rigs, the simple player)
// run for many frames with random parameters, states and dt (0, huge, NaN and infinity from the
// host). Properties: every local pose and model matrix stays finite, memory does not grow after
// the warm-up, and no clip event is lost (the event counts of a looping clip add up to the cycles
// its time crossed). CRITTER_SOAK_CREATURES and CRITTER_SOAK_FRAMES size the run (`make soak`
// runs the full one); the defaults take seconds.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "critter/creature/creature_model.h"
#include "critter/creature/creature_state.h"
#include "critter/creature/legacy/builtin_creatures.h"
#include "critter/creature/legacy/rig_factory.h"
#include "critter/io/controller_loader.h"
#include "support/files.h"
#include "support/spec_example.h"

namespace {

using namespace critter;
using critter::testing::ScratchDir;
using critter::testing::write_file;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

long env_or(const char* name, long fallback) {
  if (const char* s = std::getenv(name)) {
    const long n = std::atol(s);
    if (n > 0) return n;
  }
  return fallback;
}

// Resident memory of the process, bytes.
std::uint64_t resident_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  unsigned long long size = 0, resident = 0;
  const int n = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  return n == 2 ? resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE)) : 0;
}

float random_dt(std::mt19937& rng) {
  static const float kDts[] = {1.0f / 60.0f, 1.0f / 60.0f, 1.0f / 30.0f, 0.0f, 0.25f,
                               1e4f,         kNaN,         kInf,         -1.0f};
  return kDts[std::uniform_int_distribution<std::size_t>(0, std::size(kDts) - 1)(rng)];
}

void randomise(creature::CreatureState& s, std::mt19937& rng) {
  std::uniform_real_distribution<float> speed(-8.0f, 8.0f);
  s.velocity = vec3(speed(rng), (rng() % 16u) == 0 ? kNaN : 0.0f, speed(rng));
  s.is_on_ground = (rng() & 3u) != 0;
  s.is_attacking = (rng() & 7u) == 0;
  s.health = (rng() % 64u) == 0 ? 0.0f : 1.0f;
  s.look_angle_x = (rng() % 16u) == 0 ? kNaN : speed(rng) * 0.1f;
  s.look_angle_y = (rng() % 16u) == 0 ? 1e30f : speed(rng) * 0.1f;
  s.immersion_factor = (rng() % 16u) == 0 ? kInf : 0.0f;
  s.walk_speed = (rng() % 16u) == 0 ? -kInf : 4.0f;
}

bool finite_pose(std::span<const Transform> pose) {
  for (const Transform& t : pose) {
    if (!all_finite(t.translation) || !all_finite(t.rotation) || !all_finite(t.scale)) return false;
  }
  return true;
}

bool finite_matrices(std::span<const mat4> matrices) {
  for (const mat4& m : matrices) {
    for (int c = 0; c < 4; ++c) {
      if (!all_finite(m[c])) return false;
    }
  }
  return true;
}

// One looping 1 s clip with an event at its middle, played at speed 1 without blending: after
// the controller advanced T seconds the event was crossed floor(T - 0.5) + 1 times (T >= 0.5).
constexpr const char* kEventConfig = R"({
  "animations": {"walk": {"source": "Walk", "blendDuration": 0,
                          "events": [{"time": 0.5, "name": "Tick"}]}},
  "states": {"s": {"layer": "Base", "rules": [{"condition": "true", "animation": "walk"}]}}})";

TEST(Soak, ManyCreaturesWithHostileHostInput) {
  const long creatures = env_or("CRITTER_SOAK_CREATURES", 200);
  const long frames = env_or("CRITTER_SOAK_FRAMES", 1000);
  const long warm_up = std::min(frames / 4, 200L);

  ScratchDir dir;
  write_file(dir.file("spec.json"), std::string_view(test_support::kSpecExampleConfig));
  write_file(dir.file("events.json"), std::string_view(kEventConfig));
  auto quadruped = std::make_shared<const Model>(test_support::spec_example_quadruped());
  auto spec = io::load_controller(dir.file("spec.json"), quadruped);
  ASSERT_TRUE(spec) << spec.error().to_string();
  auto events = io::load_controller(dir.file("events.json"), quadruped);
  ASSERT_TRUE(events) << events.error().to_string();

  std::vector<Model> rig_models;
  for (auto kind : {creature::legacy::Kind::kFourLegged, creature::legacy::Kind::kHuman,
                    creature::legacy::Kind::kBird, creature::legacy::Kind::kFlightlessBird,
                    creature::legacy::Kind::kFish}) {
    auto m = creature::legacy::make_builtin_creature(kind);
    ASSERT_TRUE(m) << m.error().to_string();
    rig_models.push_back(std::move(*m));
  }

  // Creature i: 0 the spec config, 1 the event config, 2 the simple player, 3 a legacy rig.
  std::vector<creature::CreatureModel> herd;
  herd.reserve(static_cast<std::size_t>(creatures));
  for (long i = 0; i < creatures; ++i) {
    switch (i % 4) {
      case 0: {
        auto c = creature::CreatureModel::create(*spec->model, spec->program);
        ASSERT_TRUE(c) << c.error().to_string();
        herd.push_back(std::move(*c));
        break;
      }
      case 1: {
        auto c = creature::CreatureModel::create(*events->model, events->program);
        ASSERT_TRUE(c) << c.error().to_string();
        herd.push_back(std::move(*c));
        break;
      }
      case 2:
        herd.emplace_back(*quadruped);
        break;
      default: {
        const auto kind = static_cast<creature::legacy::Kind>((i / 4) % 5);
        const Model& model = rig_models[static_cast<std::size_t>(kind)];
        auto rig = creature::legacy::make_rig(to_string(kind), {}, model.skeleton());
        ASSERT_TRUE(rig) << rig.error().to_string();
        herd.emplace_back(model);
        herd.back().set_procedural_rig(std::move(*rig));
      }
    }
  }

  std::vector<std::uint64_t> ticks(herd.size(), 0);
  std::mt19937 rng(1234u);
  creature::CreatureState state;
  std::uint64_t warm_rss = 0;
  const auto start = std::chrono::steady_clock::now();
  for (long frame = 0; frame < frames; ++frame) {
    if (frame == warm_up) warm_rss = resident_bytes();
    for (std::size_t i = 0; i < herd.size(); ++i) {
      creature::CreatureModel& c = herd[i];
      randomise(state, rng);
      if (anim::Controller* controller = c.controller(); controller != nullptr && i % 4 == 0) {
        // Random parameters straight from the host, hostile values included.
        controller->parameters().set_float("SpeedXZ", (rng() & 7u) == 0 ? kNaN : state.velocity.x);
      }
      (void)c.update(random_dt(rng), state);
      for (const anim::ControllerRecord& r : c.records()) {
        if (r.kind == anim::ControllerRecord::Kind::kEvent && r.name == "Tick") ticks[i] += r.count;
      }
      ASSERT_TRUE(finite_pose(c.local_pose())) << "creature " << i << " frame " << frame;
      ASSERT_TRUE(finite_matrices(c.model_transforms())) << "creature " << i << " frame " << frame;
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::uint64_t end_rss = resident_bytes();

  // No event lost: a controller's clock is the sum of the steps it accepted.
  for (std::size_t i = 1; i < herd.size(); i += 4) {
    const double t = herd[i].controller()->time();
    const auto expected = t < 0.5 ? 0ull : static_cast<unsigned long long>(std::floor(t - 0.5)) + 1;
    EXPECT_NEAR(static_cast<double>(ticks[i]), static_cast<double>(expected), 1.0)
        << "creature " << i << " after " << t << " s";
    EXPECT_GT(ticks[i], 0u);
  }
  // No growth after the warm-up (the allocator may keep a few pages).
  EXPECT_LT(end_rss, warm_rss + (std::uint64_t{4} << 20))
      << "resident memory grew from " << warm_rss << " to " << end_rss << " bytes";
  std::printf(
      "soak: %ld creatures x %ld frames in %.2f s (%.0f creature-frames/s), resident %llu "
      "-> %llu KiB\n",
      creatures, frames, seconds, static_cast<double>(creatures * frames) / seconds,
      static_cast<unsigned long long>(warm_rss >> 10),
      static_cast<unsigned long long>(end_rss >> 10));
}

}  // namespace
