// SPDX-License-Identifier: MIT
#include "critter/io/crit/crit_file.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "critter/anim/compact_sampling_job.h"
#include "critter/anim/pose.h"
#include "critter/anim/sampling_job.h"
#include "critter/asset/demo_creature.h"
#include "critter/asset/synthetic_character.h"
#include "critter/io/load.h"
#include "support/files.h"

namespace critter::io {
namespace {

std::string shared(const std::string& relative) {
  return std::string(CRITTER_SHARED_MODELS) + "/" + relative;
}

template <class T>
std::span<const float> floats_of(const std::vector<T>& v) {
  return {reinterpret_cast<const float*>(v.data()), v.size() * sizeof(T) / sizeof(float)};
}

// Rewrites the header's body size and checksum so that a changed body reaches the body checks.
void restamp(std::vector<std::uint8_t>& bytes) {
  const std::uint64_t size = bytes.size() - kCritHeaderBytes;
  const std::uint64_t sum =
      crit_checksum(std::span<const std::uint8_t>(bytes).subspan(kCritHeaderBytes));
  std::memcpy(bytes.data() + 8, &size, 8);
  std::memcpy(bytes.data() + 16, &sum, 8);
}

// Samples every clip (exact and compact) of both models at a few times: the poses must be equal.
void expect_same_poses(const Model& a, const Model& b) {
  ASSERT_EQ(a.clips().size(), b.clips().size());
  ASSERT_EQ(a.compact_clips().size(), b.compact_clips().size());
  const anim::MorphLayout layout = anim::MorphLayout::of(a);
  const auto rest = a.skeleton().rest_pose();
  std::vector<Transform> pa(rest.begin(), rest.end()), pb(pa);
  std::vector<float> wa(layout.defaults), wb(layout.defaults);
  anim::SamplingContext ca, cb;
  anim::CompactSamplingContext xa, xb;
  for (std::size_t c = 0; c < a.clips().size(); ++c) {
    for (const float t : {0.0f, 0.13f, 0.5f, 1.7f}) {
      const auto job = [&](const Model& m, anim::SamplingContext& ctx, std::vector<Transform>& out,
                           std::vector<float>& w) {
        return anim::SamplingJob{.clip = &m.clips()[c],
                                 .time = t,
                                 .context = &ctx,
                                 .rest = m.skeleton().rest_pose(),
                                 .default_weights = layout.defaults,
                                 .weight_offsets = layout.offsets,
                                 .output = out,
                                 .output_weights = w};
      };
      ASSERT_TRUE(job(a, ca, pa, wa).run());
      ASSERT_TRUE(job(b, cb, pb, wb).run());
      EXPECT_EQ(pa, pb);
      EXPECT_EQ(wa, wb);
      if (a.compact_clips().empty()) continue;
      const auto compact = [&](const Model& m, anim::CompactSamplingContext& ctx,
                               std::vector<Transform>& out, std::vector<float>& w) {
        return anim::CompactSamplingJob{.clip = &m.compact_clips()[c],
                                        .time = t,
                                        .context = &ctx,
                                        .rest = m.skeleton().rest_pose(),
                                        .default_weights = layout.defaults,
                                        .weight_offsets = layout.offsets,
                                        .output = out,
                                        .output_weights = w};
      };
      ASSERT_TRUE(compact(a, xa, pa, wa).run());
      ASSERT_TRUE(compact(b, xb, pb, wb).run());
      EXPECT_EQ(pa, pb);
    }
  }
}

TEST(CritFileTest, ChecksumIsXxh3OfTheBody) {
  // XXH3-64 (seed 0) reference values; inputs over 240 bytes take the vectorised path.
  EXPECT_EQ(crit_checksum({}), 0x2D06800538D394C2ull);
  const std::uint8_t one[1] = {'a'};
  EXPECT_NE(crit_checksum(one), crit_checksum({}));
  std::vector<std::uint8_t> long_input(100000);
  for (std::size_t i = 0; i < long_input.size(); ++i)
    long_input[i] = static_cast<std::uint8_t>(i * 2654435761u >> 13);
  const std::uint64_t whole = crit_checksum(long_input);
  long_input[77777] ^= 1;
  EXPECT_NE(crit_checksum(long_input), whole);
}

TEST(CritFileTest, RoundTripsEverySharedModelByteForByte) {
  const char* models[] = {"RiggedFigure/RiggedFigure.glb",
                          "SimpleSkin/SimpleSkin.gltf",
                          "girl/girl.glb",
                          "greenman/greenman.glb",
                          "Wizard/Wizard.glb",
                          "ozz_cubicspline/cubicspline.gltf",
                          "ozz_multiple_roots/multiple_roots.gltf",
                          "MorphStressTest/MorphStressTest.gltf",
                          "AnimatedMorphSphere/AnimatedMorphSphere.gltf",
                          "MorphPrimitivesTest/MorphPrimitivesTest.gltf",
                          "AnimatedTriangle/AnimatedTriangle.gltf",
                          "library_animation_clips_collada/library_animation_clips.dae",
                          "minetest_cart_b3d/carts_cart.b3d",
                          "minetest_boat_obj/boats_boat.obj"};
  for (const char* relative : models) {
    for (const double compact : {0.0, 1e-4}) {
      LoadOptions options;
      options.compact_tolerance = compact;
      auto model = load(shared(relative), options);
      ASSERT_TRUE(model.has_value()) << model.error().to_string();
      const std::vector<std::uint8_t> bytes = encode_crit(*model);
      auto back = read_crit(bytes, "model.crit");
      ASSERT_TRUE(back.has_value()) << relative << ": " << back.error().to_string();
      const std::vector<std::uint8_t> again = encode_crit(*back);
      ASSERT_EQ(again.size(), bytes.size()) << relative;
      const auto diff = std::mismatch(again.begin() + 24, again.end(), bytes.begin() + 24);
      EXPECT_EQ(diff.first - again.begin(), static_cast<std::ptrdiff_t>(again.size())) << relative;
      EXPECT_EQ(back->skeleton().names().size(), model->skeleton().names().size());
      EXPECT_EQ(back->meshes().size(), model->meshes().size());
      EXPECT_EQ(back->bounds().min, model->bounds().min);
      // The batches' interleaved values are made again on load, in the builder's layout.
      ASSERT_EQ(back->clips().size(), model->clips().size());
      for (std::size_t c = 0; c < model->clips().size(); ++c) {
        const auto made = model->clips()[c].batch_values();
        const auto loaded = back->clips()[c].batch_values();
        ASSERT_EQ(loaded.size(), made.size()) << relative;
        if (!made.empty()) {  // (memcmp of null pointers is undefined even for 0 bytes)
          EXPECT_EQ(std::memcmp(loaded.data(), made.data(), made.size_bytes()), 0) << relative;
        }
      }
      expect_same_poses(*model, *back);
    }
  }
}

// A file with compact clips leaves the exact clips' interleaved batch values to their first use
// (not observable from outside; what is): threads asking at once, through a clip and a copy of
// it made before the values, all get one copy, equal to what the builder makes.
TEST(CritFileTest, BatchValuesOfAFileWithCompactClipsAreOneCopyForThreadsAndCopies) {
  auto built = build_model(make_synthetic_character());
  ASSERT_TRUE(built.has_value());
  auto model = with_compact_clips(std::move(*built), 1e-4f);
  ASSERT_TRUE(model.has_value());
  const std::vector<std::uint8_t> bytes = encode_crit(*model);
  for (int round = 0; round < 8; ++round) {
    auto back = read_crit(bytes, "model.crit");
    ASSERT_TRUE(back.has_value()) << back.error().to_string();
    const Clip& loaded = back->clips()[0];
    const Clip copy = loaded;  // before the values exist
    std::vector<std::span<const float>> seen(4);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < seen.size(); ++t)
      threads.emplace_back([&, t] { seen[t] = (t % 2 == 0 ? loaded : copy).batch_values(); });
    for (std::thread& t : threads) t.join();
    const auto made = model->clips()[0].batch_values();
    ASSERT_FALSE(made.empty());
    for (const std::span<const float> s : seen) {
      EXPECT_EQ(s.data(), seen[0].data());
      ASSERT_EQ(s.size(), made.size());
      EXPECT_EQ(std::memcmp(s.data(), made.data(), made.size_bytes()), 0);
    }
    EXPECT_EQ(loaded.byte_size(), model->clips()[0].byte_size());
  }
}

TEST(CritFileTest, LoadPicksTheReaderByExtensionAndByMagic) {
  testing::ScratchDir dir("crit");
  auto model = with_compact_clips(*build_model(make_synthetic_character()), 1e-4f);
  ASSERT_TRUE(model.has_value());
  ASSERT_TRUE(write_crit(*model, dir.file("synthetic.crit")));
  auto by_name = load(dir.file("synthetic.crit"));
  ASSERT_TRUE(by_name.has_value()) << by_name.error().to_string();
  EXPECT_EQ(by_name->skeleton().joint_count(), kSyntheticJointCount);
  EXPECT_EQ(by_name->compact_clips().size(), 2u);
  EXPECT_EQ(by_name->source_path(), dir.file("synthetic.crit"));
  std::filesystem::copy_file(dir / "synthetic.crit", dir / "baked.bin");
  auto by_magic = load(dir.file("baked.bin"));
  ASSERT_TRUE(by_magic.has_value()) << by_magic.error().to_string();
  expect_same_poses(*model, *by_magic);

  auto missing = load(dir.file("none.crit"));
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code, ErrorCode::kIo);
}

