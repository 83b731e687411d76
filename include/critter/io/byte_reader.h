// SPDX-License-Identifier: MIT
// ByteReader: reads little-endian binary fields from bytes held in memory, checking every size
// against the bytes left, for the binary formats critter decodes (the baked .crit format, the
// isolated Assimp import's answer).
//
//   ByteReader r(bytes, 32);            // offsets in errors count from byte 32 of the file
//   std::uint32_t n = 0;
//   r.read(n);
//   std::vector<float> values;
//   r.read_array(values, r.read_count<std::uint32_t>(sizeof(float)));
//   if (!r.ok()) report(r.error_offset(), r.error_message());
//
// The first failure is kept, with the byte offset of the field that caused it; every later read
// fails too and leaves its output zeroed or empty, so a decoder may read a whole structure and
// check ok() once. Sizes come from the data and may be hostile: nothing is allocated for a count
// before the bytes it needs are known to be there. The reader holds a view: `bytes` must outlive
// it. Numbers are copied as they are stored, so the host must be little-endian (checked at
// compile time).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace critter::io {

static_assert(std::endian::native == std::endian::little,
              "critter's binary formats are little-endian and read by copying");

class ByteReader {
 public:
  // `base` is the offset of bytes[0] in the file, added to every offset reported; `noun` names
  // the bytes in messages ("the <noun> ends inside a string (...)").
  explicit ByteReader(std::span<const std::uint8_t> bytes, std::uint64_t base = 0,
                      const char* noun = "data")
      : bytes_(bytes), base_(base), noun_(noun) {}

  // One trivially copyable value; false (and `v` value-initialised) when the bytes end first.
  template <class T>
  bool read(T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    field_ = pos_;
    if (!take(sizeof(T), "a field")) {
      v = T{};
      return false;
    }
    std::memcpy(&v, bytes_.data() + pos_ - sizeof(T), sizeof(T));
    return true;
  }
  template <class T>
  T read() {
    T v;
    read(v);
    return v;
  }

  // A count of elements stored as a CountT, each element at least `min_bytes` long in the data
  // (at least 1 counts): a count the bytes left cannot hold fails here, before anything is
  // allocated for it. Returns 0 after a failure.
  template <class CountT>
  std::uint64_t read_count(std::size_t min_bytes) {
    static_assert(std::is_unsigned_v<CountT>);
    CountT n{};
    if (!read(n)) return 0;
    const std::uint64_t each = min_bytes == 0 ? 1 : min_bytes;
    if (std::uint64_t{n} > remaining() / each) {
      fail("count " + std::to_string(n) + " is larger than the " + noun_ + " allows");
      return 0;
    }
    return n;
  }

  // `n` elements of T, copied into `v` (replacing its contents) in one block.
  template <class T>
  bool read_array(std::vector<T>& v, std::uint64_t n, const char* what = "an array") {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::uint8_t* p = view(n, sizeof(T), what);
    if (p == nullptr) {
      v.clear();
      return ok();
    }
    const T* first = reinterpret_cast<const T*>(p);
    if (reinterpret_cast<std::uintptr_t>(p) % alignof(T) == 0) {
      v.assign(first, first + n);
    } else {
      v.resize(static_cast<std::size_t>(n));
      std::memcpy(v.data(), p, static_cast<std::size_t>(n) * sizeof(T));
    }
    return true;
  }

  // `n` bytes as a string (no terminator in the data).
  bool read_string(std::string& s, std::uint64_t n) {
    const std::uint8_t* p = view(n, 1, "a string");
    if (p == nullptr) {
      s.clear();
      return ok();
    }
    s.assign(reinterpret_cast<const char*>(p), static_cast<std::size_t>(n));
    return true;
  }

  // The next `n` elements of `size` bytes, without copying; null when n is 0 or on failure.
  const std::uint8_t* view(std::uint64_t n, std::size_t size, const char* what) {
    field_ = pos_;
    if (size != 0 && n > remaining() / size) {
      const std::uint64_t most = ~std::uint64_t{0};
      fail_truncated(what, n > most / size ? most : n * size);
      return nullptr;
    }
    if (!take(n * size, what) || n == 0) return nullptr;
    return bytes_.data() + pos_ - n * size;
  }

  // Fails at the start of the last field read (the first failure wins).
  void fail(std::string message) { fail_at(field_, std::move(message)); }
  // Fails at `position` (an index into the bytes, not a file offset).
  void fail_at(std::size_t position, std::string message) {
    if (!ok()) return;
    failed_ = true;
    error_position_ = position;
    error_message_ = std::move(message);
  }

  bool ok() const { return !failed_; }
  // Index of the next byte to read, and of the first byte of the last field read.
  std::size_t position() const { return pos_; }
  std::size_t field_position() const { return field_; }
  std::size_t remaining() const { return bytes_.size() - pos_; }
  bool at_end() const { return pos_ == bytes_.size(); }
  // The file offset of an index into the bytes.
  std::uint64_t offset_of(std::size_t position) const { return base_ + position; }
  std::span<const std::uint8_t> bytes() const { return bytes_; }

  // Where and why the first failure happened; meaningful when !ok().
  std::uint64_t error_offset() const { return base_ + error_position_; }
  const std::string& error_message() const { return error_message_; }

 private:
  bool take(std::uint64_t n, const char* what) {
    if (!ok()) return false;
    if (n > remaining()) {
      fail_truncated(what, n);
      return false;
    }
    pos_ += static_cast<std::size_t>(n);
    return true;
  }
  void fail_truncated(const char* what, std::uint64_t needed) {
    fail_at(pos_, std::string("the ") + noun_ + " ends inside " + what + " (" +
                      std::to_string(needed) + " bytes needed, " + std::to_string(remaining()) +
                      " left)");
  }

  std::span<const std::uint8_t> bytes_;
  std::uint64_t base_ = 0;
  const char* noun_;
  std::size_t pos_ = 0;
  std::size_t field_ = 0;
  bool failed_ = false;
  std::size_t error_position_ = 0;
  std::string error_message_;
};

}  // namespace critter::io
