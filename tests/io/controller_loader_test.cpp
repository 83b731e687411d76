// SPDX-License-Identifier: MIT
// load_controller: config file + model -> program, including `file:` sources
// (animation-config.md §7) retargeted onto the model by bone name.
#include "critter/io/controller_loader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "critter/anim/controller.h"
#include "critter/config/animation_config.h"
#include "critter/config/bind.h"
#include "support/glb_builder.h"

namespace {

using namespace critter;
using critter::testing::GltfBuilder;
using critter::testing::ScratchDir;
using critter::testing::write_file;

// The model the configs drive: joints Root, Leg, Tail (all roots), a triangle "Body" hanging from
// Root with one morph target, and its own clip "Wave".
std::shared_ptr<const Model> target_model() {
  RawModel m;
  m.name = "target";
  m.skeleton.joints = {RawJoint{"Root", -1, {}, 0}, RawJoint{"Leg", -1, {}, 1},
                       RawJoint{"Tail", -1, {}, 2}};
  Mesh body;
  body.name = "Body";
  body.bone = 0;
  MeshPart part;
  part.streams.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  MorphTarget t;
  t.positions = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  part.morphs.targets.push_back(t);
  body.parts.push_back(part);
  body.default_weights = {0.0f};
  m.meshes.push_back(body);
  RawClip wave;
  wave.name = "Wave";
  RawTrack tr;
  tr.index = 2;
  tr.times = {0, 1};
  tr.values = {0, 0, 0, 0, 0, 1};
  wave.tracks.push_back(tr);
  m.clips.push_back(wave);
  auto built = build_model(std::move(m));
  EXPECT_TRUE(built) << built.error().to_string();
  return std::make_shared<const Model>(std::move(*built));
}

// One animation channel: node name, glTF path, key times and values (LINEAR).
struct Channel {
  std::string node;
  std::string path;  // "translation", "rotation" or "weights"
  std::vector<float> times;
  std::vector<float> values;
};
struct ClipSpec {
  std::string name;
  std::vector<Channel> channels;
};

// A .glb whose nodes are `nodes` (all roots) and whose animations are `clips`. When `morphs` > 0,
// the first node carries a triangle mesh "Body" with that many morph targets.
std::vector<std::uint8_t> anim_glb(const std::vector<std::string>& nodes,
                                   const std::vector<ClipSpec>& clips, int morphs = 0) {
  GltfBuilder b;
  int mesh = -1;
  if (morphs > 0) {
    const int positions = b.add_floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3");
    mesh = b.add_mesh("Body", positions);
    nlohmann::json targets = nlohmann::json::array();
    for (int i = 0; i < morphs; ++i) {
      targets.push_back({{"POSITION", b.add_floats({0, 0, 1, 0, 0, 1, 0, 0, 1}, "VEC3")}});
    }
    b.json()["meshes"][static_cast<std::size_t>(mesh)]["primitives"][0]["targets"] = targets;
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) b.add_node(nodes[i], i == 0 ? mesh : -1);
  nlohmann::json animations = nlohmann::json::array();
  for (const ClipSpec& c : clips) {
    nlohmann::json samplers = nlohmann::json::array();
    nlohmann::json channels = nlohmann::json::array();
    for (const Channel& ch : c.channels) {
      int node = 0;
      while (nodes[static_cast<std::size_t>(node)] != ch.node) ++node;
      const char* type = ch.path == "rotation" ? "VEC4" : ch.path == "weights" ? "SCALAR" : "VEC3";
      const int in = b.add_floats(ch.times, "SCALAR");
      const int out = b.add_floats(ch.values, type);
      channels.push_back(
          {{"sampler", samplers.size()}, {"target", {{"node", node}, {"path", ch.path}}}});
      samplers.push_back({{"input", in}, {"output", out}, {"interpolation", "LINEAR"}});
    }
    animations.push_back({{"name", c.name}, {"samplers", samplers}, {"channels", channels}});
  }
  b.json()["animations"] = animations;
  return b.glb();
}

// anim.glb: "Idle" (first) moves Root to (0, 1, 0); "Run" moves Leg from (0, 0, 0) to (2, 4, 6)
// and turns Root 90 degrees about Y over 2 s, and moves Wing, a bone the target lacks.
void write_anim_glb(const ScratchDir& dir) {
  const float h = std::sqrt(0.5f);
  const std::vector<ClipSpec> clips = {
      {"Idle", {{"Root", "translation", {0, 1}, {0, 1, 0, 0, 1, 0}}}},
      {"Run",
       {{"Leg", "translation", {0, 2}, {0, 0, 0, 2, 4, 6}},
        {"Root", "rotation", {0, 2}, {0, 0, 0, 1, 0, h, 0, h}},
        {"Wing", "translation", {0, 2}, {0, 0, 0, 1, 1, 1}}}},
  };
  write_file(dir.file("anim.glb"), anim_glb({"Root", "Leg", "Wing"}, clips));
}

std::string write_config(const ScratchDir& dir, std::string_view text,
                         std::string_view name = "creature.json") {
  const std::string path = dir.file(name);
  write_file(path, text);
  return path;
}

// The local pose after one update of `dt` seconds.
std::vector<Transform> pose_after(const io::LoadedController& loaded, float dt) {
  anim::Controller c(loaded.program);
  c.update(dt);
  const auto pose = c.compute_pose();
  return {pose.begin(), pose.end()};
}

std::string warnings(const Diagnostics& diag) {
  std::string out;
  for (const Warning& w : diag.items()) out += w.to_string() + "\n";
  return out;
}

int count_containing(const Diagnostics& diag, std::string_view text) {
  int n = 0;
  for (const Warning& w : diag.items()) n += w.message.find(text) != std::string::npos ? 1 : 0;
  return n;
}

// The first warning whose message contains `text`; an empty one when none does.
Warning find_containing(const Diagnostics& diag, std::string_view text) {
  for (const Warning& w : diag.items()) {
    if (w.message.find(text) != std::string::npos) return w;
  }
  return {};
}

constexpr const char* kRunConfig = R"({
  "states": {"s": {"layer": "Base", "rules": [
    {"condition": "true", "animation": {"source": "file:anim.glb#Run", "blendDuration": 0}}]}}})";

