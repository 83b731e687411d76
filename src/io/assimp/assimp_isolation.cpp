// SPDX-License-Identifier: MIT
#include "io/assimp/assimp_isolation.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

#include "io/assimp/raw_model_wire.h"

namespace critter::io::assimp_detail {

namespace {

// Exit statuses of the child besides 0 (answer sent).
constexpr int kChildWriteFailed = 90;
constexpr int kChildNoMemory = 91;

// The child's current address-space size in bytes (/proc/self/statm counts pages); 0 when
// unknown. Sanitizer builds reserve terabytes of shadow memory up front, so the limit is given on
// top of what the process already has.
std::uint64_t address_space_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  unsigned long long pages = 0;
  const int n = std::fscanf(f, "%llu", &pages);
  std::fclose(f);
  if (n != 1) return 0;
  return pages * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

bool write_all(int fd, const std::vector<std::uint8_t>& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

[[noreturn]] void run_child(int fd, const std::string& path, const ImportOptions& options,
                            ImportFunction import) {
  // Other threads of the host may be importing too: a copy of their pipes' write ends held here
  // would keep their readers waiting for this child to end.
  if (fd > 3) close_range(3, static_cast<unsigned>(fd - 1), 0);
  close_range(static_cast<unsigned>(fd + 1), ~0u, 0);
  // Assimp's assertion messages would land in the host's log; the parent reports the failure.
  const int null_fd = open("/dev/null", O_WRONLY);
  if (null_fd >= 0) {
    dup2(null_fd, STDERR_FILENO);
    dup2(null_fd, STDOUT_FILENO);
    close(null_fd);
  }
  const std::uint64_t base = address_space_bytes();
  rlimit as{};
  as.rlim_cur = as.rlim_max = static_cast<rlim_t>(base + options.isolation_memory_bytes);
  setrlimit(RLIMIT_AS, &as);
  rlimit cpu{};
  cpu.rlim_cur = static_cast<rlim_t>(std::ceil(options.isolation_seconds));
  cpu.rlim_max = cpu.rlim_cur + 1;
  setrlimit(RLIMIT_CPU, &cpu);

  ImportOptions in_child = options;
  in_child.assimp_isolation = AssimpIsolation::kInProcess;
  std::vector<std::uint8_t> answer;
  try {
    Diagnostics diag;
    Result<RawModel> result = import(path, in_child, &diag);
    // Assimp catches the allocation failure of its importers and reports it as its message.
    if (!result && result.error().message.find("bad_alloc") != std::string::npos) {
      result = fail(Error::at(ErrorCode::kLimit, path, "",
                              "Assimp ran out of the memory limit of " +
                                  std::to_string(options.isolation_memory_bytes) +
                                  " bytes (isolated import)"));
    }
    answer = encode_import(result, diag.items());
  } catch (const std::bad_alloc&) {
    _exit(kChildNoMemory);
  }
  // _exit: the parent's atexit handlers and static destructors are not the child's to run.
  _exit(write_all(fd, answer) ? 0 : kChildWriteFailed);
}

std::string signal_name(int sig) {
  switch (sig) {
    case SIGABRT:
      return "SIGABRT";
    case SIGSEGV:
      return "SIGSEGV";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
    case SIGKILL:
      return "SIGKILL";
    case SIGXCPU:
      return "SIGXCPU";
    default:
      return "signal " + std::to_string(sig);
  }
}

}  // namespace

Result<RawModel> import_in_child(const std::string& path, const ImportOptions& options,
                                 Diagnostics* diag, ImportFunction import) {
  if (!(options.isolation_seconds > 0.0) || !std::isfinite(options.isolation_seconds) ||
      options.isolation_memory_bytes == 0) {
    return fail(Error::at(ErrorCode::kUsage, path, "",
                          "isolated import needs isolation_seconds finite and > 0 and "
                          "isolation_memory_bytes > 0"));
  }
  int fds[2];
  if (pipe(fds) != 0) {
    return fail(
        Error::at(ErrorCode::kIo, path, "",
                  std::string("cannot start the isolated import: pipe: ") + std::strerror(errno)));
  }
  // Output buffered by the host would be written twice, once by each process.
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    const int e = errno;
    close(fds[0]);
    close(fds[1]);
    return fail(
        Error::at(ErrorCode::kIo, path, "",
                  std::string("cannot start the isolated import: fork: ") + std::strerror(e)));
  }
  if (pid == 0) {
    close(fds[0]);
    run_child(fds[1], path, options, import);
  }
  close(fds[1]);

  using Clock = std::chrono::steady_clock;
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(options.isolation_seconds + 1.0));
  std::vector<std::uint8_t> answer;
  bool timed_out = false;
  bool too_big = false;
  std::uint8_t chunk[65536];
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    const ssize_t n = read(fds[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    // The child cannot hold more than its limit; more is not a model.
    if (answer.size() + static_cast<std::size_t>(n) > options.isolation_memory_bytes) {
      too_big = true;
      break;
    }
    answer.insert(answer.end(), chunk, chunk + n);
  }
  close(fds[0]);
  if (timed_out || too_big) kill(pid, SIGKILL);
  int status = 0;
  pid_t waited;
  do {
    waited = waitpid(pid, &status, 0);
  } while (waited < 0 && errno == EINTR);

  const auto error = [&](ErrorCode code, std::string message) {
    return fail(Error::at(code, path, "", std::move(message)));
  };
  if (timed_out) {
    return error(ErrorCode::kLimit, "the isolated Assimp import took longer than " +
                                        std::to_string(options.isolation_seconds) +
                                        " s and was stopped");
  }
  if (too_big) {
    return error(ErrorCode::kLimit, "the isolated Assimp import sent more than " +
                                        std::to_string(options.isolation_memory_bytes) +
                                        " bytes and was stopped");
  }
  if (waited == pid && WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    if (sig == SIGXCPU || sig == SIGKILL) {
      return error(ErrorCode::kLimit, "the isolated Assimp import used more than " +
                                          std::to_string(options.isolation_seconds) +
                                          " s of CPU time and was stopped (" + signal_name(sig) +
                                          ")");
    }
    return error(ErrorCode::kParse, "Assimp " +
                                        std::string(sig == SIGABRT ? "aborted" : "crashed") +
                                        " on this file (" + signal_name(sig) +
                                        "); the import ran in a child process, which alone ended");
  }
  if (waited == pid && WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    if (WEXITSTATUS(status) == kChildNoMemory) {
      return error(ErrorCode::kLimit, "the isolated Assimp import ran out of the memory limit of " +
                                          std::to_string(options.isolation_memory_bytes) +
                                          " bytes");
    }
    return error(ErrorCode::kParse, "the isolated Assimp import ended with exit status " +
                                        std::to_string(WEXITSTATUS(status)));
  }
  std::vector<Warning> warnings;
  Result<RawModel> result = decode_import(answer, path, warnings);
  if (diag != nullptr) {
    for (Warning& w : warnings)
      diag->warn(std::move(w.path), std::move(w.location), std::move(w.message));
  }
  return result;
}

}  // namespace critter::io::assimp_detail
