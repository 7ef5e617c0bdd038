// ArtifactCache: the worker's on-disk store of libraries received from the tracker, one file per
// SHA-256, so a library sent once per connection can be reused by later leases; the least
// recently used files are evicted beyond a byte budget.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tunefarm::rpc_server {

class ArtifactCache {
 public:
  // Creates `dir` if needed and indexes the artifacts already in it (a worker restarted with the
  // same work dir keeps its cache), least recently modified first.
  static absl::StatusOr<std::unique_ptr<ArtifactCache>> Open(std::string dir, int64_t max_bytes);

  // Checks that `bytes` hash to `sha256` (InvalidArgument naming both hashes otherwise), writes
  // the file unless it is already cached and marks it most recently used. Returns its path.
  absl::StatusOr<std::string> Put(std::string_view sha256, std::string_view bytes);
  // The cached file's path, marked most recently used; NotFound
  // "artifact <hash> missing on worker" when it is not here.
  absl::StatusOr<std::string> Get(std::string_view sha256);
  bool Contains(std::string_view sha256) const;

  // Deletes files until the total fits the budget: first the files the measure child writes
  // beside the least recently used libraries (<library>.expected-*: a reference's cached
  // outputs, which the next measurement recomputes), then those libraries themselves, least
  // recently used first: the tracker sends a library's bytes once per connection, so every later
  // lease of an evicted one fails, where a conv's cached outputs are megabytes and its library
  // kilobytes. Those named in `keep` (the lease in hand's) stay, side files included, even when
  // they alone exceed the budget.
  void EvictToFit(const std::set<std::string>& keep);

  // Bytes on disk of the cached artifacts, side files included.
  int64_t total_bytes() const;
  size_t size() const;
  const std::string& dir() const { return dir_; }

 private:
  struct Entry {
    std::string path;
    uint64_t last_use = 0;
  };

  ArtifactCache(std::string dir, int64_t max_bytes) : dir_(std::move(dir)), max_bytes_(max_bytes) {}
  std::string PathOf(std::string_view sha256) const;
  void Touch(Entry& entry);
  // A cached artifact's files: its library and the side files beside it.
  struct Files {
    int64_t bytes = 0;                                   // all of them
    std::vector<std::pair<std::string, int64_t>> sides;  // path, bytes
  };
  // Per cached artifact, every file in the directory whose name starts with its hash.
  std::map<std::string, Files> FilesLocked() const;
  void RemoveFilesLocked(const std::string& sha256);

  const std::string dir_;
  const int64_t max_bytes_;
  mutable std::mutex mu_;
  std::map<std::string, Entry, std::less<>> entries_;
  uint64_t clock_ = 0;  // a use counter: later uses have larger values
};

}  // namespace tunefarm::rpc_server
