// SPDX-License-Identifier: MIT
#include "critter/core/math.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace critter {
namespace {

TEST(Math, NormalizeInPlaceKeepsTheDirectionOfExtremeQuaternions) {
  float huge[4] = {1e20f, 0.0f, 0.0f, 0.0f};
  ASSERT_TRUE(normalize_in_place(huge));
  EXPECT_EQ(huge[0], 1.0f);
  EXPECT_EQ(huge[3], 0.0f);

  float max[4] = {std::numeric_limits<float>::max(), std::numeric_limits<float>::max(), 0, 0};
  ASSERT_TRUE(normalize_in_place(max));
  EXPECT_NEAR(max[0], std::sqrt(0.5f), 1e-6f);
  EXPECT_NEAR(max[1], std::sqrt(0.5f), 1e-6f);

  quat denormal = quat_xyzw(0.0f, 0.0f, std::numeric_limits<float>::denorm_min(), 0.0f);
  ASSERT_TRUE(normalize_in_place(denormal));
  EXPECT_EQ(denormal.z, 1.0f);

  quat plain = quat_xyzw(0.0f, 3.0f, 0.0f, 4.0f);
  ASSERT_TRUE(normalize_in_place(plain));
  EXPECT_FLOAT_EQ(plain.y, 0.6f);
  EXPECT_FLOAT_EQ(plain.w, 0.8f);
}

TEST(Math, NormalizeInPlaceRefusesZeroAndNonFinite) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (const quat& bad : {quat_xyzw(0, 0, 0, 0), quat_xyzw(nan, 0, 0, 1), quat_xyzw(0, inf, 0, 1),
                          quat_xyzw(0, 0, -inf, 0)}) {
    quat q = bad;
    EXPECT_FALSE(normalize_in_place(q));
  }
  quat zero = quat_xyzw(0, 0, 0, 0);
  normalize_in_place(zero);
  EXPECT_EQ(zero.w, 0.0f);  // left unchanged
}

}  // namespace
}  // namespace critter
