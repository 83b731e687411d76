// SPDX-License-Identifier: MIT
// The sandbox of config paths: `extends`, templates and `file:` sources read only inside the
// loaded config's folder and the asset roots unless the host allows outside paths.
#include "critter/config/config_paths.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "critter/config/animation_config.h"
#include "critter/config/bind.h"

namespace {

namespace fs = std::filesystem;
using critter::Error;
using critter::ErrorCode;
using namespace critter::config;

class ConfigPathsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("critter_config_paths_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    write("secret/p.json", R"({"modelScale": 7})");
    write("secret/s.template.json", R"({"name": "S", "layers": {"Base": {"index": 0}}})");
    write("mod/base.json", R"({"modelScale": 3})");
    write("roots/shared/base.json", R"({"modelScale": 5})");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) const {
    const fs::path p = dir_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  // Parses `text` as mod/main.json (or `name`) with the asset root roots/ and the allow flag.
  critter::Result<AnimationConfig> parse(const std::string& text, bool allow = false,
                                         const std::string& name = "mod/main.json") {
    errors_.clear();
    AnimationConfigOptions options;
    options.asset_roots.push_back((dir_ / "roots").string());
    options.allow_outside = allow;
    return parse_animation_config(text, (dir_ / name).string(), options, nullptr, &errors_);
  }
  ConfigPathRules rules(bool allow = false) const {
    ConfigPathRules r;
    r.asset_roots.push_back((dir_ / "roots").string());
    r.home = (dir_ / "mod").string();
    r.allow_outside = allow;
    return r;
  }
  // The refusal of `c`'s error: kInvalid at `pointer` in mod/main.json naming the path.
  void expect_refused(const critter::Result<AnimationConfig>& c, const std::string& pointer,
                      const std::string& written, const std::string& why) const {
    ASSERT_FALSE(c);
    EXPECT_EQ(c.error().code, ErrorCode::kInvalid) << c.error().to_string();
    EXPECT_EQ(c.error().path, (dir_ / "mod/main.json").string());
    EXPECT_EQ(c.error().location, pointer);
    EXPECT_NE(c.error().message.find("'" + written + "' " + why), std::string::npos)
        << c.error().message;
    EXPECT_NE(c.error().message.find("refused unless the host allows outside paths"),
              std::string::npos);
  }

  fs::path dir_;
  std::vector<Error> errors_;
};

TEST_F(ConfigPathsTest, DotDotEscapeIsRefusedUnlessAllowed) {
  expect_refused(parse(R"({"extends": "../secret/p.json"})"), "/extends", "../secret/p.json",
                 "leaves the allowed folders");
  auto allowed = parse(R"({"extends": "../secret/p.json"})", true);
  ASSERT_TRUE(allowed) << allowed.error().to_string();
  EXPECT_FLOAT_EQ(allowed->model_scale, 7.0f);
}

TEST_F(ConfigPathsTest, WindowsSeparatorsClimbLikeSlashes) {
  expect_refused(parse(R"({"extends": "..\\secret\\p.json"})"), "/extends", "..\\secret\\p.json",
                 "leaves the allowed folders");
  // Inside the folder, '\' separates folders too.
  write("mod/sub/x.json", R"({"modelScale": 2})");
  auto c = parse(R"({"extends": "sub\\x"})");
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_FLOAT_EQ(c->model_scale, 2.0f);
}

TEST_F(ConfigPathsTest, AbsolutePathsAreRefusedUnlessAllowed) {
  const std::string absolute = (dir_ / "secret/p.json").string();
  expect_refused(parse(R"({"extends": ")" + absolute + R"("})"), "/extends", absolute,
                 "is an absolute path");
  // Even one inside the config's own folder: absolute paths are never a mod's own.
  const std::string own = (dir_ / "mod/base.json").string();
  expect_refused(parse(R"({"extends": ")" + own + R"("})"), "/extends", own, "is an absolute path");
  expect_refused(parse(R"({"extends": "C:/x.json"})"), "/extends", "C:/x.json",
                 "is an absolute path");
  auto allowed = parse(R"({"extends": ")" + absolute + R"("})", true);
  ASSERT_TRUE(allowed) << allowed.error().to_string();
  EXPECT_FLOAT_EQ(allowed->model_scale, 7.0f);
}

TEST_F(ConfigPathsTest, SymbolicLinksLeadingOutAreRefused) {
  fs::create_symlink(dir_ / "secret/p.json", dir_ / "mod/link.json");
  expect_refused(parse(R"({"extends": "link.json"})"), "/extends", "link.json",
                 "is a symbolic link leading outside the allowed folders");
  fs::create_directory_symlink(dir_ / "secret", dir_ / "mod/linked");
  expect_refused(parse(R"({"extends": "linked/p"})"), "/extends", "linked/p",
                 "is a symbolic link leading outside the allowed folders");
  auto allowed = parse(R"({"extends": "link.json"})", true);
  ASSERT_TRUE(allowed) << allowed.error().to_string();
  EXPECT_FLOAT_EQ(allowed->model_scale, 7.0f);
}

TEST_F(ConfigPathsTest, TemplateFilesFollowTheSameRule) {
  expect_refused(parse(R"({"template": "../secret/s"})"), "/template", "../secret/s",
                 "leaves the allowed folders");
  auto allowed = parse(R"({"template": "../secret/s"})", true);
  ASSERT_TRUE(allowed) << allowed.error().to_string();
  EXPECT_EQ(allowed->template_config.name, "S");
}

TEST_F(ConfigPathsTest, InsideTheModAndTheAssetRootsIsAllowed) {
  // A parent in a sub-folder climbing back to the mod's folder stays inside.
  write("mod/sub/mid.json", R"({"extends": "../base"})");
  auto c = parse(R"({"extends": "sub/mid"})");
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_FLOAT_EQ(c->model_scale, 3.0f);
  // An asset root, and a file there naming its own neighbours.
  write("roots/shared/top.json", R"({"extends": "base"})");
  c = parse(R"({"extends": "shared/top"})");
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_FLOAT_EQ(c->model_scale, 5.0f);
  // The parent of a parent found under a root may not climb out of the root either.
  write("roots/shared/bad.json", R"({"extends": "../../secret/p"})");
  c = parse(R"({"extends": "shared/bad"})");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().path, (dir_ / "roots/shared/bad.json").string());
  EXPECT_EQ(c.error().location, "/extends");
}

