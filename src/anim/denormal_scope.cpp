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
  // The register as the scope found it, as FlushDenormals does: reading it first (to keep flags
  // raised inside) would wait for every float operation in flight, which measured slower than
  // the switches the scope saves.
  if ((saved_ & detail::kFlushDenormalBits) != detail::kFlushDenormalBits) _mm_setcsr(saved_);
#endif
}

bool DenormalScope::active() {
  return detail::g_denormal_scopes != 0;
}

}  // namespace critter::anim
