// SPDX-License-Identifier: MIT
#include "critter/asset/compact_clip.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <tuple>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif

#include "asset/clip_load_simd.h"
#include "core/finite_floats.h"
#include "core/soa_lanes.h"
#include "critter/core/cpu_features.h"
#include "critter/core/soa_transform.h"
#include "critter/core/transform.h"

namespace critter {

namespace {

constexpr std::uint32_t kMaxFrames = 65535;

// Whether each of the `keys` float quaternions from `w` (8 words a key) has |q|^2 within 1e-3 of
// 1, which no quaternion with a NaN or infinite component has. Branch-free, so that it vectorises.
bool all_unit_quaternion_words(const std::uint16_t* w, std::size_t keys) {
  unsigned off = 0;
  std::size_t k = 0;
#if defined(__SSE2__)
  // Four keys a step: their squares transposed (a register per component), summed vertically.
  const __m128 one = _mm_set1_ps(1.0f), tolerance = _mm_set1_ps(1e-3f);
  const __m128 magnitude = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
  __m128 within = _mm_castsi128_ps(_mm_set1_epi32(-1));
  for (; k + 4 <= keys; k += 4) {
    const float* f = reinterpret_cast<const float*>(w + 8 * k);
    __m128 r0 = _mm_loadu_ps(f), r1 = _mm_loadu_ps(f + 4);
    __m128 r2 = _mm_loadu_ps(f + 8), r3 = _mm_loadu_ps(f + 12);
    r0 = _mm_mul_ps(r0, r0);
    r1 = _mm_mul_ps(r1, r1);
    r2 = _mm_mul_ps(r2, r2);
    r3 = _mm_mul_ps(r3, r3);
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    const __m128 d = _mm_sub_ps(_mm_add_ps(_mm_add_ps(r0, r1), _mm_add_ps(r2, r3)), one);
    // NaN compares false, so a NaN key clears its lane.
    within = _mm_and_ps(within, _mm_cmple_ps(_mm_and_ps(d, magnitude), tolerance));
  }
  off = _mm_movemask_ps(within) == 0xf ? 0u : 1u;
#endif
  for (; k < keys; ++k) {
    float q[4];
    std::memcpy(q, w + 8 * k, sizeof q);
    const float d = (q[0] * q[0] + q[1] * q[1]) + (q[2] * q[2] + q[3] * q[3]) - 1.0f;
    off |= std::abs(d) <= 1e-3f ? 0u : 1u;
  }
  return off == 0;
}

bool is_joint_target(TrackTarget t) {
  return t == TrackTarget::kTranslation || t == TrackTarget::kRotation || t == TrackTarget::kScale;
}

// The exact slerp along the shorter arc (the reference the compact clip is measured against).
quat slerp_reference(const quat& a, quat b, float s) {
  float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  if (d < 0.0f) {
    b = -b;
    d = -d;
  }
  float wa = 1.0f - s, wb = s;
  if (d < 0.9999f) {
    const float theta = std::acos(d);
    const float inv = 1.0f / std::sin(theta);
    wa = std::sin((1.0f - s) * theta) * inv;
    wb = std::sin(s * theta) * inv;
  }
  return glm::normalize(quat_xyzw(wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z,
                                  wa * a.w + wb * b.w));
}

// A compacted channel's source: the exact keys of one live LINEAR T/R/S track.
struct Source {
  std::uint16_t joint;
  TrackTarget target;
  std::span<const float> times;
  std::span<const float> values;  // 3 or 4 per key
  std::uint32_t components;
};

vec4 value_at(const Source& src, std::size_t k) {
  const float* v = src.values.data() + k * src.components;
  return src.components == 4 ? vec4(v[0], v[1], v[2], v[3]) : vec4(v[0], v[1], v[2], 0.0f);
}

quat as_quat(const vec4& v) {
  return quat_xyzw(v.x, v.y, v.z, v.w);
}

// The exact value of a LINEAR track at time t.
vec4 exact_at(const Source& src, float t) {
  const auto& times = src.times;
  const auto after = std::upper_bound(times.begin(), times.end(), t);
  if (after == times.begin()) return value_at(src, 0);
  const auto k = static_cast<std::size_t>(after - times.begin()) - 1;
  if (k + 1 >= times.size() || t <= times[k]) return value_at(src, k);
  const float s = (t - times[k]) / (times[k + 1] - times[k]);
  const vec4 a = value_at(src, k), b = value_at(src, k + 1);
  if (src.target == TrackTarget::kRotation) {
    const quat q = slerp_reference(as_quat(a), as_quat(b), s);
    return vec4(q.x, q.y, q.z, q.w);
  }
  return a + (b - a) * s;
}

// The local error of an approximate value, as a distance in model units at radius r.
float local_error(TrackTarget target, const vec4& exact, const vec4& approx, float r) {
  if (target == TrackTarget::kTranslation) return glm::length(vec3(exact) - vec3(approx));
  if (target == TrackTarget::kScale) {
    const vec3 d = glm::abs(vec3(exact) - vec3(approx));
    return r * std::max({d.x, d.y, d.z});
  }
  // The rotation angle from the chord between the quaternions (|q - q'| = 2 sin(angle / 4)), which
  // keeps its precision for small angles where 1 - dot(q, q') rounds to zero.
  const float chord = std::min(glm::length(exact - approx), glm::length(exact + approx));
  const float angle = 4.0f * std::asin(std::min(1.0f, 0.5f * chord));
  return 2.0f * r * std::sin(std::min(0.5f * angle, 1.5707964f));
}

// Between two kept keys, as the sampler interpolates them: rotations by nlerp_shortest.
vec4 interpolate(TrackTarget target, const vec4& a, const vec4& b, float s) {
  if (target == TrackTarget::kRotation) {
    const quat q = nlerp_shortest(as_quat(a), as_quat(b), s);
    return vec4(q.x, q.y, q.z, q.w);
  }
  return a + (b - a) * s;
}

void encode_rotation(const vec4& value, std::uint16_t* out) {
  vec4 q = value;
  int largest = 0;
  for (int i = 1; i < 4; ++i)
    if (std::abs(q[i]) > std::abs(q[largest])) largest = i;
  if (q[largest] < 0.0f) q = -q;
  std::uint64_t bits = std::uint64_t(largest) << 45;
  int slot = 0;
  for (int i = 0; i < 4; ++i) {
    if (i == largest) continue;
    const float u = (q[i] + compact::kInvSqrt2) / (2.0f * compact::kInvSqrt2) * 32767.0f;
    const auto code = static_cast<std::uint64_t>(std::clamp(std::lround(u), 0l, 32767l));
    bits |= code << (15 * slot++);
  }
  out[0] = static_cast<std::uint16_t>(bits);
  out[1] = static_cast<std::uint16_t>(bits >> 16);
  out[2] = static_cast<std::uint16_t>(bits >> 32);
}

void store_float(float f, std::uint16_t* out) {
  std::memcpy(out, &f, sizeof f);
}

// One encoded track before it joins the clip.
struct Encoded {
  CompactTrack track;
  float range[6] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};  // quantised T/S: minimum, extent
  std::vector<std::uint16_t> frames;
  std::vector<std::uint16_t> words;
};

// Encodes the values of `src` at key indices `keys` in `format`, with its range for quantised T/S.
Encoded encode(const Source& src, CompactFormat format, std::span<const std::uint32_t> keys,
               std::span<const float> union_times) {
  Encoded e;
  e.track.joint = src.joint;
  e.track.target = src.target;
  e.track.format = format;
  e.track.key_count = static_cast<std::uint16_t>(keys.size());
  if (format == CompactFormat::kQuantized && src.target != TrackTarget::kRotation) {
    vec3 lo(std::numeric_limits<float>::max()), hi(std::numeric_limits<float>::lowest());
    for (std::size_t k = 0; k < src.times.size(); ++k) {
      lo = glm::min(lo, vec3(value_at(src, k)));
      hi = glm::max(hi, vec3(value_at(src, k)));
    }
    for (int c = 0; c < 3; ++c) {
      e.range[c] = lo[c];
      e.range[3 + c] = hi[c] - lo[c];
    }
  }
  const std::uint32_t stride = e.track.stride();
  e.words.resize(keys.size() * stride);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const vec4 v = value_at(src, keys[i]);
    std::uint16_t* w = e.words.data() + i * stride;
    if (format == CompactFormat::kFloat) {
      for (std::uint32_t c = 0; c < src.components; ++c)
        store_float(v[static_cast<int>(c)], w + 2 * c);
    } else if (src.target == TrackTarget::kRotation) {
      encode_rotation(v, w);
    } else {
      for (int c = 0; c < 3; ++c) {
        const float extent = e.range[3 + c];
        const float u = extent > 0.0f ? (v[c] - e.range[c]) / extent * 65535.0f : 0.0f;
        w[c] = static_cast<std::uint16_t>(std::clamp(std::lround(u), 0l, 65535l));
      }
    }
    const float t = src.times[keys[i]];
    e.frames.push_back(static_cast<std::uint16_t>(
        std::lower_bound(union_times.begin(), union_times.end(), t) - union_times.begin()));
  }
  // A constant has no key frame: it holds at every time.
  if (keys.size() == 1) e.frames.clear();
  return e;
}

