// SPDX-License-Identifier: MIT
// `critter check CONFIG MODEL [--json] [--strict]`: loads an animation config, binds it to a
// model, compiles it and lists every error and warning with its file and JSON pointer.
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "command.h"
#include "critter/core/strings.h"
#include "critter/io/controller_loader.h"
#include "describe.h"

namespace critter::cli {
namespace {

struct CheckOptions {
  std::string config;
  std::string model;
  std::vector<std::string> asset_roots;
  std::vector<std::string> host_parameters;
  bool json = false;
  bool strict = false;         // every warning is reported as an error
  bool allow_outside = false;  // --allow-outside-uris
};

int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err) {
  // A model first and a config second is the common slip; the model loader's own message
  // ("unknown format") would not say so.
  if (lower_extension(options.config) != "json" && lower_extension(options.model) == "json") {
    err << "critter: check takes the config first, then the model: critter check " << options.model
        << " " << options.config << "\n";
    return kExitUsage;
  }
  io::LoadOptions model_options;
  model_options.allow_outside_uris = options.allow_outside;
  model_options.assimp_isolation = io::AssimpIsolation::kChildProcess;
  auto model = load_model(options.model, model_options, nullptr);
  if (!model) return report(model.error(), err);

  Diagnostics diag;
  std::vector<Error> errors;
  io::ControllerLoadOptions load_options;
  load_options.asset_roots = options.asset_roots;
  load_options.allow_outside = options.allow_outside;
  load_options.model_options = model_options;
  load_options.host_parameters = options.host_parameters;
  // An expression reading a name nothing declares is an error here: it would read as unset.
  load_options.complete_schema = true;
  // Every stage lists all of its errors: parse, then bind and compile of what did parse.
  (void)io::load_controller(options.config, std::make_shared<const Model>(std::move(*model)),
                            load_options, &diag, &errors);
  std::vector<Warning> warnings(diag.items().begin(), diag.items().end());
  if (options.strict) {
    // After the errors of the stages, in the order the warnings came.
    for (Warning& w : warnings) {
      errors.push_back(Error::at(ErrorCode::kInvalid, std::move(w.path), std::move(w.location),
                                 std::move(w.message)));
    }
    warnings.clear();
  }

  if (options.json) {
    // The keys of `critter info --json` for the same things: "file", and warnings (and errors)
    // as diagnostic_json() objects.
    nlohmann::ordered_json doc;
    doc["file"] = options.config;
    doc["model"] = options.model;
    doc["errors"] = nlohmann::ordered_json::array();
    doc["warnings"] = nlohmann::ordered_json::array();
    for (const Error& e : errors) {
      doc["errors"].push_back(diagnostic_json(to_string(e.code), e.path, e.location, e.message));
    }
    for (const Warning& w : warnings) {
      doc["warnings"].push_back(diagnostic_json("warning", w.path, w.location, w.message));
    }
    out << doc.dump(2) << "\n";
  } else {
    for (const Error& e : errors) err << format_error(e) << "\n";
    for (const Warning& w : warnings) err << format_warning(w) << "\n";
    out << options.config << ": " << errors.size() << " error" << (errors.size() == 1 ? "" : "s")
        << ", " << warnings.size() << " warning" << (warnings.size() == 1 ? "" : "s") << "\n";
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
  app->add_flag("--allow-outside-uris", options->allow_outside,
                "Let the config's extends, template and file: paths (and the model's files) lead "
                "outside the config's folder and the asset roots");
  app->add_option("--host-param", options->host_parameters,
                  "A parameter the game sets that the config need not declare (repeatable)");
  app->add_flag("--json", options->json, "Print {\"errors\": [...], \"warnings\": [...]} as JSON");
  app->add_flag("--strict", options->strict,
                "Report every warning as an error (exit 1 when there is any), for CI");
  return Command{app, [options](std::ostream& out, std::ostream& err) {
                   return run_check(*options, out, err);
                 }};
}

}  // namespace critter::cli
