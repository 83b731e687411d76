// SPDX-License-Identifier: MIT
// SourceLocation: where a value was written in a JSON file (an animation config and the files it
// extends). Config diagnostics and the fields of anim::ControllerDesc evaluated at run time carry
// one, so errors and runtime warnings name the file and the place to fix.
#pragma once

#include <string>

namespace critter {

// `file`: the file the value came from (after `extends`, the file that wrote it); empty when the
// value was not read from a file or the file is implied by context. `pointer`: the RFC 6901 JSON
// pointer inside that file, with names as written and 0-based array indices
// ("/states/gait/rules/2/condition"); empty is the whole document (or, for a description built in
// code, "not located").
struct SourceLocation {
  std::string file;
  std::string pointer;
};

}  // namespace critter
