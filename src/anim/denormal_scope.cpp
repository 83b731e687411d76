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
  saved_ = detail::begin_flush_denormals();
#endif
}

DenormalScope::~DenormalScope() {
  --detail::g_denormal_scopes;
  if (!outermost_) return;
#if defined(__SSE2__)
  // Reading the register first, to keep flags raised inside, measured slower than the switches
  // the scope saves.
  detail::end_flush_denormals(saved_);
#endif
}

bool DenormalScope::active() {
  return detail::g_denormal_scopes != 0;
}

}  // namespace critter::anim
