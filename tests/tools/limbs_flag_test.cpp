// SPDX-License-Identifier: MIT
// --limbs on `critter convert`, `pose` and `render`: Minetest's character split at its knees and
// elbows (8 joints more, a validator-clean glTF, not cut twice when read back), and a model
// without block limbs used unchanged with the warning printed.
#include <gtest/gtest.h>

#include <string>

#include "critter/creature/limbs/split_limbs.h"
#include "critter/io/load.h"
#include "support/cli_runner.h"
#include "support/gltf_validation.h"
#include "support/test_models.h"

namespace {

using critter::test_support::CliTest;
using critter::test_support::contains;
using critter::test_support::RunResult;
using critter::test_support::shared_model;

const char* const kCharacterB3d =
    "/usr/share/games/minetest/games/minetest_game/mods/player_api/models/character.b3d";

class LimbsFlagTest : public CliTest {};

TEST_F(LimbsFlagTest, ConvertCharacterWritesTheSplitSkin) {
  const std::string out = (dir_ / "split.glb").string();
  const RunResult r = run({"convert", kCharacterB3d, "--limbs", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, std::string(kCharacterB3d) + " -> " + out + "\n");
  EXPECT_FALSE(contains(r.err, "limb")) << r.err;
  const auto v = critter::testing::validate_gltf(out);
  EXPECT_EQ(v.errors, 0) << v.summary();

  auto source = critter::io::load(kCharacterB3d);
  auto split = critter::io::load(out);
  ASSERT_TRUE(source && split);
  EXPECT_EQ(split->skeleton().joint_count(), source->skeleton().joint_count() + 8);
  ASSERT_EQ(split->skins().size(), 1u);
  EXPECT_EQ(split->skins()[0].joints.size(), source->skins()[0].joints.size() + 8);
  for (const char* name : {"Arm_Right.lower", "Arm_Right.seam", "Arm_Left.lower", "Arm_Left.seam",
                           "Leg_Right.lower", "Leg_Right.seam", "Leg_Left.lower", "Leg_Left.seam"})
    EXPECT_GE(split->find_bone(name), 0) << name;
  EXPECT_EQ(critter::creature::recover_limbs(*split).limbs.size(), 4u);

  // Read back with --limbs, the split file is recognised and not cut again.
  const std::string again = (dir_ / "again.glb").string();
  const RunResult r2 = run({"convert", out, "--limbs", "-o", again});
  ASSERT_EQ(r2.exit_code, 0) << r2.err;
  auto twice = critter::io::load(again);
  ASSERT_TRUE(twice);
  EXPECT_EQ(twice->skeleton().joint_count(), split->skeleton().joint_count());
}

// The split makes a new model; --compact's clips are built again for it, so the baked file holds
// one compact clip per clip over the split skeleton.
TEST_F(LimbsFlagTest, SplitKeepsCompactClips) {
  const std::string out = (dir_ / "split.crit").string();
  const RunResult r = run({"convert", kCharacterB3d, "--clips", "stand:0-79,walk:168-187",
                           "--clips-fps", "30", "--limbs", "--compact", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto split = critter::io::load(out);
  ASSERT_TRUE(split) << split.error().to_string();
  ASSERT_EQ(split->clips().size(), 2u);
  EXPECT_EQ(split->compact_clips().size(), split->clips().size());
  auto source = critter::io::load(kCharacterB3d);
  ASSERT_TRUE(source);
  EXPECT_EQ(split->skeleton().joint_count(), source->skeleton().joint_count() + 8);
}

TEST_F(LimbsFlagTest, ModelWithoutLimbsConvertsUnchangedWithTheWarning) {
  const std::string in = shared_model("RiggedFigure/RiggedFigure.glb");
  const std::string out = (dir_ / "figure.glb").string();
  const RunResult r = run({"convert", in, "--limbs", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "critter: " + in +
                       ": warning: no joint named 'Arm_Right', 'Arm_Left', 'Leg_Right', "
                       "'Leg_Left': the model has no block limbs to split\n");
  auto a = critter::io::load(in);
  auto b = critter::io::load(out);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(b->skeleton().joint_count(), a->skeleton().joint_count());
}

TEST_F(LimbsFlagTest, PoseListsTheAddedBonesAtRest) {
  const RunResult plain = run({"pose", kCharacterB3d, "--time", "0"});
  const RunResult limbs = run({"pose", kCharacterB3d, "--limbs", "--time", "0"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  ASSERT_EQ(limbs.exit_code, 0) << limbs.err;
  EXPECT_FALSE(contains(plain.out, "Leg_Left.lower"));
  EXPECT_TRUE(contains(limbs.out, "Leg_Left.lower")) << limbs.out;
  EXPECT_TRUE(contains(limbs.out, "Leg_Left.seam")) << limbs.out;
  // The source bones pose exactly as without --limbs: every line of the plain report is there.
  std::size_t start = 0;
  while (start < plain.out.size()) {
    const std::size_t end = plain.out.find('\n', start);
    const std::string line = plain.out.substr(start, end - start);
    EXPECT_TRUE(contains(limbs.out, line)) << line;
    start = end == std::string::npos ? plain.out.size() : end + 1;
  }
}

TEST_F(LimbsFlagTest, RenderTakesLimbs) {
  const std::string out = (dir_ / "split.png").string();
  const RunResult r = run({"render", kCharacterB3d, "--limbs", "--size", "64x64", "-o", out});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(contains(r.err, "limb")) << r.err;
}

}  // namespace