TEST(CritFileTest, EveryTruncationIsRejectedWithAnOffsetInsideTheFile) {
  auto model = load(shared("SimpleSkin/SimpleSkin.gltf"), LoadOptions{});
  ASSERT_TRUE(model.has_value());
  auto compact = with_compact_clips(std::move(*model), 1e-4f);
  ASSERT_TRUE(compact.has_value());
  const std::vector<std::uint8_t> bytes = encode_crit(*compact);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
    // As cut, the header no longer matches; restamped, the body parser meets the cut.
    for (const bool stamp : {false, true}) {
      if (stamp && n >= kCritHeaderBytes) restamp(cut);
      auto r = read_crit(cut, "cut.crit");
      ASSERT_FALSE(r.has_value()) << "prefix " << n;
      EXPECT_EQ(r.error().code,
                n < 4 || !stamp || n < kCritHeaderBytes ? ErrorCode::kParse : r.error().code);
      EXPECT_NE(r.error().to_string().find("cut.crit"), std::string::npos);
      EXPECT_FALSE(r.error().location.empty()) << "an offset is named";
    }
  }
}

TEST(CritFileTest, FlippedBytesAreCaughtByTheChecksumOrTheChecks) {
  auto model = load(shared("SimpleSkin/SimpleSkin.gltf"), LoadOptions{});
  ASSERT_TRUE(model.has_value());
  auto compact = with_compact_clips(std::move(*model), 1e-4f);
  ASSERT_TRUE(compact.has_value());
  const std::vector<std::uint8_t> bytes = encode_crit(*compact);
  int rejected = 0, accepted = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    for (const std::uint8_t mask : {std::uint8_t{0x01}, std::uint8_t{0x80}, std::uint8_t{0xff}}) {
      std::vector<std::uint8_t> flipped = bytes;
      flipped[i] ^= mask;
      auto plain = read_crit(flipped, "flip.crit");
      ASSERT_FALSE(plain.has_value()) << "byte " << i << " unnoticed";
      if (i >= kCritHeaderBytes) {
        EXPECT_NE(plain.error().message.find("checksum"), std::string::npos);
        // A deliberate edit with a recomputed checksum: rejected or a model that passed every
        // check; either way no crash, and a loaded model can be encoded again.
        restamp(flipped);
        auto hostile = read_crit(flipped, "flip.crit");
        if (hostile) {
          ++accepted;
          EXPECT_FALSE(encode_crit(*hostile).empty());
          // The exact clips' interleaved keys, left to their first use by a file with compact
          // clips, are made from what the edited file passed: every batch's block inside them.
          for (const Clip& c : hostile->clips()) {
            const auto values = c.batch_values();
            for (const Clip::LinearBatch& b : c.linear_batches()) {
              const std::size_t floats = std::size_t{c.timelines()[b.timeline].key_count} * 4 *
                                         (b.target == TrackTarget::kRotation ? 4 : 3);
              EXPECT_LE(b.value_begin + floats, values.size()) << "byte " << i;
            }
          }
        } else {
          ++rejected;
        }
      }
    }
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(accepted, 0) << "flips in float payloads are valid files";
}

