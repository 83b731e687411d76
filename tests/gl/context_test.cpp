// SPDX-License-Identifier: MIT
#include "critter/gl/context.h"

#include <gtest/gtest.h>

#include "critter/gl/render_target.h"
#include "gl/fixture.h"

#include <epoxy/gl.h>

namespace critter::gl {
namespace {

TEST(HeadlessContextTest, GivesOpenGl33CoreWithoutADisplay) {
  HeadlessContext* c = test::shared_context();
  ASSERT_NE(c, nullptr);
  ASSERT_TRUE(c->make_current());
  GLint major = 0;
  GLint minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  EXPECT_GE(major * 10 + minor, 33) << Context::describe_current();
  EXPECT_EQ(c->framebuffer_width(), 0);
}

TEST(RenderTargetTest, ClearColourReadsBackTopDown) {
  ASSERT_NE(test::shared_context(), nullptr);
  Result<RenderTarget> t = RenderTarget::create(8, 4);
  ASSERT_TRUE(t) << t.error().to_string();
  t->bind();
  glClearColor(1.0f, 0.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  // Paint the top row (GL's last row) green through a scissor.
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 3, 8, 1);
  glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  const Pixels p = t->read_pixels();
  ASSERT_EQ(p.width, 8);
  ASSERT_EQ(p.height, 4);
  ASSERT_EQ(p.rgba.size(), 8u * 4u * 4u);
  EXPECT_EQ(p.at(0, 0)[1], 255);  // top row green
  EXPECT_EQ(p.at(0, 0)[0], 0);
  EXPECT_EQ(p.at(7, 3)[0], 255);  // bottom row red
  EXPECT_EQ(p.at(7, 3)[3], 255);
}

TEST(RenderTargetTest, MultisampledTargetResolves) {
  ASSERT_NE(test::shared_context(), nullptr);
  Result<RenderTarget> t = RenderTarget::create(16, 16, 4);
  ASSERT_TRUE(t) << t.error().to_string();
  t->bind();
  glClearColor(0.0f, 0.0f, 1.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  const Pixels p = t->read_pixels();
  EXPECT_EQ(p.at(5, 5)[2], 255);
}

TEST(RenderTargetTest, RejectsEmptySize) {
  ASSERT_NE(test::shared_context(), nullptr);
  Result<RenderTarget> t = RenderTarget::create(0, 16);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, ErrorCode::kUsage);
}

}  // namespace
}  // namespace critter::gl
