// SPDX-License-Identifier: MIT
// Internal: XXH3 (64-bit, seed 0) compiled for AVX2. Only call it on a CPU with AVX2.
#pragma once

#include <cstddef>
#include <cstdint>

namespace critter::io::detail {

std::uint64_t xxh3_64_avx2(const void* data, std::size_t size);

}  // namespace critter::io::detail
