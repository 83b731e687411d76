// SPDX-License-Identifier: MIT
#include "critter/io/atomic_file.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "support/files.h"
#include "support/gltf_validation.h"

namespace critter {
namespace {

namespace fs = std::filesystem;
using testing::read_text;
using testing::ScratchDir;
using testing::write_file;

TEST(AtomicFile, WritesAndReplaces) {
  ScratchDir dir("atomic");
  const fs::path out = dir / "a.txt";
  ASSERT_TRUE(io::write_file_atomic(out.string(), std::string_view("first")));
  EXPECT_EQ(read_text(out), "first");
  ASSERT_TRUE(io::write_file_atomic(out.string(), std::string_view("second, longer")));
  EXPECT_EQ(read_text(out), "second, longer");
  ASSERT_TRUE(io::write_file_atomic(out.string(), std::string_view("")));
  EXPECT_EQ(read_text(out), "");
  // No temporary or backup file stays behind.
  EXPECT_EQ(dir.list(), (std::vector<std::string>{"a.txt"}));
}

TEST(AtomicFile, StagedFilesAppearOnlyOnCommit) {
  ScratchDir dir("atomic_stage");
  io::AtomicFileSet set;
  ASSERT_TRUE(set.stage((dir / "a").string(), std::string_view("A")));
  ASSERT_TRUE(set.stage((dir / "b").string(), std::string_view("B")));
  EXPECT_EQ(set.destinations(),
            (std::vector<std::string>{(dir / "a").string(), (dir / "b").string()}));
  // Only the two hidden temporaries exist before the commit.
  const auto before = dir.list();
  ASSERT_EQ(before.size(), 2u);
  for (const std::string& name : before) EXPECT_EQ(name.front(), '.') << name;
  ASSERT_TRUE(set.commit());
  EXPECT_EQ(dir.list(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(read_text(dir / "a"), "A");
  EXPECT_EQ(read_text(dir / "b"), "B");
  EXPECT_TRUE(set.destinations().empty());
}

TEST(AtomicFile, DroppedSetLeavesNothing) {
  ScratchDir dir("atomic_drop");
  {
    io::AtomicFileSet set;
    ASSERT_TRUE(set.stage((dir / "a").string(), std::string_view("A")));
  }
  EXPECT_TRUE(dir.list().empty());
  io::AtomicFileSet set;
  ASSERT_TRUE(set.stage((dir / "b").string(), std::string_view("B")));
  set.discard();
  EXPECT_TRUE(dir.list().empty());
}

// The second destination is a folder: the commit fails and the first output, already replaced,
// gets its old contents back; the new third one never appears.
TEST(AtomicFile, FailedCommitRestoresEveryOutput) {
  ScratchDir dir("atomic_rollback");
  write_file(dir / "a", "old A");
  fs::create_directory(dir / "b");
  io::AtomicFileSet set;
  ASSERT_TRUE(set.stage((dir / "a").string(), std::string_view("new A")));
  ASSERT_TRUE(set.stage((dir / "b").string(), std::string_view("new B")));
  ASSERT_TRUE(set.stage((dir / "c").string(), std::string_view("new C")));
  auto r = set.commit();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kIo);
  EXPECT_EQ(r.error().path, (dir / "b").string());
  EXPECT_EQ(r.error().message, "exists and is not a regular file");
  EXPECT_EQ(read_text(dir / "a"), "old A");
  EXPECT_TRUE(fs::is_directory(dir / "b"));
  EXPECT_EQ(dir.list(), (std::vector<std::string>{"a", "b"}));
}

TEST(AtomicFile, UnwritableDestinationIsAnIoError) {
  ScratchDir dir("atomic_unwritable");
  // A regular file where a folder is expected: nothing can be created below it, even by root.
  write_file(dir / "file", "x");
  const fs::path out = dir / "file" / "out.txt";
  auto r = io::write_file_atomic(out.string(), std::string_view("data"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kIo);
  EXPECT_EQ(r.error().path, out.string());
  EXPECT_EQ(r.error().message, "cannot create a file in its folder: Not a directory");
  EXPECT_EQ(dir.list(), (std::vector<std::string>{"file"}));
}

TEST(AtomicFile, CopiesFilesAndReportsAMissingSource) {
  ScratchDir dir("atomic_copy");
  write_file(dir / "src", std::string(100000, 'z'));
  io::AtomicFileSet set;
  ASSERT_TRUE(set.stage_copy((dir / "dst").string(), (dir / "src").string()));
  ASSERT_TRUE(set.commit());
  EXPECT_EQ(read_text(dir / "dst"), std::string(100000, 'z'));

  auto r = set.stage_copy((dir / "dst2").string(), (dir / "nope").string());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kIo);
  EXPECT_EQ(r.error().path, (dir / "nope").string());
  EXPECT_EQ(dir.list(), (std::vector<std::string>{"dst", "src"}));
}

TEST(AtomicFile, StagingOnePathTwiceIsAUsageError) {
  ScratchDir dir("atomic_twice");
  io::AtomicFileSet set;
  ASSERT_TRUE(set.stage((dir / "a").string(), std::string_view("1")));
  auto r = set.stage((dir / "a").string(), std::string_view("2"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kUsage);
  ASSERT_TRUE(set.commit());
  EXPECT_EQ(read_text(dir / "a"), "1");
}

}  // namespace
}  // namespace critter
