// SPDX-License-Identifier: MIT
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

std::vector<std::string> closest_names(std::span<const std::string_view> candidates,
                                       std::string_view name, std::size_t limit) {
  const std::size_t max_distance = std::max<std::size_t>(2, name.size() / 3);
  std::vector<std::pair<std::size_t, std::size_t>> near;  // (distance, candidate)
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const std::size_t d = iedit_distance(name, candidates[i]);
    if (d <= max_distance) near.emplace_back(d, i);
  }
  std::stable_sort(near.begin(), near.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> names;
  for (std::size_t k = 0; k < near.size() && names.size() < limit; ++k) {
    const std::string_view candidate = candidates[near[k].second];
    // The same name twice (a clip and an alias both called Walk) is suggested once.
    if (std::find(names.begin(), names.end(), candidate) == names.end()) {
      names.emplace_back(candidate);
    }
  }
  return names;
}

std::vector<std::string> closest_names(std::span<const std::string> candidates,
                                       std::string_view name, std::size_t limit) {
  const std::vector<std::string_view> views(candidates.begin(), candidates.end());
  return closest_names(views, name, limit);
}

std::string did_you_mean(std::span<const std::string> names) {
  if (names.empty()) return {};
  std::string text = " (did you mean ";
  for (std::size_t i = 0; i < names.size(); ++i) text.append(i == 0 ? "" : ", ").append(names[i]);
  return text + "?)";
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
