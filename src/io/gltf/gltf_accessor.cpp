// SPDX-License-Identifier: MIT
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "io/gltf/gltf_internal.h"

namespace critter::io::gltf {

namespace {

std::uint32_t component_size(ComponentType c) {
  switch (c) {
    case kI8:
    case kU8:
      return 1;
    case kI16:
    case kU16:
      return 2;
    case kU32:
    case kF32:
      return 4;
  }
  return 0;
}

bool valid_component(std::uint64_t c) {
  return c == kI8 || c == kU8 || c == kI16 || c == kU16 || c == kU32 || c == kF32;
}

std::optional<ElementType> parse_type(std::string_view s) {
  if (s == "SCALAR") return kScalar;
  if (s == "VEC2") return kVec2;
  if (s == "VEC3") return kVec3;
  if (s == "VEC4") return kVec4;
  if (s == "MAT2") return kMat2;
  if (s == "MAT3") return kMat3;
  if (s == "MAT4") return kMat4;
  return std::nullopt;
}

// glTF's normalized-integer formulas (spec 3.11): signed values clamp at -1.
template <class C>
float normalize(C v) {
  if constexpr (std::is_same_v<C, std::int8_t>) {
    return std::max(static_cast<float>(v) / 127.0f, -1.0f);
  } else if constexpr (std::is_same_v<C, std::uint8_t>) {
    return static_cast<float>(v) / 255.0f;
  } else if constexpr (std::is_same_v<C, std::int16_t>) {
    return std::max(static_cast<float>(v) / 32767.0f, -1.0f);
  } else if constexpr (std::is_same_v<C, std::uint16_t>) {
    return static_cast<float>(v) / 65535.0f;
  } else if constexpr (std::is_same_v<C, std::uint32_t>) {
    return static_cast<float>(static_cast<double>(v) / 4294967295.0);
  } else {
    return v;
  }
}

template <class Out, bool Norm, class C>
Out convert(C v) {
  if constexpr (std::is_same_v<Out, float>) {
    if constexpr (Norm) {
      return normalize(v);
    } else {
      return static_cast<float>(v);
    }
  } else {
    return static_cast<Out>(v);
  }
}

// Copies `count` elements of rows x cols components of type C, element i at src + i * stride,
// column c at + c * column_stride, into out + i * out_stride.
template <class C, class Out, bool Norm>
void run(const std::uint8_t* src, std::size_t stride, std::size_t count, std::uint32_t rows,
         std::uint32_t cols, std::uint32_t column_stride, Out* out, std::size_t out_stride) {
  if constexpr (std::is_same_v<C, Out>) {
    if (cols == 1 && stride == rows * sizeof(C) && out_stride == rows) {
      std::memcpy(out, src, count * stride);
      return;
    }
  }
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint8_t* e = src + i * stride;
    Out* o = out + i * out_stride;
    for (std::uint32_t c = 0; c < cols; ++c) {
      const std::uint8_t* col = e + std::size_t{c} * column_stride;
      for (std::uint32_t r = 0; r < rows; ++r) {
        C v;
        std::memcpy(&v, col + std::size_t{r} * sizeof(C), sizeof(C));
        *o++ = convert<Out, Norm>(v);
      }
    }
  }
}

template <class Out>
void run_any(ComponentType component, bool norm, const std::uint8_t* src, std::size_t stride,
             std::size_t count, std::uint32_t rows, std::uint32_t cols, std::uint32_t column_stride,
             Out* out, std::size_t out_stride) {
  // Integer outputs never normalize.
  const bool n = std::is_same_v<Out, float> && norm;
#define GLTF_RUN(C)                                                                      \
  (n ? run<C, Out, true>(src, stride, count, rows, cols, column_stride, out, out_stride) \
     : run<C, Out, false>(src, stride, count, rows, cols, column_stride, out, out_stride))
  switch (component) {
    case kI8:
      GLTF_RUN(std::int8_t);
      break;
    case kU8:
      GLTF_RUN(std::uint8_t);
      break;
    case kI16:
      GLTF_RUN(std::int16_t);
      break;
    case kU16:
      GLTF_RUN(std::uint16_t);
      break;
    case kU32:
      GLTF_RUN(std::uint32_t);
      break;
    case kF32:
      GLTF_RUN(float);
      break;
  }
#undef GLTF_RUN
}

}  // namespace

