// SPDX-License-Identifier: MIT
#include "critter/anim/compact_sampling_job.h"
#include "critter/core/cpu_features.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "critter/anim/local_to_model_job.h"
#include "critter/anim/player.h"
#include "critter/anim/pose.h"
#include "critter/anim/sampling_job.h"
#include "critter/asset/demo_creature.h"
#include "critter/asset/synthetic_character.h"
#include "critter/io/load.h"

namespace critter::anim {
namespace {

constexpr float kRelativeTolerance = 1e-4f;

// The sampling job (SamplingJob or CompactSamplingJob, which share these fields) the tests here
// build: `clip` at `time` with `context`, from `rest` and `layout`'s default weights into `out`
// and `weights`, on the automatic path.
template <class Job, class ClipType, class Context>
Job job_for(const ClipType& clip, float time, Context& context, std::span<const Transform> rest,
            const MorphLayout& layout, std::span<Transform> out, std::span<float> weights) {
  return Job{.clip = &clip,
             .time = time,
             .context = &context,
             .rest = rest,
             .default_weights = layout.defaults,
             .weight_offsets = layout.offsets,
             .output = out,
             .output_weights = weights};
}

// The same for a compact clip, on `path`.
CompactSamplingJob compact_job(const CompactClip& clip, float time, CompactSamplingContext& context,
                               std::span<const Transform> rest, const MorphLayout& layout,
                               std::span<Transform> out, std::span<float> weights,
                               CompactSamplingPath path = CompactSamplingPath::kAuto) {
  CompactSamplingJob job =
      job_for<CompactSamplingJob>(clip, time, context, rest, layout, out, weights);
  job.path = path;
  return job;
}

// Largest model-space distance between the exact and compact poses of `clip`, at the joints and
// at points 1 % of the character's size along each joint's axes, over `steps` evenly spread
// times (and every key time of the exact clip).
float measured_error(const Model& model, std::size_t clip, int steps = 97) {
  const MorphLayout layout = MorphLayout::of(model);
  const auto rest = model.skeleton().rest_pose();
  std::vector<Transform> exact(rest.begin(), rest.end()), compact(exact);
  std::vector<float> we(layout.defaults), wc(layout.defaults);
  std::vector<mat4> me(rest.size()), mc(rest.size());
  SamplingContext ec;
  CompactSamplingContext cc;
  const float distance = 0.01f * character_size(model);
  const Clip& c = model.clips()[clip];
  std::vector<float> times(c.times().begin(), c.times().end());
  for (int i = 0; i <= steps; ++i)
    times.push_back(c.duration() * static_cast<float>(i) / static_cast<float>(steps));
  float worst = 0.0f;
  for (const float t : times) {
    const SamplingJob a = job_for<SamplingJob>(c, t, ec, rest, layout, exact, we);
    const CompactSamplingJob b =
        compact_job(model.compact_clips()[clip], t, cc, rest, layout, compact, wc);
    EXPECT_TRUE(a.run());
    EXPECT_TRUE(b.run());
    EXPECT_EQ(we, wc) << "weights are sampled exactly";
    const LocalToModelJob le{.parents = model.skeleton().parents(), .input = exact, .output = me};
    const LocalToModelJob lc{.parents = model.skeleton().parents(), .input = compact, .output = mc};
    EXPECT_TRUE(le.run());
    EXPECT_TRUE(lc.run());
    for (std::size_t j = 0; j < me.size(); ++j) {
      worst = std::max(worst, glm::length(vec3(me[j][3]) - vec3(mc[j][3])));
      for (int axis = 0; axis < 3; ++axis) {
        const vec3 pe = vec3(me[j][3] + me[j][axis] * distance);
        const vec3 pc = vec3(mc[j][3] + mc[j][axis] * distance);
        worst = std::max(worst, glm::length(pe - pc));
      }
    }
  }
  return worst;
}

// The synthetic character, the Wizard and the girl with compact clips at 1e-4 (the models the
// playback tests sample); a model that fails to load is left out (the callers check the count).
std::vector<Model> models_with_compact_clips() {
  std::vector<Result<Model>> exact;
  exact.push_back(build_model(make_synthetic_character()));
  for (const char* relative : {"Wizard/Wizard.glb", "girl/girl.glb"})
    exact.push_back(io::load(std::string(CRITTER_SHARED_MODELS) + "/" + relative));
  std::vector<Model> models;
  for (Result<Model>& m : exact) {
    if (!m) continue;
    auto compact = with_compact_clips(std::move(*m), kRelativeTolerance);
    if (compact) models.push_back(std::move(*compact));
  }
  return models;
}

// Every compact sampling path this CPU runs.
std::vector<CompactSamplingPath> paths_of_this_cpu() {
  std::vector<CompactSamplingPath> paths{CompactSamplingPath::kSse2};
  if (cpu_has_avx2_fma()) paths.push_back(CompactSamplingPath::kAvx2);
  return paths;
}

// Each mesh's morph target count, from a layout's offsets (what from_parts checks weights by).
std::vector<std::size_t> morph_counts(const MorphLayout& layout) {
  std::vector<std::size_t> morphs;
  for (std::size_t m = 1; m < layout.offsets.size(); ++m)
    morphs.push_back(layout.offsets[m] - layout.offsets[m - 1]);
  return morphs;
}

void expect_bound(const Model& exact_model, const std::string& name) {
  std::vector<CompactClipStats> stats;
  auto model = with_compact_clips(
      [&] {
        auto copy = append_clips(exact_model, {});
        EXPECT_TRUE(copy.has_value());
        return std::move(*copy);
      }(),
      kRelativeTolerance, &stats);
  ASSERT_TRUE(model.has_value()) << model.error().to_string();
  ASSERT_EQ(model->compact_clips().size(), model->clips().size());
  const float tolerance = kRelativeTolerance * character_size(*model);
  std::size_t exact_bytes = 0, bytes = 0;
  float worst = 0.0f;
  for (std::size_t c = 0; c < model->clips().size(); ++c) {
    const float error = measured_error(*model, c);
    // The builder measures at key times and midpoints; these times fall between them, where
    // interpolation error can exceed the probed maximum slightly.
    EXPECT_LE(error, tolerance * 1.05f) << name << " clip " << c;
    EXPECT_LE(stats[c].max_error, tolerance) << name << " clip " << c;
    EXPECT_FLOAT_EQ(stats[c].tolerance, tolerance);
    EXPECT_EQ(stats[c].bytes, model->compact_clips()[c].byte_size());
    exact_bytes += stats[c].exact_bytes;
    bytes += stats[c].bytes;
    worst = std::max(worst, error);
  }
  EXPECT_LE(bytes, exact_bytes) << name;
  std::printf("%s: %zu clips, exact %zu B, compact %zu B, tolerance %.3g, max error %.3g\n",
              name.c_str(), model->clips().size(), exact_bytes, bytes, tolerance, worst);
}

TEST(CompactSamplingJobTest, ErrorBoundHoldsOnEverySharedModel) {
  const char* models[] = {"RiggedFigure/RiggedFigure.glb",
                          "SimpleSkin/SimpleSkin.gltf",
                          "girl/girl.glb",
                          "greenman/greenman.glb",
                          "Wizard/Wizard.glb",
                          "ozz_cubicspline/cubicspline.gltf",
                          "ozz_multiple_roots/multiple_roots.gltf",
                          "MorphStressTest/MorphStressTest.gltf",
                          "AnimatedMorphSphere/AnimatedMorphSphere.gltf",
                          "AnimatedTriangle/AnimatedTriangle.gltf",
                          "assimp_interpolation_synthetic/animation_interpolation_linear.gltf",
                          "assimp_interpolation_synthetic/animation_interpolation_step.gltf",
                          "assimp_interpolation_synthetic/animation_interpolation_cubic.gltf",
                          "library_animation_clips_collada/library_animation_clips.dae",
                          "minetest_cart_b3d/carts_cart.b3d"};
  for (const char* relative : models) {
    auto model = io::load(std::string(CRITTER_SHARED_MODELS) + "/" + relative);
    ASSERT_TRUE(model.has_value()) << model.error().to_string();
    expect_bound(*model, relative);
  }
}

TEST(CompactSamplingJobTest, ErrorBoundHoldsOnTheSyntheticCharacterAndTheDemo) {
  auto synthetic = build_model(make_synthetic_character());
  ASSERT_TRUE(synthetic.has_value()) << synthetic.error().to_string();
  EXPECT_EQ(synthetic->skeleton().joint_count(), kSyntheticJointCount);
  expect_bound(*synthetic, "synthetic67");
  auto demo = build_demo_quadruped();
  ASSERT_TRUE(demo.has_value());
  expect_bound(*demo, "demo_quadruped");
}

// Compact clips nlerp rotations between kept keys. A joint swung through 150° between two keys
// (a quaternion arc of 75°, where the nlerp of the two strays by up to 0.079 rad of rotation) can
// only stay within the bound if the builder adds keys inside the segment (slerp points it may
// keep).
TEST(CompactSamplingJobTest, WideRotationSegmentsGetKeysInside) {
  RawModel raw = make_synthetic_character();
  RawClip swing;
  swing.name = "swing";
  for (const std::int32_t joint : {0, 1}) {
    RawTrack t;
    t.target = TrackTarget::kRotation;
    t.index = joint;
    t.components = 4;
    t.times = {0.0f, 1.0f, 1.5f};
    const float half = glm::radians(75.0f);
    // About z, then about x for the second joint; the last key turns back 40°.
    t.values = {0.0f, 0.0f, 0.0f, 1.0f};
    const float axis[3] = {joint == 0 ? 0.0f : 1.0f, 0.0f, joint == 0 ? 1.0f : 0.0f};
    for (const float h : {half, glm::radians(55.0f)})
      t.values.insert(t.values.end(), {axis[0] * std::sin(h), axis[1] * std::sin(h),
                                       axis[2] * std::sin(h), std::cos(h)});
    swing.tracks.push_back(std::move(t));
  }
  raw.clips = {swing};
  auto exact = build_model(std::move(raw));
  ASSERT_TRUE(exact.has_value()) << exact.error().to_string();
  std::vector<CompactClipStats> stats;
  auto model = with_compact_clips(std::move(*exact), kRelativeTolerance, &stats);
  ASSERT_TRUE(model.has_value()) << model.error().to_string();
  const float tolerance = kRelativeTolerance * character_size(*model);
  EXPECT_LE(stats[0].max_error, tolerance);
  EXPECT_LE(measured_error(*model, 0, 1499), tolerance * 1.05f);
  std::uint32_t swing_keys = 0;
  for (const CompactTrack& t : model->compact_clips()[0].tracks())
    if (t.target == TrackTarget::kRotation && t.joint <= 1) swing_keys += t.key_count;
  EXPECT_GT(swing_keys, 6u) << "keys added inside the wide segments";
}

TEST(CompactSamplingJobTest, LoadOptionBuildsCompactClipsAndPlayerUsesThem) {
  const std::string path = std::string(CRITTER_SHARED_MODELS) + "/girl/girl.glb";
  auto exact = io::load(path);
  ASSERT_TRUE(exact.has_value());
  EXPECT_TRUE(exact->compact_clips().empty()) << "exact by default";
  io::LoadOptions options;
  options.compact_tolerance = 1e-4;
  auto compact = io::load(path, options);
  ASSERT_TRUE(compact.has_value()) << compact.error().to_string();
  ASSERT_EQ(compact->compact_clips().size(), compact->clips().size());

  Player pe(*exact), pc(*compact);
  ASSERT_TRUE(pe.play(1, PlaybackMode::kLoopForward));
  ASSERT_TRUE(pc.play(1, PlaybackMode::kLoopForward));
  bool differs = false;
  for (int frame = 0; frame < 40; ++frame) {
    pe.update(1.0f / 60.0f);
    pc.update(1.0f / 60.0f);
    for (std::size_t j = 0; j < pe.local_pose().size(); ++j) {
      differs = differs || !(pe.local_pose()[j] == pc.local_pose()[j]);
      EXPECT_NEAR(pe.local_pose()[j].translation.x, pc.local_pose()[j].translation.x, 1e-2f);
    }
  }
  EXPECT_TRUE(differs) << "the compact player samples the compact clip";

  options.compact_tolerance = -1.0;
  auto bad = io::load(path, options);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code, ErrorCode::kUsage);
}

// `job` turned to the structure-of-arrays form, from `soa_rest` into `out` with `context`.
CompactSamplingJob in_soa_form(CompactSamplingJob job, CompactSamplingContext& context,
                               std::span<const SoaTransform> soa_rest,
                               std::span<SoaTransform> out) {
  job.soa_joints = job.rest.size();
  job.context = &context;
  job.rest = {};
  job.output = {};
  job.soa_rest = soa_rest;
  job.soa_output = out;
  return job;
}

// `job` (Transform form) run again in structure-of-arrays form on a fresh context; the pose
// converted back.
std::vector<Transform> sample_as_soa(CompactSamplingJob job) {
  const std::span<const Transform> rest = job.rest;
  std::vector<SoaTransform> soa_rest(soa_blocks(rest.size())), out(soa_rest.size());
  EXPECT_TRUE(to_soa(rest, soa_rest));
  CompactSamplingContext context;
  const auto ok = in_soa_form(job, context, soa_rest, out).run();
  EXPECT_TRUE(ok) << ok.error().to_string();
  std::vector<Transform> pose(rest.size());
  EXPECT_TRUE(from_soa(out, pose));
  return pose;
}

// The lane layout every instance shares (CompactClip::lanes()): per kind (rotations, translations,
// scales) the animated tracks in track order, each with the offsets of its data after all the
// tracks before it (constants included), its key count and joint, then empty lanes up to a
// multiple of eight. Checked on built clips with constants and both animated kinds (the Wizard,
// the girl) and without constants (the synthetic character), and on their copies read back from
// parts, whose layout is derived again.
TEST(CompactSamplingJobTest, LaneLayoutFollowsTheTracks) {
  const auto check = [](const CompactClip& clip, const std::string& what) {
    SCOPED_TRACE(what);
    const auto tracks = clip.tracks();
    std::vector<CompactOffsets> offsets;
    CompactOffsets at;
    for (const CompactTrack& t : tracks) {
      offsets.push_back(at);
      at.advance(t);
    }
    const auto lanes = clip.lanes();
    const auto joints = clip.lane_joints();
    ASSERT_EQ(joints.size(), lanes.size());
    std::size_t lane = 0;
    for (std::uint32_t kind = 0; kind < 3; ++kind) {
      std::uint32_t count = 0;
      for (std::size_t i = clip.constant_count(); i < tracks.size(); ++i) {
        if (compact::kind_of(tracks[i].target) != kind) continue;
        ASSERT_LT(lane, lanes.size());
        const CompactClip::Lane& l = lanes[lane];
        EXPECT_EQ(l.track, i);
        EXPECT_EQ(l.key_count, tracks[i].key_count);
        EXPECT_EQ(l.begin.frame, offsets[i].frame);
        EXPECT_EQ(l.begin.word, offsets[i].word);
        EXPECT_EQ(l.begin.range, offsets[i].range);
        EXPECT_EQ(joints[lane], tracks[i].joint);
        ++lane;
        ++count;
      }
      EXPECT_EQ(clip.lane_counts()[kind], count) << "kind " << kind;
      for (; lane % 8 != 0; ++lane) {
        ASSERT_LT(lane, lanes.size());
        EXPECT_EQ(lanes[lane].track, CompactClip::kNoLane);
        EXPECT_EQ(joints[lane], 0u);
      }
    }
    EXPECT_EQ(lane, lanes.size());
  };
  bool constants = false, translations = false, windows = false;
  for (const char* relative : {"Wizard/Wizard.glb", "girl/girl.glb"}) {
    io::LoadOptions options;
    options.compact_tolerance = kRelativeTolerance;
    auto model = io::load(std::string(CRITTER_SHARED_MODELS) + "/" + relative, options);
    ASSERT_TRUE(model.has_value()) << model.error().to_string();
    const std::vector<std::size_t> morphs = morph_counts(anim::MorphLayout::of(*model));
    for (const CompactClip& clip : model->compact_clips()) {
      check(clip, std::string(relative) + " " + clip.name());
      auto again = CompactClip::from_parts(clip.parts(), model->skeleton().joint_count(), morphs);
      ASSERT_TRUE(again.has_value()) << again.error().to_string();
      check(*again, std::string(relative) + " " + clip.name() + " from parts");
      // The structure-of-arrays windows are derived again too.
      ASSERT_EQ(again->soa_window_begin().size(), clip.soa_window_begin().size());
      EXPECT_TRUE(std::equal(clip.soa_window_begin().begin(), clip.soa_window_begin().end(),
                             again->soa_window_begin().begin()));
      ASSERT_EQ(again->soa_windows().size(), clip.soa_windows().size());
      for (std::size_t w = 0; w < clip.soa_windows().size(); ++w) {
        EXPECT_EQ(again->soa_windows()[w].first, clip.soa_windows()[w].first);
        EXPECT_EQ(std::memcmp(again->soa_windows()[w].lanes, clip.soa_windows()[w].lanes,
                              sizeof(clip.soa_windows()[w].lanes)),
                  0);
      }
      windows = windows || !clip.soa_windows().empty();
      constants = constants || clip.constant_count() > 0;
      translations = translations || clip.lane_counts()[1] > 0;
    }
  }
  EXPECT_TRUE(constants && translations && windows) << "the models no longer cover the cases";
  auto synthetic = build_model(make_synthetic_character());
  ASSERT_TRUE(synthetic.has_value());
  auto model = with_compact_clips(std::move(*synthetic), kRelativeTolerance);
  ASSERT_TRUE(model.has_value()) << model.error().to_string();
  check(model->compact_clips()[0], "synthetic");
}

// The structure-of-arrays windows (CompactClip::soa_windows): rotations on joints that leave gaps,
// cross blocks and sit near a block's end (three groups of two, three and four windows),
// translations on joints a block apart (five windows would cost more than the five stores they
// save: none), scales on eight joints in a row of one block (one store each: none). Every lane of a
// group with windows is in exactly one window, at its own float; and the pose sampled in
// structure-of-arrays form equals the Transform form bit for bit on every path, where a joint no
// track drives keeps the rest pose (so the floats a window keeps hold it too).
TEST(CompactSamplingJobTest, StructureOfArraysWindowsPlaceEachLaneOnce) {
  const std::vector<std::uint32_t> rotations{9,  10, 12, 13, 15, 16, 17, 18, 20, 21, 30, 40,
                                             41, 42, 43, 44, 45, 46, 47, 50, 55, 60, 62, 66};
  const std::vector<std::uint32_t> translations{0, 16, 32, 48, 64};
  const std::vector<std::uint32_t> scales{16, 17, 18, 19, 20, 21, 22, 23};
  const auto kept = [&](TrackTarget target) -> const std::vector<std::uint32_t>& {
    return target == TrackTarget::kRotation      ? rotations
           : target == TrackTarget::kTranslation ? translations
                                                 : scales;
  };
  RawModel raw = make_synthetic_character();
  for (RawClip& clip : raw.clips) {
    std::erase_if(clip.tracks, [&](const RawTrack& t) {
      const std::vector<std::uint32_t>& keep = kept(t.target);
      return std::find(keep.begin(), keep.end(), static_cast<std::uint32_t>(t.index)) == keep.end();
    });
  }
  auto exact = build_model(std::move(raw));
  ASSERT_TRUE(exact.has_value()) << exact.error().to_string();
  auto model = with_compact_clips(std::move(*exact), kRelativeTolerance);
  ASSERT_TRUE(model.has_value()) << model.error().to_string();
  const CompactClip& clip = model->compact_clips()[0];

  // The lanes are the chosen joints (the synthetic skeleton keeps its order), kind by kind.
  const auto lane_joints = clip.lane_joints();
  std::size_t lane = 0;
  for (const std::vector<std::uint32_t>* kind : {&rotations, &translations, &scales}) {
    for (const std::uint32_t joint : *kind) ASSERT_EQ(lane_joints[lane++], joint);
    lane = (lane + 7) / 8 * 8;
  }
  ASSERT_EQ(lane, lane_joints.size());

  const auto windows = clip.soa_windows();
  const auto begin = clip.soa_window_begin();
  ASSERT_EQ(begin.size(), lane_joints.size() / 8 + 1);
  const std::vector<std::uint32_t> per_group{2, 3, 4, 0, 0};
  ASSERT_EQ(begin.size(), per_group.size() + 1);
  constexpr std::uint32_t kRow = SoaTransform::kLanes;
  for (std::size_t g = 0; g < per_group.size(); ++g) {
    SCOPED_TRACE("group " + std::to_string(g));
    ASSERT_EQ(begin[g + 1] - begin[g], per_group[g]);
    const std::uint32_t used = g < 3 ? std::min<std::uint32_t>(8, 24 - 8 * g) : g == 3 ? 5 : 8;
    std::vector<int> seen(used, 0);
    for (std::uint32_t w = begin[g]; w < begin[g + 1]; ++w) {
      const CompactClip::SoaWindow& window = windows[w];
      const std::uint32_t block = window.first / (10 * kRow), start = window.first % (10 * kRow);
      EXPECT_LE(start + 8, kRow) << "a window stays inside its block's row";
      EXPECT_EQ(start % 8, 0u) << "a window is an aligned half row";
      for (std::uint32_t p = 0; p < 8; ++p) {
        const std::int32_t l = window.lanes[p];
        if (l < 0) continue;
        ASSERT_LT(static_cast<std::uint32_t>(l), used);
        const std::uint32_t joint = lane_joints[g * 8 + static_cast<std::uint32_t>(l)];
        EXPECT_EQ(joint, block * kRow + start + p) << "lane " << l << " at its own float";
        ++seen[static_cast<std::size_t>(l)];
      }
    }
    if (per_group[g] != 0) {
      for (std::uint32_t l = 0; l < used; ++l) EXPECT_EQ(seen[l], 1) << "lane " << l;
    }
  }
  // The first group, joints 9 10 12 13 15 | 16 17 18: the second half of block 0's row, then
  // the first half of block 1's. The second group, 20 21 | 30 | 40 41 42 43 44: the first half
  // of block 1, its second half, the second half of block 2 (joint 40 is its lane 8).
  EXPECT_EQ(windows[0].first, 8u);
  EXPECT_EQ(std::vector<std::int32_t>(windows[0].lanes, windows[0].lanes + 8),
            (std::vector<std::int32_t>{-1, 0, 1, -1, 2, 3, -1, 4}));
  EXPECT_EQ(windows[1].first, 10 * kRow);
  EXPECT_EQ(std::vector<std::int32_t>(windows[1].lanes, windows[1].lanes + 8),
            (std::vector<std::int32_t>{5, 6, 7, -1, -1, -1, -1, -1}));
  EXPECT_EQ(windows[2].first, 10 * kRow);
  EXPECT_EQ(windows[3].first, 10 * kRow + 8);
  EXPECT_EQ(windows[4].first, 2 * 10 * kRow + 8);
  EXPECT_EQ(std::vector<std::int32_t>(windows[4].lanes, windows[4].lanes + 8),
            (std::vector<std::int32_t>{3, 4, 5, 6, 7, -1, -1, -1}));

  // The structure-of-arrays pose on each path equals the Transform pose, bit for bit.
  const MorphLayout layout = MorphLayout::of(*model);
  const auto rest = model->skeleton().rest_pose();
  for (const CompactSamplingPath path : paths_of_this_cpu()) {
    for (const float t : {0.0f, 0.13f, 0.5f * clip.duration(), clip.duration()}) {
      CompactSamplingContext context;
      std::vector<Transform> a(rest.begin(), rest.end());
      std::vector<float> w(layout.defaults);
      const CompactSamplingJob job = compact_job(clip, t, context, rest, layout, a, w, path);
      ASSERT_TRUE(job.run());
      const std::vector<Transform> b = sample_as_soa(job);
      ASSERT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(Transform)), 0)
          << "path " << static_cast<int>(path) << " time " << t;
      // Joint 11 has no track: the Transform form keeps its rest pose, so (by the comparison
      // above) the floats the windows keep do too.
      EXPECT_TRUE(a[11] == rest[11]) << "a joint no track drives keeps the rest pose";
    }
  }
}

