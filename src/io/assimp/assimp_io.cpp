// SPDX-License-Identifier: MIT
#include <algorithm>
#include <cstring>
#include <system_error>
#include <utility>

#include <assimp/DefaultIOSystem.h>
#include <assimp/MemoryIOWrapper.h>

#include "critter/core/path_confinement.h"
#include "io/assimp/assimp_internal.h"

namespace critter::io::assimp_detail {

namespace fs = std::filesystem;

fs::path absolute_normal(const fs::path& p) {
  std::error_code ec;
  fs::path abs = fs::absolute(p, ec);
  if (ec) abs = p;
  return abs.lexically_normal();
}

bool is_inside(const fs::path& p, const fs::path& folder) {
  const fs::path folders[] = {folder};
  return check_confined(p, folders) == PathRefusal::kNone;
}

GuardedIoSystem::GuardedIoSystem(fs::path model_path, std::vector<std::uint8_t> model_bytes,
                                 std::uint64_t max_file_bytes, bool allow_outside)
    : model_path_(absolute_normal(model_path)),
      folder_(model_path_.parent_path()),
      model_bytes_(std::move(model_bytes)),
      max_file_bytes_(max_file_bytes),
      allow_outside_(allow_outside) {}

GuardedIoSystem::~GuardedIoSystem() = default;

fs::path GuardedIoSystem::resolve(const char* file) const {
  std::string name = file ? file : "";
  // Importers build paths from names in the file; Windows separators are common in them.
  std::replace(name.begin(), name.end(), '\\', '/');
  return absolute_normal(fs::path(name));
}

bool GuardedIoSystem::is_model(const fs::path& p) const {
  return p == model_path_;
}

void GuardedIoSystem::note(std::vector<std::string>& list, std::string entry) {
  if (std::find(list.begin(), list.end(), entry) == list.end()) list.push_back(std::move(entry));
}

bool GuardedIoSystem::Exists(const char* file) const {
  const fs::path p = resolve(file);
  if (is_model(p)) return true;
  if (!allow_outside_ && !is_inside(p, folder_)) return false;
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

Assimp::IOStream* GuardedIoSystem::Open(const char* file, const char* mode) {
  // Importers only read; a write request is refused rather than touching the disk.
  if (mode && (std::strchr(mode, 'w') || std::strchr(mode, 'a') || std::strchr(mode, '+'))) {
    return nullptr;
  }
  const fs::path p = resolve(file);
  if (is_model(p)) {
    // An empty vector's data() may be null, which Assimp's Read() hands to memcpy.
    static const std::uint8_t kNoBytes = 0;
    return new Assimp::MemoryIOStream(model_bytes_.empty() ? &kNoBytes : model_bytes_.data(),
                                      model_bytes_.size(), false);
  }
  const std::string name = file ? file : "";
  if (!allow_outside_ && !is_inside(p, folder_)) {
    note(outside_, name);
    return nullptr;
  }
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) {
    note(not_found_, name);
    return nullptr;
  }
  const std::uintmax_t size = fs::file_size(p, ec);
  if (ec || size > max_file_bytes_) {
    note(over_limit_, name + " (" + std::to_string(ec ? 0 : size) + " bytes)");
    return nullptr;
  }
  Assimp::DefaultIOSystem disk;
  Assimp::IOStream* stream = disk.Open(p.string().c_str(), "rb");
  if (!stream) note(not_found_, name);
  return stream;
}

void GuardedIoSystem::Close(Assimp::IOStream* stream) {
  delete stream;
}

namespace {

bool starts_with(const std::vector<std::uint8_t>& s, std::size_t at, std::string_view prefix) {
  return s.size() - at >= prefix.size() &&
         std::equal(prefix.begin(), prefix.end(), s.begin() + static_cast<std::ptrdiff_t>(at),
                    [](char a, std::uint8_t b) { return static_cast<std::uint8_t>(a) == b; });
}

bool is_blank(std::uint8_t c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// Index just past the end of `marker` at or after `from`, or s.size() when absent.
std::size_t skip_past(const std::vector<std::uint8_t>& s, std::size_t from,
                      std::string_view marker) {
  const auto it = std::search(
      s.begin() + static_cast<std::ptrdiff_t>(from), s.end(), marker.begin(), marker.end(),
      [](std::uint8_t a, char b) { return a == static_cast<std::uint8_t>(b); });
  return it == s.end() ? s.size() : static_cast<std::size_t>(it - s.begin()) + marker.size();
}

// Index just past the '>' closing the tag that starts at `from` ('<'), quotes respected.
std::size_t tag_end(std::string_view s, std::size_t from) {
  char quote = 0;
  for (std::size_t i = from + 1; i < s.size(); ++i) {
    const char c = s[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '>') {
      return i + 1;
    }
  }
  return s.size();
}

}  // namespace

std::vector<std::uint8_t> strip_leading_text_blanks(const std::vector<std::uint8_t>& xml) {
  std::vector<std::uint8_t> out;
  out.reserve(xml.size());
  const std::string_view view(reinterpret_cast<const char*>(xml.data()), xml.size());
  std::size_t i = 0;
  while (i < xml.size()) {
    if (xml[i] != '<') {
      out.push_back(xml[i++]);
      continue;
    }
    std::size_t end;
    bool start_tag = false;
    if (starts_with(xml, i, "<!--")) {
      end = skip_past(xml, i + 4, "-->");
    } else if (starts_with(xml, i, "<![CDATA[")) {
      end = skip_past(xml, i + 9, "]]>");
    } else if (starts_with(xml, i, "<?")) {
      end = skip_past(xml, i + 2, "?>");
    } else {
      end = tag_end(view, i);
      start_tag = i + 1 < xml.size() && xml[i + 1] != '/' && xml[i + 1] != '!' && end >= 2 &&
                  xml[end - 1] == '>' && xml[end - 2] != '/';
    }
    out.insert(out.end(), xml.begin() + static_cast<std::ptrdiff_t>(i),
               xml.begin() + static_cast<std::ptrdiff_t>(end));
    i = end;
    if (start_tag) {
      std::size_t j = i;
      while (j < xml.size() && is_blank(xml[j])) ++j;
      if (j < xml.size() && xml[j] != '<') i = j;
    }
  }
  return out;
}

namespace {

std::string unescape_xml(std::string_view s) {
  static constexpr std::pair<std::string_view, char> kEntities[] = {
      {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    bool done = false;
    if (s[i] == '&') {
      for (const auto& [entity, c] : kEntities) {
        if (s.substr(i, entity.size()) == entity) {
          out.push_back(c);
          i += entity.size();
          done = true;
          break;
        }
      }
    }
    if (!done) out.push_back(s[i++]);
  }
  return out;
}

// Value of attribute `name` inside a start tag's text, or nullopt-like empty + false.
bool attribute(std::string_view tag, std::string_view name, std::string& value) {
  std::size_t pos = 0;
  while ((pos = tag.find(name, pos)) != std::string_view::npos) {
    const bool boundary = pos > 0 && is_blank(static_cast<std::uint8_t>(tag[pos - 1]));
    std::size_t k = pos + name.size();
    while (k < tag.size() && is_blank(static_cast<std::uint8_t>(tag[k]))) ++k;
    if (boundary && k < tag.size() && tag[k] == '=') {
      ++k;
      while (k < tag.size() && is_blank(static_cast<std::uint8_t>(tag[k]))) ++k;
      if (k < tag.size() && (tag[k] == '"' || tag[k] == '\'')) {
        const char quote = tag[k];
        const std::size_t close = tag.find(quote, k + 1);
        if (close == std::string_view::npos) return false;
        value = unescape_xml(tag.substr(k + 1, close - k - 1));
        return true;
      }
    }
    pos += name.size();
  }
  return false;
}

}  // namespace

std::vector<ColladaClip> scan_collada_clips(std::string_view xml) {
  std::vector<ColladaClip> out;
  constexpr std::string_view kOpen = "<animation_clip";
  std::size_t i = 0;
  while (i < xml.size()) {
    const std::size_t lt = xml.find('<', i);
    if (lt == std::string_view::npos) break;
    if (xml.substr(lt, 4) == "<!--") {
      const std::size_t close = xml.find("-->", lt + 4);
      i = close == std::string_view::npos ? xml.size() : close + 3;
      continue;
    }
    const std::size_t end = tag_end(xml, lt);
    const std::string_view tag = xml.substr(lt, end - lt);
    if (tag.substr(0, kOpen.size()) == kOpen && tag.size() > kOpen.size() &&
        (is_blank(static_cast<std::uint8_t>(tag[kOpen.size()])) || tag[kOpen.size()] == '>' ||
         tag[kOpen.size()] == '/')) {
      ColladaClip clip;
      std::string value;
      if (attribute(tag, "name", value) && !value.empty()) {
        clip.name = value;
      } else if (attribute(tag, "id", value)) {
        clip.name = value;
      }
      if (attribute(tag, "end", value)) {
        char* stop = nullptr;
        const double e = std::strtod(value.c_str(), &stop);
        if (stop != value.c_str()) clip.end = e;
      }
      out.push_back(std::move(clip));
    }
    i = end;
  }
  return out;
}

std::vector<std::string> scan_obj_mtllibs(std::string_view obj) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < obj.size()) {
    std::size_t eol = obj.find('\n', pos);
    if (eol == std::string_view::npos) eol = obj.size();
    std::string_view line = obj.substr(pos, eol - pos);
    pos = eol + 1;
    while (!line.empty() && is_blank(static_cast<std::uint8_t>(line.front())))
      line.remove_prefix(1);
    while (!line.empty() && is_blank(static_cast<std::uint8_t>(line.back()))) line.remove_suffix(1);
    constexpr std::string_view kKey = "mtllib";
    if (line.size() <= kKey.size() || line.substr(0, kKey.size()) != kKey ||
        !is_blank(static_cast<std::uint8_t>(line[kKey.size()]))) {
      continue;
    }
    line.remove_prefix(kKey.size());
    while (!line.empty() && is_blank(static_cast<std::uint8_t>(line.front())))
      line.remove_prefix(1);
    if (!line.empty()) out.emplace_back(line);
  }
  return out;
}

}  // namespace critter::io::assimp_detail
