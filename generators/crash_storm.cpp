// The crash-storm simulation. Clients run one operation at a time against one atomic
// register; a step of the simulation picks a client at random and advances it by one
// phase: invoke, take effect (the linearization point, where the register really
// changes or is really read), complete. Random interleaving of those phases gives
// operations that overlap in every possible way while each still takes effect inside
// its own interval, which is exactly the definition of a linearizable history
// [HerlihyWing90]. Crashed writes leave their client at once and live on as pending
// effects that may be applied at a later step, or never.
#include "generators/crash_storm.hpp"

#include "generators/seeded_random.hpp"
#include "generators/stale_read.hpp"

#include <ariadne/errors.hpp>

#include <algorithm>
#include <optional>
#include <string>

namespace ariadne::generators {

namespace {

// The operation mix, in percent. Reads are the most common because a read is what
// forces a checker to place the crashed writes: an unobserved write can be dropped.
constexpr std::uint64_t kReadPercent = 45;
constexpr std::uint64_t kWritePercent = 25;  // the rest are cas

// A cas usually expects the value its client last saw, which may be out of date, so
// some cas succeed and some fail; otherwise it expects the register's value at its
// invocation, which other clients may still change before it takes effect. Under the
// contention of a dozen clients about one cas in five succeeds.
constexpr double kCasExpectsLastSeen = 0.6;

// About half of the crashed writes ever take effect, as the brief of a crash storm
// asks: "took effect" and "never did" must both be live possibilities.
constexpr double kCrashedWriteTakesEffect = 0.5;
// A crashed write that will take effect does so no earlier than a random delay after
// its invocation, of up to this many simulation steps per client (about a third of an
// operation each), so some land long after other operations completed.
constexpr std::uint64_t kEffectDelayStepsPerClient = 40;
// Once due, a pending effect is applied just before a read with this probability...
constexpr double kReadRevealsCrashedWrite = 0.3;
// ...or, rarely, at any step on its own. Most effects are therefore observed by a
// read right away, which is what makes the history hard: an observed crashed write
// must be placed, and placed before that read.
constexpr double kSpontaneousEffectPerStep = 0.005;

constexpr std::int64_t kInitialValue = 0;

enum class Phase : std::uint8_t { idle, invoked, took_effect };

struct Client {
  std::int64_t process = 0;
  Phase phase = Phase::idle;
  std::size_t op = 0;                      // index into the recorded ops while busy
  std::int64_t last_seen = kInitialValue;  // what this client believes the register holds
};

struct PendingEffect {
  std::size_t op = 0;
  std::uint64_t due_step = 0;
};

// Which operations (by invocation order) are the crashed writes: one drawn from each
// of `crashed` equal strata, so they are spread over the whole history rather than
// bunched by chance.
std::vector<bool> choose_crashed_operations(std::size_t operations, std::size_t crashed, SeededRandom& random) {
  std::vector<bool> chosen(operations, false);
  for (std::size_t i = 0; i < crashed; ++i) {
    const std::size_t begin = i * operations / crashed;
    const std::size_t end = (i + 1) * operations / crashed;  // > begin, since crashed <= operations
    chosen[begin + random.below(end - begin)] = true;
  }
  return chosen;
}

class CrashStormSimulation {
 public:
  CrashStormSimulation(const CrashStormShape& shape, SeededRandom& random)
      : shape_(shape),
        random_(random),
        crashed_(choose_crashed_operations(shape.operations, shape.crashed_writes, random)),
        expected_(shape.operations, 0),
        observed_(shape.operations, 0) {
    clients_.resize(shape.clients);
    for (std::size_t i = 0; i < clients_.size(); ++i) clients_[i].process = static_cast<std::int64_t>(i);
    log_.source = "crash-storm";
  }

  void run() {
    std::vector<std::size_t> movable;
    while (invoked_ < shape_.operations || busy_ > 0) {
      ++step_;
      if (random_.chance(kSpontaneousEffectPerStep)) apply_due_effect();
      movable.clear();
      for (std::size_t i = 0; i < clients_.size(); ++i) {
        if (clients_[i].phase != Phase::idle || invoked_ < shape_.operations) movable.push_back(i);
      }
      advance(clients_[movable[random_.below(movable.size())]]);
    }
  }