// The builder writes constant tracks as runs of floats that the sampler copies as they lie:
// whole joints (translation, rotation and scale constant: a Transform's floats), then runs of
// rotations, translations and scales. A clip whose constants lie otherwise (from other parts:
// here the same constants in reverse order, one rotation quantised) samples them one by one, to
// the same pose, in both forms of pose.
TEST(CompactSamplingJobTest, ConstantsOutOfRunsSampleLikeTheRuns) {
  io::LoadOptions options;
  options.compact_tolerance = kRelativeTolerance;
  auto model = io::load(std::string(CRITTER_SHARED_MODELS) + "/Wizard/Wizard.glb", options);
  ASSERT_TRUE(model.has_value()) << model.error().to_string();
  const CompactClip& clip = model->compact_clips()[0];
  // The builder writes whole joints first (translation, rotation, scale, joints ascending), then
  // runs of rotations, translations and scales.
  const std::uint32_t n = clip.constant_count();
  std::uint32_t whole = 0, rotations = 0;
  while (3 * whole + 2 < n && clip.tracks()[3 * whole].target == TrackTarget::kTranslation &&
         clip.tracks()[3 * whole + 1].target == TrackTarget::kRotation &&
         clip.tracks()[3 * whole + 2].target == TrackTarget::kScale &&
         clip.tracks()[3 * whole].joint == clip.tracks()[3 * whole + 2].joint)
    ++whole;
  while (3 * whole + rotations < n &&
         clip.tracks()[3 * whole + rotations].target == TrackTarget::kRotation)
    ++rotations;
  ASSERT_GT(whole, 1u) << "the Wizard has joints with every channel constant";
  ASSERT_GT(rotations, 0u) << "the Wizard has constant rotations beside animated channels";
  // The overlay holds each constant's floats under a full mask and nothing else.
  ASSERT_EQ(clip.constant_values().size(), std::size_t{clip.constant_joints()} * 10);
  std::size_t masked = 0;
  for (std::size_t i = 0; i < clip.constant_values().size(); ++i) {
    masked += clip.constant_mask()[i] != 0 ? 1 : 0;
    if (clip.constant_mask()[i] == 0) {
      EXPECT_EQ(clip.constant_values()[i], 0.0f) << i;
    }
  }
  std::size_t expected_masked = 0;
  for (std::uint32_t i = 0; i < n; ++i)
    expected_masked += clip.tracks()[i].target == TrackTarget::kRotation ? 4 : 3;
  EXPECT_EQ(masked, expected_masked);
  for (std::uint32_t i = 0; i < whole; ++i) {
    // A whole joint's words are its Transform's floats, as the overlay holds them.
    const std::size_t joint = clip.tracks()[3 * i].joint;
    std::size_t word = 0;
    for (std::uint32_t k = 0; k < 3 * i; ++k) word += clip.tracks()[k].stride();
    float v[10];
    std::memcpy(v, clip.words().data() + word, sizeof v);
    for (int c = 0; c < 10; ++c) {
      EXPECT_EQ(clip.constant_mask()[joint * 10 + c], 0xFFFFFFFFu) << joint << " " << c;
      EXPECT_EQ(clip.constant_values()[joint * 10 + c], v[c]) << joint << " " << c;
    }
  }
  // A file's parts give the same overlay.
  auto again = CompactClip::from_parts(clip.parts(), model->skeleton().joint_count(), {});
  ASSERT_TRUE(again.has_value()) << again.error().to_string();
  ASSERT_EQ(again->constant_values().size(), clip.constant_values().size());
  EXPECT_EQ(std::memcmp(again->constant_values().data(), clip.constant_values().data(),
                        clip.constant_values().size_bytes()),
            0);
  EXPECT_EQ(std::memcmp(again->soa_constant_mask().data(), clip.soa_constant_mask().data(),
                        clip.soa_constant_mask().size_bytes()),
            0);

  // The constants reversed, their words with them; the last rotation (now first) quantised.
  CompactClipParts parts = clip.parts();
  std::vector<std::vector<std::uint16_t>> words(n);
  std::size_t at = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t stride = parts.tracks[i].stride();
    words[i].assign(parts.words.begin() + static_cast<std::ptrdiff_t>(at),
                    parts.words.begin() + static_cast<std::ptrdiff_t>(at + stride));
    at += stride;
  }
  const std::uint32_t last_rotation = 3 * whole + rotations - 1;
  {
    float q[4];
    std::memcpy(q, words[last_rotation].data(), sizeof q);
    // Smallest three, 15 bits each over [-1/sqrt 2, 1/sqrt 2], the largest's index in bits 45-46.
    int largest = 0;
    for (int c = 1; c < 4; ++c)
      if (std::fabs(q[c]) > std::fabs(q[largest])) largest = c;
    const float sign = q[largest] < 0.0f ? -1.0f : 1.0f;
    std::uint64_t v = static_cast<std::uint64_t>(largest) << 45;
    for (int c = 0, slot = 0; c < 4; ++c) {
      if (c == largest) continue;
      const float x = sign * q[c];
      const long code =
          std::lround((x + compact::kInvSqrt2) / (2.0f * compact::kInvSqrt2) * 32767.0f);
      v |= static_cast<std::uint64_t>(std::clamp(code, 0l, 32767l)) << (15 * slot++);
    }
    words[last_rotation] = {static_cast<std::uint16_t>(v), static_cast<std::uint16_t>(v >> 16),
                            static_cast<std::uint16_t>(v >> 32)};
    parts.tracks[last_rotation].format = CompactFormat::kQuantized;
  }
  std::vector<std::uint16_t> reordered;
  std::vector<CompactTrack> tracks;
  for (std::uint32_t i = n; i-- > 0;) {
    reordered.insert(reordered.end(), words[i].begin(), words[i].end());
    tracks.push_back(parts.tracks[i]);
  }
  reordered.insert(reordered.end(), parts.words.begin() + static_cast<std::ptrdiff_t>(at),
                   parts.words.end());
  std::copy(tracks.begin(), tracks.end(), parts.tracks.begin());
  parts.words = std::move(reordered);
  auto shuffled = CompactClip::from_parts(std::move(parts), model->skeleton().joint_count(), {});
  ASSERT_TRUE(shuffled.has_value()) << shuffled.error().to_string();
  // Where the quantised rotation lies now.
  std::size_t word = 0, index = 0;
  while (shuffled->tracks()[index].format != CompactFormat::kQuantized)
    word += shuffled->tracks()[index++].stride();
  ASSERT_EQ(index, n - 1 - last_rotation);
  const quat expected = compact::decode_rotation(shuffled->words().data() + word);
  const std::uint16_t joint = shuffled->tracks()[index].joint;

  const auto rest = model->skeleton().rest_pose();
  std::vector<Transform> a(rest.begin(), rest.end()), b(a);
  CompactSamplingContext ca, cb;
  for (const float t : {0.0f, 0.3f, 1.1f}) {
    const MorphLayout layout = MorphLayout::of(*model);
    std::vector<float> weights(layout.defaults);
    CompactSamplingJob job = compact_job(clip, t, ca, rest, layout, a, weights);
    ASSERT_TRUE(job.run());
    // The runs in the structure-of-arrays form: the same bits.
    const std::vector<Transform> runs_soa = sample_as_soa(job);
    EXPECT_EQ(std::memcmp(a.data(), runs_soa.data(), a.size() * sizeof(Transform)), 0) << "t " << t;
    job.clip = &*shuffled;
    job.context = &cb;
    job.output = b;
    ASSERT_TRUE(job.run());
    // The constants out of runs in the structure-of-arrays form: the same bits.
    const std::vector<Transform> c = sample_as_soa(job);
    EXPECT_EQ(std::memcmp(b.data(), c.data(), b.size() * sizeof(Transform)), 0) << "t " << t;
    for (std::size_t j = 0; j < a.size(); ++j) {
      if (j == joint) {
        // The quantised rotation, decoded; every other value copied exactly.
        EXPECT_EQ(b[j].rotation, expected);
        EXPECT_LT(
            glm::length(vec4(a[j].rotation.x, a[j].rotation.y, a[j].rotation.z, a[j].rotation.w) -
                        vec4(expected.x, expected.y, expected.z, expected.w)),
            1e-4f);
        b[j].rotation = a[j].rotation;
      }
      EXPECT_EQ(std::memcmp(&a[j], &b[j], sizeof(Transform)), 0) << "joint " << j << " t " << t;
    }
  }
}

