// SPDX-License-Identifier: MIT
// `critter info FILE [--json]`: what a model file holds.
#include <iostream>
#include <memory>
#include <string>

#include "command.h"
#include "critter/io/load.h"
#include "describe.h"

namespace critter::cli {
namespace {

struct InfoOptions {
  std::string file;
  bool json = false;
  LoadFlags load;
};

int run_info(const InfoOptions& o, std::ostream& out, std::ostream& err) {
  Result<io::LoadOptions> load_options = load_options_from(o.load);
  if (!load_options) return report(load_options.error(), err);
  Diagnostics diag;
  Result<Model> model = load_model(o.file, *load_options, &diag);
  if (!model) return report(model.error(), err);
  if (o.json) {
    out << describe_json(*model, o.file, diag.items()).dump(2) << "\n";
  } else {
    describe_text(*model, o.file, diag.items(), out);
  }
  return kExitOk;
}

}  // namespace

Command add_info_command(CLI::App& root) {
  auto options = std::make_shared<InfoOptions>();
  CLI::App* app = root.add_subcommand(
      "info",
      "Describe a model file: bone tree, meshes, skins, morph targets, animations, materials, "
      "images, bounds and warnings");
  app->add_option("FILE", options->file, "Model file (.gltf, .glb, ...)")->required();
  app->add_flag("--json", options->json, "Print the description as JSON");
  add_load_flags(app, options->load);
  return Command{app, [options](std::ostream& out, std::ostream& err) {
                   return run_info(*options, out, err);
                 }};
}

}  // namespace critter::cli