  EventLog& log() { return log_; }
  const std::vector<RecordedRegisterOp>& ops() const { return ops_; }
  std::size_t max_open() const { return max_open_; }
  std::size_t crashed_effects() const { return crashed_effects_; }
  std::size_t observed_crashed_effects() const { return observed_crashed_effects_; }

 private:
  void advance(Client& client) {
    switch (client.phase) {
      case Phase::idle: invoke(client); break;
      case Phase::invoked:
        if (crashed_[client.op])
          crash(client);
        else
          take_effect(client);
        break;
      case Phase::took_effect: complete(client); break;
    }
  }

  void invoke(Client& client) {
    const std::size_t index = invoked_++;
    RecordedRegisterOp op;
    op.invoke_event = log_.events.size();
    Value argument;
    if (crashed_[index]) {
      op.kind = RegisterOpKind::write;
    } else {
      const std::uint64_t draw = random_.below(100);
      op.kind = draw < kReadPercent                   ? RegisterOpKind::read
                : draw < kReadPercent + kWritePercent ? RegisterOpKind::write
                                                      : RegisterOpKind::cas;
    }
    if (op.kind == RegisterOpKind::write) {
      op.installed = next_value_++;
      argument = Value::integer(op.installed);
    } else if (op.kind == RegisterOpKind::cas) {
      expected_[index] = random_.chance(kCasExpectsLastSeen) ? client.last_seen : register_;
      op.installed = next_value_++;
      argument = cas_pair(index, op.installed);
    }
    emit(client.process, EventType::invoke, op.kind, argument);
    client.op = index;
    client.phase = Phase::invoked;
    ++busy_;
    ops_.push_back(op);
    max_open_ = std::max(max_open_, ++open_);
    if (crashed_[index] && random_.chance(kCrashedWriteTakesEffect)) {
      const std::uint64_t delay = 1 + random_.below(kEffectDelayStepsPerClient * shape_.clients);
      pending_.push_back({index, step_ + delay});
    }
  }

  // The client times out: its write completes with :info and stays open for good,
  // and the client continues as a fresh process, as Jepsen's clients do.
  void crash(Client& client) {
    RecordedRegisterOp& op = ops_[client.op];
    op.completion = EventType::info;
    op.complete_event = log_.events.size();
    emit(client.process, EventType::info, op.kind, Value::integer(op.installed));
    client.process += static_cast<std::int64_t>(shape_.clients);
    client.last_seen = kInitialValue;
    client.phase = Phase::idle;
    --busy_;
  }

  void take_effect(Client& client) {
    RecordedRegisterOp& op = ops_[client.op];
    switch (op.kind) {
      case RegisterOpKind::read:
        if (random_.chance(kReadRevealsCrashedWrite) && apply_due_effect()) ++observed_crashed_effects_;
        observed_[client.op] = register_;
        client.last_seen = register_;
        break;
      case RegisterOpKind::write:
        register_ = op.installed;
        client.last_seen = register_;
        break;
      case RegisterOpKind::cas:
        // A failed cas leaves last_seen alone: the client learns only that it was wrong.
        if (register_ == expected_[client.op]) {
          register_ = op.installed;
          client.last_seen = register_;
        } else {
          op.completion = EventType::fail;
        }
        break;
    }
    client.phase = Phase::took_effect;
  }

  void complete(Client& client) {
    RecordedRegisterOp& op = ops_[client.op];
    op.complete_event = log_.events.size();
    const Value result = op.kind == RegisterOpKind::read  ? Value::integer(observed_[client.op])
                         : op.kind == RegisterOpKind::cas ? cas_pair(client.op, op.installed)
                                                          : Value::integer(op.installed);
    emit(client.process, op.completion, op.kind, result);
    client.phase = Phase::idle;
    --busy_;
    --open_;
  }

  // Applies one due pending crashed write, chosen at random; false if none is due.
  bool apply_due_effect() {
    std::vector<std::size_t> due;
    for (std::size_t i = 0; i < pending_.size(); ++i) {
      if (pending_[i].due_step <= step_) due.push_back(i);
    }
    if (due.empty()) return false;
    const std::size_t chosen = due[random_.below(due.size())];
    register_ = ops_[pending_[chosen].op].installed;
    pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(chosen));
    ++crashed_effects_;
    return true;
  }

