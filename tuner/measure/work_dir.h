// The builder's scratch directory for candidate libraries: private (mkdtemp), and removed with
// everything in it when its last owner lets go, unless it is to be kept for inspection.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace tunefarm::tuner {

class WorkDir {
 public:
  // A fresh directory "<parent>/tunefarm-build-<pid>-XXXXXX" ("tunefarm-kept-build-XXXXXX" when
  // kept); `parent` empty means $TMPDIR, else /tmp. Directories of this kind left behind by
  // processes that no longer exist (killed before they could clean up) are removed first.
  static absl::StatusOr<std::shared_ptr<WorkDir>> Create(const std::string& parent, bool keep);

  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;
  ~WorkDir();

  const std::string& path() const { return path_; }
  bool keep() const { return keep_; }

 private:
  WorkDir(std::string path, bool keep) : path_(std::move(path)), keep_(keep) {}

  std::string path_;
  bool keep_;
};

}  // namespace tunefarm::tuner