TEST(CompactSamplingJobTest, ValidateNamesBrokenFields) {
  auto model = with_compact_clips(*build_demo_quadruped(), 1e-4f);
  ASSERT_TRUE(model.has_value());
  const MorphLayout layout = MorphLayout::of(*model);
  const auto rest = model->skeleton().rest_pose();
  std::vector<Transform> out(rest.begin(), rest.end());
  std::vector<float> weights(layout.defaults);
  CompactSamplingContext context;
  CompactSamplingJob job =
      compact_job(model->compact_clips()[0], 0.25f, context, rest, layout, out, weights);
  EXPECT_TRUE(job.validate());
  // run() names the same field as validate() (it tests every rule before it writes anything).
  const auto location = [&](const CompactSamplingJob& broken) {
    const Status v = broken.validate(), r = broken.run();
    EXPECT_FALSE(r.has_value());
    if (v.has_value() || r.has_value()) return std::string("(passed)");
    EXPECT_EQ(r.error().location, v.error().location);
    EXPECT_EQ(r.error().path, "CompactSamplingJob");
    return v.error().location;
  };
  auto broken = job;
  broken.clip = nullptr;
  EXPECT_EQ(location(broken), "clip");
  broken = job;
  broken.context = nullptr;
  EXPECT_EQ(location(broken), "context");
  broken = job;
  broken.time = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(location(broken), "time");
  broken = job;
  broken.time = 1e300;  // finite, but not as a float
  EXPECT_EQ(location(broken), "time");
  broken = job;
  broken.rest = rest.first(3);
  EXPECT_EQ(location(broken), "clip");
  broken = job;
  broken.path = CompactSamplingPath::kAvx2;
  if (cpu_has_avx2_fma())
    EXPECT_TRUE(broken.validate());
  else
    EXPECT_EQ(location(broken), "path");
  broken = job;
  broken.output = std::span<Transform>(out).first(3);
  EXPECT_EQ(location(broken), "output");
  const std::vector<float> one_weight(weights.size() + 1, 0.0f);
  std::vector<float> one_out(one_weight);
  broken = job;
  broken.output_weights = one_out;
  EXPECT_EQ(location(broken), "output_weights");
  broken = job;
  broken.weight_offsets = {};
  EXPECT_EQ(location(broken), "weight_offsets");
  broken = job;
  broken.default_weights = one_weight;
  EXPECT_EQ(location(broken), "default_weights");
  // The structure-of-arrays form with a Transform array beside it, or blocks too few.
  std::vector<SoaTransform> soa_rest(soa_blocks(rest.size())), soa_out(soa_rest.size());
  broken = job;
  broken.soa_rest = soa_rest;
  broken.soa_output = soa_out;
  broken.soa_joints = rest.size();
  EXPECT_EQ(location(broken), "rest");
  broken.rest = {};
  broken.output = {};
  EXPECT_TRUE(broken.run());
  broken.soa_joints = rest.size() + SoaTransform::kLanes;
  EXPECT_EQ(location(broken), "soa_rest");
  broken = job;
  broken.soa_joints = rest.size();
  EXPECT_EQ(location(broken), "soa_joints");
}

