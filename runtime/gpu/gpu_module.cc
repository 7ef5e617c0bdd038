#include "runtime/gpu/gpu_module.h"

#include <charconv>
#include <utility>

#include "absl/strings/str_cat.h"

// The text form, line based so that `head` shows what a module holds; every free-form string
// (PTX, manifest, names, expressions) is a blob: a line `KEY LENGTH`, then exactly LENGTH bytes,
// then a newline, so no escaping is needed and the round trip is exact.
//
//   tunefarm-cuda-module 1     (tunefarm-opencl-module 1)
//   arch 5
//   sm_90
//   ptx 1234                   (opencl 1234)
//   <PTX or OpenCL C>
//   manifest 120
//   <SerializeManifest of every host function's signature, in order>
//   function 1                 (one per manifest function: its number of launches)
//   launch 0 3                 (dynamic shared bytes, number of params)
//   kernel 8
//   vadd_k0_
//   grid 17
//   floordiv(n+63,64)           (three grid blobs, then three block blobs)
//   ...
//   param ptr 1                (ptr, i32 or i64, then the name as a blob)
//   A
//   end

namespace tunefarm::runtime::gpu {
namespace {

constexpr int kVersion = 1;

std::string HeaderOf(GpuApi api) {
  return absl::StrCat("tunefarm-", GpuApiName(api), "-module ", kVersion);
}

// The key of the device-code blob.
std::string_view CodeKey(GpuApi api) { return api == GpuApi::kCuda ? "ptx" : "opencl"; }

void AppendBlob(std::string_view key, std::string_view blob, std::string* out) {
  absl::StrAppend(out, std::string(key), " ", blob.size(), "\n");
  out->append(blob);
  out->push_back('\n');
}

std::string_view KindName(KernelParam::Kind kind) {
  switch (kind) {
    case KernelParam::Kind::kPointer:
      return "ptr";
    case KernelParam::Kind::kInt32:
      return "i32";
    case KernelParam::Kind::kInt64:
      return "i64";
  }
  return "ptr";
}

// Reads the text form front to back; errors name the line and what was expected.
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  bool AtEnd() const { return pos_ >= text_.size(); }

  absl::StatusOr<std::string_view> Line(std::string_view what) {
    size_t nl = text_.find('\n', pos_);
    if (nl == std::string_view::npos) {
      ++line_;  // the error is about the line that should be here
      return Error(absl::StrCat("expected ", std::string(what), ", found ",
                                AtEnd() ? "end of input" : "an unterminated line"));
    }
    std::string_view line = text_.substr(pos_, nl - pos_);
    pos_ = nl + 1;
    ++line_;
    return line;
  }

  // A line `KEY N1 N2 ...` with `count` non-negative integers after KEY.
  absl::StatusOr<std::vector<int64_t>> Record(std::string_view key, size_t count) {
    absl::StatusOr<std::string_view> line = Line(absl::StrCat("'", std::string(key), "'"));
    if (!line.ok()) return line.status();
    std::vector<std::string_view> tokens;
    for (size_t start = 0; start <= line->size();) {
      size_t space = line->find(' ', start);
      if (space == std::string_view::npos) space = line->size();
      tokens.push_back(line->substr(start, space - start));
      start = space + 1;
    }
    if (tokens.size() != count + 1 || tokens[0] != key) {
      return Error(absl::StrCat("expected '", std::string(key), "' with ", count,
                                " number(s), found '", std::string(*line), "'"));
    }
    std::vector<int64_t> numbers;
    for (size_t i = 1; i < tokens.size(); ++i) {
      int64_t v = -1;
      auto [end, ec] = std::from_chars(tokens[i].data(), tokens[i].data() + tokens[i].size(), v);
      // Only the canonical spelling ("2", never "02"): a file has one text per module.
      if (ec != std::errc() || end != tokens[i].data() + tokens[i].size() || v < 0 ||
          (tokens[i].size() > 1 && tokens[i][0] == '0')) {
        return Error(absl::StrCat("bad number '", std::string(tokens[i]), "' in '",
                                  std::string(key), "' record"));
      }
      numbers.push_back(v);
    }
    return numbers;
  }

  absl::StatusOr<std::string> Blob(std::string_view key) {
    absl::StatusOr<std::vector<int64_t>> header = Record(key, 1);
    if (!header.ok()) return header.status();
    return BlobBody(key, static_cast<uint64_t>((*header)[0]));
  }

  absl::StatusOr<std::string> BlobBody(std::string_view key, uint64_t size) {
    if (size > text_.size() - pos_ || size + 1 > text_.size() - pos_ ||
        text_[pos_ + size] != '\n') {
      return Error(absl::StrCat("'", std::string(key), "' blob of ", size,
                                " bytes is truncated or not followed by a newline"));
    }
    std::string blob(text_.substr(pos_, size));
    for (char c : blob) line_ += c == '\n' ? 1 : 0;
    pos_ += size + 1;
    ++line_;
    return blob;
  }