TEST(CritFileTest, HostileCountsAreRejectedWithoutAllocating) {
  auto model = build_demo_quadruped();
  ASSERT_TRUE(model.has_value());
  const std::vector<std::uint8_t> bytes = encode_crit(*model);
  // Every aligned 4-byte window set to a huge count: the reader must refuse it from the bytes
  // left, never try to allocate it.
  int rejected = 0;
  for (std::size_t at = kCritHeaderBytes; at + 4 <= bytes.size(); at += 97) {
    std::vector<std::uint8_t> hostile = bytes;
    const std::uint32_t huge = 0xfffffff0u;
    std::memcpy(hostile.data() + at, &huge, 4);
    restamp(hostile);
    auto r = read_crit(hostile, "count.crit");
    if (!r) {
      ++rejected;
      EXPECT_NE(r.error().to_string().find("count.crit:"), std::string::npos);
    }
  }
  EXPECT_GT(rejected, 0);

  // The model name's length, the first field of the body.
  std::vector<std::uint8_t> hostile = bytes;
  const std::uint32_t huge = 0xffffffffu;
  std::memcpy(hostile.data() + kCritHeaderBytes, &huge, 4);
  restamp(hostile);
  auto r = read_crit(hostile, "name.crit");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::kParse);
  EXPECT_EQ(r.error().to_string(),
            "name.crit:byte 36: the file ends inside a string (4294967295 "
            "bytes needed, " +
                std::to_string(bytes.size() - 36) + " left)");
}

