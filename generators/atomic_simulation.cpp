// The atomic simulation; see atomic_simulation.hpp. Crashes follow Jepsen's and
// Knossos' semantics of an :info completion: the operation may take effect at any
// point after its invocation, or never. Here half of the crashed operations never
// take effect, a quarter take effect before their :info and a quarter after it, at a
// random later step, when the client that invoked them has moved on.
//
// The violation pattern runs once, its steps invoked one after another (each once the
// previous one completed) by whichever clients are free, while the other clients keep
// going. Its place is drawn from the middle-to-late part of the history, so that a
// checker looking only at a prefix does not find it; enough invocations are held back
// for it to finish.
#include "generators/atomic_simulation.hpp"

#include <algorithm>

namespace ariadne::generators {

namespace {

// Of the crashed operations, how many never take effect, and of the rest how many
// take effect before their :info (the others after it).
constexpr double kCrashedNeverTakesEffect = 0.5;
constexpr double kCrashedEffectBeforeInfo = 0.5;
// A crashed operation taking effect after its :info does so within this many
// simulation steps per client (about three steps make an operation), so its effect
// lands among the next few operations of every client.
constexpr std::uint64_t kEffectDelayStepsPerClient = 12;
// The pattern starts after this fraction of the invocations that can precede it, at
// the earliest.
constexpr std::size_t kPatternEarliestPercent = 30;

enum class Phase : std::uint8_t { idle, invoked, took_effect };

enum class CrashedEffect : std::uint8_t { never, before_info, after_info };

struct Client {
  std::int64_t process = 0;
  Phase phase = Phase::idle;
  std::size_t op = 0;  // index into the run's ops while busy
};

struct PendingEffect {
  std::uint64_t due_step = 0;
  std::size_t op = 0;
};

class Simulation {
 public:
  Simulation(const SimulationShape& shape, AtomicObject& object, SeededRandom& random)
      : shape_(shape), object_(object), random_(random), clients_(shape.processes) {
    for (std::size_t slot = 0; slot < clients_.size(); ++slot) clients_[slot].process = static_cast<std::int64_t>(slot);
    if (shape.violation) {
      pattern_size_ = object.pattern_size();
      const std::size_t latest = shape.operations - pattern_size_;
      pattern_trigger_ = random.between(latest * kPatternEarliestPercent / 100, latest);
    }
  }

  SimulatedRun run() {
    std::vector<std::size_t> movable;
    while (run_.ops.size() < shape_.operations || busy_ > 0) {
      ++step_;
      apply_due_effects();
      movable.clear();
      for (std::size_t slot = 0; slot < clients_.size(); ++slot) {
        if (clients_[slot].phase != Phase::idle || pattern_ready() || may_invoke_ordinary(slot)) {
          movable.push_back(slot);
        }
      }
      // Never empty. With every client idle nothing is in flight, so the pattern's next
      // step is ready if one is left, unless its first step waits for the object's
      // moment: then ordinary invocations are left, and nothing forbids them before the
      // pattern starts. With the pattern done, ordinary operations are allowed.
      advance(movable[random_.below(movable.size())]);
    }
    return std::move(run_);
  }

 private:
  std::size_t invoked() const { return run_.ops.size(); }
  bool pattern_triggered() const { return shape_.violation && invoked() >= pattern_trigger_; }
  bool pattern_done() const { return !shape_.violation || (pattern_next_ == pattern_size_ && !pattern_in_flight_); }

  bool pattern_ready() const {
    if (!pattern_triggered() || pattern_next_ == pattern_size_ || pattern_in_flight_) return false;
    if (pattern_next_ > 0) return true;
    // The first step: operations that must not overlap the pattern have all completed
    // (none is invoked while it runs), and the object finds the moment good, unless no
    // other operation may be invoked any more to bring that moment about.
    return avoiders_in_flight_ == 0 && (object_.pattern_may_start() || !ordinary_budget_left());
  }

  // Whether an ordinary operation may be invoked without taking an invocation the
  // pattern's remaining steps need.
  bool ordinary_budget_left() const { return invoked() + (pattern_size_ - pattern_next_) < shape_.operations; }

  bool may_invoke_ordinary(std::size_t slot) const {
    if (!ordinary_budget_left()) return false;
    const bool pattern_running = pattern_next_ > 0 && !pattern_done();
    return !(pattern_running && object_.next_op_must_avoid_pattern(slot));
  }

  void advance(std::size_t slot) {
    Client& client = clients_[slot];
    switch (client.phase) {
      case Phase::idle: invoke(slot); break;
      case Phase::invoked:
        if (run_.ops[client.op].crashed && crashed_effect_[client.op] != CrashedEffect::before_info) {
          crash(slot);
        } else {
          take_effect(client.op);
          client.phase = Phase::took_effect;
        }
        break;
      case Phase::took_effect:
        if (run_.ops[client.op].crashed) {
          crash(slot);
        } else {
          complete(slot);
        }
        break;
    }
  }