vec4 decoded(const Encoded& e, std::uint32_t i) {
  const std::uint16_t* w = e.words.data() + std::size_t{i} * e.track.stride();
  if (e.track.target == TrackTarget::kRotation) {
    const quat q = compact::decode_quat(e.track.format, w);
    return vec4(q.x, q.y, q.z, q.w);
  }
  return vec4(compact::decode_vec3(e.track.format, w, e.range), 0.0f);
}

// Reduces one track within `budget` (model units at radius r): the stored value of every kept key
// and the interpolation between kept keys stay within the budget at every exact key and at the
// midpoints between them. Quantised when quantising alone keeps the budget, else floats.
Encoded reduce(const Source& src, float budget, float r, std::span<const float> union_times) {
  const std::size_t n = src.times.size();
  std::vector<std::uint32_t> all(n);
  for (std::size_t k = 0; k < n; ++k) all[k] = static_cast<std::uint32_t>(k);
  Encoded full = encode(src, CompactFormat::kQuantized, all, union_times);
  std::vector<vec4> exact(n), stored(n);
  bool quantised_ok = true;
  for (std::size_t k = 0; k < n; ++k) {
    exact[k] = value_at(src, k);
    stored[k] = decoded(full, static_cast<std::uint32_t>(k));
    quantised_ok = quantised_ok && local_error(src.target, exact[k], stored[k], r) <= budget;
  }
  const CompactFormat format = quantised_ok ? CompactFormat::kQuantized : CompactFormat::kFloat;
  if (!quantised_ok) stored = exact;
  // Between two exact keys the error is probed at a quarter, half and three quarters.
  constexpr float kProbes[3] = {0.25f, 0.5f, 0.75f};
  const auto between = [&](std::size_t k, int p) {
    return src.times[k] + kProbes[p] * (src.times[k + 1] - src.times[k]);
  };
  std::vector<vec4> inner(n > 0 ? 3 * (n - 1) : 0);
  for (std::size_t k = 0; k + 1 < n; ++k)
    for (int p = 0; p < 3; ++p)
      inner[3 * k + static_cast<std::size_t>(p)] = exact_at(src, between(k, p));

  // A constant: one stored value within the budget everywhere, stored as floats (12 bytes for a
  // translation or scale, without a range; 16 for a rotation), which a sampler copies out as
  // they lie.
  const vec4 held = exact[0];
  bool constant = true;
  for (std::size_t k = 0; k < n && constant; ++k) {
    constant = local_error(src.target, exact[k], held, r) <= budget;
    for (int p = 0; p < 3 && constant && k + 1 < n; ++p)
      constant =
          local_error(src.target, inner[3 * k + static_cast<std::size_t>(p)], held, r) <= budget;
  }
  if (constant) {
    const std::uint32_t first[1] = {0};
    return encode(src, CompactFormat::kFloat, first, union_times);
  }
  std::vector<std::uint32_t> kept{0};
  if (!constant) {
    // Greedy: extend each segment while interpolating its end points stays within the budget.
    const auto segment_ok = [&](std::size_t a, std::size_t b) {
      const float t0 = src.times[a], dt = src.times[b] - t0;
      for (std::size_t k = a; k < b; ++k) {
        if (k > a) {
          const float s = (src.times[k] - t0) / dt;
          if (local_error(src.target, exact[k], interpolate(src.target, stored[a], stored[b], s),
                          r) > budget)
            return false;
        }
        for (int p = 0; p < 3; ++p) {
          const float s = (between(k, p) - t0) / dt;
          if (local_error(src.target, inner[3 * k + static_cast<std::size_t>(p)],
                          interpolate(src.target, stored[a], stored[b], s), r) > budget)
            return false;
        }
      }
      return true;
    };
    std::size_t a = 0;
    while (a + 1 < n) {
      std::size_t b = a + 1;
      while (b + 1 < n && segment_ok(a, b + 1)) ++b;
      kept.push_back(static_cast<std::uint32_t>(b));
      a = b;
    }
  }
  return encode(src, format, kept, union_times);
}

