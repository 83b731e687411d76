// SPDX-License-Identifier: MIT
#include "critter/core/error.h"

namespace critter {

std::string_view to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::kIo:
      return "io";
    case ErrorCode::kParse:
      return "parse";
    case ErrorCode::kInvalid:
      return "invalid";
    case ErrorCode::kOutOfRange:
      return "out of range";
    case ErrorCode::kUnsupported:
      return "unsupported";
    case ErrorCode::kLimit:
      return "limit";
    case ErrorCode::kUsage:
      return "usage";
  }
  return "unknown";
}

Error Error::at_offset(ErrorCode code, std::string path, std::uint64_t offset,
                       std::string message) {
  return Error{code, std::move(path), "byte " + std::to_string(offset), std::move(message)};
}

Error Error::at(ErrorCode code, std::string path, std::string location, std::string message) {
  return Error{code, std::move(path), std::move(location), std::move(message)};
}

std::string Error::to_string() const {
  std::string out = path.empty() ? std::string("<memory>") : path;
  if (!location.empty()) out += ":" + location;
  out += ": " + message;
  return out;
}

std::string json_pointer_token(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (const char c : name) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace critter
