// SPDX-License-Identifier: MIT
// The `--anim` and `--mode` arguments shared by the command-line tool and the viewer: a clip
// named by name or index, and a playback mode named by name or by its Defold number. Header-only
// and free of any option-parsing library, so every tool under tools/ can include it.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>
#include <system_error>

#include "critter/asset/model.h"
#include "critter/core/error.h"
#include "critter/core/strings.h"

namespace critter::tools {

// The seven playback modes' names in anim::PlaybackMode's integer order (Defold's 0..6).
inline constexpr const char* kPlaybackModeNames[] = {
    "none",         "once_forward",  "once_backward", "once_pingpong",
    "loop_forward", "loop_backward", "loop_pingpong"};

// A playback mode by name (any case, '-' or '_') or by its Defold number 0..6; -1 when unknown.
inline int parse_playback_mode(std::string_view written) {
  std::string text = to_lower(written);
  std::replace(text.begin(), text.end(), '-', '_');
  for (int i = 0; i < 7; ++i)
    if (text == kPlaybackModeNames[i] || text == std::to_string(i)) return i;
  return -1;
}

// The kUsage error at "--mode" of `file` for a mode parse_playback_mode() did not know.
inline Error unknown_playback_mode(std::string_view file, std::string_view written) {
  return Error::at(ErrorCode::kUsage, std::string(file), "--mode",
                   "unknown playback mode '" + std::string(written) +
                       "' (none, once_forward, once_backward, once_pingpong, loop_forward, "
                       "loop_backward, loop_pingpong or 0..6)");
}

// The clip an `--anim` argument names: a clip name first (exact, then case-insensitive), then a
// 0-based index. An empty argument picks the first clip, or -1 (the rest pose) for a model without
// clips. Anything else is a kUsage error at "--anim" of `file` listing the clip names.
inline Result<int> clip_from_arg(const Model& model, const std::string& anim,
                                 const std::string& file) {
  if (anim.empty()) return model.clips().empty() ? -1 : 0;
  if (const int by_name = model.find_clip(anim); by_name >= 0) return by_name;
  int index = -1;
  const auto r = std::from_chars(anim.data(), anim.data() + anim.size(), index);
  if (r.ec == std::errc() && r.ptr == anim.data() + anim.size() && index >= 0 &&
      static_cast<std::size_t>(index) < model.clips().size())
    return index;
  std::string names;
  for (const Clip& c : model.clips()) names.append(names.empty() ? "" : ", ").append(c.name());
  return fail(
      Error::at(ErrorCode::kUsage, file, "--anim",
                "no animation '" + anim + "' (have: " + (names.empty() ? "none" : names) + ")"));
}

}  // namespace critter::tools
