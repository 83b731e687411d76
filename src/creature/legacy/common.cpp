// SPDX-License-Identifier: MIT
#include "critter/creature/legacy/common.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>

namespace critter::creature::legacy {

float sigma(float x, float k) {
  if (!(x > 0.0f)) return 0.0f;
  if (x >= 1.0f) return 1.0f;
  const double ek = std::exp(static_cast<double>(k));
  const double e2kx = std::exp(2.0 * k * x);
  return static_cast<float>(ek * (e2kx - 1.0) / ((ek - 1.0) * (e2kx + ek)));
}

float lattice_hash(std::int32_t i) {
  // Wrapping signed arithmetic is done on uint32_t, where overflow is defined; the bit patterns
  // equal those of the source's wrapping int.
  const auto u = static_cast<std::uint32_t>(i);
  const std::uint32_t n = (u << 13) ^ u;
  const std::uint32_t v = n * (n * n * 15731u + 789221u) + 1376312589u;
  return static_cast<float>(static_cast<double>(v & 0x7FFFFFFFu) / 2147483648.0);
}

namespace {

// floor(x) as a wrapping 32-bit integer (the lattice is periodic in 2^32 anyway).
std::int32_t lattice(double x) {
  const double m = std::fmod(x, 4294967296.0);
  const auto w = static_cast<std::int64_t>(m < 0.0 ? m + 4294967296.0 : m);
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(w));
}

}  // namespace

float noise(float x) {
  if (!std::isfinite(x)) x = 0.0f;
  const double fl = std::floor(static_cast<double>(x));
  const std::int32_t i = lattice(fl);
  const std::int32_t j = lattice(std::ceil(static_cast<double>(x)));
  const auto f = static_cast<float>(static_cast<double>(x) - fl);
  const float hi = lattice_hash(i);
  return hi + f * f * (3.0f - 2.0f * f) * (lattice_hash(j) - hi);
}

float oct_noise(float x, float frequency, int octaves, float frequency_step, float amplitude_step) {
  float sum = 0.0f;
  float amplitudes = 0.0f;
  float amplitude = 1.0f;
  for (int o = 0; o < octaves; ++o) {
    sum += amplitude * noise(x * frequency);
    amplitudes += amplitude;
    frequency *= frequency_step;
    amplitude *= amplitude_step;
  }
  return amplitudes > 0.0f ? sum / amplitudes : 0.0f;
}

float smoothing(float dt) {
  return std::min(12.0f * dt, 1.0f);
}

float sat(float x) {
  return std::clamp(x, 0.0f, 1.0f);
}

float move_toward(float x, float target, float step) {
  if (x < target) return std::min(x + step, target);
  return std::max(x - step, target);
}

float frac(float x) {
  if (!std::isfinite(x)) return 0.0f;
  const float f = x - std::floor(x);
  return f >= 1.0f ? 0.0f : f;
}

quat rot_x(float radians) {
  return glm::angleAxis(radians, vec3(1.0f, 0.0f, 0.0f));
}
quat rot_y(float radians) {
  return glm::angleAxis(radians, vec3(0.0f, 1.0f, 0.0f));
}
quat rot_z(float radians) {
  return glm::angleAxis(radians, vec3(0.0f, 0.0f, 1.0f));
}

bool AttackCycle::update(bool held, float dt, float factor_rate, float phase_rate,
                         Release release) {
  bool hit = false;
  if (held) {
    factor = std::min(factor + factor_rate * dt, 1.0f);
    const float before = phase;
    float next = phase + phase_rate * dt;
    if (before < 0.5f && next >= 0.5f) hit = true;
    if (next >= 1.0f) {
      ++wraps;
      // A step of more than one cycle still crosses 0.5 once per frame at most.
      if (before < 0.5f) hit = true;
      next = frac(next);
    }
    phase = next;
    return hit;
  }
  factor = std::max(factor - factor_rate * dt, 0.0f);
  if (phase > 0.5f) {
    phase += phase_rate * dt;
    if (phase >= 1.0f) {
      phase = 0.0f;
      ++wraps;
    }
  } else if (release == Release::kDecay) {
    phase -= dt * phase;
    if (phase < 0.0f) phase = 0.0f;
  } else {
    phase = std::max(phase - phase_rate * dt, 0.0f);
  }
  return false;
}

