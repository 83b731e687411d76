// SPDX-License-Identifier: MIT
#include "support/spec_example.h"

#include <gtest/gtest.h>

#include <utility>

namespace critter::test_support {

const char* const kSpecExampleConfig = R"({
  // a quadruped glTF creature; comments and trailing commas are fine
  "template": "FourLegged",
  "rootBoneRotation": 180, "modelScale": 0.01,
  "boneAliases": { "Head": "b_Head_05", "Neck": "b_Neck_04" },
  "layers": {
    "Head":  { "blendCurve": "smoothstep",
               "driver": { "type": "LookAt", "properties": { "MaxAngleX": 40, "MaxAngleY": 15, "YawAxis": "Y" } } },
    "Death": { "driver": { "type": "Death", "properties": { "BodyDrop": 0.4 } } },
  },
  "animations": {
    "idle": { "source": "Idle" },
    "walk": { "source": "Walk", "speed": "[SpeedXZ] * 0.65", "events": [ { "time": 0.25, "name": "Footstep" } ] },
    "jump": { "source": "Jump", "loop": false, "blendDuration": 0.2,
              "onComplete": { "type": "trigger", "name": "JumpDone" },
              "rootMotion": { "translation": { "mode": "AddImpulse", "impulsePhase": 0.18, "velocityMask": [0, 1, 0] } } },
  },
  "states": {
    "gait": { "layer": "Base", "rules": [
      { "condition": "IsDead", "animation": null },
      { "condition": "[Gait] == 'Jump'", "animation": "jump" },
      { "condition": "[IsOnGround]", "rules": [
          { "condition": "[SpeedXZ] > 0.2", "animation": "walk" },
          { "condition": "true", "animation": "idle" } ] },
      { "condition": "true", "animation": "idle" } ] },
    "death": { "layer": "Death", "rules": [
      { "condition": "[DeathPhase] > 0", "animation": "driver:Death" },
      { "condition": "true", "animation": null } ] },
  },
  "parameters": { "Gait": "", "FootTargetL": [0, 0, 0] },
  "ik": { "chains": [ { "name": "footL", "endBone": "b_FootL", "target": "FootTargetL", "enabled": "[IsOnGround]" } ] },
})";

critter::Model spec_example_quadruped() {
  critter::RawModel raw;
  raw.name = "quadruped";
  const std::pair<const char*, int> joints[] = {{"b_Root", -1},   {"b_Body", 0}, {"b_Neck_04", 1},
                                                {"b_Head_05", 2}, {"b_Hip", 1},  {"b_Leg", 4},
                                                {"b_FootL", 5}};
  for (const auto& [name, parent] : joints) {
    critter::RawJoint j;
    j.name = name;
    j.parent = parent;
    raw.skeleton.joints.push_back(j);
  }
  float x = 1.0f;
  for (const char* name : {"Idle", "Walk", "Jump"}) {
    critter::RawClip clip;
    clip.name = name;
    critter::RawTrack t;
    t.index = 0;
    t.times = {0.0f, 1.0f};
    t.values = {x, 0, 0, x, 0, 0};
    clip.tracks.push_back(t);
    raw.clips.push_back(clip);
    x += 1.0f;
  }
  auto model = critter::build_model(std::move(raw));
  EXPECT_TRUE(model) << model.error().to_string();
  return std::move(*model);
}

}  // namespace critter::test_support