TEST_F(ConfigPathsTest, ResolveConfigFileReportsWhatItFound) {
  ConfigFileLookup f =
      resolve_config_file("base", (dir_ / "mod/main.json").string(), rules(), ".json");
  EXPECT_EQ(f.path, (dir_ / "mod/base.json").lexically_normal().string());
  EXPECT_TRUE(f.refusal.empty());
  f = resolve_config_file("nowhere.glb", (dir_ / "mod/main.json").string(), rules());
  EXPECT_FALSE(f.found());
  EXPECT_TRUE(f.refusal.empty());
  f = resolve_config_file("../secret/p.json", (dir_ / "mod/main.json").string(), rules());
  EXPECT_FALSE(f.found());
  EXPECT_NE(f.refusal.find("leaves the allowed folders"), std::string::npos);
  // A path that does not exist is refused all the same: the answer does not tell what exists.
  f = resolve_config_file("../secret/none.json", (dir_ / "mod/main.json").string(), rules());
  EXPECT_FALSE(f.refusal.empty());
  f = resolve_config_file("../secret/p.json", (dir_ / "mod/main.json").string(), rules(true));
  EXPECT_EQ(f.path, (dir_ / "secret/p.json").lexically_normal().string());
}

TEST_F(ConfigPathsTest, FileSourcesAreRefusedAtBind) {
  write("secret/x.glb", "not read");
  auto c = parse(R"({"animations": {"a": {"source": "file:../secret/x.glb#Walk"}}})");
  ASSERT_TRUE(c) << c.error().to_string();
  critter::RawModel raw;
  raw.skeleton.joints = {critter::RawJoint{"Root", -1, {}, 0}};
  auto model = critter::build_model(std::move(raw));
  ASSERT_TRUE(model) << model.error().to_string();
  BindOptions options;
  options.asset_roots.push_back((dir_ / "roots").string());
  options.file_clips = [](const AnimationReference&) -> critter::Result<int> { return 0; };
  auto desc = bind(*c, *model, options);
  ASSERT_FALSE(desc);
  EXPECT_EQ(desc.error().code, ErrorCode::kInvalid);
  EXPECT_EQ(desc.error().location, "/animations/a/source");
  EXPECT_NE(desc.error().message.find("'../secret/x.glb' leaves the allowed folders"),
            std::string::npos)
      << desc.error().to_string();
}

}  // namespace
