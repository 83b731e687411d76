// SPDX-License-Identifier: MIT
// `critter convert` as a user runs it: outputs, exit codes, exact messages, batches.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "critter/io/load.h"
#include "support/cli_runner.h"
#include "support/gltf_validation.h"
#include "support/test_models.h"

namespace {

namespace fs = std::filesystem;

using critter::test_support::CliTest;
using critter::test_support::contains;
using critter::test_support::RunResult;
using critter::test_support::shared_model;
using critter::test_support::slurp;

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::size_t count_lines_starting(const std::string& text, const std::string& prefix) {
  std::size_t n = 0;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) n += line.rfind(prefix, 0) == 0;
  return n;
}

const char* const kCharacterB3d =
    "/usr/share/games/minetest/games/minetest_game/mods/player_api/models/character.b3d";

class ConvertTest : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    out_ = dir_ / "out";
    fs::create_directories(out_);
  }
  fs::path out_;
};

TEST_F(ConvertTest, OneFileToGlbValidatesAndReloads) {
  const std::string in = shared_model("RiggedFigure/RiggedFigure.glb");
  const std::string out = (out_ / "figure.glb").string();
  const RunResult r = run({"convert", in, "-o", out});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, in + " -> " + out + "\n");
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(names_in(out_), (std::vector<std::string>{"figure.glb"}));
  const auto v = critter::testing::validate_gltf(out);
  EXPECT_EQ(v.errors, 0) << v.summary();
  // The node tree is kept, so the one warning of the source (its skinned mesh sits on a child
  // node) is the output's too, and nothing more.
  const auto source = critter::testing::validate_gltf(in);
  EXPECT_EQ(v.warnings, source.warnings) << v.summary();
  EXPECT_EQ(v.messages, source.messages) << v.summary();

  auto a = critter::io::load(in);
  auto b = critter::io::load(out);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(b->clips().size(), a->clips().size());
  EXPECT_EQ(b->meshes().size(), a->meshes().size());
  for (const std::string& name : a->skeleton().names()) EXPECT_GE(b->find_bone(name), 0) << name;
}

