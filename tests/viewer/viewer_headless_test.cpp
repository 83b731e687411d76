// SPDX-License-Identifier: MIT
// Runs the built critter-viewer under a virtual X server (xvfb-run) as CTest does: a few frames,
// a screenshot, then checks of the picture.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "critter/asset/demo_creature.h"
#include "critter/io/gltf/gltf_writer.h"
#include "critter/io/image/image_decoder.h"
#include "critter/io/image/image_writer.h"
#include "support/cli_runner.h"
#include "support/files.h"
#include "support/glb_builder.h"

namespace {

namespace fs = std::filesystem;
using critter::test_support::shared_model;
using critter::test_support::slurp;

// The viewer's clear colour (0.18, 0.2, 0.24) as 8-bit values.
constexpr int kBackground[3] = {46, 51, 61};

class ViewerHeadless : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("critter_viewer_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs the viewer with `args` under xvfb-run; returns its exit status. The X authority file
  // and the X server's log live in this test's folder: without -f, xvfb-run makes a temporary
  // folder of its own and exits 5 when it cannot remove it, whatever the viewer did. A run where
  // xvfb-run itself failed (no free display: "xvfb-run: error:" on its standard error) is tried
  // again, up to three times in all; if every try failed, the test fails with the server's log.
  int run(const std::string& args) const {
    const fs::path auth = dir_ / "Xauthority";
    critter::testing::write_file(auth, "");
    const std::string cmd = "xvfb-run -a -f '" + auth.string() + "' -e '" +
                            (dir_ / "xvfb.log").string() + "' -s '-screen 0 640x480x24' '" +
                            CRITTER_VIEWER "' " + args + " >'" + (dir_ / "out.txt").string() +
                            "' 2>'" + (dir_ / "err.txt").string() + "'";
    int code = -1;
    for (int attempt = 0; attempt < 3; ++attempt) {
      const int status = std::system(cmd.c_str());
      code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      if (err().find("xvfb-run: error:") == std::string::npos) return code;
    }
    ADD_FAILURE() << "xvfb-run failed three times: " << err() << slurp(dir_ / "xvfb.log");
    return code;
  }
  // Runs the viewer with `args` with no display at all (no X server, no Wayland).
  int run_without_display(const std::string& args) const {
    const std::string cmd = "env -u DISPLAY -u WAYLAND_DISPLAY '" CRITTER_VIEWER "' " + args +
                            " >'" + (dir_ / "out.txt").string() + "' 2>'" +
                            (dir_ / "err.txt").string() + "'";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string err() const { return slurp(dir_ / "err.txt"); }

  fs::path dir_;
};

struct Picture {
  int width = 0, height = 0;
  int changed = 0;         // pixels away from the background colour
  int changed_centre = 0;  // of those, in the middle third of the picture
};

Picture inspect(const fs::path& png) {
  Picture p;
  critter::Result<critter::RgbaImage> image = critter::io::read_image(png.string());
  if (!image) return p;
  p.width = image->width;
  p.height = image->height;
  for (int y = 0; y < p.height; ++y) {
    for (int x = 0; x < p.width; ++x) {
      const unsigned char* px =
          image->pixels.data() + (static_cast<std::size_t>(y) * p.width + x) * 4;
      bool differs = false;
      for (int c = 0; c < 3; ++c) differs |= std::abs(px[c] - kBackground[c]) > 12;
      if (!differs) continue;
      ++p.changed;
      if (x > p.width / 3 && x < 2 * p.width / 3 && y > p.height / 3 && y < 2 * p.height / 3)
        ++p.changed_centre;
    }
  }
  return p;
}

TEST_F(ViewerHeadless, DrawsAnAnimatedModelIntoAScreenshot) {
  const fs::path png = dir_ / "shot.png";
  ASSERT_EQ(run("'" + shared_model("greenman/greenman.glb") +
                "' --frames 5 --width 320 --height 240 --hide-ui --anim 2_move --screenshot '" +
                png.string() + "'"),
            0)
      << err();
  ASSERT_TRUE(fs::exists(png));
  const Picture p = inspect(png);
  EXPECT_EQ(p.width, 320);
  EXPECT_EQ(p.height, 240);
  // The framed model covers a good part of the view and its centre; the rest is background.
  EXPECT_GT(p.changed, 320 * 240 / 20);
  EXPECT_LT(p.changed, 320 * 240 * 9 / 10);
  EXPECT_GT(p.changed_centre, 0);
}

TEST_F(ViewerHeadless, CpuSkinningDrawsTheSameSilhouette) {
  const fs::path gpu = dir_ / "gpu.png";
  const fs::path cpu = dir_ / "cpu.png";
  const std::string common = "'" + shared_model("RiggedFigure/RiggedFigure.glb") +
                             "' --frames 3 --dt 0.3 --width 200 --height 200 --hide-ui";
  ASSERT_EQ(run(common + " --screenshot '" + gpu.string() + "'"), 0) << err();
  ASSERT_EQ(run(common + " --cpu-skinning --screenshot '" + cpu.string() + "'"), 0) << err();
  const Picture g = inspect(gpu);
  const Picture c = inspect(cpu);
  ASSERT_GT(g.changed, 200);
  // Same pose, same camera: the covered areas agree within a few percent (anti-aliased edges).
  EXPECT_NEAR(c.changed, g.changed, g.changed / 20 + 20);
}

TEST_F(ViewerHeadless, UnreadableModelFailsWithTheLoaderError) {
  EXPECT_EQ(run("'" + (dir_ / "missing.glb").string() + "' --frames 1"), 1);
  EXPECT_NE(err().find("missing.glb"), std::string::npos) << err();
}

// The RGB pixels of a PNG (empty when it cannot be read).
std::vector<unsigned char> pixels(const fs::path& png) {
  critter::Result<critter::RgbaImage> image = critter::io::read_image(png.string());
  if (!image) return {};
  std::vector<unsigned char> out;
  out.reserve(image->pixels.size() / 4 * 3);
  for (std::size_t i = 0; i < image->pixels.size(); i += 4)
    out.insert(out.end(), image->pixels.begin() + static_cast<std::ptrdiff_t>(i),
               image->pixels.begin() + static_cast<std::ptrdiff_t>(i) + 3);
  return out;
}

// How many pixels differ between two pictures of the same size.
int differing_pixels(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b) {
  int n = 0;
  for (std::size_t i = 0; i + 2 < a.size() && i + 2 < b.size(); i += 3)
    n += a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2];
  return n;
}

// The demo quadruped (clips "walk" and "idle") and a config that walks it above Speed 0.2.
class ViewerConfig : public ViewerHeadless {
 protected:
  void SetUp() override {
    ViewerHeadless::SetUp();
    critter::Result<critter::Model> model = critter::build_demo_quadruped();
    ASSERT_TRUE(model) << model.error().to_string();
    model_ = (dir_ / "quadruped.glb").string();
    ASSERT_TRUE(critter::io::write_gltf(*model, model_));
    config_ = write("gait.json", R"({
      "template": "Simple",
      "animations": { "idle": { "source": "idle" }, "walk": { "source": "walk" } },
      "states": { "gait": { "layer": "Base", "rules": [
        { "condition": "[IsOnGround]", "rules": [
          { "condition": "[Speed] > 0.2", "animation": "walk" },
          { "condition": "true", "animation": "idle" } ] },
        { "condition": "true", "animation": "idle" } ] } }
    })");
  }