std::string_view to_string(ElementType t) {
  switch (t) {
    case kScalar:
      return "SCALAR";
    case kVec2:
      return "VEC2";
    case kVec3:
      return "VEC3";
    case kVec4:
      return "VEC4";
    case kMat2:
      return "MAT2";
    case kMat3:
      return "MAT3";
    case kMat4:
      return "MAT4";
  }
  return "?";
}

Status Data::parse_views(const Obj& root) {
  GLTF_TRY(list, root.opt_array("bufferViews"));
  if (!list) return {};
  views_.reserve(array_size(*list));
  const Ptr list_ptr("bufferViews");
  std::size_t i = 0;
  for (dom::element e : *list) {
    GLTF_TRY(v, as_object(e, Ptr(list_ptr, i), src_));
    BufferView view;
    GLTF_TRY(buffer, v.req_index("buffer", buffers_.size(), "buffer"));
    GLTF_TRY(offset, v.opt_uint("byteOffset", 0, ~std::uint64_t{0}));
    GLTF_TRY(length, v.req_uint("byteLength", ~std::uint64_t{0}));
    GLTF_TRY(stride, v.opt_uint("byteStride", 0, 252));
    if (length < 1)
      return src_.fail(ErrorCode::kInvalid, v.at("byteLength"), "byteLength must be >= 1");
    if (v.has("byteStride") && stride < 4)
      return src_.fail(ErrorCode::kInvalid, v.at("byteStride"), "byteStride must be 4 to 252");
    const std::uint64_t size = buffers_[buffer].size();
    if (offset > size)
      return src_.fail(ErrorCode::kOutOfRange, v.at("byteOffset"),
                       "byteOffset " + std::to_string(offset) + " is past the end of buffer " +
                           std::to_string(buffer) + " (" + std::to_string(size) + " bytes)");
    if (length > size - offset)
      return src_.fail(ErrorCode::kOutOfRange, v.at("byteLength"),
                       "byteOffset " + std::to_string(offset) + " + byteLength " +
                           std::to_string(length) + " runs past the end of buffer " +
                           std::to_string(buffer) + " (" + std::to_string(size) + " bytes)");
    view.buffer = buffer;
    view.offset = offset;
    view.length = length;
    view.stride = static_cast<std::uint32_t>(stride);
    views_.push_back(view);
    ++i;
  }
  return {};
}

std::span<const std::uint8_t> Data::view_bytes(std::uint32_t view) const {
  const BufferView& v = views_[view];
  return buffers_[v.buffer].subspan(static_cast<std::size_t>(v.offset),
                                    static_cast<std::size_t>(v.length));
}

