// SPDX-License-Identifier: MIT
// Pieces of the glTF reader shared by src/io/gltf/gltf_*.cpp: located JSON reads, the container
// (file, GLB chunks, buffers, URIs) and accessor decoding. Not part of the public API.
#pragma once

#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "critter/core/diagnostics.h"
#include "critter/core/error.h"
#include "critter/io/load_options.h"

// Early return of the error of a Result/Status expression; binds the value of a Result.
#define GLTF_TRY(var, expr)                                                     \
  auto var##_result_ = (expr);                                                  \
  if (!var##_result_) return std::unexpected(std::move(var##_result_.error())); \
  auto&& var = *var##_result_
#define GLTF_CHECK(expr)                                        \
  do {                                                          \
    if (auto check_result_ = (expr); !check_result_)            \
      return std::unexpected(std::move(check_result_.error())); \
  } while (false)

namespace critter::io::gltf {

namespace dom = simdjson::dom;

// A JSON pointer ("/accessors/7/count") kept as a chain of (parent, key or index) and spelled
// out only when an error or a warning needs it, so that reading a valid file builds no strings.
// A Ptr refers to its parent, which must outlive it: children of temporaries do not compile.
class Ptr {
 public:
  Ptr() = default;  // the document root, ""
  // A top-level member of the root: "/" + name.
  explicit Ptr(std::string_view name) : key_(name), has_key_(true) {}
  Ptr(const Ptr& parent, std::string_view key) : parent_(&parent), key_(key), has_key_(true) {}
  Ptr(const Ptr& parent, std::uint64_t index) : parent_(&parent), index_(index) {}
  Ptr(const Ptr&& parent, std::string_view key) = delete;
  Ptr(const Ptr&& parent, std::uint64_t index) = delete;
  Ptr(const Ptr&) = default;
  Ptr& operator=(const Ptr&) = default;

  std::string str() const;

 private:
  void append_to(std::string& out) const;
  const Ptr* parent_ = nullptr;
  std::string_view key_;
  std::uint64_t index_ = 0;
  bool has_key_ = false;  // root: neither key nor parent
};

// The file being read: names it in errors and warnings.
struct Source {
  std::string path;
  Diagnostics* diag = nullptr;

  std::unexpected<Error> fail(ErrorCode code, const Ptr& where, std::string message) const {
    return std::unexpected(Error::at(code, path, where.str(), std::move(message)));
  }
  std::unexpected<Error> fail(ErrorCode code, std::string location, std::string message) const {
    return std::unexpected(Error::at(code, path, std::move(location), std::move(message)));
  }
  void warn(const Ptr& where, std::string message) const {
    if (diag) diag->warn(path, where.str(), std::move(message));
  }
};

// Number of elements of a JSON array (simdjson's size() saturates for huge arrays).
std::size_t array_size(dom::array a);

// A JSON object with its pointer, for reads that fail with the property's pointer.
struct Obj {
  dom::object o;
  Ptr where;
  const Source* src;

  // The pointer of member `key`; the Obj must outlive it.
  Ptr at(std::string_view key) const& { return Ptr(where, key); }
  Ptr at(std::string_view key) const&& = delete;
  bool has(std::string_view key) const;
  std::optional<dom::element> get(std::string_view key) const;

  // A required / optional non-negative integer no larger than `max`.
  Result<std::uint64_t> req_uint(std::string_view key, std::uint64_t max) const;
  Result<std::uint64_t> opt_uint(std::string_view key, std::uint64_t fallback,
                                 std::uint64_t max) const;
  // An index into a list of `count` `what`s; -1 when absent (optional form).
  Result<std::uint32_t> req_index(std::string_view key, std::size_t count,
                                  std::string_view what) const;
  Result<std::int32_t> opt_index(std::string_view key, std::size_t count,
                                 std::string_view what) const;
  Result<double> opt_number(std::string_view key, double fallback) const;
  // A number that must be finite as a float.
  Result<float> opt_float(std::string_view key, float fallback) const;
  Result<bool> opt_bool(std::string_view key, bool fallback) const;
  Result<std::string_view> opt_string(std::string_view key) const;  // empty when absent
  Result<std::optional<Obj>> opt_object(std::string_view key) const;
  Result<Obj> req_object(std::string_view key) const;
  Result<std::optional<dom::array>> opt_array(std::string_view key) const;
  Result<dom::array> req_array(std::string_view key) const;
  // An array of exactly `n` finite (as float) numbers written to `out`; untouched when absent.
  Status opt_floats(std::string_view key, float* out, std::size_t n) const;
};

// An element of an array as an object; `where` is its pointer.
Result<Obj> as_object(dom::element e, const Ptr& where, const Source& src);
// An element as an index into `count` `what`s.
Result<std::uint32_t> as_index(dom::element e, std::size_t count, std::string_view what,
                               const Ptr& where, const Source& src);

// Everything byte-level about the file: its storage, its JSON text, its buffers.
struct Container {
  std::string format;  // "gltf" or "glb"
  std::span<const std::uint8_t> json;
  bool json_padded = false;  // SIMDJSON_PADDING readable bytes follow `json`
  std::uint64_t json_offset = 0;
  std::optional<std::span<const std::uint8_t>> glb_bin;
};

// Splits a GLB file into its JSON and BIN chunks, or takes the whole file as JSON. Errors carry
// byte offsets.
Result<Container> open_container(std::span<const std::uint8_t> bytes, bool padded,
                                 const Source& src);

// Reads a whole file into storage padded with SIMDJSON_PADDING zero bytes. kIo when it cannot be
// read, kLimit when it is larger than `max_bytes`.
struct FileBytes {
  std::unique_ptr<std::uint8_t[]> data;
  std::size_t size = 0;
  std::span<const std::uint8_t> span() const { return {data.get(), size}; }
};
Result<FileBytes> read_file(const std::string& path, std::uint64_t max_bytes,
                            const std::string& error_path, const std::string& location);

// URIs. A parsed `data:` URI: media type and base64 payload.
struct DataUri {
  std::string_view mime_type;
  std::string_view base64;
};
// Some(DataUri) for "data:" URIs, kUnsupported when not base64-encoded; nullopt otherwise.
Result<std::optional<DataUri>> parse_data_uri(std::string_view uri, const Ptr& where,
                                              const Source& src);
// Decoded size of base64 text; kParse when its length cannot be base64.
Result<std::size_t> base64_decoded_size(std::string_view text, const Ptr& where, const Source& src);
// Decodes exactly base64_decoded_size(text) bytes into `out`; kParse naming the first bad
// character.
Status base64_decode(std::string_view text, std::uint8_t* out, const Ptr& where, const Source& src);
// Percent-decodes `uri` and resolves it against `base_dir`. kUnsupported for a scheme, kInvalid
// for a bad escape or a path leaving `base_dir`, as written or through a symbolic link (unless
// `allow_outside`).
Result<std::string> resolve_uri(std::string_view uri, std::string_view base_dir, bool allow_outside,
                                const Ptr& where, const Source& src);

// Accessors.
enum ComponentType : std::uint32_t {
  kI8 = 5120,
  kU8 = 5121,
  kI16 = 5122,
  kU16 = 5123,
  kU32 = 5125,
  kF32 = 5126,
};
// Bit masks of accepted component types and element types, for check_accessor().
inline constexpr std::uint32_t bit(ComponentType t) {
  return 1u << (t - 5120u);
}
inline constexpr std::uint32_t kAnyFloatish =
    bit(kI8) | bit(kU8) | bit(kI16) | bit(kU16) | bit(kF32);
enum ElementType : std::uint8_t { kScalar, kVec2, kVec3, kVec4, kMat2, kMat3, kMat4 };
std::string_view to_string(ElementType t);

struct BufferView {
  std::uint32_t buffer = 0;
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  std::uint32_t stride = 0;  // 0: tightly packed
};

struct Accessor {
  std::uint32_t index = 0;  // in the file's accessor list
  std::int64_t view = -1;   // -1: all zeros (before sparse substitution)
  std::uint64_t offset = 0;
  ComponentType component = kF32;
  ElementType type = kScalar;
  bool normalized = false;
  std::uint64_t count = 0;
  std::uint32_t rows = 1, cols = 1;  // SCALAR/VECn: rows = n, cols = 1
  std::uint32_t column_stride = 0;   // bytes between matrix columns (4-byte aligned)
  std::uint32_t element_size = 0;    // bytes of one element, padding included
  std::uint32_t stride = 0;          // bytes between elements in the view
  // Sparse substitution: `sparse_count` (index, value) pairs.
  std::uint64_t sparse_count = 0;
  std::uint32_t sparse_index_view = 0;
  std::uint64_t sparse_index_offset = 0;
  ComponentType sparse_index_component = kU32;
  std::uint32_t sparse_value_view = 0;
  std::uint64_t sparse_value_offset = 0;

  std::uint32_t components() const { return rows * cols; }
};

// Parsed buffers, views and accessors with the budget for decoded output.
class Data {
 public:
  explicit Data(const Source& src) : src_(src) {}

  Status parse_buffers(const Obj& root, const Container& container, std::string_view base_dir,
                       const LoadOptions& options, std::uint64_t file_bytes);
  Status parse_views(const Obj& root);
  Status parse_accessors(const Obj& root);

  std::size_t view_count() const { return views_.size(); }
  std::size_t accessor_count() const { return accessors_.size(); }
  const Accessor& accessor(std::uint32_t i) const { return accessors_[i]; }
  std::span<const std::uint8_t> view_bytes(std::uint32_t view) const;

  // Checks accessor `index` (referenced at `where`) against the accepted element types
  // (bit per ElementType) and component types (bit(ComponentType)).
  Result<const Accessor*> check_accessor(std::uint32_t index, std::uint32_t type_mask,
                                         std::uint32_t component_mask, const Ptr& where) const;

  // Takes `bytes` from the decode budget; kLimit at `where` when spent.
  Status charge(std::uint64_t bytes, const Ptr& where);
  // Same for `count` elements of `element_bytes` each (overflow-safe).
  Status charge(std::uint64_t count, std::uint64_t element_bytes, const Ptr& where);

  // Decodes accessor `a` as floats (normalized integers per the glTF formulas): count elements
  // of components() floats, element i at out + i * out_stride. `out` holds count * out_stride.
  Status decode_floats(const Accessor& a, float* out, std::size_t out_stride,
                       const Ptr& where) const;
  // Decodes an integer accessor (not normalized) into `out` (count * out_stride values).
  Status decode_uints(const Accessor& a, std::uint32_t* out, std::size_t out_stride,
                      const Ptr& where) const;
  Status decode_uints(const Accessor& a, std::uint16_t* out, std::size_t out_stride,
                      const Ptr& where) const;

 private:
  template <class Out>
  Status decode_any(const Accessor& a, Out* out, std::size_t out_stride, const Ptr& where) const;

  const Source& src_;
  std::vector<std::unique_ptr<std::uint8_t[]>> owned_;
  std::vector<std::span<const std::uint8_t>> buffers_;
  std::vector<BufferView> views_;
  std::vector<Accessor> accessors_;
  std::uint64_t budget_ = 0;
};

}  // namespace critter::io::gltf