// A context remembers its clip by address. A clip object assigned another clip's contents keeps
// that address: the context must lay out its cache for the new clip's lanes (here more of them:
// reading the old cache's groups as the new clip's would run past it) and sample what a fresh
// context samples.
TEST(CompactSamplingJobTest, ContextFollowsANewClipAtTheSameAddress) {
  io::LoadOptions options;
  options.compact_tolerance = kRelativeTolerance;
  auto model = io::load(std::string(CRITTER_SHARED_MODELS) + "/Wizard/Wizard.glb", options);
  ASSERT_TRUE(model.has_value()) << model.error().to_string();
  const auto clips = model->compact_clips();
  const auto lanes = [](const CompactClip& c) { return c.lanes().size(); };
  const auto fewest = std::min_element(clips.begin(), clips.end(),
                                       [&](auto& x, auto& y) { return lanes(x) < lanes(y); });
  const auto most = std::max_element(clips.begin(), clips.end(),
                                     [&](auto& x, auto& y) { return lanes(x) < lanes(y); });
  ASSERT_LT(lanes(*fewest), lanes(*most));
  const MorphLayout layout = MorphLayout::of(*model);
  const auto rest = model->skeleton().rest_pose();
  std::vector<Transform> reused(rest.begin(), rest.end()), fresh(reused);
  std::vector<float> weights(layout.defaults);
  CompactClip clip = *fewest;
  CompactSamplingContext context;
  const auto job = [&](CompactSamplingContext& c, std::vector<Transform>& out) {
    return compact_job(clip, 0.3f, c, rest, layout, out, weights);
  };
  ASSERT_TRUE(job(context, reused).run());
  clip = *most;
  ASSERT_TRUE(job(context, reused).run());
  CompactSamplingContext new_context;
  ASSERT_TRUE(job(new_context, fresh).run());
  for (std::size_t j = 0; j < fresh.size(); ++j)
    EXPECT_EQ(std::memcmp(&reused[j], &fresh[j], sizeof(Transform)), 0) << "joint " << j;
}

