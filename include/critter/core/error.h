// SPDX-License-Identifier: MIT
// Located errors and results (DESIGN.md convention 2). No exception crosses the public API:
// every fallible call returns Result<T> = std::expected<T, Error>.
#pragma once

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

namespace critter {

enum class ErrorCode {
  kIo,           // a file could not be opened, read or written
  kParse,        // malformed syntax (JSON, binary chunk layout)
  kInvalid,      // well-formed but breaks a rule of the format or of a builder
  kOutOfRange,   // an index, offset or count points outside what exists
  kUnsupported,  // a feature critter does not read (a required extension, a compression)
  kLimit,        // a count or size above what critter accepts (hostile input)
  kUsage,        // an API or command-line argument is wrong
};

std::string_view to_string(ErrorCode code);

// Where an error was found: `path` names the file (or the asset, for builders), `location` is a
// byte offset ("byte 1234"), a JSON pointer ("/accessors/7/count") or an element name
// ("joint 'hip'"); `message` says which rule failed. to_string() gives "path:location: message".
struct Error {
  ErrorCode code = ErrorCode::kInvalid;
  std::string path;
  std::string location;
  std::string message;

  static Error at_offset(ErrorCode code, std::string path, std::uint64_t offset,
                         std::string message);
  static Error at(ErrorCode code, std::string path, std::string location, std::string message);

  std::string to_string() const;
};

// One JSON pointer reference token (RFC 6901) for a name: '~' becomes "~0" and '/' becomes "~1",
// so "/states/" + json_pointer_token(name) locates a member whatever its name holds.
std::string json_pointer_token(std::string_view name);

template <class T>
using Result = std::expected<T, Error>;

// Result of an operation with nothing to return.
using Status = std::expected<void, Error>;

inline std::unexpected<Error> fail(Error e) {
  return std::unexpected<Error>(std::move(e));
}

}  // namespace critter