  std::string write(const std::string& name, const std::string& text) const {
    const std::string path = (dir_ / name).string();
    critter::testing::write_file(path, text);
    return path;
  }

  // Runs the viewer on the quadruped with `config` and `args`, 12 frames of 0.05 s.
  int run_config(const std::string& config, const std::string& args) const {
    return run("'" + model_ + "' --config '" + config +
               "' --frames 12 --dt 0.05 --width 240 --height 200 --hide-ui " + args);
  }

  std::string model_;
  std::string config_;
};

TEST_F(ViewerConfig, TheConfigsParametersDriveThePicture) {
  const fs::path walk = dir_ / "walk.png";
  const fs::path idle = dir_ / "idle.png";
  const fs::path again = dir_ / "again.png";
  ASSERT_EQ(run_config(config_, "--param Speed=1 --screenshot '" + walk.string() + "'"), 0)
      << err();
  ASSERT_EQ(run_config(config_, "--param Speed=0 --screenshot '" + idle.string() + "'"), 0)
      << err();
  ASSERT_EQ(run_config(config_, "--param 'Speed = 1' --screenshot '" + again.string() + "'"), 0)
      << err();
  const Picture p = inspect(walk);
  EXPECT_EQ(p.width, 240);
  EXPECT_GT(p.changed, 240 * 200 / 50);  // the creature is framed and drawn
  const auto a = pixels(walk);
  const auto b = pixels(idle);
  const auto c = pixels(again);
  ASSERT_EQ(a.size(), 240u * 200u * 3u);
  ASSERT_EQ(b.size(), a.size());
  ASSERT_EQ(c.size(), a.size());
  // 0.6 s into the walk (legs swinging) against 0.6 s into the idle: the silhouettes differ;
  // the same parameters and fixed steps give the same picture.
  EXPECT_GT(differing_pixels(a, b), 200);
  EXPECT_EQ(differing_pixels(a, c), 0);
}