TEST(CompactSamplingJobTest, SeeksAndBackwardsEqualForwardPlayback) {
  auto model = with_compact_clips(*build_model(make_synthetic_character()), 1e-4f);
  ASSERT_TRUE(model.has_value());
  const MorphLayout layout = MorphLayout::of(*model);
  const auto rest = model->skeleton().rest_pose();
  std::vector<Transform> a(rest.begin(), rest.end()), b(a);
  std::vector<float> w;
  CompactSamplingContext forward, fresh;
  for (float t = -0.5f; t < 2.5f; t += 0.013f) {
    const auto job = [&](CompactSamplingContext& ctx, std::vector<Transform>& out, float time) {
      return compact_job(model->compact_clips()[0], time, ctx, rest, layout, out, w);
    };
    ASSERT_TRUE(job(forward, a, t).run());
    fresh.invalidate();
    ASSERT_TRUE(job(fresh, b, 2.0f - t).run());  // a seek backwards on a fresh context
    ASSERT_TRUE(job(fresh, b, t).run());         // then a jump forward
    for (std::size_t j = 0; j < a.size(); ++j) ASSERT_EQ(a[j], b[j]) << "t " << t << " joint " << j;
  }
}

// `clip`'s parts with every animated quantised translation and scale track stored as the floats
// its keys decode to (the sampler's other value format).
CompactClipParts with_float_vectors(const CompactClip& clip) {
  CompactClipParts parts = clip.parts();
  std::vector<std::uint16_t> words;
  std::vector<float> ranges;
  CompactOffsets at;
  for (CompactTrack& t : parts.tracks) {
    const std::uint16_t* w = clip.words().data() + at.word;
    const float* r = clip.ranges().data() + at.range;
    const bool convert = t.target != TrackTarget::kRotation && t.key_count > 1 &&
                         t.format == CompactFormat::kQuantized;
    if (convert) {
      for (std::uint32_t k = 0; k < t.key_count; ++k) {
        const vec3 v = compact::decode_vec3(t.format, w + 3 * k, r);
        std::uint16_t f[6];
        std::memcpy(f, &v.x, sizeof f);
        words.insert(words.end(), f, f + 6);
      }
    } else {
      words.insert(words.end(), w, w + std::size_t{t.key_count} * t.stride());
      ranges.insert(ranges.end(), r, r + t.range_count());
    }
    at.advance(t);
    if (convert) t.format = CompactFormat::kFloat;
  }
  parts.words = std::move(words);
  parts.ranges = std::move(ranges);
  return parts;
}

