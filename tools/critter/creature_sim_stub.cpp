// make_creature_sim() for a build without the legacy rigs: every request is refused, so a
// command never shows a pose the rigs did not compute.
#include "creature_sim.h"

namespace critter::cli {

Result<std::unique_ptr<CreatureSim>> make_creature_sim(const Model& /*model*/,
                                                       const std::string& path,
                                                       const CreatureSpec& spec) {
  return fail(Error::at(ErrorCode::kUnsupported, path, "--creature",
                        "cannot simulate a " + std::string(tools::to_string(spec.kind)) +
                            ": the legacy creature rigs are not available in this build"));
}

}  // namespace critter::cli
