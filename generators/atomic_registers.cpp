// Simulated registers for the register, cas-register and etcd models.
//
// The three share one object: :read returns the value held (the initial value until
// the first write, nil included, which register and cas-register read as "unknown"
// and etcd as "absent"); :write v sets v; :cas [old new] sets new where the register
// holds old and otherwise completes with :fail, which Knossos' cas-register drops as
// an op that never happened and Porcupine's etcd model keeps as the observation "the
// register did not hold old" (models/etcd.cpp): both are true of a cas that found
// another value. A crashed cas takes effect only where old matches, as both models
// say.
//
// The violation is a stale read, as crash-storm's (stale_read.hpp): a write of a fresh
// v1 completes; then a write of a fresh v2 is invoked and completes; then a read,
// invoked after that, returns v1. Real time puts the three in that order in every
// linearization, and the register holds v1 only after a write of v1, of which there
// is one, before v2's: whatever the other operations did (crashed ones included: they
// never write v1 either), nothing explains the read.
#include "generators/atomic_object.hpp"

#include <deque>

namespace ariadne::generators {

namespace {

// The operation mix, in percent; the rest are cas (or writes, for a plain register).
constexpr std::uint64_t kReadPercent = 40;
constexpr std::uint64_t kWritePercent = 30;
constexpr std::uint64_t kRegisterReadPercent = 50;  // register: reads and writes only
// Where a cas's expected value comes from, in percent: what its client last saw (often
// out of date, so some cas fail), the value held at its invocation (which others may
// still change before it takes effect), or else one of the last few values written.
constexpr std::uint64_t kCasExpectsLastSeenPercent = 50;
constexpr std::uint64_t kCasExpectsCurrentPercent = 30;
constexpr std::size_t kRecentValues = 8;

enum class Step : std::size_t { first_write, second_write, stale_read };

class RegisterObject final : public AtomicObject {
 public:
  explicit RegisterObject(const ObjectContext& context)
      : random_(context.random),
        values_(context.values),
        with_cas_(context.model.name() != "register"),
        state_(context.init),
        last_seen_(context.processes, context.init) {}

  AtomicOp next_op(std::size_t slot) override {
    const std::uint64_t draw = random_.below(100);
    if (!with_cas_) return draw < kRegisterReadPercent ? read() : write(values_.draw(random_));
    if (draw < kReadPercent) return read();
    if (draw < kReadPercent + kWritePercent) return write(values_.draw(random_));
    AtomicOp op;
    op.f = "cas";
    op.invoke_value = Value::vector({expected_value(slot), Value::integer(values_.draw(random_))});
    return op;
  }

  void take_effect(AtomicOp& op) override {
    if (op.f == "read") {
      op.result = state_;
    } else if (op.f == "write") {
      install(op.invoke_value);
      op.result = op.invoke_value;
    } else {
      const auto& old_new = op.invoke_value.elements();
      op.result = op.invoke_value;
      if (state_ == old_new[0]) {
        install(old_new[1]);
      } else {
        op.completion = EventType::fail;
        return;  // a failed cas leaves last_seen alone: its client learns only that it was wrong
      }
    }
    if (!op.crashed) last_seen_[op.slot] = state_;
  }

  std::size_t pattern_size() const override { return 3; }

  AtomicOp pattern_op(std::size_t step) override {
    switch (static_cast<Step>(step)) {
      case Step::first_write: v1_ = Value::integer(values_.fresh()); return write(v1_);
      case Step::second_write: return write(Value::integer(values_.fresh()));
      case Step::stale_read: break;
    }
    return read();
  }

  std::string break_pattern(std::span<AtomicOp* const> pattern) override {
    const AtomicOp& first = *pattern[0];
    const AtomicOp& second = *pattern[1];
    AtomicOp& read = *pattern[2];
    read.result = v1_;
    const std::string v1 = v1_.to_edn();
    const std::string v2 = second.invoke_value.to_edn();
    return "The violation: " + op_name(first) + " writes " + v1 + " and completes before " + op_name(second) +
           " writes " + v2 + "; " + op_name(read) + ", a read invoked after " + op_name(second) +
           " completed, returns " + v1 +
           ". Both values are fresh, written once each and by no cas, so every order "
           "puts the write of " +
           v1 + ", the write of " + v2 + " and the read in that order with no write of " + v1 + " after " + v2 +
           "'s: the read is stale and the history not linearizable, whatever the other operations did.";
  }

 private:
  static AtomicOp read() {
    AtomicOp op;
    op.f = "read";
    return op;
  }

  static AtomicOp write(std::int64_t value) { return write(Value::integer(value)); }

  static AtomicOp write(Value value) {
    AtomicOp op;
    op.f = "write";
    op.invoke_value = std::move(value);
    return op;
  }

  void install(const Value& value) {
    state_ = value;
    recent_.push_back(value);
    if (recent_.size() > kRecentValues) recent_.pop_front();
  }

  Value expected_value(std::size_t slot) {
    const std::uint64_t draw = random_.below(100);
    Value expected = draw < kCasExpectsLastSeenPercent                               ? last_seen_[slot]
                     : draw < kCasExpectsLastSeenPercent + kCasExpectsCurrentPercent ? state_
                     : recent_.empty()                                               ? Value()
                                       : recent_[random_.below(recent_.size())];
    // A cas expecting nil is no use in a test (and etcd's nil means absent): expect
    // some value instead, which may or may not be held.
    if (expected.is_nil()) {
      expected = recent_.empty() ? Value::integer(0) : recent_[random_.below(recent_.size())];
    }
    return expected;
  }

  SeededRandom& random_;
  ValueSource& values_;
  bool with_cas_;
  Value state_;
  std::vector<Value> last_seen_;  // per client slot: the value its last read, write or cas saw
  std::deque<Value> recent_;      // the last few values written
  Value v1_;                      // the pattern's first, later stale, value
};

}  // namespace

std::unique_ptr<AtomicObject> make_register_object(const ObjectContext& context) {
  return std::make_unique<RegisterObject>(context);
}

}  // namespace ariadne::generators
