#include "runtime/npy_file.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

#include "absl/strings/str_cat.h"

namespace tunefarm::runtime {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
// NumPy writes headers of a few hundred bytes; a larger one is not a tensor we can hold.
constexpr size_t kMaxHeaderBytes = 1 << 16;
constexpr size_t kMaxRank = 8;

absl::Status Bad(const std::string& what, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat(what, ": not a .npy file we can read: ", why));
}

// The text after `'key':` in the header dict, or empty.
std::string_view ValueOf(std::string_view header, std::string_view key) {
  const std::string quoted = "'" + std::string(key) + "'";
  size_t at = header.find(quoted);
  if (at == std::string_view::npos) return {};
  at = header.find(':', at + quoted.size());
  if (at == std::string_view::npos) return {};
  std::string_view rest = header.substr(at + 1);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  return rest;
}

bool DtypeOf(std::string_view descr, DLDataType* dtype) {
  struct Known {
    std::string_view descr;
    DLDataType dtype;
  };
  static const Known kKnown[] = {
      {"<f4", {kDLFloat, 32, 1}}, {"<f8", {kDLFloat, 64, 1}}, {"|i1", {kDLInt, 8, 1}},
      {"<i2", {kDLInt, 16, 1}},   {"<i4", {kDLInt, 32, 1}},   {"<i8", {kDLInt, 64, 1}},
      {"|u1", {kDLUInt, 8, 1}},   {"|b1", {kDLUInt, 1, 1}},
  };
  for (const Known& k : kKnown) {
    if (descr == k.descr) {
      *dtype = k.dtype;
      return true;
    }
  }
  return false;
}

}  // namespace

absl::StatusOr<NDArray> ParseNpy(std::string_view bytes, const std::string& what) {
  if (bytes.size() < 10 || bytes.substr(0, kMagic.size()) != kMagic) {
    return Bad(what, "no \\x93NUMPY magic");
  }
  const auto major = static_cast<unsigned char>(bytes[6]);
  size_t header_len = 0, header_at = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | static_cast<unsigned char>(bytes[9]) << 8;
    header_at = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return Bad(what, "truncated header");
    for (int i = 3; i >= 0; --i)
      header_len = header_len << 8 | static_cast<unsigned char>(bytes[8 + i]);
    header_at = 12;
  } else {
    return Bad(what, absl::StrCat("format version ", major));
  }
  if (header_len > kMaxHeaderBytes || header_at + header_len > bytes.size()) {
    return Bad(what, "the header runs past the file");
  }
  const std::string_view header = bytes.substr(header_at, header_len);
  std::string_view descr = ValueOf(header, "descr");
  if (descr.size() < 2 || descr.front() != '\'') return Bad(what, "no 'descr'");
  descr =
      descr.substr(1, descr.find('\'', 1) == std::string_view::npos ? 0 : descr.find('\'', 1) - 1);
  DLDataType dtype;
  if (!DtypeOf(descr, &dtype)) {
    return absl::UnimplementedError(absl::StrCat(what, ": dtype '", std::string(descr),
                                                 "' (little-endian float32/64, int8-64, uint8 and "
                                                 "bool are read)"));
  }
  if (ValueOf(header, "fortran_order").substr(0, 5) != "False") {
    return absl::UnimplementedError(absl::StrCat(what, ": Fortran order (save it C-contiguous)"));
  }
  std::string_view shape_text = ValueOf(header, "shape");
  if (shape_text.empty() || shape_text.front() != '(') return Bad(what, "no 'shape'");
  const size_t close = shape_text.find(')');
  if (close == std::string_view::npos) return Bad(what, "an unterminated 'shape'");
  std::vector<int64_t> shape;
  std::string_view dims = shape_text.substr(1, close - 1);
  while (!dims.empty()) {
    while (!dims.empty() && (dims.front() == ' ' || dims.front() == ',')) dims.remove_prefix(1);
    if (dims.empty()) break;
    int64_t d = 0;
    size_t digits = 0;
    while (digits < dims.size() && dims[digits] >= '0' && dims[digits] <= '9') {
      if (d > (int64_t{1} << 40)) return Bad(what, "a dimension too large");
      d = d * 10 + (dims[digits] - '0');
      ++digits;
    }
    if (digits == 0)
      return Bad(what, absl::StrCat("a malformed 'shape': ",
                                    std::string(shape_text.substr(0, close + 1))));
    dims.remove_prefix(digits);
    while (!dims.empty() && dims.front() == 'L') dims.remove_prefix(1);
    shape.push_back(d);
    if (shape.size() > kMaxRank) return Bad(what, "more than 8 dimensions");
  }
  absl::StatusOr<size_t> need = NDArray::BytesFor(shape, dtype);
  if (!need.ok()) return Bad(what, std::string(need.status().message()));
  const size_t have = bytes.size() - header_at - header_len;
  if (*need != have) {
    return Bad(what,
               absl::StrCat("the shape needs ", *need, " bytes of data and the file holds ", have));
  }
  absl::StatusOr<NDArray> array = NDArray::Empty(shape, dtype);
  if (!array.ok()) return array.status();
  if (have > 0) std::memcpy(array->data(), bytes.data() + header_at + header_len, have);
  return array;
}

absl::StatusOr<NDArray> ReadNpyFile(const std::string& path, uint64_t max_bytes) {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return absl::NotFoundError(absl::StrCat("cannot read '", path, "': ", ec.message()));
  if (size > max_bytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", path, "' is ", size, " bytes; an array file may hold at most ", max_bytes));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read '", path, "'"));
  std::ostringstream text;
  text << in.rdbuf();
  return ParseNpy(text.str(), path);
}

}  // namespace tunefarm::runtime
