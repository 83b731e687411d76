#include "command.h"

#include <ostream>

namespace critter::cli {

int report(const Error& error, std::ostream& err) {
  err << error.to_string() << "\n";
  return error.code == ErrorCode::kUsage ? kExitUsage : kExitBadInput;
}

}  // namespace critter::cli
