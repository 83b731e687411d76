// SPDX-License-Identifier: MIT
// Which of critter's SIMD paths this CPU runs, checked once per process. Every job with paths
// chosen at run time (sampling, compact sampling, blending, local-to-model, skinning, the .crit
// checksum) asks here, so that "AVX2" and "AVX-512" mean the same everywhere. Both are false off
// x86-64 and with compilers without __builtin_cpu_supports.
#pragma once

namespace critter {

// AVX2 and FMA.
bool cpu_has_avx2_fma();
// AVX-512 F, VL, BW and DQ, on top of cpu_has_avx2_fma() (every AVX-512 CPU has them).
bool cpu_has_avx512();

}  // namespace critter
