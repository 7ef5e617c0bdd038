#include "compiler/codegen/cuda/nvrtc_compile.h"

#include <cstdio>
#include <fstream>
#include <nvrtc.h>
#include <regex>
#include <set>
#include <sstream>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace tunefarm::codegen::cuda {
namespace {

// NVRTC's log names lines as "<program>(12): error: ..."; quotes the generated lines it names.
std::string QuoteSourceLines(const std::string& log, const std::string& source) {
  std::vector<std::string> lines = absl::StrSplit(source, '\n');
  std::set<int> numbers;
  static const std::regex kRef(R"(\((\d+)\): (error|warning))");
  for (std::sregex_iterator it(log.begin(), log.end(), kRef), end; it != end; ++it) {
    if ((*it)[2] == "error") numbers.insert(std::stoi((*it)[1]));
  }
  std::string out;
  for (int n : numbers) {
    if (n >= 1 && n <= static_cast<int>(lines.size())) {
      absl::StrAppend(&out, "\n  line ", n, ": ", lines[n - 1]);
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<std::string> CompileToPtx(const std::string& source, const std::string& program,
                                         const target::CudaTarget& target) {
  nvrtcProgram prog = nullptr;
  nvrtcResult r = nvrtcCreateProgram(&prog, source.c_str(), program.c_str(), 0, nullptr, nullptr);
  if (r != NVRTC_SUCCESS) {
    return absl::InternalError(absl::StrCat("nvrtcCreateProgram: ", nvrtcGetErrorString(r)));
  }
  const std::string arch = "--gpu-architecture=" + target.virtual_arch();
  const char* options[] = {arch.c_str(), "--std=c++17", "--use_fast_math"};
  r = nvrtcCompileProgram(prog, 3, options);
  size_t log_size = 0;
  nvrtcGetProgramLogSize(prog, &log_size);
  std::string log(log_size, '\0');
  if (log_size > 0) nvrtcGetProgramLog(prog, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  if (r != NVRTC_SUCCESS) {
    nvrtcDestroyProgram(&prog);
    return absl::InvalidArgumentError(absl::StrCat(
        "NVRTC rejected the generated CUDA for ", target.virtual_arch(), " (",
        nvrtcGetErrorString(r), "):\n", log, "\ngenerated source:", QuoteSourceLines(log, source)));
  }
  size_t ptx_size = 0;
  nvrtcGetPTXSize(prog, &ptx_size);
  std::string ptx(ptx_size, '\0');
  nvrtcGetPTX(prog, ptx.data());
  nvrtcDestroyProgram(&prog);
  while (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
  return ptx;
}

absl::StatusOr<std::vector<KernelResources>> PtxasReport(const std::string& ptx,
                                                         const std::string& arch) {
  char path[] = "/tmp/tunefarm-ptxas-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return absl::InternalError("mkstemp failed for the ptxas input");
  close(fd);
  {
    std::ofstream file(path);
    file << ptx;
  }
  for (char c : arch) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') {
      std::remove(path);
      return absl::InvalidArgumentError(absl::StrCat("bad arch for ptxas: ", arch));
    }
  }
  const std::string command =
      absl::StrCat(TUNEFARM_PTXAS_PROGRAM, " -v -arch=", arch, " ", path, " -o /dev/null 2>&1");
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    std::remove(path);
    return absl::InternalError(absl::StrCat("cannot run ", TUNEFARM_PTXAS_PROGRAM));
  }
  char buf[4096];
  size_t n = 0;
  while ((n = fread(buf, 1, sizeof(buf), pipe)) > 0) output.append(buf, n);
  const int rc = pclose(pipe);
  std::remove(path);
  if (rc != 0) {
    return absl::InvalidArgumentError(absl::StrCat("ptxas (", arch, ") failed:\n", output));
  }
  std::vector<KernelResources> kernels;
  static const std::regex kEntry(R"(Compiling entry function '([^']+)')");
  static const std::regex kUsed(R"(Used (\d+) registers)");
  static const std::regex kShared(R"((\d+) bytes smem)");
  static const std::regex kStack(R"((\d+) bytes stack frame)");
  std::smatch m;
  for (const std::string& line : std::vector<std::string>(absl::StrSplit(output, '\n'))) {
    if (std::regex_search(line, m, kEntry)) {
      kernels.push_back(KernelResources{m[1], 0, 0, 0});
      continue;
    }
    if (kernels.empty()) continue;
    if (std::regex_search(line, m, kUsed)) kernels.back().registers = std::stoi(m[1]);
    if (std::regex_search(line, m, kShared)) kernels.back().shared_bytes = std::stoll(m[1]);
    if (std::regex_search(line, m, kStack)) kernels.back().stack_bytes = std::stoll(m[1]);
  }
  return kernels;
}

}  // namespace tunefarm::codegen::cuda
