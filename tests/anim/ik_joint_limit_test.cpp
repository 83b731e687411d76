// SPDX-License-Identifier: MIT
#include "critter/anim/ik_joint_limit.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "anim/ik_rig.h"

namespace critter::anim {
namespace {

using test::angle_between;
using test::axis_angle;
using test::kPi;

constexpr float kDeg = kPi / 180.0f;
constexpr EulerOrder kOrders[] = {EulerOrder::kXYZ, EulerOrder::kXZY, EulerOrder::kYXZ,
                                  EulerOrder::kYZX, EulerOrder::kZXY, EulerOrder::kZYX};

TEST(EulerOrder, ParsesAndNamesEveryOrder) {
  for (EulerOrder o : kOrders) {
    const std::string name(to_string(o));
    EXPECT_EQ(parse_euler_order(name), o);
    std::string lower = name;
    for (char& c : lower) c = static_cast<char>(c - 'A' + 'a');
    EXPECT_EQ(parse_euler_order(lower), o);
  }
  EXPECT_FALSE(parse_euler_order("XXY"));
  EXPECT_FALSE(parse_euler_order("XY"));
  EXPECT_FALSE(parse_euler_order("XYZW"));
}

TEST(Euler, YxzComposesInColumnOrder) {
  // "YXZ" means R_Y(y)·R_X(x)·R_Z(z): Z acts first.
  const vec3 angles(0.3f, -0.7f, 1.1f);
  const quat want = axis_angle({0, 1, 0}, angles.y) * axis_angle({1, 0, 0}, angles.x) *
                    axis_angle({0, 0, 1}, angles.z);
  EXPECT_LT(angle_between(from_euler(angles, EulerOrder::kYXZ), want), 1e-5f);
  const quat zyx = axis_angle({0, 0, 1}, angles.z) * axis_angle({0, 1, 0}, angles.y) *
                   axis_angle({1, 0, 0}, angles.x);
  EXPECT_LT(angle_between(from_euler(angles, EulerOrder::kZYX), zyx), 1e-5f);
}

TEST(Euler, RoundTripsEveryOrder) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> wide(-3.0f, 3.0f), middle(-1.5f, 1.5f);
  for (EulerOrder o : kOrders) {
    for (int i = 0; i < 200; ++i) {
      // The middle axis of the order gets the [−π/2, π/2] range.
      const std::string name(to_string(o));
      vec3 a(wide(rng), wide(rng), wide(rng));
      a[name[1] - 'X'] = middle(rng);
      const vec3 back = to_euler(from_euler(a, o), o);
      EXPECT_LT(glm::distance(back, a), 1e-3f) << name << " case " << i;
    }
  }
}

TEST(Euler, GimbalLockStillRecomposes) {
  for (EulerOrder o : kOrders) {
    const std::string name(to_string(o));
    vec3 a(0.4f, 0.4f, 0.4f);
    a[name[1] - 'X'] = kPi / 2;
    const quat q = from_euler(a, o);
    EXPECT_LT(angle_between(from_euler(to_euler(q, o), o), q), 1e-3f) << name;
  }
}

TEST(JointLimit, ValidateNamesTheBrokenField) {
  JointLimit l{1, EulerOrder::kYXZ, vec3(-10), vec3(10)};
  EXPECT_TRUE(l.validate(2));
  auto expect = [](const JointLimit& j, const std::string& location) {
    auto v = j.validate(2);
    ASSERT_FALSE(v);
    EXPECT_EQ(v.error().path, "JointLimit");
    EXPECT_EQ(v.error().location, location);
  };
  JointLimit b = l;
  b.joint = 2;
  expect(b, "joint");
  b = l;
  b.joint = -1;
  expect(b, "joint");
  b = l;
  b.min_degrees.y = -181.0f;
  expect(b, "min_degrees");
  b = l;
  b.max_degrees.z = std::nanf("");
  expect(b, "max_degrees");
  b = l;
  b.min_degrees.x = 11.0f;
  expect(b, "min_degrees");
}

TEST(JointLimit, InsideTheBoundsIsUnchanged) {
  const JointLimit l{0, EulerOrder::kYXZ, vec3(-30), vec3(30)};
  const quat q = from_euler(vec3(20 * kDeg, -10 * kDeg, 25 * kDeg), EulerOrder::kYXZ);
  EXPECT_LT(angle_between(l.clamp(q), q), 1e-6f);
  EXPECT_TRUE(l.contains(q));
}

TEST(JointLimit, ClampsEachAxisToItsBound) {
  const JointLimit l{0, EulerOrder::kYXZ, vec3(-10, -20, -5), vec3(10, 20, 5)};
  const quat q = from_euler(vec3(40 * kDeg, -35 * kDeg, 3 * kDeg), EulerOrder::kYXZ);
  const quat want = from_euler(vec3(10 * kDeg, -20 * kDeg, 3 * kDeg), EulerOrder::kYXZ);
  EXPECT_LT(angle_between(l.clamp(q), want), 1e-5f);
  EXPECT_FALSE(l.contains(q));
  EXPECT_TRUE(l.contains(l.clamp(q)));
}

TEST(JointLimit, SeesAWideBendOnTheMiddleAxis) {
  // A knee bent 120° about X (the middle axis of YXZ) decomposes principally as (180°, 60°, 180°);
  // the limit must still see the 120° bend and allow it.
  const JointLimit knee{0, EulerOrder::kYXZ, vec3(0, -5, -5), vec3(150, 5, 5)};
  const quat bent = axis_angle({1, 0, 0}, 120 * kDeg);
  EXPECT_TRUE(knee.contains(bent));
  EXPECT_LT(angle_between(knee.clamp(bent), bent), 1e-5f);
  // Past 150° it stops at 150°.
  const quat over = axis_angle({1, 0, 0}, 170 * kDeg);
  EXPECT_LT(angle_between(knee.clamp(over), axis_angle({1, 0, 0}, 150 * kDeg)), 1e-4f);
  // Bent the wrong way it stops straight.
  const quat back = axis_angle({1, 0, 0}, -30 * kDeg);
  EXPECT_LT(angle_between(knee.clamp(back), quat_xyzw(0, 0, 0, 1)), 1e-5f);
}

TEST(JointLimit, ClampedRotationsAreAlwaysInside) {
  std::mt19937 rng(8);
  std::normal_distribution<float> n(0.0f, 1.0f);
  for (EulerOrder o : kOrders) {
    const JointLimit l{0, o, vec3(-40, -15, -70), vec3(25, 60, 10)};
    for (int i = 0; i < 300; ++i) {
      const quat q = glm::normalize(quat_xyzw(n(rng), n(rng), n(rng), n(rng)));
      EXPECT_TRUE(l.contains(l.clamp(q), 0.01f)) << to_string(o) << " case " << i;
    }
  }
}

}  // namespace
}  // namespace critter::anim
