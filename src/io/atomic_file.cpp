// SPDX-License-Identifier: MIT
#include "critter/io/atomic_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

namespace critter::io {

namespace {

std::string reason(int err) {
  return std::strerror(err);
}

std::unexpected<Error> io_fail(std::string_view path, std::string message) {
  return fail(Error::at(ErrorCode::kIo, std::string(path), {}, std::move(message)));
}

// A name beside `path` that no other writer (thread or process) picks: the process id and a
// process-wide counter keep concurrent conversions into one folder apart.
std::string sibling_name(std::string_view path, std::string_view suffix) {
  static std::atomic<std::uint64_t> counter{0};
  const std::size_t slash = path.find_last_of('/');
  const std::string_view dir =
      slash == std::string_view::npos ? std::string_view{} : path.substr(0, slash + 1);
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  std::string out(dir);
  out += '.';
  out += name;
  out += '.' + std::to_string(static_cast<long long>(::getpid())) + '.' +
         std::to_string(counter.fetch_add(1, std::memory_order_relaxed));
  out += suffix;
  return out;
}

// Flushes, syncs and closes `f`; removes `temporary` on any failure. The sync makes the rename in
// commit() publish complete contents even if the machine stops right after it.
Status close_temporary(std::FILE* f, const std::string& destination, const std::string& temporary,
                       bool write_ok, int write_errno) {
  int err = write_ok ? 0 : write_errno;
  if (err == 0 && std::fflush(f) != 0) err = errno;
  if (err == 0 && ::fsync(::fileno(f)) != 0) err = errno;
  if (std::fclose(f) != 0 && err == 0) err = errno;
  if (err != 0) {
    std::remove(temporary.c_str());
    return io_fail(destination, "cannot write: " + reason(err));
  }
  return {};
}

}  // namespace

AtomicFileSet::AtomicFileSet(AtomicFileSet&& other) noexcept
    : entries_(std::exchange(other.entries_, {})) {}

AtomicFileSet& AtomicFileSet::operator=(AtomicFileSet&& other) noexcept {
  if (this != &other) {
    discard();
    entries_ = std::exchange(other.entries_, {});
  }
  return *this;
}

AtomicFileSet::~AtomicFileSet() {
  discard();
}

void AtomicFileSet::discard() {
  for (const Entry& e : entries_) std::remove(e.temporary.c_str());
  entries_.clear();
}

std::vector<std::string> AtomicFileSet::destinations() const {
  std::vector<std::string> out;
  out.reserve(entries_.size());
  for (const Entry& e : entries_) out.push_back(e.destination);
  return out;
}

Status AtomicFileSet::stage(std::string_view path, std::string_view text) {
  return stage(path, std::span<const std::uint8_t>(
                         reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

Status AtomicFileSet::stage(std::string_view path, std::span<const std::uint8_t> bytes) {
  if (path.empty()) return io_fail(path, "empty output path");
  for (const Entry& e : entries_)
    if (e.destination == path)
      return fail(Error::at(ErrorCode::kUsage, std::string(path), {}, "output staged twice"));
  Entry entry{std::string(path), sibling_name(path, ".tmp")};
  // "x": never open a file someone else created under the same name.
  std::FILE* f = std::fopen(entry.temporary.c_str(), "wbx");
  if (!f) return io_fail(path, "cannot create a file in its folder: " + reason(errno));
  const bool ok = bytes.empty() || std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  const int write_errno = ok ? 0 : errno;
  if (auto r = close_temporary(f, entry.destination, entry.temporary, ok, write_errno); !r)
    return r;
  entries_.push_back(std::move(entry));
  return {};
}

Status AtomicFileSet::stage_copy(std::string_view path, std::string_view source) {
  if (path.empty()) return io_fail(path, "empty output path");
  for (const Entry& e : entries_)
    if (e.destination == path)
      return fail(Error::at(ErrorCode::kUsage, std::string(path), {}, "output staged twice"));
  const std::string src(source);
  std::FILE* in = std::fopen(src.c_str(), "rb");
  if (!in) return io_fail(source, "cannot open: " + reason(errno));
  Entry entry{std::string(path), sibling_name(path, ".tmp")};
  std::FILE* f = std::fopen(entry.temporary.c_str(), "wbx");
  if (!f) {
    const int err = errno;
    std::fclose(in);
    return io_fail(path, "cannot create a file in its folder: " + reason(err));
  }
  char buffer[1 << 16];
  bool ok = true;
  int err = 0;
  for (;;) {
    const std::size_t n = std::fread(buffer, 1, sizeof buffer, in);
    if (n > 0 && std::fwrite(buffer, 1, n, f) != n) {
      ok = false;
      err = errno;
      break;
    }
    if (n < sizeof buffer) {
      if (std::ferror(in)) {
        ok = false;
        err = errno;
      }
      break;
    }
  }
  std::fclose(in);
  if (auto r = close_temporary(f, entry.destination, entry.temporary, ok, err); !r) return r;
  entries_.push_back(std::move(entry));
  return {};
}

Status AtomicFileSet::commit() {
  struct Published {
    std::string destination;
    std::string backup;  // empty when the destination did not exist before
  };
  std::vector<Published> done;
  done.reserve(entries_.size());

  auto roll_back = [&]() {
    for (auto it = done.rbegin(); it != done.rend(); ++it) {
      if (it->backup.empty())
        std::remove(it->destination.c_str());
      else
        std::rename(it->backup.c_str(), it->destination.c_str());
    }
  };

  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    Published p{e.destination, {}};
    struct stat st {};
    if (::lstat(e.destination.c_str(), &st) == 0) {
      // Only regular files are replaced: a folder or a device at the destination is an error, and
      // a symbolic link would be replaced by a file rather than followed.
      if (!S_ISREG(st.st_mode)) {
        roll_back();
        discard();
        return io_fail(p.destination, "exists and is not a regular file");
      }
      // A hard link keeps the old contents reachable until the commit is known to succeed.
      p.backup = sibling_name(e.destination, ".bak");
      if (::link(e.destination.c_str(), p.backup.c_str()) != 0) {
        const int err = errno;
        roll_back();
        discard();
        return io_fail(p.destination, "cannot keep a backup of the existing file: " + reason(err));
      }
    }
    if (std::rename(e.temporary.c_str(), e.destination.c_str()) != 0) {
      const int err = errno;
      if (!p.backup.empty()) std::remove(p.backup.c_str());
      roll_back();
      discard();
      return io_fail(p.destination, "cannot replace: " + reason(err));
    }
    done.push_back(std::move(p));
  }
  for (const Published& p : done)
    if (!p.backup.empty()) std::remove(p.backup.c_str());
  entries_.clear();
  return {};
}

Status write_file_atomic(std::string_view path, std::span<const std::uint8_t> bytes) {
  AtomicFileSet set;
  if (auto r = set.stage(path, bytes); !r) return r;
  return set.commit();
}

Status write_file_atomic(std::string_view path, std::string_view text) {
  AtomicFileSet set;
  if (auto r = set.stage(path, text); !r) return r;
  return set.commit();
}

}  // namespace critter::io
