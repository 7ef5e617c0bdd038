#include "compiler/interp/frame.h"

#include <cstring>
#include <new>
#include <utility>

#include "absl/strings/str_cat.h"

namespace tunefarm::interp {
namespace {

constexpr const char* kThreadTagNames[kNumThreadTags] = {
    "blockIdx.x", "blockIdx.y", "blockIdx.z", "threadIdx.x", "threadIdx.y", "threadIdx.z"};

// " (at blockIdx.x=1, threadIdx.x=3)" for an error inside a launch, "" outside.
std::string Location(const Frame& f) {
  std::string where;
  for (int t = 0; t < kNumThreadTags; ++t) {
    if (f.tag_extent[t] == 0) continue;
    absl::StrAppend(&where, where.empty() ? " (at " : ", ", kThreadTagNames[t], "=",
                    f.tag_index[t]);
  }
  return where.empty() ? where : where + ")";
}

}  // namespace

int ThreadTagIndex(const std::string& tag) {
  for (int t = 0; t < kNumThreadTags; ++t) {
    if (tag == kThreadTagNames[t]) return t;
  }
  return -1;
}

const char* ThreadTagName(int index) { return kThreadTagNames[index]; }

void Frame::Fail(const absl::Status& status) {
  if (state->failed) return;
  state->failed = true;
  state->error = absl::Status(status.code(), absl::StrCat(status.message(), Location(*this)));
}

bool NewStorage(Frame& f, const std::string& what, int64_t count, int elem_bytes, Storage* out) {
  if (count < 0) {
    f.Fail(absl::InvalidArgumentError(
        absl::StrCat("allocation of ", what, " has negative size ", count)));
    return false;
  }
  if (count > kMaxAllocationBytes / elem_bytes) {
    f.Fail(absl::ResourceExhaustedError(absl::StrCat(
        "allocation of ", what, " needs ", count, " elements of ", elem_bytes,
        " bytes, more than the interpreter's limit of ", kMaxAllocationBytes, " bytes")));
    return false;
  }
  // At least one byte, so that `bytes != nullptr` tells a made storage even when it is empty.
  const size_t bytes = static_cast<size_t>(count) * elem_bytes + 1;
  out->bytes.reset(new (std::nothrow) uint8_t[bytes]);
  if (out->bytes == nullptr) {
    f.Fail(absl::ResourceExhaustedError(absl::StrCat("cannot allocate ", what)));
    return false;
  }
  std::memset(out->bytes.get(), kPoisonByte, bytes);
  out->size = count;
  return true;
}

void PrivatizeLocals(Frame& f, std::vector<Storage>* owned) {
  // A local buffer bound both flat and as a tensor (a realize) must stay one storage: copies are
  // looked up by the original address.
  std::vector<std::pair<const uint8_t*, uint8_t*>> copies;
  auto copy_of = [&](const uint8_t* data, int64_t size, int elem_bytes) {
    for (const auto& [from, to] : copies) {
      if (from == data) return to;
    }
    const size_t bytes = static_cast<size_t>(size) * elem_bytes + 1;
    Storage s;
    s.bytes.reset(new uint8_t[bytes]);
    std::memcpy(s.bytes.get(), data, bytes);
    s.size = size;
    uint8_t* to = s.bytes.get();
    owned->push_back(std::move(s));
    copies.emplace_back(data, to);
    return to;
  };
  for (BufferView& b : f.buffers) {
    if (b.thread_private && b.data != nullptr) b.data = copy_of(b.data, b.size, b.elem_bytes);
  }
  for (TensorView& t : f.tensors) {
    if (t.thread_private && t.data != nullptr) t.data = copy_of(t.data, t.size, t.elem_bytes);
  }
}

}  // namespace tunefarm::interp
