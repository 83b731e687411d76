// SPDX-License-Identifier: MIT
#include "frame_stats.h"

#include <gtest/gtest.h>

#include <limits>

namespace critter::viewer {
namespace {

TEST(FrameStats, ReportsEachCompletedHalfSecondWindow) {
  FrameStats s;
  for (int i = 0; i < 3; ++i) s.add(0.125);
  EXPECT_EQ(s.fps(), 0.0);
  s.add(0.125);  // 4 frames in 0.5 s
  EXPECT_DOUBLE_EQ(s.fps(), 8.0);
  EXPECT_DOUBLE_EQ(s.frame_ms(), 125.0);
  for (int i = 0; i < 9; ++i) s.add(0.0625);  // 0.5625 s for 9 frames
  EXPECT_DOUBLE_EQ(s.fps(), 16.0);
  EXPECT_DOUBLE_EQ(s.frame_ms(), 62.5);
}

TEST(FrameStats, BadDurationsCountAsZero) {
  FrameStats s;
  s.add(-1.0);
  s.add(std::numeric_limits<double>::quiet_NaN());
  s.add(0.5);  // 3 frames in 0.5 s
  EXPECT_DOUBLE_EQ(s.fps(), 6.0);
}

}  // namespace
}  // namespace critter::viewer
