// What every function of tunefarm's C ABIs does at its boundary: one error line into the caller's
// buffer, no C++ exception crossing, NULL strings read as empty, and the "name=1,3,224,224;..."
// list of input shapes parsed once.
#pragma once

#include <algorithm>
#include <cstring>
#include <exception>
#include <stdint.h>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "driver/model_compiler.h"

namespace tunefarm::c_api {

// 1, with `message` (truncated) in `error` when there is room.
inline int32_t Fail(absl::string_view message, char* error, size_t error_size) {
  if (error != nullptr && error_size > 0) {
    const size_t n = std::min(message.size(), error_size - 1);
    std::memcpy(error, message.data(), n);
    error[n] = '\0';
  }
  return 1;
}

inline std::string Text(const char* s) { return s == nullptr ? std::string() : std::string(s); }

// A C++ exception never crosses the ABI: it becomes the call's error.
template <typename Body>
int32_t Guarded(char* error, size_t error_size, Body body) {
  try {
    return body();
  } catch (const std::exception& e) {
    return Fail(std::string("internal error: ") + e.what(), error, error_size);
  }
}

// "name=1,3,224,224;other=..." (NULL or "": none) into `shapes`.
inline absl::Status ParseShapeList(const char* text,
                                   std::map<std::string, std::vector<int64_t>>* shapes) {
  for (absl::string_view entry : absl::StrSplit(Text(text), ';', absl::SkipWhitespace())) {
    if (absl::Status s = driver::ParseInputShape(std::string(entry), shapes); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// A NUL-terminated copy of `text` from malloc, for the caller to release with TFFreeString.
inline char* MallocCopy(const std::string& text) {
  char* copy = static_cast<char*>(std::malloc(text.size() + 1));
  if (copy != nullptr) std::memcpy(copy, text.c_str(), text.size() + 1);
  return copy;
}

}  // namespace tunefarm::c_api