Status Data::parse_accessors(const Obj& root) {
  GLTF_TRY(list, root.opt_array("accessors"));
  if (!list) return {};
  accessors_.reserve(array_size(*list));
  const Ptr list_ptr("accessors");
  std::size_t i = 0;
  for (dom::element e : *list) {
    GLTF_TRY(o, as_object(e, Ptr(list_ptr, i), src_));
    Accessor a;
    a.index = static_cast<std::uint32_t>(i);
    GLTF_TRY(view, o.opt_index("bufferView", views_.size(), "buffer view"));
    GLTF_TRY(offset, o.opt_uint("byteOffset", 0, ~std::uint64_t{0}));
    GLTF_TRY(component, o.req_uint("componentType", ~std::uint64_t{0}));
    if (!valid_component(component))
      return src_.fail(ErrorCode::kInvalid, o.at("componentType"),
                       "componentType " + std::to_string(component) +
                           " is not one of 5120, 5121, 5122, 5123, 5125, 5126");
    GLTF_TRY(normalized, o.opt_bool("normalized", false));
    if (normalized && (component == kF32 || component == kU32))
      return src_.fail(ErrorCode::kInvalid, o.at("normalized"),
                       "normalized is not allowed for componentType " + std::to_string(component));
    GLTF_TRY(count, o.req_uint("count", ~std::uint64_t{0}));
    if (count < 1) return src_.fail(ErrorCode::kInvalid, o.at("count"), "count must be >= 1");
    GLTF_TRY(type_name, o.opt_string("type"));
    if (!o.has("type"))
      return src_.fail(ErrorCode::kInvalid, o.at("type"), "missing required property 'type'");
    const auto type = parse_type(type_name);
    if (!type)
      return src_.fail(ErrorCode::kInvalid, o.at("type"),
                       "type '" + std::string(type_name) + "' is not a glTF accessor type");
    a.view = view;
    a.offset = offset;
    a.component = static_cast<ComponentType>(component);
    a.type = *type;
    a.normalized = normalized;
    a.count = count;
    static constexpr std::uint32_t kRows[] = {1, 2, 3, 4, 2, 3, 4};
    static constexpr std::uint32_t kCols[] = {1, 1, 1, 1, 2, 3, 4};
    a.rows = kRows[a.type];
    a.cols = kCols[a.type];
    const std::uint32_t cs = component_size(a.component);
    // Matrix columns start on 4-byte boundaries (spec 3.6.2.4).
    a.column_stride = a.cols > 1 ? (a.rows * cs + 3u) / 4u * 4u : a.rows * cs;
    a.element_size = a.column_stride * a.cols;
    a.stride = a.element_size;
    if (view >= 0) {
      const BufferView& bv = views_[static_cast<std::size_t>(view)];
      if (bv.stride != 0) {
        if (bv.stride < a.element_size)
          return src_.fail(ErrorCode::kInvalid, o.at("bufferView"),
                           "buffer view " + std::to_string(view) + " has byteStride " +
                               std::to_string(bv.stride) + ", smaller than the " +
                               std::to_string(a.element_size) + "-byte elements");
        a.stride = bv.stride;
      }
      if (offset > bv.length)
        return src_.fail(ErrorCode::kOutOfRange, o.at("byteOffset"),
                         "byteOffset " + std::to_string(offset) +
                             " is past the end of buffer view " + std::to_string(view) + " (" +
                             std::to_string(bv.length) + " bytes)");
      const std::uint64_t room = bv.length - offset;
      if (a.element_size > room || (count - 1) > (room - a.element_size) / a.stride)
        return src_.fail(ErrorCode::kOutOfRange, o.at("count"),
                         "count " + std::to_string(count) + " of " +
                             std::to_string(a.element_size) + "-byte elements (stride " +
                             std::to_string(a.stride) + ") does not fit the " +
                             std::to_string(room) + " bytes of buffer view " +
                             std::to_string(view) + " after byteOffset");
    }
    GLTF_TRY(sparse, o.opt_object("sparse"));
    if (sparse) {
      GLTF_TRY(sparse_count, sparse->req_uint("count", ~std::uint64_t{0}));
      if (sparse_count < 1 || sparse_count > count)
        return src_.fail(ErrorCode::kInvalid, sparse->at("count"),
                         "sparse count must be 1 to the accessor's count " + std::to_string(count));
      GLTF_TRY(indices, sparse->req_object("indices"));
      GLTF_TRY(values, sparse->req_object("values"));
      GLTF_TRY(index_view, indices.req_index("bufferView", views_.size(), "buffer view"));
      GLTF_TRY(index_offset, indices.opt_uint("byteOffset", 0, ~std::uint64_t{0}));
      GLTF_TRY(index_component, indices.req_uint("componentType", ~std::uint64_t{0}));
      if (index_component != kU8 && index_component != kU16 && index_component != kU32)
        return src_.fail(ErrorCode::kInvalid, indices.at("componentType"),
                         "sparse indices must be 5121, 5123 or 5125");
      GLTF_TRY(value_view, values.req_index("bufferView", views_.size(), "buffer view"));
      GLTF_TRY(value_offset, values.opt_uint("byteOffset", 0, ~std::uint64_t{0}));
      const auto fits = [&](std::uint32_t v, std::uint64_t off, std::uint64_t elem) {
        const std::uint64_t length = views_[v].length;
        return off <= length && sparse_count <= (length - off) / elem;
      };
      const auto index_size = component_size(static_cast<ComponentType>(index_component));
      if (!fits(index_view, index_offset, index_size))
        return src_.fail(ErrorCode::kOutOfRange, sparse->at("count"),
                         "sparse indices do not fit buffer view " + std::to_string(index_view));
      if (!fits(value_view, value_offset, a.element_size))
        return src_.fail(ErrorCode::kOutOfRange, sparse->at("count"),
                         "sparse values do not fit buffer view " + std::to_string(value_view));
      a.sparse_count = sparse_count;
      a.sparse_index_view = index_view;
      a.sparse_index_offset = index_offset;
      a.sparse_index_component = static_cast<ComponentType>(index_component);
      a.sparse_value_view = value_view;
      a.sparse_value_offset = value_offset;
    }
    accessors_.push_back(a);
    ++i;
  }
  return {};
}

