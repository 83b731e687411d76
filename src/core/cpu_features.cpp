// SPDX-License-Identifier: MIT
#include "critter/core/cpu_features.h"

namespace critter {

bool cpu_has_avx2_fma() {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
#else
  return false;
#endif
}

bool cpu_has_avx512() {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool has = cpu_has_avx2_fma() && __builtin_cpu_supports("avx512f") &&
                          __builtin_cpu_supports("avx512vl") &&
                          __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq");
  return has;
#else
  return false;
#endif
}

bool cpu_splits_avx512() {
#if defined(__x86_64__) && defined(__GNUC__)
  // AMD family 19h is Zen 3 and Zen 4; only Zen 4 has AVX-512.
  static const bool splits = cpu_has_avx512() && __builtin_cpu_is("amdfam19h");
  return splits;
#else
  return false;
#endif
}

}  // namespace critter