TEST_F(ViewerConfig, ABrokenConfigExitsWithItsPointer) {
  const std::string broken = write("broken.json", R"({
    "template": "Simple",
    "states": { "gait": { "layer": "Base", "rules": [
      { "condition": "[Speed] >", "animation": "walk" } ] } }
  })");
  EXPECT_EQ(run_config(broken, ""), 1);
  EXPECT_NE(err().find("broken.json:/states/gait/rules/0/condition:"), std::string::npos) << err();
}

TEST_F(ViewerConfig, AnUnknownParameterExitsWithSuggestions) {
  EXPECT_EQ(run_config(config_, "--param Sped=1"), 1);
  EXPECT_NE(err().find("unknown parameter 'Sped'"), std::string::npos) << err();
  EXPECT_NE(err().find("did you mean Speed"), std::string::npos) << err();
}

TEST_F(ViewerConfig, AMalformedParameterIsAUsageError) {
  EXPECT_EQ(run("'" + model_ + "' --config '" + config_ + "' --frames 1 --param Speed"), 2);
  EXPECT_NE(err().find("expected NAME=VALUE"), std::string::npos) << err();
  EXPECT_EQ(run("'" + model_ + "' --frames 1 --param Speed=1"), 2);
  EXPECT_NE(err().find("--param needs --config"), std::string::npos) << err();
}

// `--creature`: a legacy rig simulates a built-in creature, 30 frames of 1/60 s (60 Hz steps).
class ViewerCreature : public ViewerHeadless {
 protected:
  int run_creature(const std::string& model, const std::string& args) const {
    return run("'" + model + "' --frames 30 --width 240 --height 200 --hide-ui " + args);
  }
};

TEST_F(ViewerCreature, TheStateDrivesThePicture) {
  const fs::path run3 = dir_ / "run.png";
  const fs::path still = dir_ / "still.png";
  const fs::path again = dir_ / "again.png";
  const std::string kind = "builtin:four-legged";
  ASSERT_EQ(run_creature(kind, "--creature four-legged --state speed=3 --screenshot '" +
                                   run3.string() + "'"),
            0)
      << err();
  ASSERT_EQ(run_creature(kind, "--creature four-legged --state speed=0 --screenshot '" +
                                   still.string() + "'"),
            0)
      << err();
  ASSERT_EQ(run_creature(kind, "--creature four-legged --state 'speed = 3' --screenshot '" +
                                   again.string() + "'"),
            0)
      << err();
  const Picture p = inspect(run3);
  EXPECT_EQ(p.width, 240);
  EXPECT_GT(p.changed, 240 * 200 / 50);  // the creature is framed and drawn
  EXPECT_GT(p.changed_centre, 0);
  const auto a = pixels(run3);
  const auto b = pixels(still);
  const auto c = pixels(again);
  ASSERT_EQ(a.size(), 240u * 200u * 3u);
  ASSERT_EQ(b.size(), a.size());
  ASSERT_EQ(c.size(), a.size());
  // Half a second into a canter against standing: the legs differ; the same state gives the
  // same picture.
  EXPECT_GT(differing_pixels(a, b), 100);
  EXPECT_EQ(differing_pixels(a, c), 0);
}

TEST_F(ViewerCreature, EveryKindOnItsBuiltinModelDraws) {
  for (const char* kind : {"human", "bird", "flightless-bird", "fish"}) {
    const fs::path png = dir_ / (std::string(kind) + ".png");
    ASSERT_EQ(run_creature(std::string("builtin:") + kind, std::string("--creature ") + kind +
                                                               " --state speed=1 --screenshot '" +
                                                               png.string() + "'"),
              0)
        << kind << ": " << err();
    EXPECT_GT(inspect(png).changed, 240 * 200 / 100) << kind;
  }
}

