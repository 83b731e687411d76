// SPDX-License-Identifier: MIT
// DenormalScope (critter/anim/denormal_scope.h) and the per-thread count of live scopes that the
// jobs' FlushDenormals reads (anim/flush_denormals.h).
#include "critter/anim/denormal_scope.h"

#include "anim/flush_denormals.h"

namespace critter::anim {

namespace detail {
constinit thread_local unsigned g_denormal_scopes = 0;
}  // namespace detail

DenormalScope::DenormalScope() : outermost_(detail::g_denormal_scopes == 0) {
  ++detail::g_denormal_scopes;
  if (!outermost_) return;
#if defined(__SSE2__)
  saved_ = _mm_getcsr();
  if ((saved_ & detail::kFlushDenormalBits) != detail::kFlushDenormalBits)
    _mm_setcsr(saved_ | detail::kFlushDenormalBits);
#endif
}

DenormalScope::~DenormalScope() {
  --detail::g_denormal_scopes;
  if (!outermost_) return;
#if defined(__SSE2__)
  // The bits as the scope found them; the rest of the register (exception flags raised in the
  // scope, anything else the caller changed) as it is now.
  const unsigned now = _mm_getcsr();
  const unsigned restored =
      (now & ~detail::kFlushDenormalBits) | (saved_ & detail::kFlushDenormalBits);
  if (restored != now) _mm_setcsr(restored);
#endif
}

bool DenormalScope::active() {
  return detail::g_denormal_scopes != 0;
}

}  // namespace critter::anim
