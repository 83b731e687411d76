// SPDX-License-Identifier: MIT
// `critter bench`, `critter convert -o x.crit` and `--compact` through the command line.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "critter/io/load.h"
#include "support/cli_runner.h"

namespace {

using critter::test_support::CliTest;
using critter::test_support::contains;
using critter::test_support::RunResult;
using critter::test_support::shared_model;

class BenchCommandTest : public CliTest {};

TEST_F(BenchCommandTest, PrintsEveryFigureAsJson) {
  const RunResult r =
      run({"bench", shared_model("girl/girl.glb"), "--clip", "1", "--iterations", "3", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* name : {"load", "load_crit", "sample", "sample_compact", "blend", "blend_nlerp",
                           "local_to_model", "skinning", "skin_matrix_n"}) {
    ASSERT_TRUE(j["ns"].contains(name)) << name;
    EXPECT_GT(j["ns"][name].get<double>(), 0.0) << name;
  }
  EXPECT_EQ(j["clip"], "RunTrack");
  EXPECT_LE(j["compact"]["max_error"].get<double>(), j["compact"]["tolerance"].get<double>());
  EXPECT_LT(j["compact"]["bytes"].get<double>(), j["compact"]["exact_bytes"].get<double>());
}

TEST_F(BenchCommandTest, PrintsATableAndRefusesBadArguments) {
  RunResult r = run({"bench", shared_model("RiggedFigure/RiggedFigure.glb"), "--iterations", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "load_crit"));
  EXPECT_TRUE(contains(r.out, "local_to_model"));
  EXPECT_TRUE(contains(r.out, "measured max error"));
  r = run({"bench", shared_model("RiggedFigure/RiggedFigure.glb"), "--iterations", "0"});
  EXPECT_EQ(r.exit_code, 2);
  r = run({"bench", shared_model("RiggedFigure/RiggedFigure.glb"), "--clip", "nope"});
  EXPECT_EQ(r.exit_code, 2);
  r = run({"bench", (dir_ / "missing.glb").string()});
  EXPECT_EQ(r.exit_code, 1);
}

TEST_F(BenchCommandTest, ConvertWritesCritThatEveryCommandReads) {
  const std::string out = (dir_ / "girl.crit").string();
  RunResult r = run({"convert", shared_model("girl/girl.glb"), "--compact", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto model = critter::io::load(out);
  ASSERT_TRUE(model.has_value()) << model.error().to_string();
  EXPECT_EQ(model->compact_clips().size(), model->clips().size());
  r = run({"info", out});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "RunTrack"));
  // The exact path: a .crit without compact clips poses exactly as the .glb.
  const std::string exact = (dir_ / "exact.crit").string();
  ASSERT_EQ(run({"convert", shared_model("girl/girl.glb"), "-o", exact}).exit_code, 0);
  const RunResult a = run({"pose", shared_model("girl/girl.glb"), "--anim", "1", "--time", "0.37"});
  const RunResult b = run({"pose", exact, "--anim", "1", "--time", "0.37"});
  ASSERT_EQ(a.exit_code, 0);
  EXPECT_EQ(a.out.substr(a.out.find('\n')), b.out.substr(b.out.find('\n')));
}

TEST_F(BenchCommandTest, CompactChangesPosesWithinTheBoundAndRefusesBadTolerances) {
  const std::string girl = shared_model("girl/girl.glb");
  const RunResult exact = run({"pose", girl, "--anim", "1", "--time", "0.37"});
  const RunResult compact = run({"pose", girl, "--anim", "1", "--time", "0.37", "--compact"});
  ASSERT_EQ(exact.exit_code, 0);
  ASSERT_EQ(compact.exit_code, 0) << compact.err;
  EXPECT_NE(exact.out, compact.out);
  const RunResult coarse = run({"pose", girl, "--time", "0.3", "--compact=0.01"});
  EXPECT_EQ(coarse.exit_code, 0) << coarse.err;
  for (const char* bad : {"--compact=-1", "--compact=abc", "--compact=0"}) {
    const RunResult r = run({"pose", girl, bad});
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_TRUE(contains(r.err, "--compact")) << r.err;
  }
}

}  // namespace
