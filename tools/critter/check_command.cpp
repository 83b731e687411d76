// `critter check CONFIG MODEL [--json]`: loads an animation config, binds it to a model, compiles
// it and lists every error and warning with its file and JSON pointer.
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "command.h"
#include "critter/io/controller_loader.h"

namespace critter::cli {
namespace {

struct CheckOptions {
  std::string config;
  std::string model;
  std::vector<std::string> asset_roots;
  bool json = false;
};

nlohmann::ordered_json located(const std::string& file, const std::string& pointer,
                               const std::string& message) {
  nlohmann::ordered_json j;
  j["file"] = file;
  j["pointer"] = pointer;
  j["message"] = message;
  return j;
}

int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err) {
  auto model = load_model(options.model, {}, nullptr);
  if (!model) return report(model.error(), err);

  Diagnostics diag;
  std::vector<Error> errors;
  io::ControllerLoadOptions load_options;
  load_options.asset_roots = options.asset_roots;
  // Every stage lists all of its errors: parse (binding then does not run), bind, compile.
  (void)io::load_controller(options.config, std::make_shared<const Model>(std::move(*model)),
                            load_options, &diag, &errors);

  if (options.json) {
    nlohmann::ordered_json doc;
    doc["errors"] = nlohmann::ordered_json::array();
    doc["warnings"] = nlohmann::ordered_json::array();
    for (const Error& e : errors) doc["errors"].push_back(located(e.path, e.location, e.message));
    for (const Warning& w : diag.items()) {
      doc["warnings"].push_back(located(w.path, w.location, w.message));
    }
    out << doc.dump(2) << "\n";
  } else {
    for (const Error& e : errors) err << e.to_string() << "\n";
    for (const Warning& w : diag.items()) err << w.to_string() << "\n";
    out << options.config << ": " << errors.size() << " error" << (errors.size() == 1 ? "" : "s")
        << ", " << diag.size() << " warning" << (diag.size() == 1 ? "" : "s") << "\n";
  }
  return errors.empty() ? kExitOk : kExitBadInput;
}

}  // namespace

Command add_check_command(CLI::App& root) {
  auto options = std::make_shared<CheckOptions>();
  CLI::App* app = root.add_subcommand(
      "check",
      "Check an animation config against a model: every error and warning with its JSON pointer");
  app->add_option("CONFIG", options->config, "Animation config (.json)")->required();
  app->add_option("MODEL", options->model, "Model file (.gltf, .glb, ...) or builtin:NAME")
      ->required();
  app->add_option("--asset-root", options->asset_roots,
                  "Folder searched for extends, template and file: paths (repeatable)");
  app->add_flag("--json", options->json, "Print {\"errors\": [...], \"warnings\": [...]} as JSON");
  return Command{app, [options](std::ostream& out, std::ostream& err) {
                   return run_check(*options, out, err);
                 }};
}

}  // namespace critter::cli
