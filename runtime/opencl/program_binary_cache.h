// Program binaries an OpenCL device's compiler produced, kept on disk per device and source, so
// that a module loaded again (a model run, a worker measuring a candidate it saw before) skips the
// compiler, which takes hundreds of milliseconds per program on a phone's or board's driver.
// Best effort: a missing, unreadable or foreign file is a miss, a failed write is ignored.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tunefarm::runtime::opencl {

class ProgramBinaryCache {
 public:
  // $TUNEFARM_OPENCL_CACHE, else $XDG_CACHE_HOME/tunefarm/opencl, else
  // $HOME/.cache/tunefarm/opencl; "" (no cache) when none is set or TUNEFARM_OPENCL_CACHE=off.
  static std::string DefaultDir();

  // `device_identity` names the device and driver (its name, vendor and driver version): a
  // driver update or another device misses.
  ProgramBinaryCache(std::string dir, std::string device_identity);

  bool enabled() const { return !dir_.empty(); }
  // The binary stored for `source` on this device; nullopt when there is none (or the file is
  // over 256 MiB, truncated, or written for another device or source).
  std::optional<std::string> Find(const std::string& source) const;
  void Store(const std::string& source, const std::string& binary) const;

  // The file `source`'s binary lives in.
  std::string PathOf(const std::string& source) const;

 private:
  std::string dir_;
  std::string identity_;
};

}  // namespace tunefarm::runtime::opencl