TEST(CritFileTest, HeaderRulesNameTheirOffsets) {
  auto model = build_demo_quadruped();
  ASSERT_TRUE(model.has_value());
  std::vector<std::uint8_t> bytes = encode_crit(*model);
  auto version = bytes;
  version[4] = 9;
  EXPECT_EQ(read_crit(version, "v.crit").error().location, "byte 4");
  for (const std::uint8_t old : {1, 2, 3}) {
    auto older = bytes;
    older[4] = old;
    EXPECT_EQ(read_crit(older, "old.crit").error().to_string(),
              "old.crit:byte 4: format version " + std::to_string(old) +
                  " is not supported (this reader reads version 4; convert the model again)");
  }
  auto reserved = bytes;
  reserved[30] = 1;
  EXPECT_EQ(read_crit(reserved, "r.crit").error().location, "byte 24");
  auto extra = bytes;
  extra.push_back(0);
  EXPECT_EQ(read_crit(extra, "e.crit").error().location, "byte 8");
  restamp(extra);
  auto trailing = read_crit(extra, "e.crit");
  ASSERT_FALSE(trailing.has_value());
  EXPECT_NE(trailing.error().message.find("after the model"), std::string::npos);
  const std::uint8_t png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  EXPECT_EQ(read_crit(png, "p.crit").error().location, "byte 0");
}

TEST(CritFileTest, ARestRotationThatIsNotAUnitQuaternionIsRefusedAtItsOffset) {
  auto model = build_demo_quadruped();
  ASSERT_TRUE(model.has_value());
  std::vector<std::uint8_t> bytes = encode_crit(*model);
  // The first joint's rotation: after the model's three strings, the joint count, the joint's
  // name, its parent and its translation.
  std::size_t at = kCritHeaderBytes;
  for (const std::string* s : {&model->name(), &model->format(), &model->source_path()})
    at += 4 + s->size();
  at += 4 + 4 + model->skeleton().names()[0].size() + 4 + 12;
  const float w = 3.0f;
  std::memcpy(bytes.data() + at + 12, &w, 4);
  restamp(bytes);
  auto r = read_crit(bytes, "q.crit");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalid);
  EXPECT_EQ(r.error().to_string(),
            "q.crit:byte " + std::to_string(at) + ": a rest rotation is not a unit quaternion");
}

TEST(CritFileTest, ArraysAreAlignedAndTheirPaddingMustBeZero) {
  auto model = build_demo_quadruped();
  ASSERT_TRUE(model.has_value());
  const std::vector<std::uint8_t> bytes = encode_crit(*model);
  // Every padding byte of the file, found by clearing bytes one at a time: a non-zero padding
  // byte is refused with its offset, whatever the checksum says.
  int padding = 0;
  for (std::size_t i = kCritHeaderBytes; i < bytes.size(); ++i) {
    if (bytes[i] != 0) continue;
    std::vector<std::uint8_t> changed = bytes;
    changed[i] = 0x5a;
    restamp(changed);
    auto r = read_crit(changed, "pad.crit");
    if (!r && r.error().message == "an array's padding is not zero") {
      ++padding;
      // Located at the first padding byte before the elements: at most 3 bytes before i.
      ASSERT_TRUE(r.error().location.starts_with("byte "));
      const std::size_t first = std::stoul(r.error().location.substr(5));
      EXPECT_LE(first, i);
      EXPECT_LT(i - first, 4u);
    }
  }
  EXPECT_GT(padding, 0);
}

