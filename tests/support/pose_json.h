// SPDX-License-Identifier: MIT
// A CLI test fixture for `critter pose --json`: runs it, parses the output and checks that every
// number in it is finite.
#pragma once

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "support/cli_runner.h"

namespace critter::test_support {

class PoseJsonTest : public CliTest {
 protected:
  // Runs `pose ARGS... --json`, expects exit 0 and returns the parsed output (discarded JSON when
  // it does not parse).
  nlohmann::json pose_json(std::vector<std::string> args) const {
    args.insert(args.begin(), "pose");
    args.push_back("--json");
    const RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out, nullptr, false);
  }

  // True when every number anywhere in `j` is finite.
  static bool all_finite(const nlohmann::json& j) {
    if (j.is_number()) return std::isfinite(j.get<double>());
    if (j.is_array() || j.is_object()) {
      for (const nlohmann::json& e : j) {
        if (!all_finite(e)) return false;
      }
    }
    return true;
  }
};

}  // namespace critter::test_support