TEST(LoadController, FileSourceDrivesTheModelBonesByName) {
  ScratchDir dir;
  write_anim_glb(dir);
  const auto model = target_model();
  Diagnostics diag;
  auto loaded = io::load_controller(write_config(dir, kRunConfig), model, {}, &diag);
  ASSERT_TRUE(loaded) << loaded.error().to_string();

  // A new model: the input's clip, then the file's clip under a name of its own.
  ASSERT_NE(loaded->model.get(), model.get());
  EXPECT_EQ(model->clips().size(), 1u);
  ASSERT_EQ(loaded->model->clips().size(), 2u);
  EXPECT_EQ(loaded->model->clips()[0].name(), "Wave");
  EXPECT_EQ(loaded->model->clips()[1].name(), "file:anim#Run");
  EXPECT_EQ(loaded->model->find_clip("Run"), -1);
  EXPECT_EQ(&loaded->program->model(), loaded->model.get());

  // 0.5 s into the 2 s clip: a quarter of the way on both tracks.
  const auto pose = pose_after(*loaded, 0.5f);
  const Transform& leg = pose[static_cast<std::size_t>(model->find_bone("Leg"))];
  EXPECT_NEAR(leg.translation.x, 0.5f, 1e-5f);
  EXPECT_NEAR(leg.translation.y, 1.0f, 1e-5f);
  EXPECT_NEAR(leg.translation.z, 1.5f, 1e-5f);
  // Slerp from identity to 90 degrees about Y, a quarter of the way: 22.5 degrees.
  const float half = 0.5f * glm::radians(22.5f);
  const quat expected = quat_xyzw(0, std::sin(half), 0, std::cos(half));
  const quat root = pose[static_cast<std::size_t>(model->find_bone("Root"))].rotation;
  EXPECT_NEAR(std::abs(glm::dot(root, expected)), 1.0f, 1e-5f);
  // Tail has no track: rest.
  EXPECT_EQ(pose[static_cast<std::size_t>(model->find_bone("Tail"))].translation, vec3(0));

  // Wing's track is dropped, with one warning naming the file and the bone.
  EXPECT_EQ(loaded->model->clips()[1].tracks().size(), 2u);
  ASSERT_EQ(count_containing(diag, "bones the model lacks"), 1) << warnings(diag);
  const Warning w = find_containing(diag, "bones the model lacks");
  EXPECT_EQ(w.message, "file 'anim.glb': dropped 1 track(s) of bones the model lacks: 'Wing'");
  EXPECT_EQ(w.path, dir.file("creature.json"));
  EXPECT_EQ(w.location, "/states/s/rules/0/animation/source");
}

