// SPDX-License-Identifier: MIT
// Shared helpers of the gl tests: one headless EGL context for the whole test program, render
// targets, pixel statistics.
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "critter/asset/model.h"
#include "critter/gl/camera.h"
#include "critter/gl/context.h"
#include "critter/gl/render_target.h"
#include "critter/gl/renderer.h"

namespace critter::gl::test {

// The process-wide headless context (created on first use; null when EGL is unusable, in which
// case the test fails with the reason).
HeadlessContext* shared_context();

class GlTest : public ::testing::Test {
 protected:
  void SetUp() override;
  std::unique_ptr<Renderer> renderer_;
};

// Fraction of pixels whose colour differs from `background` by more than `tolerance` on any
// channel (RGB).
double coverage(const Pixels& p, const std::uint8_t background[3], int tolerance = 8);
// Fraction of pixels differing by more than `tolerance` on any channel between two captures.
double differing_fraction(const Pixels& a, const Pixels& b, int tolerance);

}  // namespace critter::gl::test
