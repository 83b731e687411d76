// SPDX-License-Identifier: MIT
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "critter/core/path_confinement.h"
#include "critter/core/strings.h"
#include "critter/io/gltf/gltf_reader.h"
#include "io/gltf/gltf_internal.h"

namespace critter::io::gltf {

namespace {

constexpr std::uint32_t kGlbMagic = 0x46546C67;   // "glTF"
constexpr std::uint32_t kChunkJson = 0x4E4F534A;  // "JSON"
constexpr std::uint32_t kChunkBin = 0x004E4942;   // "BIN\0"

std::uint32_t read_u32(const std::uint8_t* p) {
  // GLB is little-endian; assemble bytes so the code does not depend on host order.
  return std::uint32_t{p[0]} | (std::uint32_t{p[1]} << 8) | (std::uint32_t{p[2]} << 16) |
         (std::uint32_t{p[3]} << 24);
}

constexpr std::array<std::int8_t, 256> make_base64_table() {
  std::array<std::int8_t, 256> t{};
  for (auto& v : t) v = -1;
  const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (int i = 0; i < 64; ++i)
    t[static_cast<unsigned char>(alphabet[i])] = static_cast<std::int8_t>(i);
  return t;
}
constexpr std::array<std::int8_t, 256> kBase64 = make_base64_table();

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

}  // namespace

Result<Container> open_container(std::span<const std::uint8_t> bytes, bool padded,
                                 const Source& src) {
  Container c;
  const std::size_t size = bytes.size();
  const bool looks_glb = size >= 4 && read_u32(bytes.data()) == kGlbMagic;
  if (!looks_glb) {
    // A file named .glb that is not GLB is a broken container, not JSON to be parsed.
    if (iends_with(src.path, ".glb"))
      return fail(Error::at_offset(ErrorCode::kParse, src.path, 0,
                                   "file does not start with the GLB magic 'glTF'"));
    c.format = "gltf";
    std::size_t begin = 0;
    // A UTF-8 byte order mark is not allowed by glTF but is harmless to skip.
    if (size >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF) begin = 3;
    c.json = bytes.subspan(begin);
    c.json_offset = begin;
    c.json_padded = padded;
    return c;
  }
  c.format = "glb";
  if (size < 12)
    return fail(
        Error::at_offset(ErrorCode::kParse, src.path, size,
                         "GLB header needs 12 bytes, the file has " + std::to_string(size)));
  const std::uint32_t version = read_u32(bytes.data() + 4);
  if (version != 2)
    return fail(
        Error::at_offset(ErrorCode::kUnsupported, src.path, 4,
                         "GLB version " + std::to_string(version) + " is not supported (only 2)"));
  const std::uint32_t length = read_u32(bytes.data() + 8);
  if (length != size)
    return fail(Error::at_offset(ErrorCode::kParse, src.path, 8,
                                 "GLB header gives a length of " + std::to_string(length) +
                                     " bytes, the file has " + std::to_string(size)));
  std::uint64_t offset = 12;
  bool first = true;
  while (offset < size) {
    if (size - offset < 8)
      return fail(Error::at_offset(
          ErrorCode::kParse, src.path, offset,
          "GLB chunk header needs 8 bytes, " + std::to_string(size - offset) + " remain"));
    const std::uint32_t chunk_length = read_u32(bytes.data() + offset);
    const std::uint32_t chunk_type = read_u32(bytes.data() + offset + 4);
    const std::uint64_t data_begin = offset + 8;
    if (chunk_length > size - data_begin)
      return fail(Error::at_offset(
          ErrorCode::kParse, src.path, offset,
          "GLB chunk of " + std::to_string(chunk_length) + " bytes runs past the end of the file"));
    if (first) {
      if (chunk_type != kChunkJson)
        return fail(Error::at_offset(ErrorCode::kParse, src.path, offset + 4,
                                     "the first GLB chunk must be JSON"));
      c.json = bytes.subspan(data_begin, chunk_length);
      c.json_offset = data_begin;
      // The file's later bytes (or its padding) follow the JSON chunk.
      c.json_padded = padded;
      first = false;
    } else if (chunk_type == kChunkBin && !c.glb_bin) {
      c.glb_bin = bytes.subspan(data_begin, chunk_length);
    }
    // Chunks are 4-byte aligned by the spec; tolerate writers that forgot the padding.
    offset = data_begin + chunk_length;
  }
  if (first)
    return fail(Error::at_offset(ErrorCode::kParse, src.path, 12, "GLB file has no JSON chunk"));
  return c;
}

Result<FileBytes> read_file(const std::string& path, std::uint64_t max_bytes,
                            const std::string& error_path, const std::string& location) {
  auto io_error = [&](std::string message) {
    return fail(Error::at(ErrorCode::kIo, error_path, location, std::move(message)));
  };
  // One open and one fstat: a model load is a handful of files, each path walked once.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return io_error("cannot open '" + path + "'");
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) return io_error("cannot stat '" + path + "'");
  if (!S_ISREG(st.st_mode)) return io_error("'" + path + "' is not a regular file");
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_bytes)
    return fail(Error::at(ErrorCode::kLimit, error_path, location,
                          "'" + path + "' has " + std::to_string(size) +
                              " bytes, above the limit of " + std::to_string(max_bytes)));
  FileBytes out;
  out.size = static_cast<std::size_t>(size);
  out.data = std::make_unique_for_overwrite<std::uint8_t[]>(out.size + simdjson::SIMDJSON_PADDING);
  std::memset(out.data.get() + out.size, 0, simdjson::SIMDJSON_PADDING);
  std::size_t done = 0;
  while (done < out.size) {
    const ssize_t n = ::read(fd, out.data.get() + done, out.size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return io_error("cannot read '" + path + "'");
    done += static_cast<std::size_t>(n);
  }
  return out;
}

