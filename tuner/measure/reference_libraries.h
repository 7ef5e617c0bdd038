// Libraries of the naive reference schedules, one per reference key, built by the first
// candidate that needs one while the others with that key wait for it. Thread-safe.
#pragma once

#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "tuner/measure/candidate_build.h"

namespace tunefarm::tuner {

struct ReferenceLibrary {
  BuildOutcome outcome;
  std::string path;  // set when outcome is ok
};

class ReferenceLibraries {
 public:
  struct Claim {
    std::shared_future<ReferenceLibrary> future;
    // Set for the one caller that must build the library and then call Fulfill.
    std::shared_ptr<std::promise<ReferenceLibrary>> promise;
  };

  // The library for `key`: built, being built, or (a claim with a promise) to be built by the
  // caller.
  Claim Find(const std::string& key);

  // Hands the built library to everyone waiting. A failed build is forgotten, so that a later
  // candidate tries again (the ones already waiting see the failure).
  void Fulfill(const std::string& key, const Claim& claim, ReferenceLibrary library);

 private:
  std::mutex mu_;
  std::map<std::string, std::shared_future<ReferenceLibrary>> libraries_;
};

}  // namespace tunefarm::tuner
