// SPDX-License-Identifier: MIT
#include "critter/asset/compact_clip.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "critter/asset/model.h"
#include "critter/asset/synthetic_character.h"

namespace critter {
namespace {

Model compact_synthetic() {
  auto model = build_model(make_synthetic_character());
  EXPECT_TRUE(model.has_value());
  auto compact = with_compact_clips(std::move(*model), 1e-4f);
  EXPECT_TRUE(compact.has_value());
  return std::move(*compact);
}

TEST(CompactClipTest, PartsRoundTripAndTracksStayShort) {
  const Model model = compact_synthetic();
  const CompactClip& clip = model.compact_clips()[0];
  EXPECT_EQ(sizeof(CompactTrack), 6u) << "a track is its joint, key count, target and format";
  auto again = CompactClip::from_parts(clip.parts(), model.skeleton().joint_count(), {});
  ASSERT_TRUE(again.has_value()) << again.error().to_string();
  EXPECT_EQ(again->byte_size(), clip.byte_size());
  EXPECT_EQ(again->constant_count(), clip.constant_count());
  EXPECT_EQ(again->max_joint(), clip.max_joint());
  // Every constant translation or scale is stored as floats, without a range.
  for (const CompactTrack& t : clip.tracks()) {
    if (t.key_count == 1 && t.target != TrackTarget::kRotation) {
      EXPECT_EQ(t.format, CompactFormat::kFloat);
    }
  }
}

// One broken field at a time: each is refused with ErrorCode::kInvalid naming it.
TEST(CompactClipTest, HostilePartsAreRejected) {
  const Model model = compact_synthetic();
  const CompactClipParts good = model.compact_clips()[0].parts();
  const int joints = model.skeleton().joint_count();
  std::size_t animated = 0, quantised_vec3 = 0;
  for (std::size_t i = 0; i < good.tracks.size(); ++i) {
    if (good.tracks[i].key_count > 1 && animated == 0) animated = i;
    if (good.tracks[i].range_count() > 0 && quantised_vec3 == 0) quantised_vec3 = i;
  }
  ASSERT_GT(animated, 0u);
  ASSERT_GT(quantised_vec3, 0u);
  const auto rejects = [&](const char* what, const std::function<void(CompactClipParts&)>& edit,
                           const std::string& where) {
    CompactClipParts parts = good;
    edit(parts);
    auto r = CompactClip::from_parts(std::move(parts), joints, {}, "hostile.crit");
    ASSERT_FALSE(r.has_value()) << what;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalid) << what;
    EXPECT_NE(r.error().location.find(where), std::string::npos)
        << what << ": " << r.error().to_string();
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  rejects(
      "time not finite", [&](CompactClipParts& p) { p.times[1] = nan; }, "times/1");
  rejects(
      "times decrease", [&](CompactClipParts& p) { p.times[2] = p.times[0]; }, "times/2");
  rejects(
      "duration", [&](CompactClipParts& p) { p.duration = -1.0f; }, "duration");
  rejects(
      "joint", [&](CompactClipParts& p) { p.tracks[0].joint = 65535; }, "tracks/0");
  rejects(
      "no keys", [&](CompactClipParts& p) { p.tracks[0].key_count = 0; }, "tracks/0");
  rejects(
      "target", [&](CompactClipParts& p) { p.tracks[0].target = TrackTarget::kWeights; },
      "tracks/0");
  rejects(
      "format", [&](CompactClipParts& p) { p.tracks[0].format = static_cast<CompactFormat>(7); },
      "tracks/0");
  rejects(
      "constant after animated",
      [&](CompactClipParts& p) {
        p.tracks.push_back(p.tracks[0]);
        p.tracks.back().key_count = 1;
      },
      "tracks/");
  rejects(
      "key frames past the end", [&](CompactClipParts& p) { p.tracks[animated].key_count = 65535; },
      "tracks/");
  rejects(
      "key frame outside the times",
      [&](CompactClipParts& p) { p.key_frames[1] = static_cast<std::uint16_t>(p.times.size()); },
      "tracks/");
  rejects(
      "key frames not increasing", [&](CompactClipParts& p) { p.key_frames[1] = p.key_frames[0]; },
      "tracks/");
  rejects(
      "words missing", [&](CompactClipParts& p) { p.words.pop_back(); }, "tracks/");
  rejects(
      "words left over", [&](CompactClipParts& p) { p.words.push_back(0); }, "words");
  rejects(
      "key frames left over", [&](CompactClipParts& p) { p.key_frames.push_back(0); },
      "key_frames");
  rejects(
      "ranges left over", [&](CompactClipParts& p) { p.ranges.push_back(0.0f); }, "ranges");
  rejects(
      "ranges missing", [&](CompactClipParts& p) { p.ranges.pop_back(); }, "tracks/");
  rejects(
      "range not finite", [&](CompactClipParts& p) { p.ranges[0] = nan; }, "tracks/");
  rejects(
      "negative extent", [&](CompactClipParts& p) { p.ranges[4] = -1.0f; }, "tracks/");
  rejects(
      "float value not finite",
      [&](CompactClipParts& p) {
        // The first track stored as floats: a constant translation or scale.
        for (std::size_t i = 0, word = 0; i < p.tracks.size(); ++i) {
          if (p.tracks[i].format == CompactFormat::kFloat) {
            std::memcpy(&p.words[word], &nan, sizeof nan);
            return;
          }
          word += p.tracks[i].key_count * p.tracks[i].stride();
        }
        FAIL() << "no float track";
      },
      "tracks/");
  rejects(
      "float rotation not unit",
      [&](CompactClipParts& p) {
        CompactTrack t{.joint = 0,
                       .key_count = 1,
                       .target = TrackTarget::kRotation,
                       .format = CompactFormat::kFloat};
        std::vector<CompactTrack> tracks(p.tracks.size() + 1, t);
        std::copy(p.tracks.begin(), p.tracks.end(), tracks.begin() + 1);
        p.tracks = std::move(tracks);
        const float q[4] = {0.0f, 0.0f, 0.0f, 2.0f};
        std::uint16_t qw[8];
        std::memcpy(qw, q, sizeof q);
        std::vector<std::uint16_t> words(qw, qw + 8);
        words.insert(words.end(), p.words.begin(), p.words.end());
        p.words = std::move(words);
      },
      "tracks/0");
}

// Key frames are checked over the whole array at once (a frame not above the one before it must
// start a track): a fall anywhere inside any track is still refused and named by its track, and
// the falls where one track's frames end and the next one's begin are accepted.
TEST(CompactClipTest, AFallInsideAnyTrackIsRefusedAndNamesThatTrack) {
  const Model model = compact_synthetic();
  const int joints = model.skeleton().joint_count();
  const CompactClipParts good = model.compact_clips()[0].parts();
  // The track each frame belongs to, and whether it is the first frame of that track.
  std::vector<std::size_t> owner;
  std::vector<bool> first;
  for (std::size_t i = 0; i < good.tracks.size(); ++i)
    for (std::uint32_t k = 0; k < good.tracks[i].frame_count(); ++k) {
      owner.push_back(i);
      first.push_back(k == 0);
    }
  ASSERT_EQ(owner.size(), good.key_frames.size());
  std::size_t falls_at_starts = 0;
  for (std::size_t k = 1; k < owner.size(); ++k)
    falls_at_starts += first[k] && good.key_frames[k] <= good.key_frames[k - 1] ? 1 : 0;
  ASSERT_GT(falls_at_starts, 10u);  // the accepted clip has many
  ASSERT_TRUE(CompactClip::from_parts(good, joints, {}).has_value());
  std::size_t tried = 0;
  for (std::size_t k = 1; k < owner.size(); k += 1 + k % 5) {
    if (first[k]) continue;
    CompactClipParts parts = good;
    parts.key_frames[k] = parts.key_frames[k - 1];
    auto r = CompactClip::from_parts(std::move(parts), joints, {}, "hostile.crit");
    ASSERT_FALSE(r.has_value()) << "frame " << k;
    EXPECT_EQ(r.error().location, "tracks/" + std::to_string(owner[k])) << "frame " << k;
    EXPECT_NE(r.error().message.find("increasing"), std::string::npos) << r.error().to_string();
    ++tried;
  }
  EXPECT_GT(tried, 100u);
}

// Float rotation keys are checked four at a time, then one by one: a key that is not a unit
// quaternion, or holds a NaN or an infinity, is refused wherever it lies, and the message names
// the first such key or value.
TEST(CompactClipTest, EveryFloatRotationKeyIsChecked) {
  const Model model = compact_synthetic();
  const int joints = model.skeleton().joint_count();
  CompactClipParts good;
  std::size_t track = 0, word = 0;
  bool found = false;
  for (const CompactClip& clip : model.compact_clips()) {
    good = clip.parts();
    word = 0;
    for (track = 0; track < good.tracks.size(); ++track) {
      const CompactTrack& t = good.tracks[track];
      if (t.format == CompactFormat::kFloat && t.target == TrackTarget::kRotation &&
          t.key_count >= 7) {
        found = true;
        break;
      }
      word += std::size_t{t.key_count} * t.stride();
    }
    if (found) break;
  }
  ASSERT_TRUE(found) << "no animated rotation track stored as floats";
  const std::uint32_t keys = good.tracks[track].key_count;
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const std::uint32_t k : {0u, 3u, 4u, keys - 2, keys - 1}) {
    struct Case {
      int component;
      float value;  // NaN: scale the key by 1.01 instead
      std::string message;
    };
    for (const Case& c :
         {Case{-1, 0.0f, "rotation key " + std::to_string(k) + " is not a unit quaternion"},
          Case{2, nan, "value " + std::to_string(4 * k + 2) + " is not finite"},
          Case{0, inf, "value " + std::to_string(4 * k) + " is not finite"}}) {
      CompactClipParts parts = good;
      float q[4];
      std::uint16_t* at = parts.words.data() + word + std::size_t{k} * 8;
      std::memcpy(q, at, sizeof q);
      if (c.component < 0) {
        for (float& f : q) f *= 1.01f;
      } else {
        q[c.component] = c.value;
      }
      std::memcpy(at, q, sizeof q);
      auto r = CompactClip::from_parts(std::move(parts), joints, {}, "keys.crit");
      ASSERT_FALSE(r.has_value()) << "key " << k;
      EXPECT_EQ(r.error().location, "tracks/" + std::to_string(track));
      EXPECT_NE(r.error().to_string().find(c.message), std::string::npos) << r.error().to_string();
    }
  }
  EXPECT_TRUE(CompactClip::from_parts(good, joints, {}).has_value());
}

}  // namespace
}  // namespace critter
