// CandidateBuilder: compiles a BuildSpec into a loadable library on this machine. A worker that
// has the compiler (`tunefarm worker`) holds one and builds its own leases; the slim
// tunefarm-rpc-server has none and only measures libraries it is sent.
#pragma once

#include <string>

#include "runtime/measure/build_spec.h"
#include "runtime/measure/error_kind.h"

namespace tunefarm::runtime::measure {

struct BuiltCandidate {
  ErrorKind error_kind = ErrorKind::kOk;  // ok, build_error, build_timeout or invalid_config
  std::string error_message;
  std::string library_path;
  std::string function_name;
  std::string reference_library_path;  // set when the spec asked for the reference
  std::string reference_key;
  double build_seconds = 0;
  // This builder cannot make the spec's task or read its config (a template it does not know, a
  // config space of another version): not the candidate's fault, so it is not recorded; whoever
  // sent the spec builds it instead.
  bool cannot_build = false;
};

class CandidateBuilder {
 public:
  virtual ~CandidateBuilder() = default;
  // Failures are results, never errors. The library stays on disk at least until the next call
  // (the caller measures it in between). One call at a time.
  virtual BuiltCandidate Build(const BuildSpec& spec) = 0;
};

}  // namespace tunefarm::runtime::measure