TEST_F(ViewerCreature, WithTheUiTheCreatureWindowDraws) {
  const fs::path png = dir_ / "ui.png";
  ASSERT_EQ(run("builtin:bird --creature bird --state flying=true --state speed=2 --frames 3 "
                "--width 640 --height 480 --screenshot '" +
                png.string() + "'"),
            0)
      << err();
  EXPECT_EQ(inspect(png).width, 640);
}

TEST_F(ViewerCreature, BadOptionsAreUsageErrorsWithTheCommandLinesMessages) {
  const std::string model = "builtin:four-legged";
  EXPECT_EQ(run_creature(model, "--creature four-leged"), 2);
  EXPECT_NE(err().find("--creature: unknown creature kind 'four-leged' (did you mean "
                       "four-legged?); the kinds are four-legged, human, bird, flightless-bird "
                       "or fish"),
            std::string::npos)
      << err();
  EXPECT_EQ(run_creature(model, "--creature four-legged --state sped=2"), 2);
  EXPECT_NE(err().find("--state: 'sped=2': unknown state 'sped' (did you mean speed"),
            std::string::npos)
      << err();
  EXPECT_EQ(run_creature(model, "--creature four-legged --state health=nan"), 2);
  EXPECT_NE(err().find("--state: 'health=nan'"), std::string::npos) << err();
  EXPECT_EQ(run_creature(model, "--creature four-legged --species dragon"), 2);
  EXPECT_NE(err().find("--species: unknown four-legged species 'dragon'"), std::string::npos)
      << err();
  EXPECT_EQ(run_creature(model, "--state speed=2"), 2);
  EXPECT_NE(err().find("set up a --creature"), std::string::npos) << err();
  EXPECT_EQ(run("--creature fish --frames 1"), 2);
  EXPECT_NE(err().find("--creature needs a model"), std::string::npos) << err();
}

TEST_F(ViewerCreature, MissingBonesExitWithTheBonesNamed) {
  EXPECT_EQ(run_creature("builtin:fish", "--creature four-legged"), 1);
  EXPECT_NE(err().find("the model lacks the bones the four-legged rig needs: Head"),
            std::string::npos)
      << err();
}

TEST_F(ViewerHeadless, BuiltinModelsOpenWithoutAFile) {
  const fs::path png = dir_ / "blob.png";
  ASSERT_EQ(run("builtin:blob --frames 3 --width 240 --height 200 --hide-ui --screenshot '" +
                png.string() + "'"),
            0)
      << err();
  EXPECT_GT(inspect(png).changed_centre, 0);
  EXPECT_EQ(run("builtin:dragon --frames 1"), 1);
  EXPECT_NE(err().find("no built-in model of that name (built in: builtin:quadruped"),
            std::string::npos)
      << err();
}

TEST_F(ViewerHeadless, ScreenshotNeedsFrames) {
  EXPECT_EQ(run("--screenshot x.png"), 2);
  EXPECT_NE(err().find("--screenshot needs --frames"), std::string::npos) << err();
}

// The flags the command-line tool spells the same way: --anim, --mode by name, --clips.
class ViewerFlags : public ViewerHeadless {
 protected:
  // A screenshot of `model` after 3 frames of 0.3 s with `args`; its pixels.
  std::vector<unsigned char> shot(const std::string& model, const std::string& args,
                                  const std::string& name) const {
    const fs::path png = dir_ / name;
    const int code = run("'" + model + "' --frames 3 --dt 0.3 --width 200 --height 200 --hide-ui " +
                         args + " --screenshot '" + png.string() + "'");
    EXPECT_EQ(code, 0) << args << ": " << err();
    return pixels(png);
  }
};

const char* const kCharacterB3d =
    "/usr/share/games/minetest/games/minetest_game/mods/player_api/models/character.b3d";

TEST_F(ViewerFlags, AnUnknownAnimationExitsWithTheClipNames) {
  const std::string model = shared_model("greenman/greenman.glb");
  EXPECT_EQ(run("'" + model + "' --frames 1 --anim 2_mvoe"), 1);
  EXPECT_NE(err().find("critter-viewer: " + model +
                       ":--anim: no animation '2_mvoe' (have: 0_pose, 1_idle, 2_move, "
                       "3_attack)\n"),
            std::string::npos)
      << err();
  // --clip is the same option under its older name.
  EXPECT_EQ(run("'" + model + "' --frames 1 --clip 7"), 1);
  EXPECT_NE(err().find(":--anim: no animation '7' (have: 0_pose,"), std::string::npos) << err();
}

