// SPDX-License-Identifier: MIT
// critter: the command-line tool. main() only builds the parser from the command table, parses
// and dispatches; each command lives in its own *_command.cpp.
#include <iostream>
#include <ostream>
#include <string>
#include <vector>

#include "command.h"

namespace critter::cli {
namespace {

using CommandFactory = Command (*)(CLI::App&);

// Every subcommand, in the order `critter --help` lists them.
constexpr CommandFactory kCommands[] = {
    add_info_command,   add_demo_command,  add_convert_command, add_pose_command,
    add_render_command, add_check_command, add_bench_command,
};

int run(int argc, char** argv) {
  CLI::App app("critter: inspect, animate, skin, render and convert rigged creature models",
               "critter");
  app.set_version_flag("--version", std::string("critter ") + CRITTER_VERSION);
  app.require_subcommand(1);
  app.footer("Exit codes: 0 ok, 1 bad input (file, location and rule on stderr), 2 usage.");
  // Parse errors in the format of every other message (command.h format_error()).
  app.failure_message([](const CLI::App* a, const CLI::Error& e) {
    return "critter: " + CLI::FailureMessage::simple(a, e);
  });

  std::vector<Command> commands;
  for (CommandFactory add : kCommands) commands.push_back(add(app));

  // CLI11 would report a mistyped command as "A subcommand is required"; name it instead.
  if (argc > 1 && argv[1][0] != '-') {
    const std::string name = argv[1];
    bool known = false;
    for (const Command& c : commands) known = known || c.app->check_name(name);
    if (!known) {
      std::cerr << "critter: unknown command '" << name << "'; commands:";
      for (const Command& c : commands) std::cerr << " " << c.app->get_name();
      std::cerr << "\nRun with --help for more information.\n";
      return kExitUsage;
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version arrive as "successful" parse errors with exit code 0; every real
    // parse error (unknown command or option, missing argument) is a usage error.
    const int code = app.exit(e, std::cout, std::cerr);
    return code == 0 ? kExitOk : kExitUsage;
  }
  for (const Command& c : commands) {
    if (c.app->parsed()) return c.run(std::cout, std::cerr);
  }
  std::cerr << app.help();
  return kExitUsage;
}

}  // namespace
}  // namespace critter::cli

int main(int argc, char** argv) {
  return critter::cli::run(argc, argv);
}