// Rotations between kept keys are nlerped (nlerp_shortest), which strays from the exact slerp on
// a quaternion arc α (the angle between the keys as 4-vectors, half the rotation between them)
// by at most k·α³ of rotation angle, k = 0.0321 for small arcs rising to 0.0325 at α = 0.5 (the
// widest step the builder allows; 0.0351 at 75°, so the bound is not for wide arcs). No choice
// among the exact keys brings a wide exact segment within the budget, so each rotation track
// whose segments are wider than `max_arc` gets slerp points at equal steps of at most that arc
// inside them, as keys reduce() may keep. kNlerpStray is k up to 0.5, rounded up.
constexpr float kNlerpStray = 0.033f;

// The exact keys of a rotation track with its wide segments filled in.
struct DenseRotation {
  std::vector<float> times;
  std::vector<float> values;  // 4 per key
};

// The keys of `src` (a rotation track) with slerp points added where consecutive keys are more
// than max_arc apart; false, and `out` untouched, where none is.
bool densify_rotation(const Source& src, float max_arc, DenseRotation& out) {
  const std::size_t n = src.times.size();
  bool wide = false;
  for (std::size_t k = 0; k + 1 < n && !wide; ++k) {
    const float d = std::abs(glm::dot(value_at(src, k), value_at(src, k + 1)));
    wide = std::acos(std::min(d, 1.0f)) > max_arc;
  }
  if (!wide) return false;
  out.times.clear();
  out.values.clear();
  const auto push = [&](float t, const vec4& v) {
    out.times.push_back(t);
    out.values.insert(out.values.end(), {v.x, v.y, v.z, v.w});
  };
  for (std::size_t k = 0; k < n; ++k) {
    push(src.times[k], value_at(src, k));
    if (k + 1 == n) break;
    const vec4 a = value_at(src, k), b = value_at(src, k + 1);
    const float arc = std::acos(std::min(std::abs(glm::dot(a, b)), 1.0f));
    if (!(arc > max_arc)) continue;  // a narrow segment (or a NaN from keys far off unit length)
    const float t0 = src.times[k], t1 = src.times[k + 1];
    // arc <= pi/2 (the absolute dot product) and max_arc >= 0.00625: at most 252 pieces.
    const int pieces = static_cast<int>(std::ceil(arc / max_arc));
    for (int i = 1; i < pieces; ++i) {
      const float s = static_cast<float>(i) / static_cast<float>(pieces);
      const float t = t0 + (t1 - t0) * s;
      if (!(t > out.times.back() && t < t1)) continue;  // too close in float to add a time
      const quat q = slerp_reference(as_quat(a), as_quat(b), s);
      push(t, vec4(q.x, q.y, q.z, q.w));
    }
  }
  return true;
}

// Drops the key times no kept key uses (exact keys that every track left out, points added
// inside wide segments) and renumbers the key frames; the clip samples the same.
void drop_unused_times(std::vector<float>& times, std::vector<std::uint16_t>& frames) {
  std::vector<std::uint8_t> used(times.size(), 0);
  for (const std::uint16_t f : frames) used[f] = 1;
  std::vector<std::uint16_t> renumbered(times.size(), 0);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < times.size(); ++i) {
    if (!used[i]) continue;
    renumbered[i] = static_cast<std::uint16_t>(kept);
    times[kept++] = times[i];
  }
  times.resize(kept);
  for (std::uint16_t& f : frames) f = renumbered[f];
}

