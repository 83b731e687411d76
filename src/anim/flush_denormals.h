// SPDX-License-Identifier: MIT
// Internal: FlushDenormals, held by the animation jobs while their kernels run. Denormal floats
// (below 1.2e-38 in magnitude) are taken and given as zero on every path alike (x86: the SSE
// control register's flush-to-zero and denormals-are-zero bits, set for the job and put back
// after; already set, they are left alone; inside a DenormalScope, which set them for a whole
// batch of jobs, the job reads nothing). Exported clips often hold tiny quaternion and
// translation components whose products are denormal, and each such lane costs a microcode
// assist (on the Wizard's clips a quarter of a blend's time, an eighth of sampling's); flushing
// changes a result by less than 1.2e-38. Elsewhere (no SSE) it does nothing.
#pragma once

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

namespace critter::anim::detail {

// FTZ (bit 15) and DAZ (bit 6) of the SSE control register.
inline constexpr unsigned kFlushDenormalBits = 0x8040;

// How many DenormalScopes live on this thread (denormal_scope.cpp).
extern constinit thread_local unsigned g_denormal_scopes;

#if defined(__SSE2__)
// The one switch of the mode, for a job (FlushDenormals) and for the outermost DenormalScope:
// sets the two bits where they are not set and returns the register as it was; the end puts it
// back, without reading it first (a read waits for every float operation in flight).
inline unsigned begin_flush_denormals() {
  const unsigned saved = _mm_getcsr();
  if ((saved & kFlushDenormalBits) != kFlushDenormalBits) _mm_setcsr(saved | kFlushDenormalBits);
  return saved;
}
inline void end_flush_denormals(unsigned saved) {
  if ((saved & kFlushDenormalBits) != kFlushDenormalBits) _mm_setcsr(saved);
}
#endif

class FlushDenormals {
 public:
#if defined(__SSE2__)
  // Inside a DenormalScope the mode is already set: nothing to read or write.
  FlushDenormals() : active_(g_denormal_scopes == 0) {
    if (active_) saved_ = begin_flush_denormals();
  }
  ~FlushDenormals() {
    if (active_) end_flush_denormals(saved_);
  }
  FlushDenormals(const FlushDenormals&) = delete;
  FlushDenormals& operator=(const FlushDenormals&) = delete;

 private:
  bool active_;
  unsigned saved_ = 0;
#endif
};

}  // namespace critter::anim::detail
