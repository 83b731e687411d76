// SPDX-License-Identifier: MIT
// Diagnostics: warnings about input that is still usable (a missing texture, a clamped key).
// Loaders append; the caller reads. Not thread-safe: one list per load.
#pragma once

#include <span>
#include <string>
#include <vector>

namespace critter {

struct Warning {
  std::string path;      // file or asset the warning is about
  std::string location;  // byte offset, JSON pointer or element name; may be empty
  std::string message;

  std::string to_string() const;
};

class Diagnostics {
 public:
  void warn(std::string path, std::string location, std::string message) {
    items_.push_back(Warning{std::move(path), std::move(location), std::move(message)});
  }
  std::span<const Warning> items() const { return items_; }
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  void clear() { items_.clear(); }

 private:
  std::vector<Warning> items_;
};

}  // namespace critter
