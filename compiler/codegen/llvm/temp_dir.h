// A private temporary directory (mkdtemp under $TMPDIR), removed with everything in it when the
// owner goes away: scratch space for exporting libraries.
#pragma once

#include <string>

#include "absl/status/statusor.h"

namespace tunefarm::codegen {

class TempDir {
 public:
  static absl::StatusOr<TempDir> Create(const std::string& prefix);
  TempDir(TempDir&& other) noexcept : path_(std::move(other.path_)) { other.path_.clear(); }
  TempDir& operator=(TempDir&&) = delete;
  TempDir(const TempDir&) = delete;
  ~TempDir();

  const std::string& path() const { return path_; }

 private:
  explicit TempDir(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

}  // namespace tunefarm::codegen
