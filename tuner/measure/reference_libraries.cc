#include "tuner/measure/reference_libraries.h"

namespace tunefarm::tuner {

ReferenceLibraries::Claim ReferenceLibraries::Find(const std::string& key) {
  std::lock_guard<std::mutex> lock(mu_);
  if (auto it = libraries_.find(key); it != libraries_.end()) return Claim{it->second, nullptr};
  auto promise = std::make_shared<std::promise<ReferenceLibrary>>();
  std::shared_future<ReferenceLibrary> future = promise->get_future().share();
  libraries_.emplace(key, future);
  return Claim{future, promise};
}

void ReferenceLibraries::Fulfill(const std::string& key, const Claim& claim,
                                 ReferenceLibrary library) {
  const bool failed = library.outcome.error_kind != ErrorKind::kOk;
  claim.promise->set_value(std::move(library));
  if (!failed) return;
  std::lock_guard<std::mutex> lock(mu_);
  libraries_.erase(key);
}

}  // namespace tunefarm::tuner
