// SPDX-License-Identifier: MIT
// An allocator for vectors of plain numbers that are written in full right after they are sized
// (a loader's arrays, a derived copy of a clip's keys): resize() and the size constructor leave
// new elements default-initialised, i.e. uninitialised for float and integers, instead of
// writing zeros first. Everything else is std::allocator's.
#pragma once

#include <memory>
#include <new>
#include <utility>

namespace critter {

template <class T>
struct UninitializedAllocator : std::allocator<T> {
  using value_type = T;
  UninitializedAllocator() noexcept = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}  // NOLINT: rebinding
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    if constexpr (sizeof...(Args) == 0)
      ::new (static_cast<void*>(p)) U;
    else
      ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

}  // namespace critter
