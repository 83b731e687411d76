// SPDX-License-Identifier: MIT
// Named frame ranges: cutting one long animation into named clips. Formats such as Blitz3D (.b3d)
// store every action of a creature in a single track ("stand" on frames 0-79, "walk" on 168-187,
// ...); engines name the ranges outside the file. The ranges are given in frames of the source
// animation (its frames per second), parsed from the command-line syntax
// `name:start-end,name2:start-end`, and applied once at load so the rest of critter only sees
// ordinary clips whose time is seconds from 0.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "critter/asset/clip.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"

namespace critter::io {

// One named range [start_frame, end_frame] (inclusive, start <= end, both >= 0) of the source
// animation, in frames at the source's frames per second. Fractional frames are allowed.
struct ClipRange {
  std::string name;
  double start_frame = 0.0;
  double end_frame = 0.0;

  friend bool operator==(const ClipRange&, const ClipRange&) = default;
};

// Parses `name:start-end[,name:start-end...]`. Blanks around names, numbers and separators are
// ignored; the name is everything before the entry's last ':' and may not be empty or repeat an
// earlier name; frames are non-negative decimal numbers ("12", "12.5") with end >= start.
// Errors are ErrorCode::kUsage with `path` = `option` and a message naming the entry (1-based)
// and the rule, e.g. "--clips: entry 2 'walk:168-': missing end frame".
Result<std::vector<ClipRange>> parse_clip_ranges(std::string_view text,
                                                 std::string_view option = "--clips");

// Writes ranges back in the syntax parse_clip_ranges reads (shortest exact decimal frames).
std::string format_clip_ranges(std::span<const ClipRange> ranges);

// Cuts `source` into one clip per range, in range order. Each clip is named after its range and
// covers source time [start_frame / fps, end_frame / fps], re-based so that it starts at 0 and
// lasts (end_frame - start_frame) / fps seconds. Every track of the source yields a track with a
// key at 0 and a key at the end holding the source's value at the range's boundaries (sampled
// as SamplingJob does: held before the first and after the last key, STEP holds, LINEAR lerps
// and slerps rotations along the shorter arc, CUBICSPLINE evaluates the Hermite segment and
// gives the boundary key the segment's slope as tangents, so the cut curve is the same curve),
// plus every source key strictly inside the range, unchanged. A zero-length range gives one key
// per track. Interpolation, target, index and components are kept.
// Errors (ErrorCode::kUsage, path `path`): fps not finite and > 0, a range with a negative or
// non-finite frame or end < start, an empty or repeated name. A range that ends after the
// source's last key or starts after it is a warning in `diag` (values are held), not an error.
Result<std::vector<RawClip>> split_clip(const RawClip& source, double frames_per_second,
                                        std::span<const ClipRange> ranges,
                                        std::string_view path = {}, Diagnostics* diag = nullptr);

// Plays `clip` at another speed: every key time is multiplied by `factor` (finite, > 0; 2 = twice
// as long) and CUBICSPLINE tangents, being slopes per second, are divided by it, so the curve's
// shape is kept. Used when ranges count the file's frames but play at another rate (Minetest
// plays its frame ranges at 30 fps whatever the file declares).
void scale_clip_time(RawClip& clip, double factor);

}  // namespace critter::io