TEST_F(ViewerFlags, AnimPicksTheClipByNameOrIndex) {
  const std::string model = shared_model("greenman/greenman.glb");
  const auto by_name = shot(model, "--anim 2_move", "name.png");
  const auto by_index = shot(model, "--anim 2", "index.png");
  const auto alias = shot(model, "--clip 2_move", "alias.png");
  const auto other = shot(model, "--anim 3_attack", "other.png");
  ASSERT_EQ(by_name.size(), 200u * 200u * 3u);
  EXPECT_EQ(differing_pixels(by_name, by_index), 0);
  EXPECT_EQ(differing_pixels(by_name, alias), 0);
  EXPECT_GT(differing_pixels(by_name, other), 50);
}

TEST_F(ViewerFlags, ModeTakesTheCommandLinesNamesAndNumbers) {
  const std::string model = shared_model("RiggedFigure/RiggedFigure.glb");
  const auto forward = shot(model, "--mode once_forward", "forward.png");
  const auto number = shot(model, "--mode 1", "number.png");
  const auto dashed = shot(model, "--mode Once-Forward", "dashed.png");
  const auto backward = shot(model, "--mode once_backward", "backward.png");
  ASSERT_EQ(forward.size(), 200u * 200u * 3u);
  EXPECT_EQ(differing_pixels(forward, number), 0);
  EXPECT_EQ(differing_pixels(forward, dashed), 0);
  EXPECT_GT(differing_pixels(forward, backward), 50);
}

TEST_F(ViewerFlags, LimbsSplitsAndBendsTheCharacter) {
  // The limb animator gives the standing character's elbows 8° and knees 4° of bend: the same
  // character in the same place, its arms and legs a little bent.
  const auto plain = shot(kCharacterB3d, "", "plain.png");
  const auto split = shot(kCharacterB3d, "--limbs", "limbs.png");
  ASSERT_EQ(split.size(), 200u * 200u * 3u);
  EXPECT_GT(differing_pixels(plain, split), 20);
  EXPECT_LT(differing_pixels(plain, split), 8000);
  // Treading water bends them far more.
  const auto tread = shot(kCharacterB3d, "--limbs --motion water=tread", "tread.png");
  EXPECT_GT(differing_pixels(plain, tread), differing_pixels(plain, split));
  EXPECT_EQ(err().find("limb"), std::string::npos) << err();
  // A model without block limbs opens as it is, with the warning on stderr.
  const std::string figure = shared_model("RiggedFigure/RiggedFigure.glb");
  shot(figure, "--limbs", "figure.png");
  EXPECT_NE(err().find("the model has no block limbs to split"), std::string::npos) << err();
}

TEST_F(ViewerFlags, AnUnknownModeIsAUsageError) {
  EXPECT_EQ(run("model.glb --mode sideways"), 2);
  EXPECT_EQ(err(),
            "critter-viewer: model.glb:--mode: unknown playback mode 'sideways' (none, "
            "once_forward, once_backward, once_pingpong, loop_forward, loop_backward, "
            "loop_pingpong or 0..6)\n");
  EXPECT_EQ(run("model.glb --mode 7"), 2);
  EXPECT_NE(err().find("unknown playback mode '7'"), std::string::npos) << err();
}

TEST_F(ViewerFlags, ClipsCutTheAnimationIntoNamedRanges) {
  ASSERT_TRUE(fs::exists(kCharacterB3d))
      << kCharacterB3d << " is missing: scripts/deps.sh installs minetest-data";
  const std::string clips = " --clips stand:0-79,walk:168-187";
  EXPECT_EQ(run(std::string("'") + kCharacterB3d + "' --frames 1 --anim wlk" + clips), 1);
  EXPECT_NE(err().find(":--anim: no animation 'wlk' (have: stand, walk)\n"), std::string::npos)
      << err();
  const auto stand = shot(kCharacterB3d, "--anim stand" + clips, "stand.png");
  const auto walk = shot(kCharacterB3d, "--anim walk" + clips, "walk.png");
  ASSERT_EQ(stand.size(), 200u * 200u * 3u);
  EXPECT_GT(differing_pixels(stand, walk), 20);
}

TEST_F(ViewerFlags, MalformedClipsAreAUsageError) {
  EXPECT_EQ(run("model.glb --clips walk:168-"), 2);
  EXPECT_EQ(err(), "critter-viewer: --clips: entry 1 'walk:168-': missing end frame\n");
}

