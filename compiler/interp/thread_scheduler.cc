// GPU semantics: blocks run one after another; the threads of a block run one after another over
// each barrier-free stretch of code, and switch only at a barrier. So a read of another thread's
// write without a barrier between them sees the old (poisoned) value, and a missing barrier
// changes the result instead of going unnoticed.
//
// Structurally: a statement without a barrier runs to completion for each thread in turn
// (StmtCode::RunThreads); one with a barrier descends (the overrides below): a sequence is split
// into segments at its barrier-containing statements, a loop runs each iteration for all threads
// (its extent must agree across threads), a branch must be taken alike by all threads.
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/interp/stmt_code.h"

namespace tunefarm::interp {
namespace {

// More threads than this in one block is a program error, not something to emulate.
constexpr int64_t kMaxThreadsPerBlock = int64_t{1} << 16;

// Evaluates scalar `e` in every thread; false after reporting an error or a disagreement.
bool Uniform(ThreadSet threads, const ExprCode* e, const char* what, int64_t* value) {
  for (size_t t = 0; t < threads.size(); ++t) {
    const int64_t v = e->Scalar(threads[t]).i;
    if (threads[t].failed()) return false;
    if (t == 0) {
      *value = v;
    } else if (v != *value) {
      threads[t].Fail(absl::InvalidArgumentError(absl::StrCat(
          what, ": ", v, " in this thread but ", *value, " in the block's first thread")));
      return false;
    }
  }
  return true;
}

bool AnyFailed(ThreadSet threads) { return !threads.empty() && threads[0].failed(); }

// Runs `s` for all threads: together if it contains a barrier, else each thread in turn.
void RunAll(const StmtCode* s, ThreadSet threads) {
  if (s->has_barrier()) {
    s->RunThreads(threads);
    return;
  }
  for (Frame& t : threads) {
    s->Run(t);
    if (t.failed()) return;
  }
}

// Each parent thread becomes `extent` threads (a copy of its frame with the index bound and its
// local buffers privatized), so nested launches multiply the thread set.
std::vector<Frame> Spawn(ThreadSet parents, int tag, int slot, int64_t min, int64_t extent,
                         std::vector<Storage>* owned) {
  std::vector<Frame> threads;
  threads.reserve(parents.size() * extent);
  for (const Frame& parent : parents) {
    for (int64_t i = 0; i < extent; ++i) {
      Frame& t = threads.emplace_back(parent);
      t.tag_extent[tag] = extent;
      t.tag_index[tag] = i;
      t.slots[slot] = IntLane(min + i);
      PrivatizeLocals(t, owned);
    }
  }
  return threads;
}

}  // namespace

void StmtCode::RunThreads(ThreadSet threads) const {
  for (Frame& t : threads) {
    Run(t);
    if (t.failed()) return;
  }
}

void SeqCode::RunThreads(ThreadSet threads) const {
  for (const Segment& segment : segments_) {
    if (segment.has_barrier) {
      RunAll(segment.stmts[0], threads);
    } else {
      for (Frame& t : threads) {
        for (const StmtCode* s : segment.stmts) {
          s->Run(t);
          if (t.failed()) return;
        }
      }
    }
    if (AnyFailed(threads)) return;
  }
}

void ForCode::RunThreads(ThreadSet threads) const {
  int64_t extent = 0;
  if (!Uniform(threads, extent_, "barrier in divergent loop: extent", &extent)) return;
  std::vector<int64_t> mins(threads.size());
  std::vector<Lane> saved(threads.size());
  for (size_t t = 0; t < threads.size(); ++t) {
    mins[t] = min_->Scalar(threads[t]).i;
    saved[t] = threads[t].slots[slot_];
  }
  for (int64_t i = 0; i < extent && !AnyFailed(threads); ++i) {
    for (size_t t = 0; t < threads.size(); ++t) threads[t].slots[slot_].i = LoopValue(mins[t], i);
    RunAll(body_, threads);
  }
  for (size_t t = 0; t < threads.size(); ++t) threads[t].slots[slot_] = saved[t];
}

void LetStmtCode::RunThreads(ThreadSet threads) const {
  const int lanes = value_->lanes();
  std::vector<Lane> saved(threads.size() * lanes);
  Value value(lanes);
  for (size_t t = 0; t < threads.size(); ++t) {
    Frame& f = threads[t];
    value_->Vector(f, value.data());  // before replacing the slots it may read
    for (int l = 0; l < lanes; ++l) {
      saved[t * lanes + l] = f.slots[slot_ + l];
      f.slots[slot_ + l] = value[l];
    }
  }
  if (!AnyFailed(threads)) RunAll(body_, threads);
  for (size_t t = 0; t < threads.size(); ++t) {
    for (int l = 0; l < lanes; ++l) threads[t].slots[slot_ + l] = saved[t * lanes + l];
  }
}

void IfCode::RunThreads(ThreadSet threads) const {
  int64_t c = 0;
  if (!Uniform(threads, condition_, "barrier in divergent branch: condition", &c)) return;
  if (c != 0) {
    RunAll(then_, threads);
  } else if (else_ != nullptr) {
    RunAll(else_, threads);
  }
}

void AssertCode::RunThreads(ThreadSet threads) const {
  for (Frame& t : threads) {
    const bool c = condition_->Scalar(t).i != 0;
    if (t.failed()) return;
    if (!c) {
      t.Fail(absl::InvalidArgumentError(absl::StrCat("assertion failed: ", message_)));
      return;
    }
  }
  RunAll(body_, threads);
}

void AllocateCode::RunThreads(ThreadSet threads) const {
  std::vector<Storage> owned(threads.size());
  std::vector<BufferView> saved(threads.size());
  for (size_t t = 0; t < threads.size(); ++t) saved[t] = threads[t].buffers[slot_];
  bool ok = true;
  for (size_t t = 0; t < threads.size() && ok; ++t) {
    const int64_t count = Count(threads[t]);
    uint8_t* data = count < 0 ? nullptr : AcquireStorage(threads[t], spec_, count, &owned[t]);
    ok = data != nullptr;
    if (ok) threads[t].buffers[slot_] = View(data, count);
  }
  if (ok) RunAll(body_, threads);
  for (size_t t = 0; t < threads.size(); ++t) threads[t].buffers[slot_] = saved[t];
}

void RealizeCode::RunThreads(ThreadSet threads) const {
  std::vector<std::vector<int64_t>> regions(threads.size());
  std::vector<Storage> owned(threads.size());
  std::vector<TensorView> saved_tensors(threads.size());
  std::vector<BufferView> saved_buffers(threads.size());
  bool ok = true;
  for (size_t t = 0; t < threads.size(); ++t) {
    saved_tensors[t] = threads[t].tensors[tensor_slot_];
    saved_buffers[t] = threads[t].buffers[buffer_slot_];
    ok = ok && Bind(threads[t], regions[t], &owned[t]);
  }
  if (ok) RunAll(body_, threads);
  for (size_t t = 0; t < threads.size(); ++t) {
    threads[t].tensors[tensor_slot_] = saved_tensors[t];
    threads[t].buffers[buffer_slot_] = saved_buffers[t];
  }
}

bool ThreadLaunchCode::Range(Frame& f, int64_t* min, int64_t* extent) const {
  *min = min_ ? min_->Scalar(f).i : 0;
  *extent = extent_->Scalar(f).i;
  if (f.failed()) return false;
  if (*extent < 0 || *extent > kMaxThreadsPerBlock) {
    f.Fail(absl::InvalidArgumentError(absl::StrCat(ThreadTagName(tag_), " launched with extent ",
                                                   *extent, "; the interpreter allows [0, ",
                                                   kMaxThreadsPerBlock, "]")));
    return false;
  }
  if (f.tag_extent[tag_] != 0 && f.tag_extent[tag_] != *extent) {
    f.Fail(absl::InvalidArgumentError(absl::StrCat(ThreadTagName(tag_), " bound again with extent ",
                                                   *extent, " inside its launch with extent ",
                                                   f.tag_extent[tag_])));
    return false;
  }
  if (IsBlock() && f.tag_extent[tag_] == 0) {
    for (int t = kFirstThreadIdxTag; t < kNumThreadTags; ++t) {
      if (f.tag_extent[t] == 0) continue;
      f.Fail(absl::InvalidArgumentError(
          absl::StrCat(ThreadTagName(tag_), " launched inside ", ThreadTagName(t))));
      return false;
    }
  }
  return true;
}

void ThreadLaunchCode::Rebind(ThreadSet threads, int64_t min, int64_t) const {
  std::vector<Lane> saved(threads.size());
  for (size_t t = 0; t < threads.size(); ++t) {
    saved[t] = threads[t].slots[slot_];
    threads[t].slots[slot_] = IntLane(min + threads[t].tag_index[tag_]);
  }
  RunAll(body_, threads);
  for (size_t t = 0; t < threads.size(); ++t) threads[t].slots[slot_] = saved[t];
}

void ThreadLaunchCode::RunBlocks(Frame& f, int64_t min, int64_t extent) const {
  const Lane saved = f.slots[slot_];
  BlockContext* const saved_block = f.block;
  for (int64_t b = 0; b < extent && !f.failed(); ++b) {
    BlockContext block;
    f.block = &block;
    f.tag_extent[tag_] = extent;
    f.tag_index[tag_] = b;
    f.slots[slot_] = IntLane(min + b);
    body_->Run(f);
  }
  f.tag_extent[tag_] = 0;
  f.tag_index[tag_] = 0;
  f.block = saved_block;
  f.slots[slot_] = saved;
}

void ThreadLaunchCode::Run(Frame& f) const {
  int64_t min = 0, extent = 0;
  if (!Range(f, &min, &extent)) return;
  if (f.tag_extent[tag_] != 0) return Rebind(ThreadSet(&f, 1), min, extent);
  if (IsBlock()) return RunBlocks(f, min, extent);
  std::vector<Storage> owned;
  std::vector<Frame> threads = Spawn(ThreadSet(&f, 1), tag_, slot_, min, extent, &owned);
  RunAll(body_, threads);
}

void ThreadLaunchCode::RunThreads(ThreadSet threads) const {
  if (threads.empty()) return;
  int64_t min = 0, extent = 0;
  for (Frame& t : threads) {
    if (!Range(t, &min, &extent)) return;
  }
  if (!Uniform(threads, extent_, "thread extent differs across threads", &extent)) return;
  if (threads[0].tag_extent[tag_] != 0) return Rebind(threads, min, extent);
  std::vector<Storage> owned;
  std::vector<Frame> spawned = Spawn(threads, tag_, slot_, min, extent, &owned);
  RunAll(body_, spawned);
}

}  // namespace tunefarm::interp
