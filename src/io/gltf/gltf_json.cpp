// SPDX-License-Identifier: MIT
#include <charconv>
#include <cmath>
#include <limits>

#include "io/gltf/gltf_internal.h"

namespace critter::io::gltf {

namespace {

std::string_view type_name(dom::element_type t) {
  switch (t) {
    case dom::element_type::ARRAY:
      return "an array";
    case dom::element_type::OBJECT:
      return "an object";
    case dom::element_type::INT64:
    case dom::element_type::UINT64:
      return "an integer";
    case dom::element_type::DOUBLE:
      return "a number";
    case dom::element_type::STRING:
      return "a string";
    case dom::element_type::BOOL:
      return "a boolean";
    case dom::element_type::NULL_VALUE:
      return "null";
  }
  return "a value";
}

std::unexpected<Error> wrong_type(const Source& src, const Ptr& where, std::string_view want,
                                  dom::element e) {
  return src.fail(ErrorCode::kInvalid, where,
                  "expected " + std::string(want) + ", found " + std::string(type_name(e.type())));
}

// A non-negative integer; doubles with an integral value are accepted (some writers emit "3.0").
std::optional<std::uint64_t> as_uint(dom::element e) {
  switch (e.type()) {
    case dom::element_type::UINT64:
      return e.get_uint64().value_unsafe();
    case dom::element_type::INT64: {
      const std::int64_t v = e.get_int64().value_unsafe();
      if (v < 0) return std::nullopt;
      return static_cast<std::uint64_t>(v);
    }
    case dom::element_type::DOUBLE: {
      const double d = e.get_double().value_unsafe();
      if (!(d >= 0.0) || d >= 18446744073709551616.0 || std::floor(d) != d) return std::nullopt;
      return static_cast<std::uint64_t>(d);
    }
    default:
      return std::nullopt;
  }
}

std::optional<double> as_number(dom::element e) {
  switch (e.type()) {
    case dom::element_type::UINT64:
      return static_cast<double>(e.get_uint64().value_unsafe());
    case dom::element_type::INT64:
      return static_cast<double>(e.get_int64().value_unsafe());
    case dom::element_type::DOUBLE:
      return e.get_double().value_unsafe();
    default:
      return std::nullopt;
  }
}

bool finite_float(double d) {
  return std::isfinite(d) && std::abs(d) <= static_cast<double>(std::numeric_limits<float>::max());
}

std::unexpected<Error> missing(const Source& src, const Ptr& where, std::string_view key) {
  return src.fail(ErrorCode::kInvalid, where,
                  "missing required property '" + std::string(key) + "'");
}

}  // namespace

void Ptr::append_to(std::string& out) const {
  if (parent_) parent_->append_to(out);
  if (!parent_ && !has_key_) return;  // the root
  out.push_back('/');
  if (!has_key_) {
    char digits[24];
    const auto r = std::to_chars(digits, digits + sizeof digits, index_);
    out.append(digits, r.ptr);
    return;
  }
  // Most keys need no escaping: append them whole.
  if (key_.find_first_of("~/") == std::string_view::npos) {
    out.append(key_);
    return;
  }
  // JSON pointer escapes (RFC 6901): '~' as "~0", '/' as "~1".
  for (char c : key_) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out.push_back(c);
    }
  }
}

std::string Ptr::str() const {
  std::string out;
  out.reserve(48);  // typical pointers fit, so the string grows once
  append_to(out);
  return out;
}

std::size_t array_size(dom::array a) {
  const std::size_t n = a.size();
  if (n < 0xFFFFFF) return n;
  std::size_t counted = 0;
  for (auto it = a.begin(); it != a.end(); ++it) ++counted;
  return counted;
}

bool Obj::has(std::string_view key) const {
  return get(key).has_value();
}

std::optional<dom::element> Obj::get(std::string_view key) const {
  dom::element e;
  if (o.at_key(key).get(e) != simdjson::SUCCESS) return std::nullopt;
  return e;
}

Result<std::uint64_t> Obj::req_uint(std::string_view key, std::uint64_t max) const {
  const auto e = get(key);
  if (!e) return missing(*src, at(key), key);
  const auto v = as_uint(*e);
  if (!v) return wrong_type(*src, at(key), "a non-negative integer", *e);
  if (*v > max)
    return src->fail(ErrorCode::kInvalid, at(key),
                     "value " + std::to_string(*v) + " is above the limit " + std::to_string(max));
  return *v;
}

