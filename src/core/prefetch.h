// SPDX-License-Identifier: MIT
// Internal: prefetch_lines, the request a job makes at its start for the lines of a per-instance
// buffer it is about to touch (a context's cache, a pose), so that where a frame walks many
// instances and the buffer has left the nearest caches, its misses overlap each other and the
// job's first work instead of stalling one after another. A hint only: it changes no result.
#pragma once

#include <algorithm>
#include <cstddef>

namespace critter::detail {

// The most bytes of one buffer asked for: beyond that, the job's own reads and the hardware
// prefetcher keep ahead.
inline constexpr std::size_t kPrefetchBytes = 2048;

inline void prefetch_lines(const void* data, std::size_t bytes) {
#if defined(__GNUC__)
  const char* p = static_cast<const char*>(data);
  const std::size_t n = std::min(bytes, kPrefetchBytes);
  for (std::size_t o = 0; o < n; o += 64) __builtin_prefetch(p + o, 0, 3);
#else
  (void)data;
  (void)bytes;
#endif
}

}  // namespace critter::detail
