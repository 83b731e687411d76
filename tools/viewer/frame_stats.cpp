// SPDX-License-Identifier: MIT
#include "frame_stats.h"

#include <cmath>

namespace critter::viewer {

void FrameStats::add(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0.0) seconds = 0.0;
  window_time_ += seconds;
  ++window_frames_;
  if (window_time_ >= kWindowSeconds) {
    fps_ = window_frames_ / window_time_;
    frame_ms_ = 1000.0 * window_time_ / window_frames_;
    window_time_ = 0.0;
    window_frames_ = 0;
  }
}

}  // namespace critter::viewer
