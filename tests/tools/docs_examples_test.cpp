// SPDX-License-Identifier: MIT
// The examples of docs/animation-config.md pass `critter check`: every block fenced ```json config
// [MODEL] is checked against MODEL (default builtin:quadruped) after the blocks fenced
// ```json file NAME are written beside it, and must give no error and no warning.
#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_runner.h"

namespace {

using critter::test_support::CliTest;
using critter::test_support::RunResult;
using critter::test_support::slurp;

const char* const kDoc = CRITTER_SOURCE_DIR "/docs/animation-config.md";
const char* const kDefaultModel = "builtin:quadruped";

// One fenced block of a Markdown file.
struct Block {
  std::string info;  // the fence's info string, e.g. "json config builtin:four-legged"
  std::string text;  // the lines between the fences, each ending in '\n'
  int line = 0;      // 1-based line of the opening fence
};

std::vector<Block> fenced_blocks(const std::string& markdown) {
  std::vector<Block> blocks;
  std::istringstream in(markdown);
  std::string line;
  int number = 0;
  bool inside = false;
  while (std::getline(in, line)) {
    ++number;
    if (line.starts_with("```")) {
      if (inside) {
        inside = false;
      } else {
        inside = true;
        blocks.push_back({line.substr(3), "", number});
      }
    } else if (inside) {
      blocks.back().text += line + "\n";
    }
  }
  EXPECT_FALSE(inside) << "a fence opened at line " << blocks.back().line << " is never closed";
  return blocks;
}

// The words of an info string ("json config builtin:human" → {"json", "config", "builtin:human"}).
std::vector<std::string> words(const std::string& info) {
  std::vector<std::string> out;
  std::istringstream in(info);
  for (std::string w; in >> w;) {
    out.push_back(w);
  }
  return out;
}

class DocsExamplesTest : public CliTest {};

TEST_F(DocsExamplesTest, EveryConfigExamplePassesCheck) {
  const std::string doc = slurp(kDoc);
  ASSERT_FALSE(doc.empty()) << kDoc;
  const std::vector<Block> blocks = fenced_blocks(doc);

  for (const Block& b : blocks) {
    const std::vector<std::string> w = words(b.info);
    if (w.size() == 3 && w[0] == "json" && w[1] == "file") {
      const std::filesystem::path path = dir_ / w[2];
      std::filesystem::create_directories(path.parent_path());
      write_text(w[2], b.text);
    }
  }

  int checked = 0;
  for (const Block& b : blocks) {
    const std::vector<std::string> w = words(b.info);
    if (w.size() < 2 || w[0] != "json" || w[1] != "config") {
      continue;
    }
    ASSERT_LE(w.size(), 3u) << "line " << b.line << ": ```json config takes one model at most";
    const std::string model = w.size() == 3 ? w[2] : kDefaultModel;
    const std::string path = write_text("example_line" + std::to_string(b.line) + ".json", b.text);
    const RunResult r = run({"check", path, model});
    EXPECT_EQ(r.exit_code, 0) << "docs/animation-config.md line " << b.line << ":\n"
                              << r.out << r.err;
    EXPECT_EQ(r.out, path + ": 0 errors, 0 warnings\n")
        << "docs/animation-config.md line " << b.line << ":\n"
        << r.err;
    ++checked;
  }
  // The page's examples cover the config's parts; losing the markers must not pass silently.
  EXPECT_GE(checked, 8);
}

TEST_F(DocsExamplesTest, FragmentsAreFew) {
  const std::vector<Block> blocks = fenced_blocks(slurp(kDoc));
  int fragments = 0;
  for (const Block& b : blocks) {
    const std::vector<std::string> w = words(b.info);
    if (w.size() == 1 && w[0] == "json") {
      ++fragments;
    }
    const bool known = w.empty() || w[0] != "json" || w.size() == 1 ||
                       (w[1] == "config" && w.size() <= 3) || (w[1] == "file" && w.size() == 3);
    EXPECT_TRUE(known) << "docs/animation-config.md line " << b.line << ": unknown fence ```"
                       << b.info;
  }
  EXPECT_LE(fragments, 2) << "mark complete configs ```json config so the suite checks them";
}

TEST_F(DocsExamplesTest, FencesAreParsedWithTheirInfoAndLine) {
  const std::vector<Block> blocks =
      fenced_blocks("text\n```json config builtin:human\n{}\n```\n```json\n[1,\n2]\n```\n");
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].info, "json config builtin:human");
  EXPECT_EQ(blocks[0].text, "{}\n");
  EXPECT_EQ(blocks[0].line, 2);
  EXPECT_EQ(words(blocks[0].info), (std::vector<std::string>{"json", "config", "builtin:human"}));
  EXPECT_EQ(blocks[1].info, "json");
  EXPECT_EQ(blocks[1].text, "[1,\n2]\n");
  EXPECT_EQ(blocks[1].line, 5);
}

}  // namespace
