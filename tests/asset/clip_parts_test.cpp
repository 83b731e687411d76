// SPDX-License-Identifier: MIT
// Clip::parts and Clip::from_parts: a clip rebuilt from its arrays has the builder's sampling
// index bit for bit (the interleaved batch values are made again from the keys), and a batch that
// does not name its joints' live LINEAR tracks is refused at its location.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "critter/asset/clip.h"
#include "critter/asset/model.h"
#include "critter/asset/synthetic_character.h"

namespace critter {
namespace {

Model synthetic() {
  auto model = build_model(make_synthetic_character());
  EXPECT_TRUE(model.has_value());
  return std::move(*model);
}

TEST(ClipPartsTest, FromPartsMakesTheBuildersBatchValuesBitForBit) {
  const Model model = synthetic();
  for (const Clip& clip : model.clips()) {
    auto again = Clip::from_parts(clip.parts(), model.skeleton().joint_count(), {});
    ASSERT_TRUE(again.has_value()) << again.error().to_string();
    ASSERT_EQ(again->linear_batches().size(), clip.linear_batches().size());
    for (std::size_t i = 0; i < clip.linear_batches().size(); ++i)
      EXPECT_EQ(again->linear_batches()[i].value_begin, clip.linear_batches()[i].value_begin);
    ASSERT_FALSE(clip.batch_values().empty());
    ASSERT_EQ(again->batch_values().size(), clip.batch_values().size());
    EXPECT_EQ(std::memcmp(again->batch_values().data(), clip.batch_values().data(),
                          clip.batch_values().size_bytes()),
              0);
    EXPECT_EQ(again->animated_joint_prefix(), clip.animated_joint_prefix());
    EXPECT_EQ(again->max_joint(), clip.max_joint());
    EXPECT_EQ(again->byte_size(), clip.byte_size());
  }
}

TEST(ClipPartsTest, BatchValuesAreLaidOutInBatchOrderOneLineApart) {
  const Model model = synthetic();
  const Clip& clip = model.clips()[0];
  ASSERT_FALSE(clip.batch_values().empty());
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(clip.batch_values().data()) % 64, 0u);
  std::uint32_t next = 0;
  for (const Clip::LinearBatch& b : clip.linear_batches()) {
    EXPECT_EQ(b.value_begin, next);
    next +=
        clip.timelines()[b.timeline].key_count * 4 * (b.target == TrackTarget::kRotation ? 4u : 3u);
    // The next block starts the next 64-byte line; the floats in between are zeros.
    for (; next % 16 != 0; ++next) EXPECT_EQ(clip.batch_values()[next], 0.0f);
  }
  EXPECT_EQ(next, clip.batch_values().size());
}

// Every batch value is its lane's key, for key counts of every remainder by four (the vector
// paths take four keys a step and leave the rest), with three and four components, lanes in use
// and repeated. Both a built clip and one rebuilt from its parts.
TEST(ClipPartsTest, BatchValuesHoldEachLanesKeys) {
  std::uint32_t seed = 1;
  const auto next = [&] {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<float>(seed >> 8) / 16777216.0f - 0.5f;
  };
  for (std::uint32_t keys = 1; keys <= 11; ++keys) {
    RawClip raw;
    raw.name = "keys" + std::to_string(keys);
    for (const TrackTarget target :
         {TrackTarget::kTranslation, TrackTarget::kRotation, TrackTarget::kScale}) {
      for (int joint = 0; joint < 7; ++joint) {  // two batches a target: 4 lanes and 3
        RawTrack t;
        t.target = target;
        t.index = joint;
        t.components = target == TrackTarget::kRotation ? 4 : 3;
        for (std::uint32_t k = 0; k < keys; ++k) t.times.push_back(0.1f * static_cast<float>(k));
        for (std::uint32_t i = 0; i < keys * t.components; ++i) t.values.push_back(next());
        raw.tracks.push_back(std::move(t));
      }
    }
    auto built = build_clip(raw, 7, {});
    ASSERT_TRUE(built.has_value()) << built.error().to_string();
    auto again = Clip::from_parts(built->parts(), 7, {});
    ASSERT_TRUE(again.has_value()) << again.error().to_string();
    for (const Clip* clip : {&*built, &*again}) {
      ASSERT_EQ(clip->linear_batches().size(), 6u) << keys;
      for (const Clip::LinearBatch& b : clip->linear_batches()) {
        const std::uint32_t components = b.target == TrackTarget::kRotation ? 4 : 3;
        ASSERT_EQ(clip->timelines()[b.timeline].key_count, keys);
        for (int lane = 0; lane < 4; ++lane) {
          const Track* track = nullptr;
          for (const Track& t : clip->tracks())
            if (t.target == b.target && t.index == b.joints[lane]) track = &t;
          ASSERT_NE(track, nullptr);
          const std::span<const float> v = clip->track_values(*track);
          for (std::uint32_t k = 0; k < keys; ++k)
            for (std::uint32_t c = 0; c < components; ++c)
              ASSERT_EQ(clip->batch_values()[b.value_begin + (k * components + c) * 4 + lane],
                        v[k * components + c])
                  << keys << " keys, joint " << b.joints[lane] << " key " << k << " component "
                  << c;
        }
      }
    }
  }
}

// One broken batch at a time: each is refused with ErrorCode::kInvalid at linear_batches/N.
TEST(ClipPartsTest, BatchesThatDoNotNameLiveLinearTracksAreRefused) {
  const Model model = synthetic();
  const ClipParts good = model.clips()[0].parts();
  const int joints = model.skeleton().joint_count();
  ASSERT_EQ(good.linear_batches[0].lanes, 4);
  // The track lane 1 of batch 0 reads: the last track of its target and joint.
  const Clip::LinearBatch& first = good.linear_batches[0];
  std::size_t lane1 = good.tracks.size();
  for (std::size_t i = 0; i < good.tracks.size(); ++i)
    if (good.tracks[i].target == first.target && good.tracks[i].index == first.joints[1]) lane1 = i;
  ASSERT_LT(lane1, good.tracks.size());

  const auto rejects = [&](const char* what, const std::function<void(ClipParts&)>& edit,
                           const std::string& message) {
    ClipParts parts = good;
    edit(parts);
    auto r = Clip::from_parts(std::move(parts), joints, {}, "hostile.crit");
    ASSERT_FALSE(r.has_value()) << what;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalid) << what;
    EXPECT_EQ(r.error().location, "linear_batches/0") << what << ": " << r.error().to_string();
    EXPECT_NE(r.error().message.find(message), std::string::npos)
        << what << ": " << r.error().to_string();
  };
  rejects(
      "unused lane", [](ClipParts& p) { p.linear_batches[0].lanes = 2; },
      "an unused lane does not repeat lane 0");
  rejects(
      "STEP lane", [&](ClipParts& p) { p.tracks[lane1].interpolation = Interpolation::kStep; },
      "live LINEAR track");
  rejects(
      "other timeline",
      [&](ClipParts& p) {
        p.timelines.push_back(p.timelines[0]);
        p.track_timelines[lane1] = static_cast<std::uint32_t>(p.timelines.size() - 1);
      },
      "on the batch's timeline");
  rejects(
      "overridden by a later STEP track",
      [&](ClipParts& p) {
        Track later = p.tracks[lane1];
        later.interpolation = Interpolation::kStep;
        p.tracks.push_back(later);
        p.track_timelines.push_back(p.track_timelines[lane1]);
      },
      "live LINEAR track");
  rejects(
      "no track at all",
      [&](ClipParts& p) {
        p.tracks[lane1].target = p.tracks[lane1].target == TrackTarget::kTranslation
                                     ? TrackTarget::kScale
                                     : TrackTarget::kTranslation;
      },
      "live LINEAR track");
}

}  // namespace
}  // namespace critter