// Translations and scales stored as floats step like quantised ones on every path: a clip whose
// quantised vector tracks are rewritten as the floats they decode to samples the same bits in
// forward playback at 60 Hz and after seeks, with a cursor context.
TEST(CompactSamplingJobTest, FloatVectorKeysSampleLikeTheQuantisedOnes) {
  const std::vector<Model> models = models_with_compact_clips();
  ASSERT_EQ(models.size(), 3u);
  const std::vector<CompactSamplingPath> paths = paths_of_this_cpu();
  std::size_t scales = 0, translations = 0;
  for (const Model& model : models) {
    const MorphLayout layout = MorphLayout::of(model);
    const std::vector<std::size_t> morphs = morph_counts(layout);
    const auto rest = model.skeleton().rest_pose();
    for (std::size_t c = 0; c < std::min<std::size_t>(2, model.compact_clips().size()); ++c) {
      const CompactClip& clip = model.compact_clips()[c];
      auto floats =
          CompactClip::from_parts(with_float_vectors(clip), model.skeleton().joint_count(), morphs);
      ASSERT_TRUE(floats.has_value()) << floats.error().to_string();
      // The tracks rewritten, by kind.
      std::size_t rewritten[3] = {0, 0, 0};
      for (std::size_t i = 0; i < clip.tracks().size(); ++i)
        if (clip.tracks()[i].format != floats->tracks()[i].format)
          ++rewritten[compact::kind_of(clip.tracks()[i].target)];
      if (rewritten[1] + rewritten[2] == 0) continue;
      translations += rewritten[1];
      scales += rewritten[2];
      std::vector<float> times;
      for (int f = 0; f < 200; ++f)
        times.push_back(std::fmod(static_cast<float>(f) / 60.0f, clip.duration()));
      for (int f = 0; f < 20; ++f) times.push_back(clip.duration() * static_cast<float>(f % 7) / 7);
      for (const CompactSamplingPath path : paths) {
        CompactSamplingContext quantised_context, float_context;
        std::vector<Transform> a(rest.begin(), rest.end()), b(a);
        std::vector<float> wa(layout.defaults), wb(layout.defaults);
        for (const float t : times) {
          const auto job = [&](const CompactClip& from, CompactSamplingContext& ctx,
                               std::vector<Transform>& out, std::vector<float>& w) {
            return compact_job(from, t, ctx, rest, layout, out, w, path);
          };
          ASSERT_TRUE(job(clip, quantised_context, a, wa).run());
          ASSERT_TRUE(job(*floats, float_context, b, wb).run());
          ASSERT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(Transform)), 0)
              << model.name() << " clip " << c << " time " << t;
        }
      }
    }
  }
  EXPECT_GT(translations, 0u) << "no clip had quantised translations to rewrite";
  EXPECT_GT(scales, 0u) << "no clip had quantised scales to rewrite";
}

