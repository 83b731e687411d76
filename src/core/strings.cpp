#include "critter/core/strings.h"

#include <algorithm>

namespace critter {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return ascii_lower(x) == ascii_lower(y);
         });
}

bool istarts_with(std::string_view text, std::string_view affix) {
  return text.size() >= affix.size() && iequals(text.substr(0, affix.size()), affix);
}

bool iends_with(std::string_view text, std::string_view affix) {
  return text.size() >= affix.size() && iequals(text.substr(text.size() - affix.size()), affix);
}

std::string to_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

std::string lower_extension(std::string_view path) {
  const std::size_t slash = path.find_last_of("/\\");
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const std::size_t dot = name.rfind('.');
  // A leading dot names a hidden file, not an extension (as std::filesystem::path::extension).
  if (dot == std::string_view::npos || dot == 0) return {};
  return to_lower(name.substr(dot + 1));
}

std::string in_quotes(std::string_view text, std::size_t max_shown) {
  if (text.size() <= max_shown) return "'" + std::string(text) + "'";
  return "'" + std::string(text.substr(0, max_shown)) + "...'";
}

std::string quoted_list(std::span<const std::string> names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "'" : ", '") + n + "'";
  return out;
}

}  // namespace critter
