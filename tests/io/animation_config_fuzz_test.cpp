// Hostile-input robustness of the whole animation-config chain: parse -> bind -> runtime
// description -> compile -> Controller (and load_controller, CreatureModel). Seeds are mutated
// (truncations, byte flips/inserts/deletes, token swaps, hostile numbers, deep nesting, long
// names, case-variant duplicate keys, extends cycles) and every mutant is driven for 60 frames
// with hostile dt and parameter values. Properties checked: no crash, every error names its file
// and location, every pose transform and morph weight is finite, records and warnings stay
// bounded. Deterministic: fixed seeds; CRITTER_FUZZ_ITERATIONS scales the random mutants per seed
// (default small, for CI; sanitizer runs use more).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "critter/anim/controller.h"
#include "critter/anim/parameters.h"
#include "critter/io/animation_config.h"
#include "critter/io/animation_config_bind.h"
#include "critter/io/animation_config_runtime.h"
#include "critter/io/controller_loader.h"
#include "critter/io/load.h"
#include "support/config_fuzz.h"
#include "support/glb_builder.h"
#include "support/spec_example.h"

namespace {

using namespace critter;
using critter::testing::TempFolder;
using critter::testing::write_file;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// ---- the pipeline and its properties ----------------------------------------------------------

class AnimationConfigFuzzTest : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(folder_.file("fuzz_base.json"), std::string_view(test_support::kFuzzBaseConfig));
    write_file(folder_.file("fuzz_quad.template.json"),
               std::string_view(test_support::kFuzzTemplate));
  }

  TempFolder folder_;
};

// ---- regressions found by the fuzzer ----------------------------------------------------------

// Bug: deeply nested arrays or objects (a few thousand levels, a 9 kB file) made the reader use
// gigabytes (the tree is walked and copied level by level) before any error. Nesting beyond
// 128 levels is now refused at once with a kLimit error at the container that goes too deep.
TEST_F(AnimationConfigFuzzTest, DeepNestingIsRefusedWithLimitError) {
  auto nested = [](int depth) {
    return "{\"animations\": {\"die\": {\"source\": \"Death\", \"preservePose\": " +
           std::string(static_cast<std::size_t>(depth), '[') +
           std::string(static_cast<std::size_t>(depth), ']') + "}}}";
  };
  // The root, animations and die take three levels: 125 arrays reach level 128, the limit.
  auto c = io::parse_animation_config(nested(125), folder_.file("deep.json"));
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, ErrorCode::kInvalid) << c.error().to_string();
  EXPECT_EQ(c.error().location, "/animations/die/preservePose");
  std::string pointer = "/animations/die/preservePose";
  for (int i = 0; i < 125; ++i) pointer += "/0";
  for (int depth : {126, 5000, 1000000}) {
    c = io::parse_animation_config(nested(depth), folder_.file("deep.json"));
    ASSERT_FALSE(c);
    EXPECT_EQ(c.error().code, ErrorCode::kLimit) << depth;
    EXPECT_EQ(c.error().path, folder_.file("deep.json"));
    EXPECT_EQ(c.error().location, pointer) << depth;
  }
}

}  // namespace
