// SPDX-License-Identifier: MIT
// ByteWriter: appends little-endian binary fields to a byte vector, the counterpart of
// ByteReader (byte_reader.h) for the formats critter writes.
//
//   ByteWriter w;
//   w.write(std::uint32_t{7});
//   w.write_array<std::uint32_t>(values);   // count as a u32, then the elements
//   std::vector<std::uint8_t> bytes = std::move(w.bytes);
//
// Values are copied as the host holds them, so the host must be little-endian (byte_reader.h
// checks it at compile time).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "critter/io/byte_reader.h"

namespace critter::io {

struct ByteWriter {
  std::vector<std::uint8_t> bytes;

  // One trivially copyable value, as its bytes.
  template <class T>
  void write(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
    bytes.insert(bytes.end(), p, p + sizeof(T));
  }
  // The elements of `v`, without a count.
  template <class T>
  void write_span(std::span<const T> v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const std::uint8_t*>(v.data());
    bytes.insert(bytes.end(), p, p + v.size_bytes());
  }
  // The element count as a CountT, then the elements.
  template <class CountT, class T>
  void write_array(std::span<const T> v) {
    write(static_cast<CountT>(v.size()));
    write_span(v);
  }
  // The byte count as a CountT, then the bytes.
  template <class CountT>
  void write_string(std::string_view s) {
    write(static_cast<CountT>(s.size()));
    bytes.insert(bytes.end(), s.begin(), s.end());
  }
};

}  // namespace critter::io
