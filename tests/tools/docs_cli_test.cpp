// SPDX-License-Identifier: MIT
// docs/cli.md documents every command and every flag that `critter COMMAND --help` lists.
#include <gtest/gtest.h>

#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_runner.h"

namespace {

using critter::test_support::CliTest;
using critter::test_support::contains;
using critter::test_support::RunResult;
using critter::test_support::slurp;

const char* const kDoc = CRITTER_SOURCE_DIR "/docs/cli.md";
const char* const kCommands[] = {"info", "pose", "render", "convert", "check", "demo", "bench"};

// The long flags of a CLI11 help text: the first word of each option line ("  -o,--output TEXT"
// gives "--output"), --help left out. A wrapped description that happens to start with a flag
// ("  --config) to numbers") is not an option line: a flag ends at a space, a comma or the line's
// end.
std::vector<std::string> long_flags(const std::string& help) {
  std::vector<std::string> flags;
  std::istringstream in(help);
  for (std::string line; std::getline(in, line);) {
    const std::size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos || start == 0 || line[start] != '-') continue;
    const std::size_t dashes = line.find("--", start);
    if (dashes == std::string::npos) continue;
    const std::size_t end = line.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-", dashes);
    if (end != std::string::npos && line[end] != ' ' && line[end] != ',') continue;
    const std::string flag = line.substr(dashes, end - dashes);
    if (flag != "--help") flags.push_back(flag);
  }
  return flags;
}

TEST(DocsCliFlags, LongFlagsAreReadFromOptionLines) {
  const std::string help =
      "Usage: critter render [OPTIONS] file\n\nOptions:\n"
      "  -h,--help                   Print this help message and exit\n"
      "  -o,--output TEXT REQUIRED   Output image: .png or .gif\n"
      "  --sheet INT:INT in [1 - 1000]\n"
      "                              Contact sheet of N frames (--not-a-flag)\n"
      "  --config) to numbers, true/false, [x,y], [x,y,z] or \"text\".\n"
      "  --ortho                     Orthographic projection\n";
  EXPECT_EQ(long_flags(help), (std::vector<std::string>{"--output", "--sheet", "--ortho"}));
}

class DocsCliTest : public CliTest {};

TEST_F(DocsCliTest, EveryCommandAndFlagOfTheHelpIsDocumented) {
  const std::string doc = slurp(kDoc);
  ASSERT_FALSE(doc.empty()) << kDoc;
  for (const char* command : kCommands) {
    EXPECT_TRUE(contains(doc, std::string("## ") + command + "\n"))
        << "docs/cli.md has no section '## " << command << "'";
    const RunResult r = run({command, "--help"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::vector<std::string> flags = long_flags(r.out);
    EXPECT_FALSE(flags.empty()) << r.out;
    for (const std::string& flag : flags) {
      EXPECT_TRUE(contains(doc, "`" + flag))
          << "docs/cli.md does not document critter " << command << " " << flag;
    }
  }
}

}  // namespace
