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
// True on an AMD Zen 4 core (family 19h with AVX-512), which runs each 512-bit instruction as
// two 256-bit halves: 512-bit code gains no width there, and a kernel whose 512-bit form needs
// extra shuffles can lose to its AVX2 form (SkinningJob's automatic path takes AVX2 there).
// False on every other CPU, and wherever cpu_has_avx512() is false.
bool cpu_splits_avx512();

}  // namespace critter
