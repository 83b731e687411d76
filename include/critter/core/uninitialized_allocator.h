// SPDX-License-Identifier: MIT
// An allocator for vectors of plain numbers that are written in full right after they are sized
// (a loader's arrays, a derived copy of a clip's keys): resize() and the size constructor leave
// new elements default-initialised, i.e. uninitialised for float and integers, instead of
// writing zeros first. `Align` (a power of two) raises the alignment of the storage, e.g. to a
// cache line so that blocks laid out at multiples of 64 bytes are read and written without
// splitting lines. Everything else is std::allocator's.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <utility>

namespace critter {

template <class T, std::size_t Align = alignof(T)>
struct UninitializedAllocator : std::allocator<T> {
  static_assert(Align >= alignof(T) && (Align & (Align - 1)) == 0);
  using value_type = T;
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U, (Align > alignof(U) ? Align : alignof(U))>;
  };
  UninitializedAllocator() noexcept = default;
  template <class U, std::size_t A>
  UninitializedAllocator(const UninitializedAllocator<U, A>&) noexcept {}  // NOLINT: rebinding
  T* allocate(std::size_t n) {
    if constexpr (Align <= __STDCPP_DEFAULT_NEW_ALIGNMENT__)
      return std::allocator<T>::allocate(n);
    else
      return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{Align}));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if constexpr (Align <= __STDCPP_DEFAULT_NEW_ALIGNMENT__)
      std::allocator<T>::deallocate(p, n);
    else
      ::operator delete (p, n * sizeof(T), std::align_val_t{Align});
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    if constexpr (sizeof...(Args) == 0)
      ::new (static_cast<void*>(p)) U;
    else
      ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

}  // namespace critter