float death_phase_step(float death_phase, float health, float dt, float death_speed) {
  if (!(health <= 0.0f)) return 0.0f;
  return std::clamp(death_phase + death_speed * dt, 0.0f, 1.0f);
}

float death_roll_side(const vec3& body_right, const vec3& death_cause_offset) {
  return glm::dot(body_right, death_cause_offset) > 0.0f ? 1.0f : -1.0f;
}

Transform death_roll(float body_height, float death_phase, float side) {
  // Row order T(−.5h·DP·Ŷ)·RotZ(roll)·T(.2h·DP·Ŷ): the body is lowered, rolled about its own
  // forward axis (entity Z before the yaw), then raised.
  const float h = body_height * death_phase;
  const quat r = rot_z(0.5f * kPi * death_phase * side);
  Transform t;
  t.rotation = r;
  t.translation = r * vec3(0.0f, -0.5f * h, 0.0f) + vec3(0.0f, 0.2f * h, 0.0f);
  return t;
}

vec3 eye_position(const vec3& position, const quat& rotation, float box_y, float box_z, bool fish) {
  const vec3 up = rotation * vec3(0.0f, 1.0f, 0.0f);
  const vec3 forward = rotation * vec3(0.0f, 0.0f, -1.0f);
  return position + up * ((fish ? 1.0f : 0.95f) * box_y) + forward * (0.45f * box_z);
}

float LookOrders::uniform(float lo, float hi) {
  // xorshift32: deterministic per creature, no allocation.
  rng_ ^= rng_ << 13;
  rng_ ^= rng_ >> 17;
  rng_ ^= rng_ << 5;
  return lo + (hi - lo) * static_cast<float>(rng_ >> 8) / 16777216.0f;
}

vec2 LookOrders::update(const Inputs& in, float dt) {
  if (in.look_at == nullptr && !(in.head_shake > 0.0f) && !in.look_random) {
    has_target_ = false;
    return in.look_angles;
  }
  if (!seeded_) {
    rng_ = in.entity_hash * 2654435761u + 0x9E3779B9u;
    if (rng_ == 0) rng_ = 1;
    seeded_ = true;
  }
  const vec3 eye = eye_position(in.position, in.rotation, in.box_y, in.box_z, in.fish);
  const quat inv = glm::conjugate(in.rotation);
  auto angles_to = [&](const vec3& point) {
    const vec3 d = point - eye;
    const float len = glm::length(d);
    if (!(len > 1e-6f) || !std::isfinite(len)) return vec2(0.0f);
    const vec3 local = inv * (d / len);  // body frame: forward -Z, right +X
    // Signed angle from forward (0, -1) to dir in the xz plane, positive toward the right so
    // that RotZ(−yaw) in the Z-up head space turns the head to the target.
    const float yaw = std::atan2(local.x, -local.z);
    const float pitch = std::asin(std::clamp(0.99f * local.y, -1.0f, 1.0f));
    return vec2(yaw, pitch);
  };
  if (in.look_at != nullptr) {
    has_target_ = false;
    return angles_to(*in.look_at);
  }
  if (in.head_shake > 0.0f) {
    has_target_ = false;
    const double t = 16.0 * in.game_time + 0.01 * static_cast<double>(in.entity_hash);
    return vec2(sat(4.0f * in.head_shake) * static_cast<float>(std::sin(std::fmod(t, 2.0 * kPi))),
                0.0f);
  }
  if (in.look_random) {
    const vec3 forward = in.rotation * vec3(0.0f, 0.0f, -1.0f);
    const vec3 up = in.rotation * vec3(0.0f, 1.0f, 0.0f);
    const vec3 right = in.rotation * vec3(1.0f, 0.0f, 0.0f);
    bool repick = !has_target_ || uniform(0.0f, 1.0f) < 0.25f * dt;
    if (has_target_) {
      const vec3 d = target_ - eye;
      const float len = glm::length(d);
      if (!(len > 1e-6f) || glm::dot(forward, d / len) < 0.2f) repick = true;
    }
    if (repick) {
      const float a = uniform(3.0f, 8.0f);
      const float b = uniform(-1.0f, 1.0f);
      const float c = uniform(-5.0f, 5.0f);
      target_ = eye + a * forward + b * up + c * right;
      has_target_ = true;
    }
    return angles_to(target_);
  }
  return in.look_angles;
}

}  // namespace critter::creature::legacy
