// SPDX-License-Identifier: MIT
// Counting heap allocations in "allocates nothing" tests. A test program that uses
// AllocationCounter links allocation_counter.cpp, which replaces that program's global operator
// new and delete (forwarding to malloc and free for every caller); the count covers only the
// current thread while a counter is alive, so other suites in the program are unaffected.
#pragma once

namespace critter::testing {

class AllocationCounter {
 public:
  // Starts counting this thread's operator new calls. Counters do not nest.
  AllocationCounter();
  // Stops counting.
  ~AllocationCounter();
  AllocationCounter(const AllocationCounter&) = delete;
  AllocationCounter& operator=(const AllocationCounter&) = delete;

  // operator new calls on this thread since construction.
  long count() const;

  // True when a probe allocation is counted, i.e. the replacement operators are in effect (a
  // test asserts this first, so a count of 0 proves something).
  static bool works();
};

}  // namespace critter::testing