Result<const Accessor*> Data::check_accessor(std::uint32_t index, std::uint32_t type_mask,
                                             std::uint32_t component_mask, const Ptr& where) const {
  const Accessor& a = accessors_[index];
  if (!(type_mask & (1u << a.type)))
    return src_.fail(ErrorCode::kInvalid, where,
                     "accessor " + std::to_string(index) + " has type " +
                         std::string(to_string(a.type)) + ", not accepted here");
  if (!(component_mask & bit(a.component)))
    return src_.fail(ErrorCode::kInvalid, where,
                     "accessor " + std::to_string(index) + " has componentType " +
                         std::to_string(static_cast<std::uint32_t>(a.component)) +
                         ", not accepted here");
  return &a;
}

Status Data::charge(std::uint64_t bytes, const Ptr& where) {
  if (bytes > budget_)
    return src_.fail(ErrorCode::kLimit, where,
                     "decoding needs " + std::to_string(bytes) +
                         " bytes, above what this file may expand to (" + std::to_string(budget_) +
                         " bytes left)");
  budget_ -= bytes;
  return {};
}

Status Data::charge(std::uint64_t count, std::uint64_t element_bytes, const Ptr& where) {
  if (element_bytes != 0 && count > budget_ / element_bytes)
    return src_.fail(ErrorCode::kLimit, where,
                     "decoding " + std::to_string(count) + " elements of " +
                         std::to_string(element_bytes) +
                         " bytes is above what this file may expand to (" +
                         std::to_string(budget_) + " bytes left)");
  budget_ -= count * element_bytes;
  return {};
}

template <class Out>
Status Data::decode_any(const Accessor& a, Out* out, std::size_t out_stride,
                        const Ptr& where) const {
  (void)where;
  const auto count = static_cast<std::size_t>(a.count);
  if (a.view >= 0) {
    const auto bytes = view_bytes(static_cast<std::uint32_t>(a.view));
    run_any(a.component, a.normalized, bytes.data() + a.offset, a.stride, count, a.rows, a.cols,
            a.column_stride, out, out_stride);
  } else {
    const std::uint32_t n = a.components();
    for (std::size_t i = 0; i < count; ++i) std::fill_n(out + i * out_stride, n, Out{});
  }
  if (a.sparse_count == 0) return {};
  const auto indices = view_bytes(a.sparse_index_view).subspan(a.sparse_index_offset);
  const auto values = view_bytes(a.sparse_value_view).subspan(a.sparse_value_offset);
  for (std::size_t k = 0; k < a.sparse_count; ++k) {
    std::uint32_t target = 0;
    switch (a.sparse_index_component) {
      case kU8:
        target = indices[k];
        break;
      case kU16: {
        std::uint16_t v;
        std::memcpy(&v, indices.data() + 2 * k, 2);
        target = v;
        break;
      }
      default:
        std::memcpy(&target, indices.data() + 4 * k, 4);
        break;
    }
    if (target >= a.count) {
      const Ptr list("accessors");
      const Ptr accessor(list, a.index);
      const Ptr sparse(accessor, "sparse");
      return src_.fail(ErrorCode::kOutOfRange, Ptr(sparse, "indices"),
                       "sparse index " + std::to_string(k) + " is " + std::to_string(target) +
                           ", the accessor has " + std::to_string(a.count) + " elements");
    }
    run_any(a.component, a.normalized, values.data() + k * a.element_size, a.element_size, 1,
            a.rows, a.cols, a.column_stride, out + std::size_t{target} * out_stride, out_stride);
  }
  return {};
}

Status Data::decode_floats(const Accessor& a, float* out, std::size_t out_stride,
                           const Ptr& where) const {
  return decode_any(a, out, out_stride, where);
}

Status Data::decode_uints(const Accessor& a, std::uint32_t* out, std::size_t out_stride,
                          const Ptr& where) const {
  return decode_any(a, out, out_stride, where);
}

Status Data::decode_uints(const Accessor& a, std::uint16_t* out, std::size_t out_stride,
                          const Ptr& where) const {
  return decode_any(a, out, out_stride, where);
}

}  // namespace critter::io::gltf