Result<std::optional<DataUri>> parse_data_uri(std::string_view uri, const Ptr& where,
                                              const Source& src) {
  if (uri.size() < 5 || uri.substr(0, 5) != "data:") return std::optional<DataUri>{};
  const std::size_t comma = uri.find(',');
  if (comma == std::string_view::npos)
    return src.fail(ErrorCode::kParse, where, "data URI has no ',' before its data");
  const std::string_view header = uri.substr(5, comma - 5);
  constexpr std::string_view kTag = ";base64";
  if (header.size() < kTag.size() || header.substr(header.size() - kTag.size()) != kTag)
    return src.fail(ErrorCode::kUnsupported, where, "data URI is not base64-encoded");
  DataUri d;
  d.mime_type = header.substr(0, header.find(';'));
  d.base64 = uri.substr(comma + 1);
  return std::optional<DataUri>(d);
}

Result<std::size_t> base64_decoded_size(std::string_view text, const Ptr& where,
                                        const Source& src) {
  std::size_t n = text.size();
  if (n >= 1 && text[n - 1] == '=') --n;
  if (n >= 1 && text[n - 1] == '=') --n;
  if (n % 4 == 1)
    return src.fail(ErrorCode::kParse, where,
                    "base64 data has " + std::to_string(text.size()) +
                        " characters, which no byte count encodes");
  return n / 4 * 3 + (n % 4 == 0 ? 0 : n % 4 - 1);
}

Status base64_decode(std::string_view text, std::uint8_t* out, const Ptr& where,
                     const Source& src) {
  std::size_t n = text.size();
  if (n >= 1 && text[n - 1] == '=') --n;
  if (n >= 1 && text[n - 1] == '=') --n;
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  auto bad = [&](std::size_t i) -> Status {
    for (std::size_t k = i; k < n; ++k)
      if (kBase64[s[k]] < 0)
        return src.fail(ErrorCode::kParse, where,
                        "invalid base64 character at offset " + std::to_string(k) + " of the data");
    return {};
  };
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const int a = kBase64[s[i]], b = kBase64[s[i + 1]], c = kBase64[s[i + 2]],
              d = kBase64[s[i + 3]];
    if ((a | b | c | d) < 0) return bad(i);
    const std::uint32_t v = (static_cast<std::uint32_t>(a) << 18) |
                            (static_cast<std::uint32_t>(b) << 12) |
                            (static_cast<std::uint32_t>(c) << 6) | static_cast<std::uint32_t>(d);
    out[0] = static_cast<std::uint8_t>(v >> 16);
    out[1] = static_cast<std::uint8_t>(v >> 8);
    out[2] = static_cast<std::uint8_t>(v);
    out += 3;
  }
  const std::size_t rest = n - i;
  if (rest >= 2) {
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < rest; ++k) {
      const int x = kBase64[s[i + k]];
      if (x < 0) return bad(i);
      v |= static_cast<std::uint32_t>(x) << (18 - 6 * k);
    }
    out[0] = static_cast<std::uint8_t>(v >> 16);
    if (rest == 3) out[1] = static_cast<std::uint8_t>(v >> 8);
  }
  return {};
}