// The sampling cache never shows: playback forward at 60 Hz across loop wraps, backward steps,
// random seeks (before, inside and after the clip, and at key times) give, bit for bit, the pose
// of a fresh context, on every kernel path this CPU runs.
TEST(CompactSamplingJobTest, CursorPlaybackEqualsFreshSamplesOnEveryPath) {
  const std::vector<Model> models = models_with_compact_clips();
  ASSERT_EQ(models.size(), 3u);
  const std::vector<CompactSamplingPath> paths = paths_of_this_cpu();
  for (const Model& model : models) {
    const MorphLayout layout = MorphLayout::of(model);
    const auto rest = model.skeleton().rest_pose();
    for (std::size_t c = 0; c < std::min<std::size_t>(2, model.compact_clips().size()); ++c) {
      const CompactClip& clip = model.compact_clips()[c];
      const float d = clip.duration();
      std::vector<float> times;
      for (int f = 0; f < 200; ++f) times.push_back(std::fmod(static_cast<float>(f) / 60.0f, d));
      for (int f = 0; f < 40; ++f) times.push_back(d - static_cast<float>(f) / 60.0f);
      std::mt19937 random(7);
      std::uniform_real_distribution<float> seek(-0.2f * d, 1.2f * d);
      for (int i = 0; i < 60; ++i) times.push_back(seek(random));
      for (const float t : clip.times()) times.push_back(t);
      std::vector<std::vector<Transform>> first_path;
      for (const CompactSamplingPath path : paths) {
        CompactSamplingContext cursor(clip.tracks().size());
        std::vector<Transform> a(rest.begin(), rest.end()), b(a);
        std::vector<float> wa(layout.defaults), wb(layout.defaults);
        for (std::size_t i = 0; i < times.size(); ++i) {
          const auto job = [&](CompactSamplingContext& ctx, std::vector<Transform>& out,
                               std::vector<float>& w) {
            return compact_job(clip, times[i], ctx, rest, layout, out, w, path);
          };
          CompactSamplingContext fresh;
          ASSERT_TRUE(job(cursor, a, wa).run());
          ASSERT_TRUE(job(fresh, b, wb).run());
          ASSERT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(Transform)), 0)
              << model.name() << " clip " << c << " time " << times[i] << " sample " << i;
          ASSERT_EQ(wa, wb);
          // The structure-of-arrays form (on a fresh context), every tenth sample: the same
          // bits.
          if (i % 10 == 0) {
            CompactSamplingContext unused;
            b = sample_as_soa(job(unused, b, wb));
            ASSERT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(Transform)), 0)
                << model.name() << " clip " << c << " time " << times[i] << " (SoA)";
          }
          if (path == paths.front()) {
            first_path.push_back(a);
          } else {
            ASSERT_EQ(std::memcmp(a.data(), first_path[i].data(), a.size() * sizeof(Transform)), 0)
                << "SSE2 and AVX2 differ at time " << times[i];
          }
        }
      }
    }
  }
}

