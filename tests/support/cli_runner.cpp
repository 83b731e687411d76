// SPDX-License-Identifier: MIT
#include "support/cli_runner.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

#include "support/files.h"

extern char** environ;

namespace critter::test_support {

namespace fs = std::filesystem;

std::string slurp(const fs::path& path) {
  const std::vector<std::uint8_t> bytes = testing::read_bytes(path);
  return std::string(bytes.begin(), bytes.end());
}

std::string shared_model(const std::string& relative) {
  return (fs::path(CRITTER_SHARED_MODELS) / relative).string();
}

void CliTest::SetUp() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  dir_ = fs::temp_directory_path() / ("critter_cli_test_" + std::to_string(::getpid()) + "_" +
                                      info->test_suite_name() + "_" + info->name());
  fs::create_directories(dir_);
}

void CliTest::TearDown() {
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

RunResult CliTest::run(const std::vector<std::string>& args) const {
  const std::string out_path = (dir_ / "stdout.txt").string();
  const std::string err_path = (dir_ / "stderr.txt").string();
  std::vector<std::string> argv_storage = {CRITTER_CLI};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  RunResult r;
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, CRITTER_CLI, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    ADD_FAILURE() << "cannot start " << CRITTER_CLI << ": error " << rc;
    return r;
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
    ADD_FAILURE() << "critter did not exit normally (status " << status << ")";
    return r;
  }
  r.exit_code = WEXITSTATUS(status);
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  return r;
}

std::string CliTest::write_text(const std::string& name, std::string_view text) const {
  const std::string path = (dir_ / name).string();
  testing::write_file(path, text);
  return path;
}

}  // namespace critter::test_support
