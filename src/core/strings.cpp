#include "critter/core/strings.h"

#include <algorithm>
#include <vector>

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

std::size_t iedit_distance(std::string_view a, std::string_view b) {
  // One row of the distance table at a time: row[j] is the distance of a[0, i) to b[0, j).
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const std::size_t substitute = ascii_lower(a[i - 1]) == ascii_lower(b[j - 1]) ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + substitute});
      diagonal = above;
    }
  }
  return row[b.size()];
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