// Model-space positions of every joint and its virtual points for a local pose.
void model_points(std::span<const std::int16_t> parents, std::span<const Transform> locals,
                  float distance, std::vector<mat4>& scratch, std::vector<vec3>& points) {
  const std::size_t n = parents.size();
  scratch.resize(n);
  points.clear();
  for (std::size_t j = 0; j < n; ++j) {
    const mat4 local = locals[j].to_matrix();
    scratch[j] = parents[j] < 0 ? local : scratch[static_cast<std::size_t>(parents[j])] * local;
    const mat4& m = scratch[j];
    points.push_back(vec3(m[3]));
    if (distance > 0.0f)
      for (int axis = 0; axis < 3; ++axis) points.push_back(vec3(m[3] + m[axis] * distance));
  }
}

// Where a constant track goes among the constants (the order CompactClip::constant_runs()
// describes): whole joints first, by joint, each translation, rotation, scale; then the others
// by kind (rotations, translations, scales), each kind by joint.
std::tuple<bool, std::uint32_t, std::uint16_t, std::uint8_t> constant_order(const CompactTrack& t,
                                                                            bool whole) {
  if (whole) return {false, 0u, t.joint, static_cast<std::uint8_t>(t.target)};
  return {true, compact::kind_of(t.target), t.joint, std::uint8_t{0}};
}

// Appends encoded tracks to a clip: constants first (in constant_order), then animated tracks
// by joint.
void assemble(std::vector<Encoded>& encoded, std::vector<CompactTrack>& tracks,
              std::vector<float>& ranges, std::vector<std::uint16_t>& frames,
              std::vector<std::uint16_t>& words, std::uint32_t& constants) {
  static_assert(static_cast<int>(TrackTarget::kTranslation) == 0 &&
                static_cast<int>(TrackTarget::kRotation) == 1 &&
                static_cast<int>(TrackTarget::kScale) == 2);
  // Per joint, how many constant float tracks of each target: a whole joint has one of each.
  std::vector<std::array<std::uint8_t, 3>> counts;
  for (const Encoded& e : encoded) {
    if (e.track.key_count != 1 || e.track.format != CompactFormat::kFloat) continue;
    if (e.track.joint >= counts.size()) counts.resize(std::size_t{e.track.joint} + 1);
    std::uint8_t& n = counts[e.track.joint][static_cast<std::size_t>(e.track.target)];
    n = static_cast<std::uint8_t>(std::min(n + 1, 2));
  }
  const auto whole = [&](const CompactTrack& t) {
    if (t.key_count != 1 || t.format != CompactFormat::kFloat) return false;
    const std::array<std::uint8_t, 3>& n = counts[t.joint];
    return n[0] == 1 && n[1] == 1 && n[2] == 1;
  };
  std::ranges::stable_sort(encoded, [&](const Encoded& a, const Encoded& b) {
    const bool ca = a.track.key_count == 1, cb = b.track.key_count == 1;
    if (ca != cb) return ca;
    if (ca)
      return constant_order(a.track, whole(a.track)) < constant_order(b.track, whole(b.track));
    return a.track.joint < b.track.joint;
  });
  tracks.clear();
  ranges.clear();
  frames.clear();
  words.clear();
  constants = 0;
  for (Encoded& e : encoded) {
    ranges.insert(ranges.end(), e.range, e.range + e.track.range_count());
    frames.insert(frames.end(), e.frames.begin(), e.frames.end());
    words.insert(words.end(), e.words.begin(), e.words.end());
    tracks.push_back(e.track);
    if (e.track.key_count == 1) ++constants;
  }
}

// Samples the compacted channels of `clip` at t over `pose` (the sampler's arithmetic).
void apply_compact(const CompactClip& clip, float t, std::span<Transform> pose) {
  const float* times = clip.times().data();
  CompactOffsets at;
  for (const CompactTrack& track : clip.tracks()) {
    const std::uint16_t* frames = clip.key_frames().data() + at.frame;
    const std::uint16_t* words = clip.words().data() + at.word;
    const float* range = clip.ranges().data() + at.range;
    at.advance(track);
    // The last kept key at or before t, and the fraction of the way to the next.
    std::uint32_t k = 0;
    float s = 0.0f;
    if (track.key_count > 1) {
      const auto end = frames + track.key_count;
      const auto after =
          std::upper_bound(frames, end, t, [&](float x, std::uint16_t f) { return x < times[f]; });
      if (after != frames) {
        k = static_cast<std::uint32_t>(after - frames) - 1;
        if (after != end) s = (t - times[frames[k]]) / (times[frames[k + 1]] - times[frames[k]]);
      }
    }
    const std::uint16_t* w0 = words + std::size_t{k} * track.stride();
    const std::uint16_t* w1 = w0 + track.stride();
    Transform& out = pose[track.joint];
    if (track.target == TrackTarget::kRotation) {
      const quat a = compact::decode_quat(track.format, w0);
      out.rotation = s == 0.0f ? a : nlerp_shortest(a, compact::decode_quat(track.format, w1), s);
    } else {
      const vec3 a = compact::decode_vec3(track.format, w0, range);
      const vec3 v = s == 0.0f ? a : a + (compact::decode_vec3(track.format, w1, range) - a) * s;
      (track.target == TrackTarget::kTranslation ? out.translation : out.scale) = v;
    }
  }
}

}  // namespace

