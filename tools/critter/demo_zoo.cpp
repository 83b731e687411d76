// SPDX-License-Identifier: MIT
#include "demo_zoo.h"

#include <cmath>
#include <numbers>
#include <utility>

#include <glm/gtc/matrix_transform.hpp>

namespace critter::cli {
namespace {

using Key = tools::CreatureStateTrack::Key;

constexpr float kTau = 2.0f * std::numbers::pi_v<float>;
// The walkers face +X (heading -90°), so the camera in front of the stage sees their gaits from
// the side; the front row walks the other way for variety.
constexpr float kFacingRight = -90.0f;
constexpr float kFacingLeft = 90.0f;
constexpr float kBackRow = -1.9f;
constexpr float kFrontRow = 2.0f;
// Times of the look-at keys of the camel following the bird, per second.
constexpr float kLookKeysPerSecond = 15.0f;

tools::CreatureStateArgs moving(float speed) {
  tools::CreatureStateArgs s;
  s.speed = speed;
  return s;
}

}  // namespace

mat4 zoo_placement(const ZooMember& m, float loop_seconds, float t) {
  vec3 at = m.position;
  float heading = glm::radians(m.heading);
  if (m.circle_radius > 0.0f) {
    const float theta = kTau * m.laps * t / loop_seconds;
    // Counter-clockwise seen from above: from +X toward -Z; the body's forward (-Z turned by
    // the heading) is the circle's tangent when the heading equals theta.
    at += m.circle_radius * vec3(std::cos(theta), 0.0f, -std::sin(theta));
    heading = theta;
  }
  mat4 world = glm::translate(mat4(1.0f), at);
  world = glm::rotate(world, heading, vec3(0.0f, 1.0f, 0.0f));
  return glm::scale(world, vec3(m.scale));
}

CreatureSpec zoo_spec(const ZooMember& m) {
  CreatureSpec spec;
  spec.kind = m.kind;
  spec.species = m.species;
  return spec;
}

std::vector<ZooMember> make_zoo(float loop_seconds) {
  const float third = loop_seconds / 3.0f;
  std::vector<ZooMember> zoo;

  ZooMember wolf{"wolf", CreatureKind::kFourLegged, "wolf",
                 "walks, trots, then canters as its speed rises"};
  wolf.colour = vec4(0.48f, 0.5f, 0.56f, 1.0f);
  wolf.position = vec3(-0.8f, 0.0f, kBackRow);
  wolf.heading = kFacingRight;
  // Walking speed W = 4 m/s: walk below 2, trot above 2, canter above 2.8 (creatures.md §3).
  wolf.keys = {{0.0, moving(1.0f)}, {third, moving(2.4f)}, {2.0f * third, moving(3.5f)}};
  zoo.push_back(std::move(wolf));

  ZooMember horse{"horse", CreatureKind::kFourLegged, "horse",
                  "walks, then canters (horses do not trot)"};
  horse.colour = vec4(0.55f, 0.3f, 0.14f, 1.0f);
  horse.position = vec3(-2.4f, 0.0f, kBackRow);
  horse.heading = kFacingRight;
  horse.keys = {{0.0, moving(1.2f)}, {0.5f * loop_seconds, moving(3.6f)}};
  zoo.push_back(std::move(horse));

  ZooMember cow{"cow", CreatureKind::kFourLegged, "cow", "walks, dies and rolls onto its side"};
  cow.colour = vec4(0.92f, 0.9f, 0.84f, 1.0f);
  cow.position = vec3(-1.8f, 0.0f, kFrontRow);
  cow.heading = kFacingLeft;
  tools::CreatureStateArgs dead;
  dead.health = 0.0f;
  // Struck from its left: it rolls away from the blow.
  dead.death_cause = vec3(-1.0f, 0.0f, 0.0f);
  cow.keys = {{0.0, moving(0.8f)}, {0.3f * loop_seconds, dead}};
  zoo.push_back(std::move(cow));

  ZooMember bird{"bird", CreatureKind::kBird, "sparrow",
                 "flies circles above the stage, flapping its wings"};
  bird.colour = vec4(0.98f, 0.82f, 0.2f, 1.0f);
  bird.position = vec3(0.0f, 1.7f, -0.2f);
  bird.scale = 2.0f;
  bird.circle_radius = 1.5f;
  bird.laps = 2.0f;
  tools::CreatureStateArgs flying;
  flying.flying = true;
  flying.speed = kTau * bird.circle_radius * bird.laps / loop_seconds;
  bird.keys = {{0.0, flying}};

  ZooMember camel{"camel", CreatureKind::kFourLegged, "camel",
                  "stands and follows the bird with its head"};
  camel.colour = vec4(0.95f, 0.72f, 0.3f, 1.0f);
  camel.position = vec3(0.8f, 0.0f, kBackRow);
  camel.heading = kFacingLeft;
  // The bird's position in the camel's entity frame (the sim stands at its origin, yaw 0).
  const mat4 camel_from_world = glm::inverse(zoo_placement(camel, loop_seconds, 0.0f));
  const int looks = static_cast<int>(std::ceil(loop_seconds * kLookKeysPerSecond));
  for (int i = 0; i < looks; ++i) {
    const float t = static_cast<float>(i) / kLookKeysPerSecond;
    tools::CreatureStateArgs look;
    look.look_at = vec3(camel_from_world * zoo_placement(bird, loop_seconds, t)[3]);
    camel.keys.emplace_back(t, look);
  }
  zoo.push_back(std::move(camel));

  ZooMember human{"human", CreatureKind::kHuman, "player", "walks, then punches as it goes"};
  human.colour = vec4(0.25f, 0.42f, 0.85f, 1.0f);
  human.position = vec3(2.4f, 0.0f, kBackRow);
  human.heading = kFacingLeft;
  tools::CreatureStateArgs punch;
  punch.attack = true;
  human.keys = {{0.0, moving(1.2f)}, {0.45f * loop_seconds, punch}};
  zoo.push_back(std::move(human));

  ZooMember ostrich{"ostrich", CreatureKind::kFlightlessBird, "ostrich", "runs"};
  ostrich.colour = vec4(0.3f, 0.26f, 0.26f, 1.0f);
  ostrich.position = vec3(0.0f, 0.0f, kFrontRow);
  ostrich.heading = kFacingLeft;
  // Above 0.75 W (W = 4 m/s) it runs (creatures.md §6).
  ostrich.keys = {{0.0, moving(3.5f)}};
  zoo.push_back(std::move(ostrich));

  ZooMember fish{"fish", CreatureKind::kFish, "bass", "swims, beating its tail"};
  fish.colour = vec4(0.18f, 0.62f, 0.7f, 1.0f);
  fish.position = vec3(1.8f, 0.45f, kFrontRow);
  fish.heading = kFacingLeft;
  fish.scale = 1.5f;
  tools::CreatureStateArgs swimming = moving(1.0f);
  swimming.immersion = 1.0f;
  fish.keys = {{0.0, swimming}};
  zoo.push_back(std::move(fish));

  zoo.push_back(std::move(bird));
  return zoo;
}

}  // namespace critter::cli
