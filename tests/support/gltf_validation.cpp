// SPDX-License-Identifier: MIT
#include "support/gltf_validation.h"

#include <unistd.h>

#include <sys/wait.h>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace critter::testing {

namespace {

// Single-quoted for the shell, with embedded quotes escaped.
std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::string ValidatorReport::summary() const {
  std::string out;
  for (const std::string& m : messages) out += m + "\n";
  if (exit_code == 2 || errors < 0) out += raw;
  return out;
}

ValidatorReport validate_gltf(const std::filesystem::path& file) {
  ValidatorReport report;
  const std::string script = std::string(CRITTER_SOURCE_DIR) + "/scripts/validate_gltf.mjs";
  const std::string command =
      "node " + shell_quote(script) + " " + shell_quote(file.string()) + " 2>&1";
  std::FILE* p = ::popen(command.c_str(), "r");
  if (!p) {
    report.raw = "cannot start node";
    return report;
  }
  char buffer[4096];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, p)) > 0) report.raw.append(buffer, n);
  const int status = ::pclose(p);
  report.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  const auto json = nlohmann::json::parse(report.raw, nullptr, false);
  if (json.is_discarded() || !json.is_object()) return report;
  report.errors = json.value("numErrors", -1);
  report.warnings = json.value("numWarnings", -1);
  for (const auto& m : json["messages"]) {
    std::string line = m.value("severity", "") + " " + m.value("code", "");
    if (m.contains("pointer") && m["pointer"].is_string())
      line += " " + m["pointer"].get<std::string>();
    line += ": " + m.value("message", "");
    report.messages.push_back(std::move(line));
  }
  return report;
}

}  // namespace critter::testing