void CompactClip::index_tracks() {
  // The constant overlay: each constant decoded once (as a sampler decodes it) into a joint's ten
  // floats, in both pose forms.
  constant_joints_ = 0;
  for (std::uint32_t i = 0; i < constant_count_; ++i)
    constant_joints_ = std::max<std::uint32_t>(constant_joints_, tracks_[i].joint + 1u);
  constexpr std::size_t kLanes = SoaTransform::kLanes;
  constant_values_.assign(std::size_t{constant_joints_} * 10, 0.0f);
  constant_mask_.assign(constant_values_.size(), 0u);
  soa_constant_values_.assign(soa_blocks(constant_joints_) * 10 * kLanes, 0.0f);
  soa_constant_mask_.assign(soa_constant_values_.size(), 0u);
  CompactOffsets at;
  for (std::uint32_t i = 0; i < constant_count_; ++i) {
    const CompactTrack& t = tracks_[i];
    const std::uint16_t* w = words_.data() + at.word;
    float v[4];
    std::uint32_t first = 0, count = 3;  // the first of the joint's ten floats, and how many
    if (t.target == TrackTarget::kRotation) {
      const quat q = compact::decode_quat(t.format, w);
      v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
      first = 3, count = 4;
    } else {
      const vec3 x = compact::decode_vec3(t.format, w, ranges_.data() + at.range);
      v[0] = x.x, v[1] = x.y, v[2] = x.z;
      first = t.target == TrackTarget::kTranslation ? 0u : 7u;
    }
    const std::size_t joint = t.joint;
    for (std::uint32_t c = 0; c < count; ++c) {
      const std::size_t aos = joint * 10 + first + c;
      const std::size_t soa = detail::soa_float_index(joint, first + c);
      constant_values_[aos] = soa_constant_values_[soa] = v[c];
      constant_mask_[aos] = soa_constant_mask_[soa] = 0xFFFFFFFFu;
    }
    at.advance(t);
  }

  // The animated tracks of each kind in track order, each kind's lanes padded with empty lanes to
  // a multiple of 8: counted first, then placed in one pass that also follows the offsets.
  std::uint32_t next[3] = {0, 0, 0};
  std::fill(std::begin(lane_counts_), std::end(lane_counts_), 0u);
  for (std::size_t i = constant_count_; i < tracks_.size(); ++i)
    ++lane_counts_[compact::kind_of(tracks_[i].target)];
  std::uint32_t total = 0;
  for (std::uint32_t kind = 0; kind < 3; ++kind) {
    next[kind] = total;
    total += (lane_counts_[kind] + 7) / 8 * 8;
  }
  lanes_.assign(total, Lane{});
  lane_joints_.assign(total, 0);
  // `at` has passed the constants.
  for (std::size_t i = constant_count_; i < tracks_.size(); ++i) {
    const CompactTrack& t = tracks_[i];
    const std::uint32_t slot = next[compact::kind_of(t.target)]++;
    lanes_[slot] = {static_cast<std::uint32_t>(i), at, t.key_count};
    lane_joints_[slot] = t.joint;
    at.advance(t);
  }

  // The structure-of-arrays windows of each group: from its first lane not yet placed, the
  // window of the aligned half row (eight floats) that holds that lane's joint takes every lane
  // of the group that falls in it.
  constexpr std::uint32_t kRow = SoaTransform::kLanes;
  soa_windows_.clear();
  soa_window_begin_.assign(total / 8 + 1, 0);
  std::uint32_t group = 0;
  for (std::uint32_t kind = 0; kind < 3; ++kind) {
    for (std::uint32_t done = 0; done < lane_counts_[kind]; done += 8, ++group) {
      const std::uint32_t* joints = lane_joints_.data() + std::size_t{group} * 8;
      const std::uint32_t used = std::min(8u, lane_counts_[kind] - done);
      const std::size_t before = soa_windows_.size();
      if (!detail::consecutive_in_block(joints, used, 8)) {
        std::uint32_t placed = 0;  // bit l: lane l has its window
        for (std::uint32_t l = 0; l < used; ++l) {
          if ((placed >> l & 1u) != 0) continue;
          const std::uint32_t block = joints[l] / kRow;
          const std::uint32_t start = joints[l] % kRow / 8 * 8;
          SoaWindow window;
          window.first =
              static_cast<std::uint32_t>(detail::soa_float_index(block * kRow + start, 0));
          for (std::uint32_t m = l; m < used; ++m) {
            if (joints[m] / kRow != block || joints[m] % kRow < start ||
                joints[m] % kRow >= start + 8)
              continue;
            window.lanes[joints[m] % kRow - start] = static_cast<std::int32_t>(m);
            placed |= 1u << m;
          }
          soa_windows_.push_back(window);
        }
        if (4 * (soa_windows_.size() - before) > 3 * std::size_t{used}) soa_windows_.resize(before);
      }
      soa_window_begin_[group + 1] = static_cast<std::uint32_t>(soa_windows_.size());
    }
  }
}

std::size_t CompactClip::byte_size() const {
  return times_.size() * sizeof(float) + tracks_.size() * sizeof(CompactTrack) +
         ranges_.size() * sizeof(float) + key_frames_.size() * sizeof(std::uint16_t) +
         words_.size() * sizeof(std::uint16_t) + residual_.byte_size();
}

