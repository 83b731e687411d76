// SPDX-License-Identifier: MIT
#include "critter/core/path_confinement.h"

#include <algorithm>
#include <system_error>

namespace critter {

namespace fs = std::filesystem;

namespace {

fs::path absolute_normal(const fs::path& p) {
  std::error_code ec;
  fs::path abs = fs::absolute(p, ec);
  if (ec) abs = p;
  return abs.lexically_normal();
}

fs::path real_location(const fs::path& p) {
  std::error_code ec;
  fs::path real = fs::weakly_canonical(p, ec);
  return ec ? absolute_normal(p) : real.lexically_normal();
}

bool inside_normal(const fs::path& path, const fs::path& folder) {
  const fs::path rel = path.lexically_relative(folder);
  if (rel.empty() || rel == ".") return false;
  return *rel.begin() != "..";
}

}  // namespace

std::string_view describe(PathRefusal refusal) {
  switch (refusal) {
    case PathRefusal::kNone:
      return "";
    case PathRefusal::kAbsolute:
      return "is an absolute path";
    case PathRefusal::kEscapes:
      return "leaves the allowed folders";
    case PathRefusal::kLink:
      return "is a symbolic link leading outside the allowed folders";
  }
  return "";
}

std::string with_forward_slashes(std::string_view written) {
  std::string out(written);
  std::replace(out.begin(), out.end(), '\\', '/');
  return out;
}

bool is_absolute_path(std::string_view path) {
  if (path.empty()) return false;
  if (path[0] == '/' || path[0] == '\\') return true;
  const bool letter = (path[0] >= 'a' && path[0] <= 'z') || (path[0] >= 'A' && path[0] <= 'Z');
  return letter && path.size() >= 2 && path[1] == ':';
}

bool is_lexically_inside(const fs::path& path, const fs::path& folder) {
  return inside_normal(absolute_normal(path), absolute_normal(folder));
}

PathRefusal check_confined(const fs::path& path, std::span<const fs::path> folders) {
  const fs::path lexical = absolute_normal(path);
  const bool inside = std::any_of(folders.begin(), folders.end(), [&](const fs::path& f) {
    return inside_normal(lexical, absolute_normal(f));
  });
  if (!inside) return PathRefusal::kEscapes;
  // Links are resolved on both sides: the folder itself may be reached through a link.
  const fs::path real = real_location(path);
  const bool real_inside = std::any_of(folders.begin(), folders.end(), [&](const fs::path& f) {
    return inside_normal(real, real_location(f));
  });
  return real_inside ? PathRefusal::kNone : PathRefusal::kLink;
}

}  // namespace critter