TEST_F(ViewerFlags, WithoutADisplayItSaysSo) {
  EXPECT_EQ(run_without_display("'" + shared_model("greenman/greenman.glb") + "' --frames 1"), 1);
  EXPECT_EQ(err(),
            "critter-viewer: no display: DISPLAY and WAYLAND_DISPLAY are unset; run it in a "
            "desktop session or under xvfb-run, draw offscreen with --headless --frames N, or "
            "draw pictures with critter render\n");
}

// --headless: the same frames drawn offscreen through EGL, with no display at all.
TEST_F(ViewerFlags, HeadlessDrawsOffscreenWithoutADisplay) {
  const std::string model = shared_model("greenman/greenman.glb");
  const fs::path shot = dir_ / "headless.png";
  ASSERT_EQ(run_without_display("'" + model +
                                "' --headless --frames 3 --dt 0.3 --width 200 --height 160 "
                                "--hide-ui --anim 2_move --screenshot '" +
                                shot.string() + "'"),
            0)
      << err();
  const Picture p = inspect(shot);
  EXPECT_EQ(p.width, 200);
  EXPECT_EQ(p.height, 160);
  EXPECT_GT(p.changed_centre, 200);
  // The panels draw offscreen too.
  const fs::path ui = dir_ / "ui.png";
  ASSERT_EQ(run_without_display("'" + model + "' --headless --frames 2 --width 480 --height 360 " +
                                "--screenshot '" + ui.string() + "'"),
            0)
      << err();
  const auto with_panels = pixels(ui);
  ASSERT_EQ(with_panels.size(), 480u * 360u * 3u);
  // The ImGui window's title bar sits at the top left, away from the viewer's background.
  const unsigned char* corner = with_panels.data() + (20 * 480 + 20) * 3;
  EXPECT_FALSE(corner[0] == kBackground[0] && corner[1] == kBackground[1] &&
               corner[2] == kBackground[2]);
  // A bad clip name still exits 1 with the clip names, and --headless needs --frames.
  EXPECT_EQ(run_without_display("'" + model + "' --headless --frames 1 --anim nope"), 1);
  EXPECT_NE(err().find(":--anim: no animation 'nope' (have: 0_pose,"), std::string::npos) << err();
  EXPECT_EQ(run_without_display("'" + model + "' --headless"), 2);
  EXPECT_EQ(err(), "critter-viewer: --headless needs --frames\n");
}

TEST_F(ViewerFlags, TextureAppliesASkinAsRenderDoes) {
  const std::string model = shared_model("greenman/greenman.glb");
  critter::RgbaImage red;
  red.width = 4;
  red.height = 4;
  for (int i = 0; i < 16; ++i) red.pixels.insert(red.pixels.end(), {230, 20, 20, 255});
  const fs::path skin = dir_ / "red.png";
  ASSERT_TRUE(critter::io::write_png(skin.string(), red));
  auto shot = [&](const std::string& args, const std::string& name) {
    const fs::path png = dir_ / name;
    EXPECT_EQ(run_without_display("'" + model +
                                  "' --headless --frames 1 --width 160 --height 120 --hide-ui " +
                                  args + " --screenshot '" + png.string() + "'"),
              0)
        << err();
    return pixels(png);
  };
  const auto plain = shot("", "plain.png");
  const auto skinned = shot("--texture '" + skin.string() + "'", "skinned.png");
  ASSERT_EQ(plain.size(), 160u * 120u * 3u);
  ASSERT_EQ(skinned.size(), plain.size());
  int reddened = 0;
  for (std::size_t i = 0; i + 2 < plain.size(); i += 3) {
    reddened += skinned[i] > skinned[i + 1] + 60 && !(plain[i] > plain[i + 1] + 60);
  }
  EXPECT_GT(reddened, 300);
  // Malformed: a usage error; a missing image: bad input naming the file.
  EXPECT_EQ(run_without_display("'" + model + "' --headless --frames 1 --texture '=x.png'"), 2);
  EXPECT_NE(err().find("--texture"), std::string::npos) << err();
  EXPECT_EQ(run_without_display("'" + model + "' --headless --frames 1 --texture '" +
                                (dir_ / "missing.png").string() + "'"),
            1);
  EXPECT_NE(err().find("missing.png"), std::string::npos) << err();
}

}  // namespace
