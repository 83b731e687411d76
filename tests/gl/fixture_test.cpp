// SPDX-License-Identifier: MIT
#include "gl/fixture.h"

#include <cstdlib>

namespace critter::gl::test {

HeadlessContext* shared_context() {
  static std::unique_ptr<HeadlessContext> context;
  static std::string error;
  static bool tried = false;
  if (!tried) {
    tried = true;
    Result<std::unique_ptr<HeadlessContext>> c = HeadlessContext::create();
    if (c) {
      context = std::move(*c);
    } else {
      error = c.error().to_string();
    }
  }
  if (!context) ADD_FAILURE() << "no headless OpenGL context: " << error;
  return context.get();
}

void GlTest::SetUp() {
  HeadlessContext* c = shared_context();
  ASSERT_NE(c, nullptr);
  ASSERT_TRUE(c->make_current());
  Result<std::unique_ptr<Renderer>> r = Renderer::create();
  ASSERT_TRUE(r) << r.error().to_string();
  renderer_ = std::move(*r);
}

double coverage(const Pixels& p, const std::uint8_t background[3], int tolerance) {
  std::size_t n = 0;
  for (std::size_t i = 0; i + 3 < p.rgba.size(); i += 4) {
    for (int k = 0; k < 3; ++k) {
      if (std::abs(int{p.rgba[i + static_cast<std::size_t>(k)]} - int{background[k]}) > tolerance) {
        ++n;
        break;
      }
    }
  }
  return p.rgba.empty() ? 0.0 : static_cast<double>(n) / static_cast<double>(p.rgba.size() / 4);
}

double differing_fraction(const Pixels& a, const Pixels& b, int tolerance) {
  if (a.rgba.size() != b.rgba.size() || a.rgba.empty()) return 1.0;
  std::size_t n = 0;
  for (std::size_t i = 0; i + 3 < a.rgba.size(); i += 4) {
    for (int k = 0; k < 3; ++k) {
      const std::size_t j = i + static_cast<std::size_t>(k);
      if (std::abs(int{a.rgba[j]} - int{b.rgba[j]}) > tolerance) {
        ++n;
        break;
      }
    }
  }
  return static_cast<double>(n) / static_cast<double>(a.rgba.size() / 4);
}

}  // namespace critter::gl::test

namespace critter::gl::test {
namespace {

TEST(FixtureTest, CoverageCountsPixelsAwayFromTheBackground) {
  Pixels p;
  p.width = 2;
  p.height = 2;
  p.rgba = {0, 0, 0, 255, 9, 0, 0, 255, 0, 0, 8, 255, 200, 100, 0, 255};
  const std::uint8_t black[3] = {0, 0, 0};
  EXPECT_DOUBLE_EQ(coverage(p, black, 8), 0.5);
  Pixels q;
  q.width = 2;
  q.height = 2;
  q.rgba = {50, 0, 0, 255, 9, 0, 0, 255, 0, 0, 8, 255, 200, 100, 0, 255};
  EXPECT_DOUBLE_EQ(differing_fraction(p, q, 10), 0.25);
}

}  // namespace
}  // namespace critter::gl::test