// output_untouched (as SamplingJob's): an output only this context writes, played forward with
// loop wraps and seeks, gets the bits of a fresh context's pose every time, with and without a
// residual clip (a STEP track added to the synthetic character), in both forms; and a mark in a
// channel no track drives stays while the context trusts the output, and is gone after
// invalidate() or a run without the promise.
TEST(CompactSamplingJobTest, AnUntouchedOutputGetsTheBitsOfAFreshContext) {
  std::vector<Model> models = models_with_compact_clips();
  ASSERT_EQ(models.size(), 3u);
  RawModel raw = make_synthetic_character();
  ASSERT_FALSE(raw.clips.empty());
  RawTrack step;
  step.target = TrackTarget::kScale;
  step.index = 3;
  step.interpolation = Interpolation::kStep;
  step.times = {0.0f, 0.4f};
  step.values = {1, 1, 1, 1.5f, 1.5f, 1.5f};
  raw.clips[0].tracks.push_back(step);
  auto stepped = with_compact_clips(*build_model(std::move(raw)), kRelativeTolerance);
  ASSERT_TRUE(stepped) << stepped.error().to_string();
  ASSERT_FALSE(stepped->compact_clips()[0].residual().tracks().empty());
  models.push_back(std::move(*stepped));
  for (const Model& model : models) {
    const MorphLayout layout = MorphLayout::of(model);
    const auto rest = model.skeleton().rest_pose();
    const CompactClip& clip = model.compact_clips()[0];
    const float d = clip.duration();
    std::vector<float> times;
    for (int f = 0; f < 150; ++f) times.push_back(std::fmod(static_cast<float>(f) / 60.0f, d));
    std::mt19937 random(11);
    std::uniform_real_distribution<float> seek(-0.2f * d, 1.2f * d);
    for (int i = 0; i < 30; ++i) times.push_back(seek(random));
    CompactSamplingContext trusted;
    std::vector<Transform> a(rest.size()), b(rest.size());
    std::vector<float> wa(layout.defaults), wb(layout.defaults);
    std::vector<SoaTransform> soa_rest(soa_blocks(rest.size())), soa_a(soa_rest.size());
    ASSERT_TRUE(to_soa(rest, soa_rest));
    CompactSamplingContext trusted_soa;
    for (const float t : times) {
      CompactSamplingJob job = compact_job(clip, t, trusted, rest, layout, a, wa);
      job.output_untouched = true;
      ASSERT_TRUE(job.run());
      CompactSamplingContext fresh;
      ASSERT_TRUE(compact_job(clip, t, fresh, rest, layout, b, wb).run());
      ASSERT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(Transform)), 0)
          << model.name() << " time " << t;
      ASSERT_EQ(wa, wb);
      ASSERT_TRUE(in_soa_form(job, trusted_soa, soa_rest, soa_a).run());
      std::vector<Transform> from_blocks(rest.size());
      ASSERT_TRUE(from_soa(soa_a, from_blocks));
      ASSERT_EQ(std::memcmp(from_blocks.data(), b.data(), b.size() * sizeof(Transform)), 0)
          << model.name() << " time " << t << " (SoA)";
    }
  }

  // The mark: the girl's clip holds constants and leaves channels to the rest pose.
  const Model& girl = models[2];
  const CompactClip& clip = girl.compact_clips()[0];
  const MorphLayout layout = MorphLayout::of(girl);
  const auto rest = girl.skeleton().rest_pose();
  std::vector<Transform> out(rest.size()), plain(rest.size());
  std::vector<float> w(layout.defaults);
  CompactSamplingContext fresh;
  ASSERT_TRUE(compact_job(clip, 0.5f, fresh, rest, layout, plain, w).run());
  // A channel no animated track writes: equal to its value at another time.
  std::vector<Transform> later(rest.size());
  ASSERT_TRUE(compact_job(clip, 0.9f, fresh, rest, layout, later, w).run());
  std::size_t joint = rest.size();
  for (std::size_t j = 0; j < rest.size() && joint == rest.size(); ++j)
    if (plain[j].scale == later[j].scale && plain[j].translation == later[j].translation) joint = j;
  ASSERT_LT(joint, rest.size());
  const vec3 mark(-7.0f);
  CompactSamplingContext context;
  const auto run = [&](bool untouched) {
    CompactSamplingJob job = compact_job(clip, 0.5f, context, rest, layout, out, w);
    job.output_untouched = untouched;
    ASSERT_TRUE(job.run());
  };
  run(true);
  EXPECT_EQ(out[joint].scale, plain[joint].scale);
  out[joint].scale = mark;
  run(true);
  EXPECT_EQ(out[joint].scale, mark);
  run(false);
  EXPECT_EQ(out[joint].scale, plain[joint].scale);
  out[joint].scale = mark;
  context.invalidate();
  run(true);
  EXPECT_EQ(out[joint].scale, plain[joint].scale);
}

}  // namespace
}  // namespace critter::anim
