#include "critter/asset/clip.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>
#include <utility>

namespace critter {

std::string_view to_string(Interpolation i) {
  switch (i) {
    case Interpolation::kStep:
      return "STEP";
    case Interpolation::kLinear:
      return "LINEAR";
    case Interpolation::kCubicSpline:
      return "CUBICSPLINE";
  }
  return "?";
}

std::string_view to_string(TrackTarget t) {
  switch (t) {
    case TrackTarget::kTranslation:
      return "translation";
    case TrackTarget::kRotation:
      return "rotation";
    case TrackTarget::kScale:
      return "scale";
    case TrackTarget::kWeights:
      return "weights";
  }
  return "?";
}

namespace {

// FNV-1a over the bit patterns of a key time list.
std::uint64_t hash_times(std::span<const float> times) {
  std::uint64_t h = 14695981039346656037ull;
  for (const float t : times) {
    h ^= std::bit_cast<std::uint32_t>(t);
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

void Clip::index_for_sampling(std::size_t mesh_count) {
  Clip& clip = *this;
  const std::size_t n = clip.tracks_.size();
  const std::span<const float> all_times(clip.times_);

  // Timelines: bucket by hash, then compare the times themselves.
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> buckets;
  clip.track_timelines_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Track& t = clip.tracks_[i];
    const auto times = all_times.subspan(t.key_begin, t.key_count);
    auto& bucket = buckets[hash_times(times)];
    std::uint32_t found = static_cast<std::uint32_t>(clip.timelines_.size());
    for (const std::uint32_t candidate : bucket) {
      const Clip::Timeline& tl = clip.timelines_[candidate];
      if (tl.key_count == t.key_count &&
          std::ranges::equal(all_times.subspan(tl.key_begin, tl.key_count), times)) {
        found = candidate;
        break;
      }
    }
    if (found == clip.timelines_.size()) {
      clip.timelines_.push_back({t.key_begin, t.key_count});
      bucket.push_back(found);
    }
    clip.track_timelines_[i] = found;
  }

  // Live tracks: walking backwards, a track is live when no later track had its target.
  for (const Track& t : clip.tracks_)
    if (t.target != TrackTarget::kWeights) clip.max_joint_ = std::max(clip.max_joint_, t.index);
  const auto joints = static_cast<std::size_t>(clip.max_joint_ + 1);
  std::vector<std::uint8_t> channels(joints, 0);  // bit (1 << target) per joint
  std::vector<std::uint8_t> mesh_seen(mesh_count, 0);
  std::vector<std::uint8_t> live(n, 0);
  for (std::size_t i = n; i-- > 0;) {
    const Track& t = clip.tracks_[i];
    const auto index = static_cast<std::size_t>(t.index);
    if (t.target == TrackTarget::kWeights) {
      if (index < mesh_count && !mesh_seen[index]) {
        mesh_seen[index] = 1;
        live[i] = 1;
      }
    } else {
      const auto bit = static_cast<std::uint8_t>(1u << static_cast<unsigned>(t.target));
      if (!(channels[index] & bit)) {
        channels[index] |= bit;
        live[i] = 1;
      }
    }
  }
  while (clip.animated_prefix_ < joints && channels[clip.animated_prefix_] == 7u)
    ++clip.animated_prefix_;

  // Live LINEAR T/R/S tracks grouped by (target, timeline), each group sorted by joint.
  std::map<std::pair<TrackTarget, std::uint32_t>, std::vector<std::uint32_t>> groups;
  for (std::size_t i = 0; i < n; ++i) {
    const Track& t = clip.tracks_[i];
    const auto ti = static_cast<std::uint32_t>(i);
    if (t.target == TrackTarget::kWeights) clip.weight_tracks_.push_back(ti);
    if (!live[i]) continue;
    if (t.interpolation != Interpolation::kLinear || t.target == TrackTarget::kWeights)
      clip.other_tracks_.push_back(ti);
    else
      groups[{t.target, clip.track_timelines_[i]}].push_back(ti);
  }
  for (auto& [key, list] : groups) {
    std::ranges::sort(list, {}, [&](std::uint32_t i) { return clip.tracks_[i].index; });
    const std::uint32_t components = key.first == TrackTarget::kRotation ? 4u : 3u;
    const std::uint32_t keys = clip.timelines_[key.second].key_count;
    for (std::size_t first = 0; first < list.size(); first += 4) {
      Clip::LinearBatch batch{};
      batch.target = key.first;
      batch.lanes = static_cast<std::uint8_t>(std::min<std::size_t>(4, list.size() - first));
      batch.timeline = key.second;
      batch.value_begin = static_cast<std::uint32_t>(clip.batch_values_.size());
      const float* lane_values[4];
      for (std::size_t lane = 0; lane < 4; ++lane) {
        const Track& t = clip.tracks_[list[first + (lane < batch.lanes ? lane : 0)]];
        batch.joints[lane] = t.index;
        lane_values[lane] = clip.values_.data() + t.value_begin;
      }
      for (std::uint32_t k = 0; k < keys; ++k)
        for (std::uint32_t c = 0; c < components; ++c)
          for (const float* v : lane_values) clip.batch_values_.push_back(v[k * components + c]);
      clip.linear_batches_.push_back(batch);
    }
  }
  std::ranges::stable_sort(clip.linear_batches_, {},
                           [](const Clip::LinearBatch& b) { return b.joints[0]; });
}

Result<Clip> build_clip(const RawClip& raw, int joint_count,
                        std::span<const std::size_t> morph_counts, std::string_view path) {
  const std::string file(path);
  Clip clip;
  clip.name_ = raw.name;
  std::size_t total_keys = 0, total_values = 0;
  for (const RawTrack& t : raw.tracks) {
    total_keys += t.times.size();
    total_values += t.values.size();
  }
  if (total_keys > std::numeric_limits<std::uint32_t>::max() ||
      total_values > std::numeric_limits<std::uint32_t>::max()) {
    return fail(Error::at(ErrorCode::kLimit, file, raw.source_location,
                          "clip '" + raw.name + "' has more than 2^32 keys or values"));
  }
  clip.tracks_.reserve(raw.tracks.size());
  clip.times_.reserve(total_keys);
  clip.values_.reserve(total_values);

  for (std::size_t ti = 0; ti < raw.tracks.size(); ++ti) {
    const RawTrack& t = raw.tracks[ti];
    const std::string where = t.source_location.empty()
                                  ? raw.source_location + "/tracks/" + std::to_string(ti)
                                  : t.source_location;
    auto err = [&](ErrorCode code, const std::string& msg) {
      return fail(Error::at(code, file, where, msg));
    };
    if (t.target == TrackTarget::kWeights) {
      if (t.index < 0 || static_cast<std::size_t>(t.index) >= morph_counts.size())
        return err(ErrorCode::kOutOfRange, "weights track targets mesh " + std::to_string(t.index) +
                                               ", model has " +
                                               std::to_string(morph_counts.size()) + " meshes");
      if (t.components != morph_counts[static_cast<std::size_t>(t.index)])
        return err(ErrorCode::kInvalid,
                   "weights track has " + std::to_string(t.components) + " components, mesh has " +
                       std::to_string(morph_counts[static_cast<std::size_t>(t.index)]) +
                       " morph targets");
      if (t.components == 0)
        return err(ErrorCode::kInvalid, "weights track for a mesh without targets");
    } else {
      if (t.index < 0 || t.index >= joint_count)
        return err(ErrorCode::kOutOfRange, std::string(to_string(t.target)) +
                                               " track targets joint " + std::to_string(t.index) +
                                               ", skeleton has " + std::to_string(joint_count) +
                                               " joints");
      const std::uint32_t want = t.target == TrackTarget::kRotation ? 4u : 3u;
      if (t.components != want)
        return err(ErrorCode::kInvalid, std::string(to_string(t.target)) + " track has " +
                                            std::to_string(t.components) +
                                            " components, expected " + std::to_string(want));
    }
    if (t.components > 0xFFFFu) return err(ErrorCode::kLimit, "too many components");
    if (t.times.empty()) return err(ErrorCode::kInvalid, "track has no keys");
    const std::size_t stride =
        (t.interpolation == Interpolation::kCubicSpline ? 3u : 1u) * std::size_t{t.components};
    if (t.values.size() != t.times.size() * stride)
      return err(ErrorCode::kInvalid, "track has " + std::to_string(t.values.size()) +
                                          " values for " + std::to_string(t.times.size()) +
                                          " keys, expected " +
                                          std::to_string(t.times.size() * stride) + " (" +
                                          std::string(to_string(t.interpolation)) + ")");
    for (std::size_t k = 0; k < t.times.size(); ++k) {
      const float time = t.times[k];
      if (!std::isfinite(time) || time < 0.0f)
        return err(ErrorCode::kInvalid, "key " + std::to_string(k) + " has time " +
                                            std::to_string(time) + ", expected a finite time >= 0");
      if (k > 0 && time < t.times[k - 1])
        return err(ErrorCode::kInvalid,
                   "key " + std::to_string(k) + " time " + std::to_string(time) +
                       " is before the previous key's " + std::to_string(t.times[k - 1]));
    }
    for (std::size_t v = 0; v < t.values.size(); ++v)
      if (!std::isfinite(t.values[v]))
        return err(ErrorCode::kInvalid, "value " + std::to_string(v) + " is not finite");

    Track built{};
    built.target = t.target;
    built.interpolation = t.interpolation;
    built.components = static_cast<std::uint16_t>(t.components);
    built.index = t.index;
    built.key_begin = static_cast<std::uint32_t>(clip.times_.size());
    built.key_count = static_cast<std::uint32_t>(t.times.size());
    built.value_begin = static_cast<std::uint32_t>(clip.values_.size());
    clip.times_.insert(clip.times_.end(), t.times.begin(), t.times.end());
    const std::size_t first_value = clip.values_.size();
    clip.values_.insert(clip.values_.end(), t.values.begin(), t.values.end());
    if (t.target == TrackTarget::kRotation) {
      // Normalise rotation values (cubic tangents are left as authored).
      for (std::size_t k = 0; k < t.times.size(); ++k) {
        const std::size_t at =
            first_value + k * stride + (t.interpolation == Interpolation::kCubicSpline ? 4u : 0u);
        float* q = clip.values_.data() + at;
        const float len = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        if (len < 1e-12f)
          return err(ErrorCode::kInvalid, "key " + std::to_string(k) + " has a zero rotation");
        for (int c = 0; c < 4; ++c) q[c] /= len;
      }
    }
    clip.duration_ = std::max(clip.duration_, t.times.back());
    clip.tracks_.push_back(built);
  }
  clip.index_for_sampling(morph_counts.size());
  return clip;
}

}  // namespace critter