  absl::Status Error(std::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat("gpu module: line ", line_, ": ", std::string(what)));
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int64_t line_ = 0;  // the line last read (1-based), which errors name
};

absl::StatusOr<KernelParam> ReadParam(Reader& in) {
  absl::StatusOr<std::string_view> line = in.Line("'param'");
  if (!line.ok()) return line.status();
  // `param KIND LENGTH`: split by hand since KIND is a word.
  std::string_view rest = *line;
  if (rest.substr(0, 6) != "param ") {
    return in.Error(absl::StrCat("expected 'param', found '", std::string(*line), "'"));
  }
  rest.remove_prefix(6);
  size_t space = rest.find(' ');
  std::string_view kind = rest.substr(0, space);
  KernelParam param;
  if (kind == "ptr") {
    param.kind = KernelParam::Kind::kPointer;
  } else if (kind == "i32") {
    param.kind = KernelParam::Kind::kInt32;
  } else if (kind == "i64") {
    param.kind = KernelParam::Kind::kInt64;
  } else {
    return in.Error(
        absl::StrCat("unknown param kind '", std::string(kind), "' (expected ptr, i32 or i64)"));
  }
  uint64_t size = 0;
  std::string_view num = space == std::string_view::npos ? "" : rest.substr(space + 1);
  auto [end, ec] = std::from_chars(num.data(), num.data() + num.size(), size);
  if (num.empty() || ec != std::errc() || end != num.data() + num.size() ||
      (num.size() > 1 && num[0] == '0')) {
    return in.Error(absl::StrCat("bad param name length '", std::string(num), "'"));
  }
  absl::StatusOr<std::string> name = in.BlobBody("param", size);
  if (!name.ok()) return name.status();
  param.name = std::move(*name);
  return param;
}

absl::StatusOr<GpuLaunch> ReadLaunch(Reader& in) {
  absl::StatusOr<std::vector<int64_t>> header = in.Record("launch", 2);
  if (!header.ok()) return header.status();
  GpuLaunch launch;
  launch.dynamic_shared_bytes = (*header)[0];
  absl::StatusOr<std::string> kernel = in.Blob("kernel");
  if (!kernel.ok()) return kernel.status();
  launch.kernel = std::move(*kernel);
  for (auto* dims : {&launch.grid, &launch.block}) {
    for (std::string& dim : *dims) {
      absl::StatusOr<std::string> expr = in.Blob(dims == &launch.grid ? "grid" : "block");
      if (!expr.ok()) return expr.status();
      dim = std::move(*expr);
    }
  }
  for (int64_t i = 0; i < (*header)[1]; ++i) {
    absl::StatusOr<KernelParam> param = ReadParam(in);
    if (!param.ok()) return param.status();
    launch.params.push_back(std::move(*param));
  }
  return launch;
}

}  // namespace

std::string SerializeGpuModule(const GpuModuleImage& image) {
  std::string out = HeaderOf(image.api) + "\n";
  AppendBlob("arch", image.arch, &out);
  AppendBlob(CodeKey(image.api), image.code, &out);
  std::vector<FunctionSignature> signatures;
  for (const GpuHostFunction& fn : image.functions) signatures.push_back(fn.signature);
  AppendBlob("manifest", SerializeManifest(signatures), &out);
  for (const GpuHostFunction& fn : image.functions) {
    absl::StrAppend(&out, "function ", fn.launches.size(), "\n");
    for (const GpuLaunch& launch : fn.launches) {
      absl::StrAppend(&out, "launch ", launch.dynamic_shared_bytes, " ", launch.params.size(),
                      "\n");
      AppendBlob("kernel", launch.kernel, &out);
      for (const std::string& g : launch.grid) AppendBlob("grid", g, &out);
      for (const std::string& b : launch.block) AppendBlob("block", b, &out);
      for (const KernelParam& p : launch.params) {
        AppendBlob(absl::StrCat("param ", std::string(KindName(p.kind))), p.name, &out);
      }
    }
  }
  out += "end\n";
  return out;
}

bool LooksLikeGpuModule(std::string_view text, GpuApi api) {
  return text.substr(0, text.find('\n')) == HeaderOf(api);
}

absl::StatusOr<GpuModuleImage> ParseGpuModule(std::string_view text) {
  Reader in(text);
  absl::StatusOr<std::string_view> header = in.Line("the header");
  if (!header.ok()) return header.status();
  GpuModuleImage image;
  if (*header == HeaderOf(GpuApi::kCuda)) {
    image.api = GpuApi::kCuda;
  } else if (*header == HeaderOf(GpuApi::kOpenCl)) {
    image.api = GpuApi::kOpenCl;
  } else {
    return in.Error(absl::StrCat("expected header '", HeaderOf(GpuApi::kCuda), "' or '",
                                 HeaderOf(GpuApi::kOpenCl), "', found '",
                                 std::string(header->substr(0, 60)), "'"));
  }
  absl::StatusOr<std::string> arch = in.Blob("arch");
  if (!arch.ok()) return arch.status();
  image.arch = std::move(*arch);
  absl::StatusOr<std::string> code = in.Blob(CodeKey(image.api));
  if (!code.ok()) return code.status();
  image.code = std::move(*code);
  absl::StatusOr<std::string> manifest = in.Blob("manifest");
  if (!manifest.ok()) return manifest.status();
  std::vector<FunctionSignature> signatures;
  std::string error;
  if (!ParseManifest(*manifest, &signatures, &error)) {
    return in.Error(absl::StrCat("bad manifest: ", error));
  }
  for (FunctionSignature& signature : signatures) {
    absl::StatusOr<std::vector<int64_t>> count = in.Record("function", 1);
    if (!count.ok()) return count.status();
    GpuHostFunction fn;
    fn.signature = std::move(signature);
    for (int64_t i = 0; i < (*count)[0]; ++i) {
      absl::StatusOr<GpuLaunch> launch = ReadLaunch(in);
      if (!launch.ok()) return launch.status();
      fn.launches.push_back(std::move(*launch));
    }
    image.functions.push_back(std::move(fn));
  }
  absl::StatusOr<std::string_view> end = in.Line("'end'");
  if (!end.ok()) return end.status();
  if (*end != "end" || !in.AtEnd()) {
    return in.Error("expected 'end' as the last line (more functions than the manifest names?)");
  }
  return image;
}

}  // namespace tunefarm::runtime::gpu