// The byte offset in `bytes` of the block of floats `v` (its first few floats, which are distinct
// enough to be found once), or 0 when it is not there.
std::size_t find_floats(const std::vector<std::uint8_t>& bytes, std::span<const float> v) {
  const std::size_t n = std::min<std::size_t>(v.size(), 12) * sizeof(float);
  const auto* first = reinterpret_cast<const std::uint8_t*>(v.data());
  const auto at = std::search(bytes.begin() + kCritHeaderBytes, bytes.end(), first, first + n);
  return at == bytes.end() ? 0 : static_cast<std::size_t>(at - bytes.begin());
}

TEST(CritFileTest, ANonFiniteFloatIsRefusedAtItsOwnOffset) {
  auto model = build_model(make_synthetic_character());
  ASSERT_TRUE(model.has_value());
  const std::vector<std::uint8_t> bytes = encode_crit(*model);
  const Clip& clip = model->clips()[1];
  const std::size_t values = find_floats(bytes, clip.values());
  const std::size_t times = find_floats(bytes, clip.times());
  const std::size_t positions =
      find_floats(bytes, floats_of(model->meshes()[0].parts[0].streams.positions));
  ASSERT_GT(values, 0u);
  ASSERT_GT(times, 0u);
  ASSERT_GT(positions, 0u);
  struct Case {
    std::size_t at;
    const char* message;
  };
  // Floats at the start, inside and at the end of the arrays, on both sides of the reader's
  // 4096-byte pieces.
  const std::size_t last_value = values + (clip.values().size() - 1) * sizeof(float);
  for (const Case& c : {Case{values, "a key value is not finite"},
                        Case{values + 1023 * 4, "a key value is not finite"},
                        Case{values + 1024 * 4, "a key value is not finite"},
                        Case{last_value, "a key value is not finite"},
                        Case{times + 4 * 7, "a key time is not finite"},
                        Case{positions + 4 * 5, "a position is not finite"}}) {
    for (const float bad :
         {std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::infinity()}) {
      std::vector<std::uint8_t> hostile = bytes;
      std::memcpy(hostile.data() + c.at, &bad, sizeof bad);
      restamp(hostile);
      auto r = read_crit(hostile, "nan.crit");
      ASSERT_FALSE(r.has_value()) << c.message;
      EXPECT_EQ(r.error().code, ErrorCode::kInvalid);
      EXPECT_EQ(r.error().to_string(), "nan.crit:byte " + std::to_string(c.at) + ": " + c.message);
    }
  }
}

TEST(CritFileTest, BytesAtAnOddAddressReadTheSame) {
  auto model = build_model(make_synthetic_character());
  ASSERT_TRUE(model.has_value());
  const std::vector<std::uint8_t> bytes = encode_crit(*model);
  std::vector<std::uint8_t> buffer(bytes.size() + 1);
  std::memcpy(buffer.data() + 1, bytes.data(), bytes.size());
  const std::span<const std::uint8_t> odd(buffer.data() + 1, bytes.size());
  auto back = read_crit(odd, "odd.crit");
  ASSERT_TRUE(back.has_value()) << back.error().to_string();
  auto aligned = read_crit(bytes, "odd.crit");
  ASSERT_TRUE(aligned.has_value());
  EXPECT_EQ(encode_crit(*back), encode_crit(*aligned));
  expect_same_poses(*model, *back);
  // A NaN is still found, at its own offset.
  const std::size_t values = find_floats(bytes, model->clips()[0].values());
  ASSERT_GT(values, 0u);
  const std::size_t at = values + 4 * 9;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(buffer.data() + 1 + at, &nan, sizeof nan);
  std::vector<std::uint8_t> stamped(odd.begin(), odd.end());
  restamp(stamped);
  std::memcpy(buffer.data() + 1, stamped.data(), stamped.size());
  auto r = read_crit(odd, "odd.crit");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().to_string(),
            "odd.crit:byte " + std::to_string(at) + ": a key value is not finite");
}

}  // namespace
}  // namespace critter::io
