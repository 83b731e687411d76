// SPDX-License-Identifier: MIT
// The path rule shared by glTF URIs, Assimp's side files and animation configs.
#include "critter/core/path_confinement.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using critter::check_confined;
using critter::PathRefusal;

class PathConfinementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // One folder per process and test: CTest runs the tests of this fixture in parallel.
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("critter_path_confinement_" + std::to_string(::getpid()) + "_" + test->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "mod" / "sub");
    fs::create_directories(dir_ / "secret");
    std::ofstream(dir_ / "secret" / "p.json") << "{}";
    std::ofstream(dir_ / "mod" / "a.json") << "{}";
  }
  void TearDown() override { fs::remove_all(dir_); }
  PathRefusal check(const fs::path& p) const {
    const fs::path folders[] = {dir_ / "mod"};
    return check_confined(p, folders);
  }
  fs::path dir_;
};

TEST(PathConfinement, ForwardSlashesAndAbsolutePaths) {
  EXPECT_EQ(critter::with_forward_slashes("..\\secret\\p.json"), "../secret/p.json");
  EXPECT_TRUE(critter::is_absolute_path("/etc/passwd"));
  EXPECT_TRUE(critter::is_absolute_path("C:/x.json"));
  EXPECT_TRUE(critter::is_absolute_path("c:x.json"));
  EXPECT_TRUE(critter::is_absolute_path("\\\\server\\x"));
  EXPECT_FALSE(critter::is_absolute_path("x.json"));
  EXPECT_FALSE(critter::is_absolute_path("../x.json"));
  EXPECT_FALSE(critter::is_absolute_path(""));
  EXPECT_EQ(critter::describe(PathRefusal::kNone), "");
  EXPECT_NE(critter::describe(PathRefusal::kLink).find("symbolic link"), std::string::npos);
}

TEST(PathConfinement, LexicallyInside) {
  EXPECT_TRUE(critter::is_lexically_inside("mods/wolf/a.json", "mods/wolf"));
  EXPECT_TRUE(critter::is_lexically_inside("mods/wolf/sub/../a.json", "mods/wolf"));
  EXPECT_FALSE(critter::is_lexically_inside("mods/wolf/../a.json", "mods/wolf"));
  EXPECT_FALSE(critter::is_lexically_inside("mods/wolf", "mods/wolf"));
  EXPECT_FALSE(critter::is_lexically_inside("mods/wolfish/a.json", "mods/wolf"));
}

TEST_F(PathConfinementTest, InsideAndDotDotThatStaysInsideAreAllowed) {
  EXPECT_EQ(check(dir_ / "mod" / "a.json"), PathRefusal::kNone);
  EXPECT_EQ(check(dir_ / "mod" / "sub" / ".." / "a.json"), PathRefusal::kNone);
  EXPECT_EQ(check(dir_ / "mod" / "missing.json"), PathRefusal::kNone);
}

TEST_F(PathConfinementTest, DotDotLeavingTheFolderIsRefused) {
  EXPECT_EQ(check(dir_ / "mod" / ".." / "secret" / "p.json"), PathRefusal::kEscapes);
  EXPECT_EQ(check(dir_ / "secret" / "p.json"), PathRefusal::kEscapes);
}

TEST_F(PathConfinementTest, SymbolicLinksLeadingOutAreRefused) {
  fs::create_symlink(dir_ / "secret" / "p.json", dir_ / "mod" / "link.json");
  fs::create_directory_symlink(dir_ / "secret", dir_ / "mod" / "linked");
  EXPECT_EQ(check(dir_ / "mod" / "link.json"), PathRefusal::kLink);
  EXPECT_EQ(check(dir_ / "mod" / "linked" / "p.json"), PathRefusal::kLink);
  // A link that stays inside is fine, and so is a folder reached through a link.
  fs::create_symlink(dir_ / "mod" / "a.json", dir_ / "mod" / "sub" / "b.json");
  EXPECT_EQ(check(dir_ / "mod" / "sub" / "b.json"), PathRefusal::kNone);
  fs::create_directory_symlink(dir_ / "mod", dir_ / "mod_link");
  const fs::path via_link[] = {dir_ / "mod_link"};
  EXPECT_EQ(check_confined(dir_ / "mod_link" / "a.json", via_link), PathRefusal::kNone);
}

}  // namespace