Result<std::uint64_t> Obj::opt_uint(std::string_view key, std::uint64_t fallback,
                                    std::uint64_t max) const {
  if (!has(key)) return fallback;
  return req_uint(key, max);
}

Result<std::uint32_t> Obj::req_index(std::string_view key, std::size_t count,
                                     std::string_view what) const {
  const auto e = get(key);
  if (!e) return missing(*src, at(key), key);
  return as_index(*e, count, what, at(key), *src);
}

Result<std::int32_t> Obj::opt_index(std::string_view key, std::size_t count,
                                    std::string_view what) const {
  const auto e = get(key);
  if (!e) return -1;
  GLTF_TRY(i, as_index(*e, count, what, at(key), *src));
  return static_cast<std::int32_t>(i);
}

Result<double> Obj::opt_number(std::string_view key, double fallback) const {
  const auto e = get(key);
  if (!e) return fallback;
  const auto v = as_number(*e);
  if (!v) return wrong_type(*src, at(key), "a number", *e);
  return *v;
}

Result<float> Obj::opt_float(std::string_view key, float fallback) const {
  GLTF_TRY(v, opt_number(key, fallback));
  if (!finite_float(v))
    return src->fail(ErrorCode::kInvalid, at(key), "number is not finite as a float");
  return static_cast<float>(v);
}

Result<bool> Obj::opt_bool(std::string_view key, bool fallback) const {
  const auto e = get(key);
  if (!e) return fallback;
  bool b = false;
  if (e->get_bool().get(b) != simdjson::SUCCESS) return wrong_type(*src, at(key), "a boolean", *e);
  return b;
}

Result<std::string_view> Obj::opt_string(std::string_view key) const {
  const auto e = get(key);
  if (!e) return std::string_view{};
  std::string_view s;
  if (e->get_string().get(s) != simdjson::SUCCESS) return wrong_type(*src, at(key), "a string", *e);
  return s;
}

Result<std::optional<Obj>> Obj::opt_object(std::string_view key) const {
  const auto e = get(key);
  if (!e) return std::optional<Obj>{};
  GLTF_TRY(obj, as_object(*e, at(key), *src));
  return std::optional<Obj>(std::move(obj));
}

Result<Obj> Obj::req_object(std::string_view key) const {
  const auto e = get(key);
  if (!e) return missing(*src, at(key), key);
  return as_object(*e, at(key), *src);
}

Result<std::optional<dom::array>> Obj::opt_array(std::string_view key) const {
  const auto e = get(key);
  if (!e) return std::optional<dom::array>{};
  dom::array a;
  if (e->get_array().get(a) != simdjson::SUCCESS) return wrong_type(*src, at(key), "an array", *e);
  return std::optional<dom::array>(a);
}

Result<dom::array> Obj::req_array(std::string_view key) const {
  GLTF_TRY(a, opt_array(key));
  if (!a) return missing(*src, at(key), key);
  return *a;
}

Status Obj::opt_floats(std::string_view key, float* out, std::size_t n) const {
  GLTF_TRY(a, opt_array(key));
  if (!a) return {};
  if (array_size(*a) != n)
    return src->fail(ErrorCode::kInvalid, at(key),
                     "expected an array of " + std::to_string(n) + " numbers");
  std::size_t i = 0;
  for (dom::element e : *a) {
    const auto v = as_number(e);
    if (!v) {
      const Ptr member = at(key);
      return wrong_type(*src, Ptr(member, i), "a number", e);
    }
    if (!finite_float(*v))
      return src->fail(ErrorCode::kInvalid, at(key),
                       "element " + std::to_string(i) + " is not finite as a float");
    out[i++] = static_cast<float>(*v);
  }
  return {};
}

Result<Obj> as_object(dom::element e, const Ptr& where, const Source& src) {
  dom::object o;
  if (e.get_object().get(o) != simdjson::SUCCESS) return wrong_type(src, where, "an object", e);
  return Obj{o, where, &src};
}

Result<std::uint32_t> as_index(dom::element e, std::size_t count, std::string_view what,
                               const Ptr& where, const Source& src) {
  const auto v = as_uint(e);
  if (!v) return wrong_type(src, where, "a non-negative integer index", e);
  if (*v >= count)
    return src.fail(ErrorCode::kOutOfRange, where,
                    std::string(what) + " " + std::to_string(*v) + " does not exist (" +
                        std::to_string(count) + " in the file)");
  return static_cast<std::uint32_t>(*v);
}

}  // namespace critter::io::gltf