Result<std::string> resolve_uri(std::string_view uri, std::string_view base_dir, bool allow_outside,
                                const Ptr& where, const Source& src) {
  // A scheme is letters, digits, '+', '-', '.' after a letter, then ':'. One letter followed by
  // ':' is a drive letter, i.e. an absolute path.
  std::size_t k = 0;
  if (!uri.empty() && is_alpha(uri[0])) {
    k = 1;
    while (k < uri.size() && (is_alpha(uri[k]) || (uri[k] >= '0' && uri[k] <= '9') ||
                              uri[k] == '+' || uri[k] == '-' || uri[k] == '.'))
      ++k;
    if (k < uri.size() && uri[k] == ':' && k > 1)
      return src.fail(ErrorCode::kUnsupported, where,
                      "URI scheme '" + std::string(uri.substr(0, k)) + "' is not supported");
  }
  std::string decoded;
  decoded.reserve(uri.size());
  for (std::size_t i = 0; i < uri.size(); ++i) {
    char c = uri[i];
    if (c == '%') {
      const int hi = i + 2 < uri.size() ? hex_value(uri[i + 1]) : -1;
      const int lo = i + 2 < uri.size() ? hex_value(uri[i + 2]) : -1;
      if (hi < 0 || lo < 0)
        return src.fail(ErrorCode::kInvalid, where,
                        "bad percent-escape at offset " + std::to_string(i) + " of the URI");
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    }
    if (c == '\0') return src.fail(ErrorCode::kInvalid, where, "URI contains a NUL character");
    decoded.push_back(c == '\\' ? '/' : c);
  }
  if (decoded.empty()) return src.fail(ErrorCode::kInvalid, where, "URI is empty");
  if (is_absolute_path(decoded)) {
    if (!allow_outside)
      return src.fail(ErrorCode::kInvalid, where,
                      "URI is an absolute path; refused unless outside URIs are allowed");
    return decoded;
  }
  // Lexical check: ".." may not climb above the model's folder.
  int depth = 0;
  std::size_t begin = 0;
  while (begin <= decoded.size()) {
    std::size_t end = decoded.find('/', begin);
    if (end == std::string::npos) end = decoded.size();
    const std::string_view part(decoded.data() + begin, end - begin);
    if (part == "..") {
      if (--depth < 0 && !allow_outside)
        return src.fail(ErrorCode::kInvalid, where,
                        "URI leaves the model's folder; refused unless outside URIs are allowed");
    } else if (!part.empty() && part != ".") {
      ++depth;
    }
    begin = end + 1;
  }
  std::string out(base_dir.empty() ? std::string_view(".") : base_dir);
  if (out.back() != '/') out.push_back('/');
  out += decoded;
  if (!allow_outside) {
    // The lexical check above passed; a symbolic link inside the folder may still lead out.
    const std::filesystem::path folder[] = {
        std::filesystem::path(base_dir.empty() ? std::string_view(".") : base_dir)};
    if (check_confined(out, folder) == PathRefusal::kLink)
      return src.fail(ErrorCode::kInvalid, where,
                      "URI " + std::string(describe(PathRefusal::kLink)) +
                          " (the model's folder); refused unless outside URIs are allowed");
  }
  return out;
}

Status Data::parse_buffers(const Obj& root, const Container& container, std::string_view base_dir,
                           const LoadOptions& options, std::uint64_t file_bytes) {
  std::uint64_t input_bytes = file_bytes;
  GLTF_TRY(list, root.opt_array("buffers"));
  if (list) {
    const std::size_t n = array_size(*list);
    buffers_.reserve(n);
    const Ptr list_ptr("buffers");
    std::size_t i = 0;
    for (dom::element e : *list) {
      GLTF_TRY(b, as_object(e, Ptr(list_ptr, i), src_));
      GLTF_TRY(byte_length, b.req_uint("byteLength", ~std::uint64_t{0}));
      if (byte_length < 1)
        return src_.fail(ErrorCode::kInvalid, b.at("byteLength"), "byteLength must be >= 1");
      GLTF_TRY(uri, b.opt_string("uri"));
      std::span<const std::uint8_t> data;
      if (!b.has("uri")) {
        if (i != 0 || !container.glb_bin)
          return src_.fail(ErrorCode::kInvalid, b.where,
                           "buffer has no uri and is not the GLB binary chunk");
        data = *container.glb_bin;
      } else {
        const Ptr where = b.at("uri");
        GLTF_TRY(data_uri, parse_data_uri(uri, where, src_));
        if (data_uri) {
          GLTF_TRY(size, base64_decoded_size(data_uri->base64, where, src_));
          auto storage = std::make_unique_for_overwrite<std::uint8_t[]>(size);
          GLTF_CHECK(base64_decode(data_uri->base64, storage.get(), where, src_));
          data = {storage.get(), size};
          owned_.push_back(std::move(storage));
        } else {
          GLTF_TRY(file, resolve_uri(uri, base_dir, options.allow_outside_uris, where, src_));
          GLTF_TRY(bytes, read_file(file, options.max_file_bytes, src_.path, where.str()));
          data = {bytes.data.get(), bytes.size};
          owned_.push_back(std::move(bytes.data));
        }
        input_bytes += data.size();
      }
      if (byte_length > data.size())
        return src_.fail(ErrorCode::kOutOfRange, b.at("byteLength"),
                         "byteLength " + std::to_string(byte_length) + " exceeds the " +
                             std::to_string(data.size()) + " bytes of data");
      buffers_.push_back(data.first(static_cast<std::size_t>(byte_length)));
      ++i;
    }
  }
  budget_ = kDecodeBudgetBase + kDecodeBudgetFactor * input_bytes;
  return {};
}

}  // namespace critter::io::gltf
