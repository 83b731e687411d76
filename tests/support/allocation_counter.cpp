// SPDX-License-Identifier: MIT
#include "allocation_counter.h"

#include <cstdlib>
#include <new>

namespace {
thread_local bool g_counting = false;
thread_local long g_allocations = 0;
// Called through a pointer so GCC does not pair the inlined free() with the standard operator new
// it sees at call sites (a false -Wmismatched-new-delete).
void (*volatile g_release)(void*) = std::free;
}  // namespace

namespace {
void* counted_allocation(std::size_t size) noexcept {
  if (g_counting) ++g_allocations;
  return std::malloc(size == 0 ? 1 : size);
}
}  // namespace

// Every non-aligned form is replaced, so whatever form allocates, the matching delete frees it
// with free() (a sanitizer reports a mismatch otherwise, e.g. for std::stable_sort's nothrow
// buffer).
void* operator new(std::size_t size) {
  if (void* p = counted_allocation(size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  if (void* p = counted_allocation(size)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return counted_allocation(size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return counted_allocation(size);
}
void operator delete(void* p) noexcept {
  g_release(p);
}
void operator delete[](void* p) noexcept {
  g_release(p);
}
void operator delete(void* p, std::size_t) noexcept {
  g_release(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  g_release(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  g_release(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  g_release(p);
}

namespace critter::testing {

AllocationCounter::AllocationCounter() {
  g_allocations = 0;
  g_counting = true;
}

AllocationCounter::~AllocationCounter() {
  g_counting = false;
}

long AllocationCounter::count() const {
  return g_allocations;
}

bool AllocationCounter::works() {
  const AllocationCounter counter;
  void* volatile probe = ::operator new(100);
  ::operator delete(probe);
  return counter.count() == 1;
}

}  // namespace critter::testing
