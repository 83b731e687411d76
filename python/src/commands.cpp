// SPDX-License-Identifier: MIT
// critter.convert and critter.render run the `critter convert` and `critter render` commands
// (tools/critter) in process, so Python writes exactly the files the shell writes; critter.check
// runs the config loader that `critter check` runs and returns its diagnostics.
#include <pybind11/stl.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "bindings.h"
#include "command.h"
#include "critter/io/controller_loader.h"

namespace critter::python {
namespace {

// Keyword options as command-line flags: `anim="walk"` -> --anim walk, `ortho=True` -> --ortho,
// False and None -> nothing, a list or tuple -> the flag once per item.
void append_flags(const py::kwargs& options, std::vector<std::string>& args) {
  for (auto [key, value] : options) {
    std::string flag = "--" + key.cast<std::string>();
    std::replace(flag.begin(), flag.end(), '_', '-');
    if (value.is_none()) continue;
    if (py::isinstance<py::bool_>(value)) {
      if (value.cast<bool>()) args.push_back(flag);
      continue;
    }
    if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
      for (py::handle item : value) {
        args.push_back(flag);
        args.push_back(py::str(item).cast<std::string>());
      }
      continue;
    }
    args.push_back(flag);
    args.push_back(py::str(value).cast<std::string>());
  }
}

// The Error a command reported on its error stream as "critter: path:location: message" (the CLI's
// one message format), given the paths it may name (the first line that names one of them;
// otherwise the whole text is the rule).
Error parse_report(const std::string& text, int code, const std::vector<std::string>& paths) {
  std::istringstream lines(text);
  std::string line;
  constexpr std::string_view kPrefix = "critter: ";
  while (std::getline(lines, line)) {
    if (line.starts_with(kPrefix)) line.erase(0, kPrefix.size());
    for (const std::string& path : paths) {
      if (path.empty() || line.rfind(path + ":", 0) != 0) continue;
      const std::string rest = line.substr(path.size() + 1);
      const std::size_t sep = rest.find(": ");
      if (sep == std::string::npos) return Error::at(ErrorCode::kInvalid, path, "", rest);
      const ErrorCode c = code == cli::kExitUsage ? ErrorCode::kUsage : ErrorCode::kInvalid;
      return Error::at(c, path, rest.substr(0, sep), rest.substr(sep + 2));
    }
  }
  std::string rule = text;
  while (!rule.empty() && rule.back() == '\n') rule.pop_back();
  return Error::at(code == cli::kExitUsage ? ErrorCode::kUsage : ErrorCode::kInvalid,
                   paths.empty() ? "" : paths.front(), "", rule);
}

// Runs one command of the CLI with `args` (after the command name); returns its standard output,
// or raises critter.Error with what it reported.
std::string run_command(cli::Command (*add)(CLI::App&), std::vector<std::string> args,
                        const std::vector<std::string>& paths) {
  std::ostringstream out, err;
  int code = cli::kExitOk;
  {
    py::gil_scoped_release release;
    CLI::App app("critter", "critter");
    app.require_subcommand(1);
    cli::Command command = add(app);
    args.insert(args.begin(), command.app->get_name());
    std::reverse(args.begin(), args.end());  // CLI11 parses a reversed vector
    try {
      app.parse(args);
      code = command.run(out, err);
    } catch (const CLI::ParseError& e) {
      err << (paths.empty() ? std::string() : paths.front()) << ":" << e.get_name() << ": "
          << e.what() << "\n";
      code = cli::kExitUsage;
    }
  }
  if (code != cli::kExitOk) raise_error(parse_report(err.str(), code, paths));
  return out.str();
}

std::string convert(const std::string& src, const std::string& dst, const py::kwargs& options) {
  std::vector<std::string> args{src, "-o", dst, "--quiet"};
  append_flags(options, args);
  return run_command(&cli::add_convert_command, args, {src, dst});
}

std::string render(const std::string& src, const std::string& dst, const py::kwargs& options) {
  std::vector<std::string> args{src, "-o", dst};
  append_flags(options, args);
  return run_command(&cli::add_render_command, args, {src, dst});
}

struct Diagnostic {
  std::string severity;  // "error" or "warning"
  std::string file;
  std::string location;
  std::string rule;
  std::string repr() const {
    return "Diagnostic(" + severity + ", '" + file + ":" + location + ": " + rule + "')";
  }
};

std::vector<Diagnostic> check_config(const std::string& config, const py::object& model,
                                     const std::vector<std::string>& asset_roots) {
  std::shared_ptr<const Model> loaded;
  if (py::isinstance<py::str>(model)) {
    const auto path = model.cast<std::string>();
    Result<Model> r = fail(Error{});
    {
      py::gil_scoped_release release;
      r = cli::load_model(path, {}, nullptr);
    }
    loaded = std::make_shared<const Model>(value_or_raise(std::move(r)));
  } else {
    loaded = model.cast<std::shared_ptr<ModelHandle>>()->model;
  }
  std::vector<Error> errors;
  Diagnostics diag;
  {
    py::gil_scoped_release release;
    io::ControllerLoadOptions options;
    options.asset_roots = asset_roots;
    (void)io::load_controller(config, loaded, options, &diag, &errors);
  }
  std::vector<Diagnostic> out;
  for (const Error& e : errors) out.push_back({"error", e.path, e.location, e.message});
  for (const Warning& w : diag.items()) out.push_back({"warning", w.path, w.location, w.message});
  return out;
}

}  // namespace

