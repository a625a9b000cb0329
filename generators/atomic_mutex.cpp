// A simulated lock for Knossos' mutex model. A client holding the lock releases it;
// every other client tries to acquire it, and an acquire that finds the lock taken
// completes with :fail (a try-lock: it did not happen, and the model drops it), so
// no acquire ever blocks. A crashed acquire that takes effect leaves the lock with
// its client's slot, which goes on (as a fresh process) to release it; a crashed
// release that never takes effect leaves the lock held, and the slot releases again.
// Crashed operations take effect before their :info or never, since a lock taken
// after its client gave up would stay taken for good.
//
// The violation: two acquires, the second invoked after the first completed, both
// :ok, with no release that could be ordered between them. Every release must either
// have completed before the first acquire was invoked or be invoked after the second
// completed. The simulation sees to it: releases are not invoked while the pattern
// runs, the first acquire waits for those in flight (and for the lock to be free, so
// that it usually really takes it), and no release invoked before the pattern ends
// crashes, since a crashed release stays open to the end of the history and could be
// ordered anywhere after its invocation. Then every order puts the first acquire
// before the second with no release between, and a lock cannot be acquired twice
// without one. Other acquires, crashed or not, only add acquisitions.
#include "generators/atomic_object.hpp"

namespace ariadne::generators {

namespace {

class MutexObject final : public AtomicObject {
 public:
  explicit MutexObject(const ObjectContext& context) : holds_(context.processes, false) {}

  AtomicOp next_op(std::size_t slot) override { return op(holds_[slot] ? "release" : "acquire"); }

  void take_effect(AtomicOp& op) override {
    if (op.f == "release") {
      // Only a holder releases, and only its own slot is running this release.
      locked_ = false;
      holds_[op.slot] = false;
    } else if (!locked_) {
      locked_ = true;
      holds_[op.slot] = true;
    } else {
      op.completion = EventType::fail;
    }
  }

  std::size_t pattern_size() const override { return 2; }
  AtomicOp pattern_op(std::size_t /*step*/) override { return op("acquire"); }

  std::string break_pattern(std::span<AtomicOp* const> pattern) override {
    std::string changed;
    std::size_t changes = 0;
    for (AtomicOp* acquire : pattern) {
      if (acquire->completion == EventType::fail) {
        changed += (changes++ == 0 ? "" : " and ") + op_name(*acquire);
      }
      acquire->completion = EventType::ok;
    }
    const std::string how =
        changes == 1 ? " failed in the simulation and was changed" : " failed in the simulation and were changed";
    return "The violation: " + op_name(*pattern[0]) + " acquires the lock and completes before " +
           op_name(*pattern[1]) + " is invoked, which acquires it too; both are :ok" +
           (changes == 0 ? "" : " (" + changed + how + ")") +
           ". Every release completed before the first acquire was invoked or was invoked after the second "
           "completed (no release crashed before then, so none stays open across them): every order puts the two "
           "acquires in a row with no release between, and a lock cannot be taken twice. Not linearizable, whatever "
           "the other acquires did; the releases take part through their real time alone, as they must in any "
           "mutex violation, since a release free to go anywhere could always go between.";
  }

  bool effect_may_follow_crash() const override { return false; }
  bool next_op_must_avoid_pattern(std::size_t slot) const override { return holds_[slot]; }
  // The first acquire then really takes the lock, and the second is the anomaly: a
  // second client told it holds a lock that was never released.
  bool pattern_may_start() const override { return !locked_; }

 private:
  static AtomicOp op(const char* f) {
    AtomicOp result;
    result.f = f;
    return result;
  }

  std::vector<bool> holds_;  // per client slot
  bool locked_ = false;
};

}  // namespace

std::unique_ptr<AtomicObject> make_mutex_object(const ObjectContext& context) {
  return std::make_unique<MutexObject>(context);
}

}  // namespace ariadne::generators
