// SPDX-License-Identifier: MIT
// `--timeline FILE.json`: values that change over a simulated time, read by `critter pose` and
// `critter render`. The file is strict JSON:
//
//   {"keys": [{"t": 0, "state": {"speed": 1}},
//             {"t": 2, "state": {"speed": 3}},
//             {"t": 4, "state": {"health": 0}}]}
//
// Each key holds a time `t` (seconds, finite, >= 0, each greater than the one before) and the
// values it sets: "state" (creature state names, with --creature) or "params" (the config's
// parameters, with --config). A value holds from its key's time on, until a later key sets the
// same name; before that the command line's value (--state, --param) applies, if any.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "critter/anim/parameters.h"
#include "critter/core/error.h"

namespace critter::cli {

// Largest timeline file read, bytes, and most keys (hostile input).
inline constexpr std::size_t kMaxTimelineBytes = 16u << 20;
inline constexpr std::size_t kMaxTimelineKeys = 100000;

// One value a key sets.
struct TimelineValue {
  std::string name;  // as written
  // kFloat (a finite JSON number), kBool, kVec2 / kVec3 (an array of 2 or 3 finite numbers) or
  // kString.
  anim::ParameterValue value;
  std::string pointer;  // JSON pointer of the value: "/keys/1/state/speed"
};

struct TimelineKey {
  double t = 0.0;                     // seconds
  std::string pointer;                // JSON pointer of the key: "/keys/1"
  bool has_state = false;             // the key has a "state" object (maybe empty)
  bool has_params = false;            // the key has a "params" object (maybe empty)
  std::vector<TimelineValue> state;   // "state" members, in file order
  std::vector<TimelineValue> params;  // "params" members, in file order
};

// A timeline file, read and checked for shape; names are checked by what uses them
// (ControllerPose::set_timeline, CreaturePose::load).
struct Timeline {
  std::string path;               // as given
  std::vector<TimelineKey> keys;  // t strictly increasing

  // Reads and parses the file at `path`. Errors: the file cannot be read (kIo), is larger than
  // kMaxTimelineBytes (kLimit), and those of parse().
  static Result<Timeline> load(const std::string& path);
  // Parses `text`, reported as `path`. Errors, each at `path` with a location: malformed JSON
  // (kParse, "byte N" where the parser stopped); a shape other than the one above (kInvalid at the
  // JSON pointer: the root not an object with "keys", an unknown member, "t" missing or not a
  // finite number >= 0, a "t" not greater than the previous key's, "state"/"params" not an
  // object, a value that is not a finite number, true/false, [x,y], [x,y,z] of finite numbers or
  // a string); more than kMaxTimelineKeys keys (kLimit at "/keys").
  static Result<Timeline> parse(std::string_view text, const std::string& path);
};

// Registers --timeline FILE.json on `app`, writing into `path` (which must outlive the parse).
void add_timeline_flag(CLI::App* app, std::string& path);

// The timeline format for --help (a few lines, ending in a newline).
std::string timeline_help();

}  // namespace critter::cli