void register_commands(py::module_& m) {
  py::class_<Diagnostic>(m, "Diagnostic",
                         "One finding of critter.check: severity ('error' or 'warning'), file, "
                         "location (a JSON pointer) and rule.")
      .def_readonly("severity", &Diagnostic::severity)
      .def_readonly("file", &Diagnostic::file)
      .def_readonly("location", &Diagnostic::location)
      .def_readonly("rule", &Diagnostic::rule)
      .def("__str__",
           [](const Diagnostic& d) {
             return d.file + ":" + d.location + ": " + d.severity + ": " + d.rule;
           })
      .def("__repr__", &Diagnostic::repr);

  m.def("convert", &convert, py::arg("src"), py::arg("dst"),
        "convert(src, dst, **options) -> str\n\n"
        "Writes `src` as `dst` (.glb, .gltf or .obj, or format='glb'|'gltf'|'obj') exactly as "
        "`critter convert SRC -o DST` does, with the GIL released. Keyword options are the "
        "command's long flags: anim='walk', time=0.5, texture=['skin.png'], clips='walk:0-40', "
        "look=1 ... (underscores for dashes; True for a flag; a list repeats the flag). Returns "
        "what the command printed. Raises critter.Error (file, location, rule) on failure; no "
        "half-written file is left.");
  m.def("render", &render, py::arg("src"), py::arg("dst"),
        "render(src, dst, **options) -> str\n\n"
        "Renders `src` to a PNG or GIF `dst` on a headless EGL context exactly as `critter render "
        "SRC -o DST` does, with the GIL released. Keyword options are the command's long flags: "
        "anim='walk', time=0.5, size='640x480', sheet=16, frames=24, fps=12, turntable=True, "
        "camera=..., config='gait.json', creature='four-legged' ... Raises critter.Error.");
  m.def("check", &check_config, py::arg("config"), py::arg("model"),
        py::arg("asset_roots") = std::vector<std::string>{},
        "check(config, model, asset_roots=()) -> list[Diagnostic]\n\n"
        "Every error and warning of an animation config against a model (a critter.Model or a "
        "path), each with its file and JSON pointer, as `critter check` lists them. An empty "
        "list means the config is clean. Raises critter.Error only when the model cannot load.");
}

}  // namespace critter::python