TEST(LoadController, FileWithoutClipNamePlaysItsFirstClip) {
  ScratchDir dir;
  write_anim_glb(dir);
  const auto model = target_model();
  auto loaded = io::load_controller(write_config(dir, R"({
    "states": {"s": {"layer": "Base", "rules": [
      {"condition": "true", "animation": {"source": "file:anim.glb", "blendDuration": 0}}]}}})"),
                                    model);
  ASSERT_TRUE(loaded) << loaded.error().to_string();
  ASSERT_EQ(loaded->model->clips().size(), 2u);
  EXPECT_EQ(loaded->model->clips()[1].name(), "file:anim#Idle");
  const auto pose = pose_after(*loaded, 0.25f);
  EXPECT_EQ(pose[static_cast<std::size_t>(model->find_bone("Root"))].translation, vec3(0, 1, 0));
  EXPECT_EQ(pose[static_cast<std::size_t>(model->find_bone("Leg"))].translation, vec3(0));
}

TEST(LoadController, BoneNamesMatchCaseInsensitively) {
  ScratchDir dir;
  write_file(
      dir.file("lower.glb"),
      anim_glb({"root", "LEG"}, {{"Walk", {{"LEG", "translation", {0, 1}, {0, 0, 0, 0, 0, 4}}}}}));
  const auto model = target_model();
  Diagnostics diag;
  auto loaded = io::load_controller(write_config(dir, R"({
    "states": {"s": {"layer": "Base", "rules": [
      {"condition": "true", "animation": {"source": "file:lower.glb#walk", "blendDuration": 0}}]}}})"),
                                    model, {}, &diag);
  ASSERT_TRUE(loaded) << loaded.error().to_string();
  EXPECT_EQ(count_containing(diag, "dropped"), 0) << warnings(diag);
  const Clip& clip = loaded->model->clips()[1];
  EXPECT_EQ(clip.name(), "file:lower#Walk");
  ASSERT_EQ(clip.tracks().size(), 1u);
  EXPECT_EQ(clip.tracks()[0].index, model->find_bone("Leg"));
  const auto pose = pose_after(*loaded, 0.25f);
  EXPECT_NEAR(pose[static_cast<std::size_t>(model->find_bone("Leg"))].translation.z, 1.0f, 1e-5f);
}

TEST(LoadController, ClipTouchingNoTargetBoneIsALocatedError) {
  ScratchDir dir;
  write_file(
      dir.file("alien.glb"),
      anim_glb({"Wing", "Fin"}, {{"Flap", {{"Wing", "translation", {0, 1}, {0, 0, 0, 1, 0, 0}}}}}));
  const std::string config = write_config(dir, R"({
    "animations": {"flap": {"source": "file:alien.glb#Flap"}},
    "states": {"s": {"layer": "Base", "rules": [{"condition": "true", "animation": "flap"}]}}})");
  auto loaded = io::load_controller(config, target_model());
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error().code, ErrorCode::kInvalid);
  EXPECT_EQ(loaded.error().path, config);
  EXPECT_EQ(loaded.error().location, "/animations/flap/source");
  EXPECT_EQ(loaded.error().message,
            "clip 'Flap' of file 'alien.glb' animates no bone or morph target of the model");
}

TEST(LoadController, MissingFileIsTheBindError) {
  ScratchDir dir;
  const std::string config = write_config(dir, R"({
    "states": {"s": {"layer": "Base", "rules": [
      {"condition": "true", "animation": {"source": "file:nowhere.glb#Run"}}]}}})");
  auto loaded = io::load_controller(config, target_model());
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error().code, ErrorCode::kIo);
  EXPECT_EQ(loaded.error().path, config);
  EXPECT_EQ(loaded.error().location, "/states/s/rules/0/animation/source");
}

// A `file:` source outside the config's folder and the asset roots is refused at its pointer
// before the file is loaded, unless the host allows outside paths.
TEST(LoadController, FileSourceOutsideTheFolderIsRefused) {
  ScratchDir dir;
  write_anim_glb(dir);
  std::filesystem::create_directories(dir / "mod");
  const std::string config = write_config(dir, R"({
    "states": {"s": {"layer": "Base", "rules": [
      {"condition": "true", "animation": {"source": "file:../anim.glb#Run"}}]}}})",
                                          "mod/creature.json");
  auto loaded = io::load_controller(config, target_model());
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error().code, ErrorCode::kInvalid);
  EXPECT_EQ(loaded.error().path, config);
  EXPECT_EQ(loaded.error().location, "/states/s/rules/0/animation/source");
  EXPECT_NE(loaded.error().message.find("'../anim.glb' leaves the allowed folders"),
            std::string::npos)
      << loaded.error().to_string();

  // An asset root holding the file makes it a mod's own.
  io::ControllerLoadOptions roots;
  roots.asset_roots.push_back(dir.path().string());
  auto rooted = io::load_controller(config, target_model(), roots);
  ASSERT_TRUE(rooted) << rooted.error().to_string();

  io::ControllerLoadOptions allow;
  allow.allow_outside = true;
  auto allowed = io::load_controller(config, target_model(), allow);
  ASSERT_TRUE(allowed) << allowed.error().to_string();
  EXPECT_EQ(allowed->model->clips()[1].name(), "file:anim#Run");
}