TEST_F(ConvertTest, OneFileToGltfWritesItsBufferAndTextureBeside) {
  const RunResult r =
      run({"convert", shared_model("girl/girl.glb"), "-o", (out_ / "girl.gltf").string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // girl.glb embeds one image named "girl": it becomes girl_girl.png.
  EXPECT_EQ(names_in(out_), (std::vector<std::string>{"girl.bin", "girl.gltf", "girl_girl.png"}));
  const auto v = critter::testing::validate_gltf(out_ / "girl.gltf");
  EXPECT_EQ(v.errors, 0) << v.summary();
}

TEST_F(ConvertTest, PosedObjAtATime) {
  const std::string in = shared_model("girl/girl.glb");
  const RunResult rest = run({"convert", in, "-o", (out_ / "rest.obj").string()});
  ASSERT_EQ(rest.exit_code, 0) << rest.err;
  const RunResult run_pose = run(
      {"convert", in, "-o", (out_ / "run.obj").string(), "--anim", "RunTrack", "--time", "0.5"});
  ASSERT_EQ(run_pose.exit_code, 0) << run_pose.err;
  EXPECT_EQ(names_in(out_), (std::vector<std::string>{"rest.mtl", "rest.obj", "rest_girl.png",
                                                      "run.mtl", "run.obj", "run_girl.png"}));
  auto model = critter::io::load(in);
  ASSERT_TRUE(model);
  std::size_t vertices = 0;
  for (const auto& mesh : model->meshes())
    for (const auto& part : mesh.parts) vertices += part.vertex_count();
  const std::string a = slurp(out_ / "rest.obj");
  const std::string b = slurp(out_ / "run.obj");
  EXPECT_EQ(count_lines_starting(a, "v "), vertices);
  EXPECT_EQ(count_lines_starting(b, "v "), vertices);
  EXPECT_NE(a, b);
  EXPECT_TRUE(contains(b, "clip 'RunTrack' at 0.5 s")) << b.substr(0, 200);
}

TEST_F(ConvertTest, UsageErrors) {
  const std::string in = shared_model("SimpleSkin/SimpleSkin.gltf");
  const std::string glb = (out_ / "x.glb").string();
  struct Case {
    std::vector<std::string> args;
    std::string err;
  };
  const std::vector<Case> cases = {
      {{"convert", in}, "critter: give -o OUT (one input) or --out-dir DIR\n"},
      {{"convert", in, "-o", glb, "--out-dir", out_.string()},
       "critter: -o and --out-dir exclude each other\n"},
      {{"convert", in, in, "-o", glb},
       "critter: -o: -o names one output; use --out-dir DIR for 2 inputs\n"},
      {{"convert", in, "-o", (out_ / "x.fbx").string()},
       "critter: -o: cannot tell the format of '" + (out_ / "x.fbx").string() +
           "': use a .glb, .gltf, .obj or .crit name or --format\n"},
      {{"convert", in, "-o", glb, "--format", "obj"},
       "critter: -o: '" + glb + "' does not match --format obj\n"},
      {{"convert", in, "-o", glb, "--format", "fbx"},
       "critter: --format: unknown format 'fbx' (glb, gltf, obj or crit)\n"},
      {{"convert", in, "-o", glb, "--anim", "0"},
       "critter: --anim: --anim and --time pose an OBJ export; glTF keeps every animation\n"},
      {{"convert", in, "-o", (out_ / "x.obj").string(), "--time", "1"},
       "critter: --time: --time needs --anim\n"},
      {{"convert", in, "-o", glb, "-j", "0"}, "critter: -j: needs at least 1 job\n"},
      {{"convert", in, "x/SimpleSkin.gltf", "--out-dir", out_.string()},
       "critter: --out-dir: '" + in + "' and 'x/SimpleSkin.gltf' would both write '" +
           (out_ / "SimpleSkin.glb").string() + "'\n"},
  };
  for (const Case& c : cases) {
    const RunResult r = run(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.err;
    EXPECT_EQ(r.err, c.err);
    EXPECT_EQ(r.out, "");
  }
  const RunResult clips = run({"convert", in, "-o", glb, "--clips", "walk:1"});
  EXPECT_EQ(clips.exit_code, 2);
  EXPECT_TRUE(contains(clips.err, "--clips")) << clips.err;
  EXPECT_TRUE(names_in(out_).empty());
}

TEST_F(ConvertTest, MeaninglessTimesAreUsageErrors) {
  const std::string in = shared_model("girl/girl.glb");
  const std::string obj = (out_ / "g.obj").string();
  for (const char* time : {"nan", "inf", "-1"}) {
    const RunResult r = run({"convert", in, "-o", obj, "--anim", "0", "--time", time});
    EXPECT_EQ(r.exit_code, 2) << time << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "--time")) << r.err;
    EXPECT_EQ(r.out, "");
  }
  EXPECT_TRUE(names_in(out_).empty());
}

// -o into folders that do not exist yet creates them, as --out-dir does; nothing but the output
// is left there (the write stays atomic: no temporary file remains). FailureKeepsTheExistingOutput
// covers a folder that cannot be created.
TEST_F(ConvertTest, OutputIntoMissingFoldersCreatesThem) {
  const std::string in = shared_model("SimpleSkin/SimpleSkin.gltf");
  const fs::path out = out_ / "new" / "deeper" / "skin.glb";
  const RunResult r = run({"convert", in, "-o", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(names_in(out.parent_path()), (std::vector<std::string>{"skin.glb"}));
  EXPECT_TRUE(critter::io::load(out.string()));
}

TEST_F(ConvertTest, UnknownAnimationIsABadInput) {
  const std::string in = shared_model("girl/girl.glb");
  const RunResult r =
      run({"convert", in, "-o", (out_ / "g.obj").string(), "--anim", "Dance", "--time", "1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "critter: " + in + ":--anim: no animation 'Dance' (have: IdleTrack, RunTrack)\n");
  EXPECT_TRUE(names_in(out_).empty());
}

// A batch with a broken file and a missing one: the good files are converted, each failure is
// reported with its location, the summary counts them, and the exit status is 1.
TEST_F(ConvertTest, BatchGoesOnAfterAFailure) {
  const fs::path broken = dir_ / "broken.glb";
  {
    std::ofstream f(broken, std::ios::binary);
    f << "glTF" << std::string("\x02\x00\x00\x00\x10\x00\x00\x00", 8) << "junk";
  }
  const std::string missing = (dir_ / "missing.gltf").string();
  const RunResult r = run({"convert", shared_model("SimpleSkin/SimpleSkin.gltf"), broken.string(),
                           missing, shared_model("AnimatedTriangle/AnimatedTriangle.gltf"),
                           "--out-dir", out_.string(), "-j", "2"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(
      std::regex_match(r.out, std::regex("converted 2 of 4 files to glb in " + out_.string() +
                                         R"( \(2 failed, [0-9]+\.[0-9]{2} s\)\n)")))
      << r.out;
  EXPECT_EQ(names_in(out_), (std::vector<std::string>{"AnimatedTriangle.glb", "SimpleSkin.glb"}));
  // Failures in input order, each "path:location: message".
  std::istringstream err(r.err);
  std::string first, second, extra;
  std::getline(err, first);
  std::getline(err, second);
  EXPECT_TRUE(first.rfind("critter: " + broken.string() + ":byte ", 0) == 0) << r.err;
  EXPECT_EQ(second, "critter: " + missing + ": cannot open '" + missing + "'");
  EXPECT_FALSE(std::getline(err, extra)) << r.err;
}

// Two OBJ files in different folders whose materials both name "SpiderTex.png" (different
// pictures), converted into one folder that already holds a "SpiderTex.png" of the user's: no
// texture replaces another, each output names its own, and converting again adds nothing.
class ConvertSharedTextureNames : public ConvertTest,
                                  public ::testing::WithParamInterface<const char*> {};

TEST_P(ConvertSharedTextureNames, NeverOverwritesATexture) {
  const std::string format = GetParam();
  const auto& png = critter::testing::tiny_png();
  std::string picture_a(png.begin(), png.end());
  const std::string picture_b = picture_a + "second picture";
  const std::string users = "the user's own file";
  std::vector<std::string> inputs;
  for (const auto& [name, picture] :
       {std::pair{"alpha", picture_a}, std::pair{"beta", picture_b}}) {
    const fs::path folder = dir_ / name;
    fs::create_directories(folder);
    std::ofstream(folder / (std::string(name) + ".obj"))
        << "mtllib skin.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\n"
           "usemtl skin\nf 1/1 2/2 3/3\n";
    std::ofstream(folder / "skin.mtl") << "newmtl skin\nmap_Kd SpiderTex.png\n";
    std::ofstream(folder / "SpiderTex.png", std::ios::binary) << picture;
    inputs.push_back((folder / (std::string(name) + ".obj")).string());
  }
  std::ofstream(out_ / "SpiderTex.png", std::ios::binary) << users;

  std::vector<std::string> args{"convert",  inputs[0], inputs[1], "--out-dir", out_.string(),
                                "--format", format,    "-j",      "2",         "-q"};
  RunResult r = run(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(slurp(out_ / "SpiderTex.png"), users);
  const std::vector<std::string> files = names_in(out_);

  // The texture each output names, read back.
  auto texture_of = [&](const std::string& stem) -> std::string {
    if (format == "gltf") {
      const auto doc = nlohmann::json::parse(slurp(out_ / (stem + ".gltf")));
      const auto& uri = doc.at("images").at(0).at("uri");
      return slurp(out_ / uri.get_ref<const std::string&>());
    }
    std::istringstream mtl(slurp(out_ / (stem + ".mtl")));
    std::string line;
    while (std::getline(mtl, line))
      if (line.rfind("map_Kd ", 0) == 0) return slurp(out_ / line.substr(7));
    return "no map_Kd";
  };
  EXPECT_EQ(texture_of("alpha"), picture_a);
  EXPECT_EQ(texture_of("beta"), picture_b);
  EXPECT_EQ(std::count_if(files.begin(), files.end(),
                          [](const std::string& f) { return f.rfind("SpiderTex", 0) == 0; }),
            3)
      << r.err;

  // Again into the same folder: the files already there are reused, none is added or changed.
  r = run(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(names_in(out_), files);
  EXPECT_EQ(slurp(out_ / "SpiderTex.png"), users);
  EXPECT_EQ(texture_of("alpha"), picture_a);
  EXPECT_EQ(texture_of("beta"), picture_b);
}

INSTANTIATE_TEST_SUITE_P(Formats, ConvertSharedTextureNames, ::testing::Values("gltf", "obj"));

// An OBJ file whose normals are zero (a degenerate triangle, a "vn 0 0 0"): the normals are
// repaired on write with a warning and the .glb has 0 validator errors.
TEST_F(ConvertTest, RepairsZeroNormalsOfADegenerateObj) {
  const std::string in =
      write_text("degenerate.obj",
                 "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 2 2 2\nvn 0 0 0\nf 1//1 2//1 3//1\n"
                 "f 4//1 4//1 4//1\n");
  const std::string out = (out_ / "degenerate.glb").string();
  const RunResult r = run({"convert", in, "-o", out});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "normals were zero or not finite and were replaced")) << r.err;
  const auto v = critter::testing::validate_gltf(out);
  EXPECT_EQ(v.errors, 0) << v.summary();
  auto model = critter::io::load(out);
  ASSERT_TRUE(model) << model.error().to_string();
  for (const auto& mesh : model->meshes())
    for (const auto& part : mesh.parts)
      for (const auto& n : part.streams.normals)
        EXPECT_NEAR(n.x * n.x + n.y * n.y + n.z * n.z, 1.0f, 1e-5f);
}

// A failed conversion leaves an existing output as it was.
TEST_F(ConvertTest, FailureKeepsTheExistingOutput) {
  const fs::path out = out_ / "keep.glb";
  { std::ofstream(out) << "previous"; }
  const RunResult r = run({"convert", (dir_ / "missing.glb").string(), "-o", out.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(slurp(out), "previous");
  // The output's folder cannot be created: a file is in the way, and stays as it was.
  { std::ofstream(dir_ / "no") << "a file"; }
  const fs::path nowhere = dir_ / "no" / "such" / "x.glb";
  const RunResult w =
      run({"convert", shared_model("SimpleSkin/SimpleSkin.gltf"), "-o", nowhere.string()});
  EXPECT_EQ(w.exit_code, 1);
  EXPECT_TRUE(w.err.rfind("critter: " + nowhere.string() + ": cannot create the output folder '" +
                              (dir_ / "no" / "such").string() + "': ",
                          0) == 0)
      << w.err;
  EXPECT_EQ(slurp(dir_ / "no"), "a file");
}

// Parallel conversion writes exactly the bytes a serial one does.
TEST_F(ConvertTest, ParallelBatchMatchesSerial) {
  const std::vector<std::string> inputs = {
      shared_model("SimpleSkin/SimpleSkin.gltf"),
      shared_model("greenman/greenman.glb"),
      shared_model("ozz_cubicspline/cubicspline.gltf"),
      shared_model("MorphStressTest/MorphStressTest.gltf"),
      shared_model("AnimatedMorphSphere/AnimatedMorphSphere.gltf"),
      shared_model("minetest_cart_b3d/carts_cart.b3d"),
  };
  std::vector<std::string> serial = {"convert"}, parallel = {"convert"};
  serial.insert(serial.end(), inputs.begin(), inputs.end());
  parallel.insert(parallel.end(), inputs.begin(), inputs.end());
  const fs::path a = out_ / "serial", b = out_ / "parallel";
  serial.insert(serial.end(), {"--out-dir", a.string(), "--format", "gltf"});
  parallel.insert(parallel.end(), {"--out-dir", b.string(), "--format", "gltf", "-j", "3"});
  const RunResult rs = run(serial);
  ASSERT_EQ(rs.exit_code, 0) << rs.err;
  const RunResult rp = run(parallel);
  ASSERT_EQ(rp.exit_code, 0) << rp.err;
  EXPECT_TRUE(std::regex_match(rp.out, std::regex("converted 6 of 6 files to gltf in " +
                                                  b.string() + R"( \(0 failed, .* s\)\n)")))
      << rp.out;
  const auto names = names_in(a);
  EXPECT_EQ(names_in(b), names);
  // Every model's .gltf, .bin and textures, e.g. MorphStressTest's three PNGs.
  EXPECT_GE(names.size(), 15u);
  for (const std::string& n : names) EXPECT_EQ(slurp(b / n), slurp(a / n)) << n;
  for (const std::string& n : names) {
    if (fs::path(n).extension() != ".gltf") continue;
    const auto v = critter::testing::validate_gltf(b / n);
    EXPECT_EQ(v.errors, 0) << n << "\n" << v.summary();
  }
}

// Named frame ranges cut Minetest's player model (one long B3D animation) into clips.
TEST_F(ConvertTest, ClipsCutTheAnimation) {
  const fs::path out = out_ / "character.glb";
  const RunResult r =
      run({"convert", kCharacterB3d, "-o", out.string(), "--clips", "stand:0-79,walk:168-187"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto model = critter::io::load(out.string());
  ASSERT_TRUE(model) << model.error().to_string();
  ASSERT_EQ(model->clips().size(), 2u);
  EXPECT_EQ(model->clips()[0].name(), "stand");
  EXPECT_EQ(model->clips()[1].name(), "walk");
  // Frames 168-187 last 19 frames, frames 0-79 last 79, at the same frame rate.
  EXPECT_NEAR(model->clips()[1].duration() / model->clips()[0].duration(), 19.0 / 79.0, 1e-5);
  const auto v = critter::testing::validate_gltf(out);
  EXPECT_EQ(v.errors, 0) << v.summary();
}

}  // namespace

namespace {

// ---- faults: full disk, read-only folder, unreadable inputs, input = output --------------------

// A folder whose writes fail: a small tmpfs mounted over it (the tests run as root in CI), else
// a file size limit (RLIMIT_FSIZE, SIGXFSZ ignored) set while `run` runs, so the test never
// skips. Either way a write of more than a few KiB fails as on a full disk.
class FullFolder {
 public:
  explicit FullFolder(const fs::path& where) : path_(where) {
    fs::create_directories(path_);
    mounted_ = ::mount("tmpfs", path_.c_str(), "tmpfs", 0, "size=16k") == 0;
  }
  ~FullFolder() {
    if (mounted_) ::umount(path_.c_str());
  }
  bool mounted() const { return mounted_; }
  // Runs `f` with the size limit when no tmpfs could be mounted.
  template <class F>
  RunResult with_limit(F&& f) const {
    if (mounted_) return f();
    rlimit old{};
    getrlimit(RLIMIT_FSIZE, &old);
    rlimit small = old;
    small.rlim_cur = 16 * 1024;
    const auto previous = std::signal(SIGXFSZ, SIG_IGN);
    setrlimit(RLIMIT_FSIZE, &small);
    RunResult r = f();
    setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, previous);
    return r;
  }

 private:
  fs::path path_;
  bool mounted_ = false;
};

}  // namespace

TEST_F(ConvertTest, FullDiskLeavesNoPartialFileAndKeepsTheOldOne) {
  const FullFolder full(dir_ / "full");
  const fs::path out = dir_ / "full" / "girl.glb";
  { std::ofstream(out) << "previous"; }
  const RunResult r = full.with_limit([&] {
    return run({"convert", shared_model("girl/girl.glb"), "-o", out.string()});
  });
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(r.err.rfind("critter: " + out.string() + ": cannot write: ", 0) == 0) << r.err;
  EXPECT_TRUE(contains(r.err, full.mounted() ? "No space left on device" : "File too large"))
      << r.err;
  EXPECT_EQ(slurp(out), "previous");
  EXPECT_EQ(names_in(dir_ / "full"), (std::vector<std::string>{"girl.glb"}));
}

TEST_F(ConvertTest, ReadOnlyOutputFolderIsALocatedError) {
  const fs::path folder = dir_ / "readonly";
  fs::create_directories(folder);
  // Root writes through permission bits, so a read-only mount where one can be made.
  const bool mounted = ::mount("tmpfs", folder.c_str(), "tmpfs", MS_RDONLY, "size=16k") == 0;
  if (!mounted) fs::permissions(folder, fs::perms::owner_read | fs::perms::owner_exec);
  const fs::path out = folder / "x.glb";
  const RunResult r =
      run({"convert", shared_model("SimpleSkin/SimpleSkin.gltf"), "-o", out.string()});
  if (mounted) {
    ::umount(folder.c_str());
  } else {
    fs::permissions(folder, fs::perms::owner_all);
  }
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(r.err.rfind("critter: " + out.string() + ":", 0) == 0) << r.err;
  EXPECT_TRUE(contains(r.err, mounted ? "Read-only file system" : "Permission denied")) << r.err;
  EXPECT_TRUE(names_in(folder).empty());
}

TEST_F(ConvertTest, UnreadableAndVanishedInputsMidBatchAreListed) {
  const fs::path folder_input = dir_ / "folder.glb";
  fs::create_directories(folder_input);
  const fs::path vanished = dir_ / "vanished.glb";
  fs::create_symlink(dir_ / "gone.glb", vanished);
  const RunResult r =
      run({"convert", shared_model("SimpleSkin/SimpleSkin.gltf"), folder_input.string(),
           vanished.string(), shared_model("AnimatedTriangle/AnimatedTriangle.gltf"), "--out-dir",
           out_.string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.out, "converted 2 of 4 files")) << r.out;
  EXPECT_EQ(names_in(out_), (std::vector<std::string>{"AnimatedTriangle.glb", "SimpleSkin.glb"}));
  std::istringstream err(r.err);
  std::string first, second, extra;
  std::getline(err, first);
  std::getline(err, second);
  EXPECT_TRUE(first.rfind("critter: " + folder_input.string() + ":", 0) == 0) << r.err;
  EXPECT_TRUE(second.rfind("critter: " + vanished.string() + ":", 0) == 0) << r.err;
  EXPECT_FALSE(std::getline(err, extra)) << r.err;
}

TEST_F(ConvertTest, AnInputThatIsAlsoTheOutputIsRefusedAndKept) {
  const fs::path model = dir_ / "figure.glb";
  fs::copy_file(shared_model("RiggedFigure/RiggedFigure.glb"), model);
  const std::string before = slurp(model);
  RunResult r = run({"convert", model.string(), "-o", model.string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err, "critter: " + model.string() +
                       ": is also the input; converting a file onto itself is refused so that "
                       "the original stays as it is (write to another path)\n");
  EXPECT_EQ(slurp(model), before);
  // Spelt another way, and in a batch whose other input still converts.
  r = run({"convert", (dir_ / "." / "figure.glb").string(),
           shared_model("SimpleSkin/SimpleSkin.gltf"), "--out-dir", dir_.string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.out, "converted 1 of 2 files")) << r.out;
  EXPECT_EQ(slurp(model), before);
  EXPECT_TRUE(fs::exists(dir_ / "SimpleSkin.glb"));
}
