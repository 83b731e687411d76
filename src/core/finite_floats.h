// SPDX-License-Identifier: MIT
// Internal: the check that a block of floats holds no NaN and no infinity, run over every key,
// vertex and matrix a loader reads (built clips, baked files), so it is written for the vector
// units: independent lanes, no early exit, one maximum as the reduction. A float is finite when
// its magnitude bits (sign cleared) are below those of infinity, 0x7f800000. The widest path the
// CPU has is picked at run time (cpu_features.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace critter {

// True when no float of `values` is NaN or infinite.
bool all_finite_floats(std::span<const float> values);

// Copies `from` to `to` (from.size() floats, not overlapping `from`) and returns whether every
// float is finite: the copy and the check in one pass over the floats instead of two.
bool copy_finite_floats(std::span<const float> from, float* to);

// The same for `count` floats stored as pairs of 16-bit words (low word first, as a little-endian
// float's bytes; compact clips keep float keys so), which may lie at any even address. A float is
// not finite when every exponent bit of its upper word is set.
bool all_finite_float_words(const std::uint16_t* words, std::size_t count);

// The index of the first float of `values` that is NaN or infinite, or values.size() when none
// is (for naming the offending value in an error; scalar).
std::size_t first_non_finite(std::span<const float> values);

namespace detail {
#if defined(__x86_64__) && defined(__GNUC__)
// The largest magnitude bits of v[0, done); sets `done` to the floats covered, a multiple of the
// vector width. AVX-512 needs cpu_has_avx512, AVX2 cpu_has_avx2_fma (finite_floats_simd.cpp).
std::uint32_t max_magnitude_avx512(const float* v, std::size_t n, std::size_t& done);
std::uint32_t max_magnitude_avx2(const float* v, std::size_t n, std::size_t& done);
// The same, also copying v[0, done) to out[0, done).
std::uint32_t copy_max_magnitude_avx512(const float* v, float* out, std::size_t n,
                                        std::size_t& done);
std::uint32_t copy_max_magnitude_avx2(const float* v, float* out, std::size_t n, std::size_t& done);
#endif
}  // namespace detail

}  // namespace critter