TEST(LoadController, FileAndClipAreLoadedOnceWhateverTheReferenceCount) {
  ScratchDir dir;
  write_anim_glb(dir);
  const auto model = target_model();
  Diagnostics diag;
  auto loaded = io::load_controller(write_config(dir, R"({
    "animations": {"run": {"source": "file:anim.glb#Run"},
                   "run2": {"source": "file:./anim.glb#RUN", "speed": 2},
                   "idle": {"source": "file:anim.glb"}},
    "states": {"s": {"layer": "Base", "rules": [
      {"condition": "[A]", "animation": "run"},
      {"condition": "[B]", "animation": "run2"},
      {"condition": "[C]", "animation": {"source": "file:anim.glb#Run"}},
      {"condition": "true", "animation": "idle"}]}}})"),
                                    model, {}, &diag);
  ASSERT_TRUE(loaded) << loaded.error().to_string();
  // Run and Idle, each once, after the model's own clip.
  ASSERT_EQ(loaded->model->clips().size(), 3u);
  EXPECT_EQ(loaded->model->clips()[1].name(), "file:anim#Run");
  EXPECT_EQ(loaded->model->clips()[2].name(), "file:anim#Idle");
  // One warning for the file, however many references drop Wing.
  EXPECT_EQ(count_containing(diag, "lacks: 'Wing'"), 1) << warnings(diag);
}

TEST(LoadController, FileClipsShareTheirIndexInTheDescription) {
  ScratchDir dir;
  write_anim_glb(dir);
  const auto model = target_model();
  const std::string path = write_config(dir, R"({
    "animations": {"run": {"source": "file:anim.glb#Run"}},
    "states": {"s": {"layer": "Base", "rules": [
      {"condition": "[A]", "animation": "run"},
      {"condition": "true", "animation": {"source": "file:anim.glb#run"}}]}}})");
  auto config = critter::config::load_animation_config(path);
  ASSERT_TRUE(config) << config.error().to_string();

  // Without a host mapping, file: sources are refused where they are written.
  auto refused = critter::config::bind(*config, *model);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kUnsupported);
  EXPECT_EQ(refused.error().location, "/animations/run/source");

  // The mapping decides the clip; an index outside the model is refused.
  std::vector<std::string> asked;
  critter::config::BindOptions options;
  options.file_clips = [&](const critter::config::AnimationReference& r) -> Result<int> {
    asked.push_back(r.source_where.pointer);
    return 0;
  };
  auto desc = critter::config::bind(*config, *model, options);
  ASSERT_TRUE(desc) << desc.error().to_string();
  EXPECT_EQ(desc->states[0].rules[0].animation.clip, 0);
  EXPECT_EQ(desc->states[0].rules[1].animation.clip, 0);
  EXPECT_EQ(asked, (std::vector<std::string>{"/animations/run/source",
                                             "/states/s/rules/1/animation/source"}));
  options.file_clips = [](const critter::config::AnimationReference&) -> Result<int> { return 1; };
  auto outside = critter::config::bind(*config, *model, options);
  ASSERT_FALSE(outside);
  EXPECT_EQ(outside.error().code, ErrorCode::kInvalid);
  EXPECT_EQ(outside.error().location, "/animations/run/source");

  // load_controller maps both references, written with different case, to one clip.
  auto loaded = io::load_controller(path, model);
  ASSERT_TRUE(loaded) << loaded.error().to_string();
  ASSERT_EQ(loaded->model->clips().size(), 2u);
}

