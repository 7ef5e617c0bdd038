#include "runtime/opencl/program_binary_cache.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unistd.h>

#include "absl/strings/str_cat.h"

namespace tunefarm::runtime::opencl {
namespace {

constexpr char kHeader[] = "tunefarm-opencl-binary 1\n";
constexpr uint64_t kMaxFileBytes = uint64_t{256} << 20;

uint64_t Fnv1a(const std::string& a, const std::string& b) {
  uint64_t h = 1469598103934665603ull;
  for (const std::string* s : {&a, &b}) {
    for (unsigned char c : *s) {
      h ^= c;
      h *= 1099511628211ull;
    }
    h ^= 0xff;  // a separator no byte of the first string can fake
    h *= 1099511628211ull;
  }
  return h;
}

void AppendSized(const std::string& s, std::string* out) {
  absl::StrAppend(out, s.size(), "\n");
  out->append(s);
}

// Reads a "<size>\n<bytes>" field at `*pos`; false when malformed.
bool ReadSized(const std::string& text, size_t* pos, std::string* out) {
  const size_t nl = text.find('\n', *pos);
  if (nl == std::string::npos || nl == *pos || nl - *pos > 12) return false;
  uint64_t size = 0;
  for (size_t i = *pos; i < nl; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    size = size * 10 + static_cast<uint64_t>(text[i] - '0');
  }
  if (size > text.size() - (nl + 1)) return false;
  *out = text.substr(nl + 1, size);
  *pos = nl + 1 + size;
  return true;
}

}  // namespace

std::string ProgramBinaryCache::DefaultDir() {
  if (const char* dir = std::getenv("TUNEFARM_OPENCL_CACHE"); dir != nullptr && *dir != '\0') {
    return std::string(dir) == "off" ? "" : dir;
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
    return absl::StrCat(xdg, "/tunefarm/opencl");
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return absl::StrCat(home, "/.cache/tunefarm/opencl");
  }
  return "";
}

ProgramBinaryCache::ProgramBinaryCache(std::string dir, std::string device_identity)
    : dir_(std::move(dir)), identity_(std::move(device_identity)) {}

std::string ProgramBinaryCache::PathOf(const std::string& source) const {
  char name[32];
  std::snprintf(name, sizeof(name), "%016llx.bin",
                static_cast<unsigned long long>(Fnv1a(identity_, source)));  // NOLINT
  return absl::StrCat(dir_, "/", name);
}

std::optional<std::string> ProgramBinaryCache::Find(const std::string& source) const {
  if (!enabled()) return std::nullopt;
  const std::string path = PathOf(source);
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(path, ec);
  if (ec || size > kMaxFileBytes) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.rfind(kHeader, 0) != 0) return std::nullopt;
  size_t pos = sizeof(kHeader) - 1;
  std::string identity, stored_source, binary;
  if (!ReadSized(text, &pos, &identity) || !ReadSized(text, &pos, &stored_source) ||
      !ReadSized(text, &pos, &binary) || pos != text.size()) {
    return std::nullopt;
  }
  // The name is a hash: the file says whose binary it holds.
  if (identity != identity_ || stored_source != source || binary.empty()) return std::nullopt;
  return binary;
}

void ProgramBinaryCache::Store(const std::string& source, const std::string& binary) const {
  if (!enabled() || binary.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) return;
  std::string text = kHeader;
  AppendSized(identity_, &text);
  AppendSized(source, &text);
  AppendSized(binary, &text);
  if (text.size() > kMaxFileBytes) return;
  // Written aside and renamed: a reader never sees half a file, and writers do not interleave.
  const std::string path = PathOf(source);
  static std::atomic<uint64_t> writes{0};
  const std::string temp = absl::StrCat(path, ".", getpid(), ".", writes++, ".tmp");
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out) {
      std::filesystem::remove(temp, ec);
      return;
    }
  }
  std::filesystem::rename(temp, path, ec);
  if (ec) std::filesystem::remove(temp, ec);
}

}  // namespace tunefarm::runtime::opencl
