// SPDX-License-Identifier: MIT
#include "critter/io/clip_ranges.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "anim/quat_slerp.h"
#include "critter/core/strings.h"

namespace critter::io {

namespace {

std::string_view trim(std::string_view s) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

// Only plain decimals: from_chars alone would also take "inf", "nan" and exponents, none of
// which is a frame number a user means.
bool parse_frame(std::string_view s, double& out) {
  if (s.empty()) return false;
  bool digit = false, dot = false;
  for (char c : s) {
    if (c >= '0' && c <= '9') {
      digit = true;
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      return false;
    }
  }
  if (!digit) return false;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out, std::chars_format::fixed);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && std::isfinite(out);
}

std::string frame_text(double f) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof(buf), f);
  return std::string(buf, r.ptr);
}

}  // namespace

Result<std::vector<ClipRange>> parse_clip_ranges(std::string_view text, std::string_view option) {
  const auto fail_entry = [&](std::size_t n, std::string_view entry, std::string message) {
    return fail(Error::at(ErrorCode::kUsage, std::string(option), "",
                          "entry " + std::to_string(n) + " " + in_quotes(entry) + ": " + message));
  };
  std::vector<ClipRange> out;
  if (trim(text).empty()) {
    return fail(Error::at(ErrorCode::kUsage, std::string(option), "",
                          "no clip ranges (expected name:start-end[,name:start-end...])"));
  }
  std::size_t n = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    const std::string_view entry = trim(text.substr(pos, comma - pos));
    pos = comma + 1;
    ++n;
    if (entry.empty()) return fail_entry(n, entry, "empty entry");
    const std::size_t colon = entry.rfind(':');
    if (colon == std::string_view::npos) {
      return fail_entry(n, entry, "missing ':' between clip name and frame range");
    }
    const std::string_view name = trim(entry.substr(0, colon));
    const std::string_view range = trim(entry.substr(colon + 1));
    if (name.empty()) return fail_entry(n, entry, "missing clip name");
    if (range.empty()) return fail_entry(n, entry, "missing frame range");
    const std::size_t dash = range.find('-');
    if (dash == std::string_view::npos) {
      return fail_entry(n, entry, "missing '-' between start and end frame");
    }
    const std::string_view start = trim(range.substr(0, dash));
    const std::string_view end = trim(range.substr(dash + 1));
    if (start.empty()) return fail_entry(n, entry, "missing start frame");
    if (end.empty()) return fail_entry(n, entry, "missing end frame");
    ClipRange r;
    r.name = std::string(name);
    if (!parse_frame(start, r.start_frame)) {
      return fail_entry(
          n, entry, "start frame " + in_quotes(start) + " is not a non-negative decimal number");
    }
    if (!parse_frame(end, r.end_frame)) {
      return fail_entry(n, entry,
                        "end frame " + in_quotes(end) + " is not a non-negative decimal number");
    }
    if (r.end_frame < r.start_frame) {
      return fail_entry(n, entry,
                        "end frame " + frame_text(r.end_frame) + " is before start frame " +
                            frame_text(r.start_frame));
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
      if (out[i].name == r.name) {
        return fail_entry(
            n, entry, "clip name " + in_quotes(r.name) + " repeats entry " + std::to_string(i + 1));
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::string format_clip_ranges(std::span<const ClipRange> ranges) {
  std::string out;
  for (const ClipRange& r : ranges) {
    if (!out.empty()) out += ',';
    out += r.name + ":" + frame_text(r.start_frame) + "-" + frame_text(r.end_frame);
  }
  return out;
}

namespace {

// Value (and, for CUBICSPLINE, slope per second) of one track at time t, with the hold rules of
// SamplingJob.
struct TrackSampler {
  const RawTrack& track;
  std::uint32_t stride() const {
    return track.interpolation == Interpolation::kCubicSpline ? 3u * track.components
                                                              : track.components;
  }
  // Offset of key k's value (skipping the in-tangent for CUBICSPLINE).
  std::size_t value_at(std::size_t k) const {
    const std::size_t base = k * stride();
    return track.interpolation == Interpolation::kCubicSpline ? base + track.components : base;
  }

  // `at_end`: the sample closes the cut clip, so a CUBICSPLINE key met exactly keeps its
  // in-tangent (else its out-tangent): the tangent on the side the cut clip still plays.
  void sample(float t, bool at_end, std::vector<float>& value, std::vector<float>& slope) const {
    const std::uint32_t c = track.components;
    value.assign(c, 0.0f);
    slope.assign(c, 0.0f);
    const std::vector<float>& times = track.times;
    const std::vector<float>& v = track.values;
    const std::size_t n = times.size();
    // Last key with time <= t; "last of equal times wins" as in SamplingJob.
    const auto after = std::upper_bound(times.begin(), times.end(), t);
    if (after == times.begin()) {
      copy_key(0, value);
      return;
    }
    const std::size_t k = static_cast<std::size_t>(after - times.begin()) - 1;
    if (k + 1 >= n || t <= times[k] || track.interpolation == Interpolation::kStep) {
      copy_key(k, value);
      if (track.interpolation == Interpolation::kCubicSpline && t <= times[k]) {
        const std::size_t tangent = at_end ? value_at(k) - c : value_at(k) + c;
        for (std::uint32_t i = 0; i < c; ++i) slope[i] = v[tangent + i];
      }
      return;
    }
    const float delta = times[k + 1] - times[k];
    const float s = (t - times[k]) / delta;
    const std::size_t a = value_at(k), b = value_at(k + 1);
    if (track.interpolation == Interpolation::kLinear) {
      if (track.target == TrackTarget::kRotation && c == 4) {
        const quat qa = anim::detail::normalize_or(quat_xyzw(v[a], v[a + 1], v[a + 2], v[a + 3]),
                                                   quat(1.0f, 0.0f, 0.0f, 0.0f));
        const quat qb = anim::detail::normalize_or(quat_xyzw(v[b], v[b + 1], v[b + 2], v[b + 3]),
                                                   quat(1.0f, 0.0f, 0.0f, 0.0f));
        const quat q = anim::detail::slerp_shortest(qa, qb, s);
        value = {q.x, q.y, q.z, q.w};
        return;
      }
      for (std::uint32_t i = 0; i < c; ++i) value[i] = v[a + i] + (v[b + i] - v[a + i]) * s;
      return;
    }
    // CUBICSPLINE: key k's out-tangent follows its value, key k+1's in-tangent precedes its value.
    const std::size_t out_tangent = a + c, in_tangent = b - c;
    const float s2 = s * s, s3 = s2 * s;
    const float h00 = 2.0f * s3 - 3.0f * s2 + 1.0f, h10 = s3 - 2.0f * s2 + s;
    const float h01 = -2.0f * s3 + 3.0f * s2, h11 = s3 - s2;
    const float d00 = 6.0f * s2 - 6.0f * s, d10 = 3.0f * s2 - 4.0f * s + 1.0f;
    const float d01 = -6.0f * s2 + 6.0f * s, d11 = 3.0f * s2 - 2.0f * s;
    for (std::uint32_t i = 0; i < c; ++i) {
      const float p0 = v[a + i], m0 = v[out_tangent + i], p1 = v[b + i], m1 = v[in_tangent + i];
      value[i] = h00 * p0 + h10 * delta * m0 + h01 * p1 + h11 * delta * m1;
      slope[i] = (d00 * p0 + d10 * delta * m0 + d01 * p1 + d11 * delta * m1) / delta;
    }
  }

  void copy_key(std::size_t k, std::vector<float>& value) const {
    const std::size_t a = value_at(k);
    for (std::uint32_t i = 0; i < track.components; ++i) value[i] = track.values[a + i];
  }

  // Appends key k unchanged (with its tangents for CUBICSPLINE).
  void append_key(std::size_t k, RawTrack& out) const {
    const std::size_t base = k * stride();
    out.values.insert(out.values.end(), track.values.begin() + static_cast<std::ptrdiff_t>(base),
                      track.values.begin() + static_cast<std::ptrdiff_t>(base + stride()));
  }
};

void append_sampled(const RawTrack& track, const std::vector<float>& value,
                    const std::vector<float>& slope, RawTrack& out) {
  if (track.interpolation == Interpolation::kCubicSpline) {
    out.values.insert(out.values.end(), slope.begin(), slope.end());
    out.values.insert(out.values.end(), value.begin(), value.end());
    out.values.insert(out.values.end(), slope.begin(), slope.end());
  } else {
    out.values.insert(out.values.end(), value.begin(), value.end());
  }
}

}  // namespace

Result<std::vector<RawClip>> split_clip(const RawClip& source, double frames_per_second,
                                        std::span<const ClipRange> ranges, std::string_view path,
                                        Diagnostics* diag) {
  const auto usage = [&](std::string location, std::string message) {
    return fail(
        Error::at(ErrorCode::kUsage, std::string(path), std::move(location), std::move(message)));
  };
  if (!std::isfinite(frames_per_second) || !(frames_per_second > 0.0)) {
    return usage("clip " + in_quotes(source.name),
                 "frames per second must be finite and > 0, got " + frame_text(frames_per_second));
  }
  // Keys are checked here rather than trusted: a malformed track must not index out of bounds.
  float last_key = 0.0f;
  bool any_key = false;
  for (std::size_t i = 0; i < source.tracks.size(); ++i) {
    const RawTrack& t = source.tracks[i];
    const std::size_t stride =
        t.interpolation == Interpolation::kCubicSpline ? 3u * t.components : t.components;
    if (t.times.empty() || t.components == 0 || t.values.size() != t.times.size() * stride ||
        !std::is_sorted(t.times.begin(), t.times.end())) {
      return fail(
          Error::at(ErrorCode::kInvalid, std::string(path),
                    t.source_location.empty() ? "tracks/" + std::to_string(i) : t.source_location,
                    "track keys are empty, unsorted or do not match their values"));
    }
    last_key = any_key ? std::max(last_key, t.times.back()) : t.times.back();
    any_key = true;
  }

  std::vector<RawClip> out;
  out.reserve(ranges.size());
  std::vector<float> value, slope;
  for (std::size_t r = 0; r < ranges.size(); ++r) {
    const ClipRange& range = ranges[r];
    const std::string where = "clips/" + std::to_string(r) + " " + in_quotes(range.name);
    if (range.name.empty()) return usage(where, "clip range has no name");
    for (std::size_t q = 0; q < r; ++q) {
      if (ranges[q].name == range.name)
        return usage(where, "clip name repeats range " + std::to_string(q));
    }
    if (!std::isfinite(range.start_frame) || !std::isfinite(range.end_frame) ||
        range.start_frame < 0.0 || range.end_frame < range.start_frame) {
      return usage(where, "frame range " + frame_text(range.start_frame) + "-" +
                              frame_text(range.end_frame) + " must satisfy 0 <= start <= end");
    }
    const float t0 = static_cast<float>(range.start_frame / frames_per_second);
    const float t1 = static_cast<float>(range.end_frame / frames_per_second);
    const float length =
        static_cast<float>((range.end_frame - range.start_frame) / frames_per_second);
    if (diag && any_key && t1 > last_key) {
      const double last_frame = static_cast<double>(last_key) * frames_per_second;
      diag->warn(std::string(path), where,
                 "frames " + frame_text(range.start_frame) + "-" + frame_text(range.end_frame) +
                     (t0 > last_key ? " start" : " end") + " after the last key (frame " +
                     frame_text(std::round(last_frame * 1000.0) / 1000.0) +
                     "); the last key's values are held");
    }
    // Keys this close to a boundary are the boundary itself (frame times are rounded to float
    // once in the source and once here).
    const float eps = 1e-6f * std::max(1.0f, std::abs(t1));

    RawClip clip;
    clip.name = range.name;
    clip.source_location = source.source_location.empty() ? where
                                                          : source.source_location + " frames " +
                                                                frame_text(range.start_frame) +
                                                                "-" + frame_text(range.end_frame);
    clip.tracks.reserve(source.tracks.size());
    for (const RawTrack& track : source.tracks) {
      const TrackSampler sampler{track};
      RawTrack t;
      t.target = track.target;
      t.index = track.index;
      t.interpolation = track.interpolation;
      t.components = track.components;
      t.source_location = track.source_location;

      sampler.sample(t0, false, value, slope);
      t.times.push_back(0.0f);
      append_sampled(track, value, slope, t);
      if (length > 0.0f) {
        for (std::size_t k = 0; k < track.times.size(); ++k) {
          const float time = track.times[k];
          if (time > t0 + eps && time < t1 - eps) {
            t.times.push_back(std::clamp(time - t0, 0.0f, length));
            sampler.append_key(k, t);
          }
        }
        sampler.sample(t1, true, value, slope);
        t.times.push_back(length);
        append_sampled(track, value, slope, t);
      }
      clip.tracks.push_back(std::move(t));
    }
    out.push_back(std::move(clip));
  }
  return out;
}

void scale_clip_time(RawClip& clip, double factor) {
  const float f = static_cast<float>(factor);
  for (RawTrack& track : clip.tracks) {
    for (float& t : track.times) t *= f;
    if (track.interpolation != Interpolation::kCubicSpline) continue;
    // Each key holds in-tangent, value, out-tangent.
    const std::size_t c = track.components;
    for (std::size_t base = 0; base + 3 * c <= track.values.size(); base += 3 * c) {
      for (std::size_t i = 0; i < c; ++i) {
        track.values[base + i] /= f;
        track.values[base + 2 * c + i] /= f;
      }
    }
  }
}

}  // namespace critter::io