Result<CompactClip> build_compact_clip(const Clip& clip, const Skeleton& skeleton,
                                       std::span<const mat4> rest_model,
                                       std::span<const std::size_t> morph_counts,
                                       const CompactOptions& options, CompactClipStats* stats) {
  const auto invalid = [](std::string msg) {
    return fail(Error::at(ErrorCode::kInvalid, "CompactOptions", "", std::move(msg)));
  };
  if (!(std::isfinite(options.tolerance) && options.tolerance > 0.0f))
    return invalid("tolerance must be finite and > 0");
  if (!(std::isfinite(options.virtual_distance) && options.virtual_distance >= 0.0f))
    return invalid("virtual distance must be finite and >= 0");
  const int joint_count = skeleton.joint_count();
  if (joint_count > 65535)
    return fail(Error::at(ErrorCode::kLimit, clip.name(), "", "more than 65535 joints"));
  if (rest_model.size() != static_cast<std::size_t>(joint_count))
    return invalid("rest model transforms do not match the skeleton");

  // Live LINEAR T/R/S tracks with strictly increasing key times are compacted; the rest stay exact.
  const auto tracks = clip.tracks();
  std::vector<std::uint8_t> live(tracks.size(), 0);
  {
    std::vector<std::uint8_t> seen(static_cast<std::size_t>(joint_count) * 4 + 1, 0);
    std::vector<std::uint8_t> mesh_seen(morph_counts.size() + 1, 0);
    for (std::size_t i = tracks.size(); i-- > 0;) {
      const Track& t = tracks[i];
      std::uint8_t& flag =
          t.target == TrackTarget::kWeights
              ? mesh_seen[std::min<std::size_t>(static_cast<std::size_t>(t.index),
                                                morph_counts.size())]
              : seen[static_cast<std::size_t>(t.index) * 4 + static_cast<std::size_t>(t.target)];
      if (!flag) live[i] = 1;
      flag = 1;
    }
  }
  std::vector<Source> sources;
  RawClip residual;
  residual.name = clip.name();
  for (std::size_t i = 0; i < tracks.size(); ++i) {
    if (!live[i]) continue;
    const Track& t = tracks[i];
    const auto times = clip.track_times(t);
    bool increasing = true;
    for (std::size_t k = 1; k < times.size(); ++k)
      increasing = increasing && times[k] > times[k - 1];
    if (is_joint_target(t.target) && t.interpolation == Interpolation::kLinear && increasing) {
      sources.push_back({static_cast<std::uint16_t>(t.index), t.target, times, clip.track_values(t),
                         t.components});
      continue;
    }
    RawTrack raw;
    raw.target = t.target;
    raw.index = t.index;
    raw.interpolation = t.interpolation;
    raw.components = t.components;
    raw.times.assign(times.begin(), times.end());
    const auto values = clip.track_values(t);
    raw.values.assign(values.begin(), values.end());
    residual.tracks.push_back(std::move(raw));
  }

  CompactClip out;
  out.name_ = clip.name();
  out.duration_ = clip.duration();
  {
    auto built = build_clip(residual, joint_count, morph_counts, clip.name());
    if (!built) return fail(built.error());
    out.residual_ = std::move(*built);
  }
  // Radius of each joint: the farthest descendant joint in the rest pose, plus the virtual
  // distance, so that a rotation or scale error is weighed by the skin it moves.
  const auto parents = skeleton.parents();
  std::vector<float> radius(static_cast<std::size_t>(joint_count), 0.0f);
  for (int d = 0; d < joint_count; ++d) {
    const vec3 p = vec3(rest_model[static_cast<std::size_t>(d)][3]);
    for (int a = d; a >= 0; a = parents[static_cast<std::size_t>(a)]) {
      const float dist = glm::length(p - vec3(rest_model[static_cast<std::size_t>(a)][3]));
      radius[static_cast<std::size_t>(a)] = std::max(radius[static_cast<std::size_t>(a)], dist);
    }
  }
  for (float& r : radius) r += options.virtual_distance * std::sqrt(3.0f);

  std::uint32_t keys_in = 0;
  for (const Source& s : sources) keys_in += static_cast<std::uint32_t>(s.times.size());
  // Wide rotation segments filled in (densify_rotation): the nlerp's stray on a filled-in segment
  // stays within an eighth of the tolerance at the joint's radius, so that reduce() has keys
  // that meet its budget; at most 256 points a segment.
  std::vector<DenseRotation> dense;
  dense.reserve(sources.size());
  for (Source& s : sources) {
    if (s.target != TrackTarget::kRotation) continue;
    const float r = std::max(radius[s.joint], 1e-30f);
    const float max_arc =
        std::clamp(std::cbrt(options.tolerance / (8.0f * r * kNlerpStray)), 0.00625f, 0.5f);
    DenseRotation d;
    if (!densify_rotation(s, max_arc, d)) continue;
    dense.push_back(std::move(d));
    s.times = dense.back().times;
    s.values = dense.back().values;
  }

  for (const Source& s : sources)
    out.times_.insert(out.times_.end(), s.times.begin(), s.times.end());
  std::ranges::sort(out.times_);
  out.times_.erase(std::unique(out.times_.begin(), out.times_.end()), out.times_.end());
  if (out.times_.size() > kMaxFrames)
    return fail(Error::at(ErrorCode::kLimit, clip.name(), "",
                          "more than 65535 distinct key times (with the points added inside wide "
                          "rotation segments); the clip cannot be compacted"));
  for (const Source& s : sources) out.max_joint_ = std::max<std::int32_t>(out.max_joint_, s.joint);

  // Times at which the model-space error is measured: every key time, and a quarter, half and
  // three quarters of the way to the next.
  std::vector<float> probe;
  for (std::size_t i = 0; i < out.times_.size(); ++i) {
    probe.push_back(out.times_[i]);
    for (const float f : {0.25f, 0.5f, 0.75f})
      if (i + 1 < out.times_.size())
        probe.push_back(out.times_[i] + f * (out.times_[i + 1] - out.times_[i]));
  }
  const auto rest = skeleton.rest_pose();
  std::vector<Transform> exact_pose, compact_pose;
  std::vector<mat4> scratch;
  std::vector<vec3> exact_points, compact_points;
  std::vector<std::vector<vec3>> reference(probe.size());
  for (std::size_t p = 0; p < probe.size(); ++p) {
    exact_pose.assign(rest.begin(), rest.end());
    for (const Source& s : sources) {
      const vec4 v = exact_at(s, probe[p]);
      Transform& o = exact_pose[s.joint];
      if (s.target == TrackTarget::kRotation)
        o.rotation = as_quat(v);
      else if (s.target == TrackTarget::kTranslation)
        o.translation = vec3(v);
      else
        o.scale = vec3(v);
    }
    model_points(parents, exact_pose, options.virtual_distance, scratch, reference[p]);
  }
  const auto measure = [&](const CompactClip& c) {
    float worst = 0.0f;
    for (std::size_t p = 0; p < probe.size(); ++p) {
      compact_pose.assign(rest.begin(), rest.end());
      apply_compact(c, probe[p], compact_pose);
      model_points(parents, compact_pose, options.virtual_distance, scratch, compact_points);
      for (std::size_t i = 0; i < compact_points.size(); ++i) {
        const float e = glm::length(compact_points[i] - reference[p][i]);
        worst = std::max(worst, e);
      }
    }
    return worst;
  };

  // The local budgets add up along a chain, so the budget is searched: start at half the
  // tolerance, shrink while the measured error is over it, grow while it is well under, and keep
  // the smallest clip within the bound.
  float scale = 0.5f;
  constexpr float kNone = std::numeric_limits<float>::max();
  float good = 0.0f, bad = kNone;
  bool have_best = false;
  float best_error = 0.0f;
  std::size_t best_bytes = std::numeric_limits<std::size_t>::max();
  CompactClip candidate;
  candidate.name_ = out.name_;
  candidate.duration_ = out.duration_;
  candidate.times_ = out.times_;
  candidate.max_joint_ = out.max_joint_;
  for (int attempt = 0; attempt < 8; ++attempt) {
    std::vector<Encoded> encoded;
    encoded.reserve(sources.size());
    for (const Source& s : sources)
      encoded.push_back(reduce(s, options.tolerance * scale, radius[s.joint], out.times_));
    assemble(encoded, candidate.tracks_, candidate.ranges_, candidate.key_frames_, candidate.words_,
             candidate.constant_count_);
    const float error = measure(candidate);
    const std::size_t bytes = candidate.byte_size();
    if (error <= options.tolerance && bytes < best_bytes) {
      have_best = true;
      best_bytes = bytes;
      best_error = error;
      out.tracks_ = candidate.tracks_;
      out.ranges_ = candidate.ranges_;
      out.key_frames_ = candidate.key_frames_;
      out.words_ = candidate.words_;
      out.constant_count_ = candidate.constant_count_;
    }
    // Scales known to pass and to fail bracket the search; until both are known the next scale
    // follows the measured ratio.
    if (error <= options.tolerance)
      good = std::max(good, scale);
    else
      bad = std::min(bad, scale);
    const float ratio = error > 0.0f ? options.tolerance / error : 4.0f;
    if (good > 0.0f && bad < kNone) {
      if (bad / good < 1.15f) break;
      scale = std::sqrt(good * bad);
    } else if (good > 0.0f) {
      if (ratio < 1.1f) break;
      scale *= std::min(2.0f, 0.95f * ratio);
    } else {
      scale *= std::clamp(0.9f * ratio, 0.1f, 0.9f);
    }
  }
  if (!have_best) {
    // Every key as floats: the exact keys, sampled with the compact interpolation.
    std::vector<Encoded> encoded;
    for (const Source& s : sources) {
      std::vector<std::uint32_t> all(s.times.size());
      for (std::size_t k = 0; k < all.size(); ++k) all[k] = static_cast<std::uint32_t>(k);
      encoded.push_back(encode(s, CompactFormat::kFloat, all, out.times_));
    }
    assemble(encoded, out.tracks_, out.ranges_, out.key_frames_, out.words_, out.constant_count_);
    best_error = measure(out);
  }
  drop_unused_times(out.times_, out.key_frames_);
  out.index_tracks();
  if (stats) {
    stats->tolerance = options.tolerance;
    stats->max_error = best_error;
    stats->exact_bytes = clip.byte_size();
    stats->bytes = out.byte_size();
    stats->keys_in = keys_in;
    stats->keys_out = 0;
    for (const CompactTrack& t : out.tracks_) stats->keys_out += t.key_count;
  }
  return out;
}