  Value cas_pair(std::size_t op, std::int64_t installed) {
    return Value::vector({Value::integer(expected_[op]), Value::integer(installed)});
  }

  void emit(std::int64_t process, EventType type, RegisterOpKind kind, Value value) {
    Event event;
    event.process = Value::integer(process);
    event.type = type;
    event.f = kind == RegisterOpKind::read ? "read" : kind == RegisterOpKind::write ? "write" : "cas";
    event.value = std::move(value);
    log_.events.push_back(std::move(event));
  }

  const CrashStormShape& shape_;
  SeededRandom& random_;
  const std::vector<bool> crashed_;
  std::vector<Client> clients_;
  EventLog log_;
  std::vector<RecordedRegisterOp> ops_;
  // Per operation, indexed by invocation order: a cas's expected value, and a read's
  // result (known at its linearization point, printed at its completion).
  std::vector<std::int64_t> expected_;
  std::vector<std::int64_t> observed_;
  std::vector<PendingEffect> pending_;
  std::int64_t register_ = kInitialValue;
  std::int64_t next_value_ = kInitialValue + 1;  // every written value is fresh
  std::size_t invoked_ = 0;
  std::size_t busy_ = 0;  // clients with an operation in flight
  std::size_t open_ = 0;  // operations invoked and not :ok or :fail; crashed ones stay
  std::size_t max_open_ = 0;
  std::uint64_t step_ = 0;
  std::size_t crashed_effects_ = 0;
  std::size_t observed_crashed_effects_ = 0;
};

void validate(const CrashStormShape& shape) {
  if (shape.operations == 0) throw UsageError("a crash storm needs at least one operation");
  if (shape.clients == 0) throw UsageError("a crash storm needs at least one client");
  if (shape.crashed_writes > shape.operations) {
    throw UsageError("cannot crash " + std::to_string(shape.crashed_writes) + " writes in " +
                     std::to_string(shape.operations) + " operations");
  }
}

std::string plural(std::size_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

}  // namespace

GeneratedHistory generate_crash_storm(const CrashStormShape& shape) {
  validate(shape);
  SeededRandom random(shape.seed);
  CrashStormSimulation simulation(shape, random);
  simulation.run();

  GeneratedHistory generated;
  generated.model_spec = "cas-register(" + std::to_string(kInitialValue) + ")";
  generated.max_open_operations = simulation.max_open();
  generated.notes.push_back("A crash storm: " + plural(shape.operations, "operation") + " (reads, writes, cas) by " +
                            plural(shape.clients, "client") + " on one atomic cas-register, seed " +
                            std::to_string(shape.seed) + ".");
  generated.notes.push_back(plural(shape.crashed_writes, "write") + " crashed (:info) and stay open to the end; " +
                            std::to_string(simulation.crashed_effects()) + " of them took effect, " +
                            std::to_string(simulation.observed_crashed_effects()) +
                            " of those just before a read that saw the value. At most " +
                            plural(simulation.max_open(), "operation") + " are open at once.");

  if (!shape.stale_read) {
    generated.expected = Verdict::linearizable;
    generated.notes.push_back(
        "Every result comes from the simulated register, each operation taking effect "
        "within its own interval: linearizable by construction.");
  } else {
    // Middle to late: a checker that gives up early, or only looks at a prefix, must
    // not be able to find it.
    auto stale = make_one_read_stale(simulation.log(), simulation.ops(), 0.4, 0.9, random);
    if (!stale) stale = make_one_read_stale(simulation.log(), simulation.ops(), 0.0, 1.0, random);
    if (!stale) {
      throw UsageError("no read of this " + plural(shape.operations, "operation") +
                       " crash storm can be made stale; use more operations");
    }
    const auto& ops = simulation.ops();
    generated.expected = Verdict::not_linearizable;
    generated.notes.push_back(
        "One read is stale: op " + std::to_string(ops[stale->read].invoke_event) + " reads " +
        std::to_string(stale->value) + ", written by op " + std::to_string(ops[stale->stale_writer].invoke_event) +
        " and overwritten by op " + std::to_string(ops[stale->overwriter].invoke_event) +
        ", which completed before the read began. Written values are unique: not linearizable by construction.");
  }
  generated.log = std::move(simulation.log());
  return generated;
}

}  // namespace ariadne::generators