TEST(LoadController, MorphTracksNeedTheSameTargetCount) {
  ScratchDir dir;
  const std::vector<ClipSpec> one = {
      {"Smile",
       {{"Root", "weights", {0, 1}, {0, 1}}, {"Root", "translation", {0, 1}, {0, 0, 0, 0, 2, 0}}}}};
  const std::vector<ClipSpec> two = {{"Smile",
                                      {{"Root", "weights", {0, 1}, {0, 0, 1, 1}},
                                       {"Root", "translation", {0, 1}, {0, 0, 0, 0, 2, 0}}}}};
  write_file(dir.file("face1.glb"), anim_glb({"Root"}, one, 1));
  write_file(dir.file("face2.glb"), anim_glb({"Root"}, two, 2));
  const auto model = target_model();
  const char* kConfig = R"({
    "states": {"s": {"layer": "Base", "rules": [
      {"condition": "true", "animation": {"source": "file:%s.glb"}}]}}})";
  char text[512];

  std::snprintf(text, sizeof(text), kConfig, "face1");
  Diagnostics diag1;
  auto kept = io::load_controller(write_config(dir, text, "one.json"), model, {}, &diag1);
  ASSERT_TRUE(kept) << kept.error().to_string();
  EXPECT_EQ(count_containing(diag1, "dropped"), 0) << warnings(diag1);
  const Clip& k = kept->model->clips()[1];
  ASSERT_EQ(k.tracks().size(), 2u);
  EXPECT_EQ(k.tracks()[0].target, TrackTarget::kWeights);
  EXPECT_EQ(k.tracks()[0].index, model->find_mesh("Body"));

  std::snprintf(text, sizeof(text), kConfig, "face2");
  Diagnostics diag2;
  auto dropped = io::load_controller(write_config(dir, text, "two.json"), model, {}, &diag2);
  ASSERT_TRUE(dropped) << dropped.error().to_string();
  ASSERT_EQ(count_containing(diag2, "dropped"), 1) << warnings(diag2);
  EXPECT_EQ(count_containing(diag2, "dropped 1 morph weight track(s)"), 1) << warnings(diag2);
  const Clip& d = dropped->model->clips()[1];
  ASSERT_EQ(d.tracks().size(), 1u);
  EXPECT_EQ(d.tracks()[0].target, TrackTarget::kTranslation);
}

TEST(LoadController, ConfigWithoutFileSourcesKeepsTheModel) {
  ScratchDir dir;
  const auto model = target_model();
  auto loaded = io::load_controller(write_config(dir, R"({
    "states": {"s": {"layer": "Base", "rules": [
      {"condition": "true", "animation": {"source": "wave", "blendDuration": 0}}]}}})"),
                                    model);
  ASSERT_TRUE(loaded) << loaded.error().to_string();
  EXPECT_EQ(loaded->model.get(), model.get());
  // Wave moves Tail from 0 to (0, 0, 1) over 1 s.
  const auto pose = pose_after(*loaded, 0.5f);
  EXPECT_NEAR(pose[static_cast<std::size_t>(model->find_bone("Tail"))].translation.z, 0.5f, 1e-5f);
}

TEST(LoadController, NullModelIsAUsageError) {
  ScratchDir dir;
  auto loaded = io::load_controller(write_config(dir, kRunConfig), nullptr);
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error().code, ErrorCode::kUsage);
}

TEST(LoadController, BrokenConfigIsALocatedParseError) {
  ScratchDir dir;
  const std::string config = write_config(dir, R"({
    "animations": {"a": {"source": "Wave", "speed": [1]}}})");
  auto loaded = io::load_controller(config, target_model());
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error().path, config);
  EXPECT_EQ(loaded.error().location, "/animations/a/speed");
}

// With an error list, every error of every stage is listed: the `file:` sources at their
// references (in config order) and the expressions of the one compile after them.
TEST(LoadController, EveryErrorGoesToTheList) {
  ScratchDir dir;
  write_anim_glb(dir);
  const auto model = target_model();
  const std::string path = write_config(dir, R"({
    "animations": {"a": {"source": "file:anim.glb#Nope"}, "b": {"source": "file:missing.glb"}},
    "states": {"s": {"layer": "Base", "rules": [{"condition": "[X] +", "animation": "a"}]}}})");
  std::vector<Error> errors;
  auto loaded = io::load_controller(path, model, {}, nullptr, &errors);
  ASSERT_FALSE(loaded);
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_EQ(errors[0].location, "/animations/a/source");
  EXPECT_EQ(errors[0].message, "file 'anim.glb' has no clip 'Nope'");
  EXPECT_EQ(errors[1].location, "/animations/b/source");
  EXPECT_EQ(errors[1].code, ErrorCode::kIo);
  EXPECT_EQ(errors[2].location, "/states/s/rules/0/condition");
  EXPECT_EQ(errors[2].path, path);
  EXPECT_EQ(loaded.error().location, errors[0].location);
}

}  // namespace