CompactClipParts CompactClip::parts() const {
  CompactClipParts p;
  p.name = name_;
  p.duration = duration_;
  p.times = times_;
  p.tracks = tracks_;
  p.ranges = ranges_;
  p.key_frames = key_frames_;
  p.words = words_;
  p.residual.name = residual_.name();
  for (const Track& t : residual_.tracks()) {
    RawTrack raw;
    raw.target = t.target;
    raw.index = t.index;
    raw.interpolation = t.interpolation;
    raw.components = t.components;
    const auto times = residual_.track_times(t);
    const auto values = residual_.track_values(t);
    raw.times.assign(times.begin(), times.end());
    raw.values.assign(values.begin(), values.end());
    p.residual.tracks.push_back(std::move(raw));
  }
  return p;
}

namespace {

// How many frames are not above the frame before them.
std::size_t count_not_increasing(std::span<const std::uint16_t> frames) {
  const std::uint16_t* f = frames.data();
  const std::size_t n = frames.size();
  std::size_t count = 0, k = 1;
#if defined(__x86_64__) && defined(__GNUC__)
  if (cpu_has_avx512())
    count = detail::count_not_increasing_avx512(f, n, k);
  else if (cpu_has_avx2_fma())
    count = detail::count_not_increasing_avx2(f, n, k);
#endif
  for (; k < n; ++k) count += f[k] <= f[k - 1] ? 1u : 0u;
  return count;
}

// Whether every frame that is not above the one before it starts a track (the first frame of a
// track with frames): then the frames of every track the tracks' running sums lay over the array
// are increasing. One pass over the whole array instead of one per track.
bool frames_rise_in_every_track(std::span<const CompactTrack> tracks,
                                std::span<const std::uint16_t> frames) {
  std::size_t starts = 0;  // starts not above the frame before them
  std::uint64_t at = 0;
  for (const CompactTrack& t : tracks) {
    if (t.frame_count() > 0 && at > 0 && at < frames.size() && frames[at] <= frames[at - 1])
      ++starts;
    at += t.frame_count();
  }
  return count_not_increasing(frames) == starts;
}

}  // namespace

