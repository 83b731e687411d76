// SPDX-License-Identifier: MIT
// Where exceptions stop (DESIGN.md convention 2): code that uses throwing libraries (the JSON
// library, standard containers) runs inside guard_exceptions(), which turns any exception into a
// located Error. Internal to io.
#pragma once

#include <exception>
#include <new>
#include <string>
#include <string_view>
#include <utility>

#include "critter/core/error.h"

namespace critter::io::detail {

// Calls fn() and returns its Result; std::bad_alloc becomes ErrorCode::kLimit ("out of memory")
// and any other std::exception ErrorCode::kInvalid with its what(), both naming `path`.
template <class F>
auto guard_exceptions(std::string_view path, F&& fn) -> decltype(fn()) {
  try {
    return std::forward<F>(fn)();
  } catch (const std::bad_alloc&) {
    return fail(Error::at(ErrorCode::kLimit, std::string(path), {}, "out of memory"));
  } catch (const std::exception& e) {
    return fail(Error::at(ErrorCode::kInvalid, std::string(path), {}, e.what()));
  }
}

}  // namespace critter::io::detail
