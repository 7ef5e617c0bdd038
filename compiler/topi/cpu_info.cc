#include "compiler/topi/cpu_info.h"

#include <algorithm>
#include <fstream>
#include <sched.h>
#include <sstream>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace tunefarm::topi {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return "";
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string_view Strip(std::string_view s) {
  const char* space = " \t\r\n";
  size_t begin = s.find_first_not_of(space);
  if (begin == std::string_view::npos) return {};
  return s.substr(begin, s.find_last_not_of(space) - begin + 1);
}

// The value of the first "key : value" line whose key is `key`, or empty.
std::string_view FieldOf(std::string_view text, std::string_view key) {
  while (!text.empty()) {
    size_t end = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    size_t colon = line.find(':');
    if (colon != std::string_view::npos && Strip(line.substr(0, colon)) == key) {
      return Strip(line.substr(colon + 1));
    }
  }
  return {};
}

bool HasWord(std::string_view words, std::string_view word) {
  size_t at = 0;
  while ((at = words.find(word, at)) != std::string_view::npos) {
    bool starts = at == 0 || words[at - 1] == ' ';
    bool ends = at + word.size() == words.size() || words[at + word.size()] == ' ';
    if (starts && ends) return true;
    at += word.size();
  }
  return false;
}

// "32K", "1024K", "2M" or a plain byte count, as /sys prints cache sizes; 0 when unreadable.
int64_t ParseCacheSize(std::string_view text) {
  text = Strip(text);
  int64_t scale = 1;
  if (!text.empty() && (text.back() == 'K' || text.back() == 'M')) {
    scale = text.back() == 'K' ? 1024 : 1024 * 1024;
    text.remove_suffix(1);
  }
  int64_t value = 0;
  return absl::SimpleAtoi(absl::string_view(text.data(), text.size()), &value) ? value * scale : 0;
}

int ProcessCpuCount() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

void ReadCacheSizes(CpuInfo& info) {
  for (int index = 0; index < 8; ++index) {
    std::string dir = absl::StrCat("/sys/devices/system/cpu/cpu0/cache/index", index, "/");
    std::string level = ReadFile(dir + "level");
    if (level.empty()) break;
    std::string type(Strip(ReadFile(dir + "type")));
    int64_t size = ParseCacheSize(ReadFile(dir + "size"));
    if (size == 0 || type == "Instruction") continue;
    switch (level[0]) {
      case '1':
        info.l1d_bytes = size;
        break;
      case '2':
        info.l2_bytes = size;
        break;
      case '3':
        info.l3_bytes = size;
        break;
      default:
        break;
    }
  }
}

}  // namespace

int CpuInfo::Lanes(int element_bytes) const {
  return std::max(1, vector_bits / (8 * std::max(1, element_bytes)));
}

int64_t BlockVectorLanes(int64_t block, const CpuInfo& cpu) {
  int64_t lanes = cpu.Lanes(4);
  while (lanes > 4 && block % lanes != 0) lanes /= 2;
  return lanes;
}

std::string CpuInfo::ToString() const {
  return absl::StrCat(model.empty() ? "cpu" : model, ": ", vector_bits, "-bit SIMD x",
                      vector_registers, has_fma ? " +fma" : "", ", ", cores, " cores, L1d ",
                      l1d_bytes / 1024, " KiB, L2 ", l2_bytes / 1024, " KiB, L3 ", l3_bytes / 1024,
                      " KiB");
}

CpuInfo Avx2Cpu(int cores) {
  CpuInfo info;
  info.vector_bits = 256;
  info.vector_registers = 16;
  info.has_fma = true;
  info.cores = cores;
  info.model = "avx2";
  return info;
}

CpuInfo ParseProcCpuinfo(std::string_view text, CpuInfo base) {
  CpuInfo info = base;
  if (std::string_view flags = FieldOf(text, "flags"); !flags.empty()) {  // x86
    info.has_fma = HasWord(flags, "fma");
    if (HasWord(flags, "avx512f")) {
      info.vector_bits = 512;
      info.vector_registers = 32;
    } else if (HasWord(flags, "avx2") || HasWord(flags, "avx")) {
      info.vector_bits = 256;
      info.vector_registers = 16;
    } else {
      info.vector_bits = 128;
      info.vector_registers = 16;
    }
  } else if (std::string_view features = FieldOf(text, "Features"); !features.empty()) {  // ARM
    info.vector_bits = 128;
    info.vector_registers = 32;
    info.has_fma = HasWord(features, "asimd") || HasWord(features, "vfpv4");
  }
  if (std::string_view model = FieldOf(text, "model name"); !model.empty()) {
    info.model = std::string(model);
  }
  return info;
}

CpuInfo DetectHostCpu() {
  CpuInfo info = ParseProcCpuinfo(ReadFile("/proc/cpuinfo"));
  info.cores = ProcessCpuCount();
  ReadCacheSizes(info);
  return info;
}

}  // namespace tunefarm::topi