Result<CompactClip> CompactClip::from_parts(CompactClipParts parts, int joint_count,
                                            std::span<const std::size_t> morph_counts,
                                            std::string_view path) {
  const std::string file(path);
  const auto bad = [&](const std::string& where, const std::string& msg) {
    return fail(Error::at(ErrorCode::kInvalid, file, where, msg));
  };
  if (!std::isfinite(parts.duration) || parts.duration < 0.0f)
    return bad("duration", "duration is not a finite time >= 0");
  if (parts.times.size() > kMaxFrames) return bad("times", "more than 65535 key times");
  for (std::size_t i = 0; i < parts.times.size(); ++i) {
    if (!std::isfinite(parts.times[i]) || (i > 0 && !(parts.times[i] > parts.times[i - 1])))
      return bad("times/" + std::to_string(i), "key times must be finite and increasing");
  }
  CompactClip out;
  std::uint32_t constants = 0;
  bool animated_seen = false;
  CompactOffsets at;
  // Tracks' frames are looked at one track at a time only when the whole array's pass finds a
  // fall inside a track (to name the first such track, in the order of the other checks).
  const bool check_each_track = !frames_rise_in_every_track(parts.tracks, parts.key_frames);
  for (std::size_t i = 0; i < parts.tracks.size(); ++i) {
    const CompactTrack& t = parts.tracks[i];
    const auto where = [i] { return "tracks/" + std::to_string(i); };
    if (!is_joint_target(t.target)) return bad(where(), "track target is not T, R or S");
    if (t.format != CompactFormat::kQuantized && t.format != CompactFormat::kFloat)
      return bad(where(), "unknown value format");
    if (t.joint >= joint_count)
      return bad(where(), "track targets joint " + std::to_string(t.joint) + ", skeleton has " +
                              std::to_string(joint_count));
    if (t.key_count == 0) return bad(where(), "track has no keys");
    if (t.key_count == 1) {
      if (animated_seen) return bad(where(), "constant track after an animated one");
      ++constants;
    } else {
      animated_seen = true;
    }
    const CompactOffsets begin = at;
    at.advance(t);
    if (at.frame > parts.key_frames.size()) return bad(where(), "keys run past the key frames");
    if (at.word > parts.words.size()) return bad(where(), "values run past the words");
    if (at.range > parts.ranges.size()) return bad(where(), "ranges run past the range array");
    // Branch-free over every key (it vectorises): increasing, and the last one inside the times.
    const std::uint16_t* frames = parts.key_frames.data() + begin.frame;
    const std::size_t keys = at.frame - begin.frame;
    unsigned decreasing = 0;
    if (check_each_track)
      for (std::size_t k = 1; k < keys; ++k) decreasing |= frames[k] <= frames[k - 1] ? 1u : 0u;
    if (decreasing != 0 || (keys > 0 && frames[keys - 1] >= parts.times.size()))
      return bad(where(), "key frames must be increasing indices of the key times");
    for (std::uint32_t c = 0; c < t.range_count(); ++c) {
      const float v = parts.ranges[begin.range + c];
      if (!std::isfinite(v) || (c >= 3 && v < 0.0f))
        return bad(where(), "value range is not finite");
    }
    if (t.format == CompactFormat::kFloat) {
      // Every float finite, and float rotations unit quaternions (the sampler does not
      // renormalise keys). A branch-free pass first; the first offending value is looked for
      // only when it fails. A unit quaternion's floats are finite, so rotations take one pass.
      const std::size_t floats = std::size_t{t.key_count} * t.stride() / 2;
      const std::uint16_t* w = parts.words.data() + begin.word;
      const bool rotation = t.target == TrackTarget::kRotation;
      if (!(rotation ? all_unit_quaternion_words(w, t.key_count)
                     : all_finite_float_words(w, floats))) {
        for (std::size_t v = 0; v < floats; ++v) {
          if (!std::isfinite(compact::load_float(w + 2 * v)))
            return bad(where(), "value " + std::to_string(v) + " is not finite");
        }
        for (std::uint32_t k = 0; k < t.key_count; ++k) {
          if (!all_unit_quaternion_words(w + std::size_t{k} * 8, 1))
            return bad(where(), "rotation key " + std::to_string(k) + " is not a unit quaternion");
        }
      }
    }
    out.max_joint_ = std::max<std::int32_t>(out.max_joint_, t.joint);
  }
  if (at.frame != parts.key_frames.size())
    return bad("key_frames", "key frames that no track uses");
  if (at.word != parts.words.size()) return bad("words", "words that no track uses");
  if (at.range != parts.ranges.size()) return bad("ranges", "ranges that no track uses");
  auto residual = build_clip(parts.residual, joint_count, morph_counts, path);
  if (!residual) return fail(residual.error());
  out.residual_ = std::move(*residual);
  out.name_ = std::move(parts.name);
  out.duration_ = parts.duration;
  out.times_ = std::move(parts.times);
  out.tracks_ = std::move(parts.tracks);
  out.ranges_ = std::move(parts.ranges);
  out.key_frames_ = std::move(parts.key_frames);
  out.words_ = std::move(parts.words);
  out.constant_count_ = constants;
  out.index_tracks();
  return out;
}

}  // namespace critter
