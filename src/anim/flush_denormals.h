// SPDX-License-Identifier: MIT
// Internal: FlushDenormals, held by the animation jobs while their kernels run. Denormal floats
// (below 1.2e-38 in magnitude) are taken and given as zero on every path alike (x86: the SSE
// control register's flush-to-zero and denormals-are-zero bits, set for the job and put back
// after; already set, they are left alone). Exported clips often hold tiny quaternion and
// translation components whose products are denormal, and each such lane costs a microcode
// assist (on the Wizard's clips a quarter of a blend's time, an eighth of sampling's); flushing
// changes a result by less than 1.2e-38. Elsewhere (no SSE) it does nothing.
#pragma once

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

namespace critter::anim::detail {

class FlushDenormals {
 public:
#if defined(__SSE2__)
  FlushDenormals() : saved_(_mm_getcsr()) {
    if ((saved_ & kBits) != kBits) _mm_setcsr(saved_ | kBits);
  }
  ~FlushDenormals() {
    if ((saved_ & kBits) != kBits) _mm_setcsr(saved_);
  }
  FlushDenormals(const FlushDenormals&) = delete;
  FlushDenormals& operator=(const FlushDenormals&) = delete;

 private:
  static constexpr unsigned kBits = 0x8040;  // FTZ (bit 15) and DAZ (bit 6)
  unsigned saved_;
#endif
};

}  // namespace critter::anim::detail
