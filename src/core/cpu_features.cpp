// SPDX-License-Identifier: MIT
#include "critter/core/cpu_features.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

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
  static const bool splits = [] {
    if (!cpu_has_avx512()) return false;
    unsigned a = 0, b = 0, c = 0, d = 0;
    // Leaf 0: the vendor, "AuthenticAMD" in EBX, EDX, ECX.
    if (__get_cpuid(0, &a, &b, &c, &d) == 0 || b != 0x68747541u || d != 0x69746e65u ||
        c != 0x444d4163u)
      return false;
    // Leaf 1: the family, base (bits 8-11) plus extended (bits 20-27) when the base is 0xF.
    if (__get_cpuid(1, &a, &b, &c, &d) == 0) return false;
    const unsigned base = (a >> 8) & 0xFu;
    const unsigned family = base == 0xFu ? base + ((a >> 20) & 0xFFu) : base;
    // Family 19h is Zen 3 and Zen 4; only Zen 4 has AVX-512.
    return family == 0x19u;
  }();
  return splits;
#else
  return false;
#endif
}

}  // namespace critter
