// SPDX-License-Identifier: MIT
// FrameStats: frames per second and frame time as the viewer shows them, averaged over windows of
// at least half a second so the number is readable while it changes.
#pragma once

namespace critter::viewer {

class FrameStats {
 public:
  static constexpr double kWindowSeconds = 0.5;

  // Adds one frame that took `seconds` (negative or non-finite values count as 0).
  void add(double seconds);
  // Frames per second over the last completed window; 0 before the first window completes.
  double fps() const { return fps_; }
  // Mean frame time in milliseconds over the last completed window; 0 before it completes.
  double frame_ms() const { return frame_ms_; }

 private:
  double window_time_ = 0.0;
  int window_frames_ = 0;
  double fps_ = 0.0;
  double frame_ms_ = 0.0;
};

}  // namespace critter::viewer
