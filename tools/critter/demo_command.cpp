// `critter demo [--json]`: the built-in quadruped, built in code, described like `critter info`.
#include <iostream>
#include <memory>

#include "command.h"
#include "critter/asset/demo_creature.h"
#include "describe.h"

namespace critter::cli {
namespace {

struct DemoOptions {
  bool json = false;
};

int run_demo(const DemoOptions& o, std::ostream& out, std::ostream& err) {
  Diagnostics diag;
  Result<Model> model = build_demo_quadruped(&diag);
  if (!model) return report(model.error(), err);
  if (o.json) {
    out << describe_json(*model, {}, diag.items()).dump(2) << "\n";
  } else {
    out << "critter demo: the built-in quadruped (a skinned box creature with walk and idle "
           "clips)\n\n";
    describe_text(*model, {}, diag.items(), out);
  }
  return kExitOk;
}

}  // namespace

Command add_demo_command(CLI::App& root) {
  auto options = std::make_shared<DemoOptions>();
  CLI::App* app = root.add_subcommand(
      "demo", "Build the built-in demo quadruped in code and describe it like `info`");
  app->add_flag("--json", options->json, "Print the description as JSON");
  return Command{app, [options](std::ostream& out, std::ostream& err) {
                   return run_demo(*options, out, err);
                 }};
}

}  // namespace critter::cli