  void invoke(std::size_t slot) {
    Client& client = clients_[slot];
    const bool pattern = pattern_ready();
    const bool avoids = !pattern && object_.next_op_must_avoid_pattern(slot);
    AtomicOp op = pattern ? object_.pattern_op(pattern_next_) : object_.next_op(slot);
    op.slot = slot;
    op.process = client.process;
    op.invoke_event = run_.events.size();
    if (pattern) {
      op.pattern_step = pattern_next_++;
      pattern_in_flight_ = true;
      run_.pattern.push_back(invoked());
    }
    // An operation that must not overlap the pattern must not crash before the pattern
    // is over: it would stay open to the end of the history.
    const bool may_crash = !pattern && !(avoids && !pattern_done());
    op.crashed = may_crash && random_.chance(shape_.crash_rate);
    CrashedEffect effect = CrashedEffect::never;
    if (op.crashed && !random_.chance(kCrashedNeverTakesEffect)) {
      const bool before = !object_.effect_may_follow_crash() || random_.chance(kCrashedEffectBeforeInfo);
      effect = before ? CrashedEffect::before_info : CrashedEffect::after_info;
    }
    crashed_effect_.push_back(effect);
    avoids_pattern_.push_back(avoids);
    if (avoids) ++avoiders_in_flight_;
    client.op = invoked();
    client.phase = Phase::invoked;
    ++busy_;
    run_.events.push_back({client.op, true});
    run_.ops.push_back(std::move(op));
  }

  // A crashed op that takes effect after its :info keeps the :info: the object sets
  // the completion a result would have (a failed cas would become :fail), but the
  // client never saw one, and a :fail would claim the op never happened.
  void take_effect(std::size_t index) {
    AtomicOp& op = run_.ops[index];
    const bool completed_as_crashed = op.crashed && op.completion == EventType::info;
    object_.take_effect(op);
    if (completed_as_crashed) op.completion = EventType::info;
    op.took_effect = true;
  }

  // The client gives up on its operation: an :info, unless every invocation has been
  // made, in which case the history ends before the client times out and the
  // operation has no completion at all. Either way it stays open for good, and the
  // client continues as a fresh process, as Jepsen's clients do.
  void crash(std::size_t slot) {
    Client& client = clients_[slot];
    AtomicOp& op = run_.ops[client.op];
    op.completion = EventType::info;
    ++run_.crashed;
    if (invoked() < shape_.operations) {
      run_.events.push_back({client.op, false});
    } else {
      ++run_.never_completed;
    }
    if (op.took_effect) ++run_.effects_before_crash;
    if (crashed_effect_[client.op] == CrashedEffect::after_info) {
      const std::uint64_t delay = 1 + random_.below(kEffectDelayStepsPerClient * shape_.processes);
      pending_.push_back({step_ + delay, client.op});
    }
    finish(slot);
    client.process += static_cast<std::int64_t>(shape_.processes);
  }

  void complete(std::size_t slot) {
    Client& client = clients_[slot];
    run_.events.push_back({client.op, false});
    if (run_.ops[client.op].pattern_step) pattern_in_flight_ = false;
    finish(slot);
  }

  void finish(std::size_t slot) {
    Client& client = clients_[slot];
    if (avoids_pattern_[client.op]) --avoiders_in_flight_;
    client.phase = Phase::idle;
    --busy_;
  }

  // Crashed operations due to take effect after their :info do so now, earliest first.
  void apply_due_effects() {
    if (pending_.empty()) return;
    std::vector<PendingEffect> due;
    std::erase_if(pending_, [&](const PendingEffect& effect) {
      if (effect.due_step > step_) return false;
      due.push_back(effect);
      return true;
    });
    std::sort(due.begin(), due.end(), [](const PendingEffect& a, const PendingEffect& b) {
      return a.due_step != b.due_step ? a.due_step < b.due_step : a.op < b.op;
    });
    for (const PendingEffect& effect : due) {
      take_effect(effect.op);
      ++run_.effects_after_crash;
    }
  }

  const SimulationShape& shape_;
  AtomicObject& object_;
  SeededRandom& random_;
  std::vector<Client> clients_;
  SimulatedRun run_;
  std::vector<CrashedEffect> crashed_effect_;  // per op
  std::vector<bool> avoids_pattern_;           // per op
  std::vector<PendingEffect> pending_;
  std::size_t busy_ = 0;
  std::size_t avoiders_in_flight_ = 0;
  std::uint64_t step_ = 0;
  std::size_t pattern_size_ = 0;
  std::size_t pattern_trigger_ = 0;  // the pattern may start once this many ops were invoked
  std::size_t pattern_next_ = 0;     // the next step to invoke
  bool pattern_in_flight_ = false;
};

}  // namespace

std::vector<AtomicOp*> SimulatedRun::pattern_ops() {
  std::vector<AtomicOp*> result;
  for (const std::size_t index : pattern) result.push_back(&ops[index]);
  return result;
}

EventLog SimulatedRun::event_log(std::string source) const {
  EventLog log;
  log.source = std::move(source);
  log.events.reserve(events.size());
  for (const EventRef& ref : events) {
    const AtomicOp& op = ops[ref.op];
    Event event;
    event.process = Value::integer(op.process);
    event.type = ref.invocation ? EventType::invoke : op.completion;
    event.f = op.f;
    event.key = op.key;
    const bool carries_result = event.type == EventType::ok || event.type == EventType::fail;
    event.value = carries_result ? op.result : op.invoke_value;
    log.events.push_back(std::move(event));
  }
  return log;
}

SimulatedRun simulate(const SimulationShape& shape, AtomicObject& object, SeededRandom& random) {
  return Simulation(shape, object, random).run();
}

}  // namespace ariadne::generators
