#include "rpc_server/artifact_cache.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/measure/sha256.h"

namespace tunefarm::rpc_server {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kSuffix = ".so";

// Writes the whole buffer to a fresh file, then renames it into place: a crash midway never
// leaves a truncated library under a valid hash.
absl::Status WriteFileAtomically(const std::string& path, std::string_view bytes) {
  const std::string tmp = absl::StrCat(path, ".tmp.", getpid());
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
  if (fd < 0) {
    return absl::InternalError(absl::StrCat("cannot create ", tmp, ": ", std::strerror(errno)));
  }
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      std::string error = std::strerror(errno);
      close(fd);
      unlink(tmp.c_str());
      return absl::InternalError(absl::StrCat("cannot write ", tmp, ": ", error));
    }
    done += static_cast<size_t>(n);
  }
  close(fd);
  if (rename(tmp.c_str(), path.c_str()) != 0) {
    std::string error = std::strerror(errno);
    unlink(tmp.c_str());
    return absl::InternalError(absl::StrCat("cannot rename ", tmp, " to ", path, ": ", error));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<ArtifactCache>> ArtifactCache::Open(std::string dir,
                                                                   int64_t max_bytes) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("cannot create the artifact cache ", dir, ": ", ec.message()));
  }
  std::unique_ptr<ArtifactCache> cache(new ArtifactCache(std::move(dir), max_bytes));
  // Index what an earlier run left, oldest first, so eviction starts with the stalest files.
  std::vector<std::pair<fs::file_time_type, fs::directory_entry>> found;
  for (const fs::directory_entry& e : fs::directory_iterator(cache->dir_, ec)) {
    const std::string name = e.path().filename().string();
    if (!e.is_regular_file() || name.size() != 64 + kSuffix.size() || !name.ends_with(kSuffix) ||
        !runtime::measure::IsSha256Hex(std::string_view(name).substr(0, 64))) {
      continue;
    }
    found.emplace_back(e.last_write_time(), e);
  }
  std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [time, e] : found) {
    cache->entries_.emplace(e.path().filename().string().substr(0, 64),
                            Entry{e.path().string(), ++cache->clock_});
  }
  return cache;
}

std::string ArtifactCache::PathOf(std::string_view sha256) const {
  return absl::StrCat(dir_, "/", std::string(sha256), std::string(kSuffix));
}

void ArtifactCache::Touch(Entry& entry) {
  entry.last_use = ++clock_;
  // The file's time records the use too, for the order after a restart.
  utimensat(AT_FDCWD, entry.path.c_str(), nullptr, 0);
}

absl::StatusOr<std::string> ArtifactCache::Put(std::string_view sha256, std::string_view bytes) {
  if (!runtime::measure::IsSha256Hex(sha256)) {
    return absl::InvalidArgumentError(
        absl::StrCat("artifact hash '", std::string(sha256), "' is not 64 lowercase hex digits"));
  }
  const std::string actual = runtime::measure::Sha256Hex(bytes);
  if (actual != sha256) {
    return absl::InvalidArgumentError(absl::StrCat("artifact ", std::string(sha256), ": received ",
                                                   bytes.size(), " bytes that hash to ", actual));
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(sha256);
  if (it != entries_.end() && access(it->second.path.c_str(), R_OK) == 0) {
    Touch(it->second);
    return it->second.path;
  }
  const std::string path = PathOf(sha256);
  absl::Status written = WriteFileAtomically(path, bytes);
  if (!written.ok()) return written;
  if (it != entries_.end()) entries_.erase(it);  // indexed, but removed behind our back
  entries_.emplace(std::string(sha256), Entry{path, ++clock_});
  return path;
}

absl::StatusOr<std::string> ArtifactCache::Get(std::string_view sha256) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(sha256);
  if (it != entries_.end() && access(it->second.path.c_str(), R_OK) != 0) {
    entries_.erase(it);
    it = entries_.end();
  }
  if (it == entries_.end()) {
    return absl::NotFoundError(
        absl::StrCat("artifact ", std::string(sha256), " missing on worker"));
  }
  Touch(it->second);
  return it->second.path;
}

bool ArtifactCache::Contains(std::string_view sha256) const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.find(sha256) != entries_.end();
}

std::map<std::string, ArtifactCache::Files> ArtifactCache::FilesLocked() const {
  std::map<std::string, Files> files;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir_, ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() < 64 || !entries_.contains(std::string_view(name).substr(0, 64))) continue;
    std::error_code size_ec;
    const uintmax_t size = e.file_size(size_ec);
    if (size_ec) continue;
    Files& f = files[name.substr(0, 64)];
    f.bytes += static_cast<int64_t>(size);
    if (std::string_view(name).substr(64) != kSuffix) {
      f.sides.emplace_back(e.path().string(), static_cast<int64_t>(size));
    }
  }
  return files;
}

void ArtifactCache::RemoveFilesLocked(const std::string& sha256) {
  std::error_code ec;
  std::vector<fs::path> doomed;
  for (const fs::directory_entry& e : fs::directory_iterator(dir_, ec)) {
    if (e.path().filename().string().starts_with(sha256)) doomed.push_back(e.path());
  }
  // A child may still have the library mapped: unlinking is safe, the mapping stays valid.
  for (const fs::path& path : doomed) fs::remove(path, ec);
}

void ArtifactCache::EvictToFit(const std::set<std::string>& keep) {
  std::lock_guard<std::mutex> lock(mu_);
  std::map<std::string, Files> files = FilesLocked();
  int64_t total = 0;
  for (const auto& [sha, f] : files) total += f.bytes;
  if (total <= max_bytes_) return;
  std::vector<std::pair<uint64_t, std::string>> by_age;
  for (const auto& [sha, entry] : entries_) {
    if (!keep.contains(sha)) by_age.emplace_back(entry.last_use, sha);
  }
  std::sort(by_age.begin(), by_age.end());
  for (const auto& [use, sha] : by_age) {
    Files& f = files[sha];
    for (const auto& [path, bytes] : f.sides) {
      if (total <= max_bytes_) return;
      std::error_code ec;
      // A child may be reading it: unlinking is safe, its open file stays readable.
      if (fs::remove(path, ec)) {
        total -= bytes;
        f.bytes -= bytes;
      }
    }
  }
  for (const auto& [use, sha] : by_age) {
    if (total <= max_bytes_) return;
    RemoveFilesLocked(sha);
    total -= files[sha].bytes;
    entries_.erase(sha);
  }
}

int64_t ArtifactCache::total_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  int64_t total = 0;
  for (const auto& [sha, f] : FilesLocked()) total += f.bytes;
  return total;
}

size_t ArtifactCache::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.size();
}

}  // namespace tunefarm::rpc_server
