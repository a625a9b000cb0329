// The lagging-follower simulation (see the header for the verdicts' arguments).
#include "generators/lagging_follower.hpp"

#include "generators/seeded_random.hpp"

#include <ariadne/errors.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace ariadne::generators {

namespace {

// At each step every follower applies the next log entry with this probability, so a
// follower falls behind under a burst of writes and catches up in quiet spells.
constexpr double kApplyPerStep = 0.3;

struct Write {
  std::size_t invoke_event = 0;
  std::size_t complete_event = 0;
  std::int64_t process = 0;
};

struct Read {
  std::size_t invoke_event = 0;
  std::size_t complete_event = 0;
  std::size_t reader = 0;
  std::size_t entry = 0;  // the log entry whose value it returned (0: the initial value)
};

struct Client {
  bool busy = false;
  std::size_t pending = 0;  // index into writes or reads while busy
};

std::string plural(std::size_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

Event event(std::int64_t process, EventType type, std::string_view f, Value value) {
  Event e;
  e.process = Value::integer(process);
  e.type = type;
  e.f = std::string(f);
  e.value = std::move(value);
  return e;
}

}  // namespace

GeneratedHistory generate_lagging_follower(const LaggingFollowerShape& shape) {
  if (shape.operations == 0 || shape.writers == 0 || shape.readers == 0 || shape.followers == 0) {
    throw UsageError("generate lagging-follower: --ops, --writers, --readers and --followers must be at least 1");
  }
  SeededRandom random(shape.seed);
  GeneratedHistory generated;
  generated.model_spec = "register(0)";
  EventLog& log = generated.log;
  log.source = "lagging-follower";

  // The leader's log: entry 0 is the initial value, entry k the k-th write (value k).
  std::vector<std::size_t> entry_write{SIZE_MAX};  // entry -> index into writes
  std::vector<Write> writes;
  std::vector<Read> reads;
  std::vector<std::size_t> applied(shape.followers, 0);
  std::vector<Client> clients(shape.writers + shape.readers);
  std::size_t invoked = 0;
  std::size_t busy = 0;
  std::size_t open = 0;
  while (invoked < shape.operations || busy > 0) {
    const std::size_t last = entry_write.size() - 1;
    for (std::size_t& a : applied) {
      if (a < last && random.chance(kApplyPerStep)) ++a;
      if (last - a > shape.max_lag) a = last - shape.max_lag;
    }
    std::size_t c = random.below(clients.size());
    if (!clients[c].busy && invoked == shape.operations) {
      // Only completions are left: take a busy client.
      while (!clients[c].busy) c = (c + 1) % clients.size();
    }
    Client& client = clients[c];
    const auto process = static_cast<std::int64_t>(c);
    const bool writer = c < shape.writers;
    if (!client.busy) {
      ++invoked;
      ++busy;
      generated.max_open_operations = std::max(generated.max_open_operations, ++open);
      client.busy = true;
      if (writer) {
        client.pending = writes.size();
        writes.push_back(Write{log.events.size(), 0, process});
        // The value is the log entry it will become only once it completes, so it
        // is named by its own index among the writes, plus one (values are unique).
        log.events.push_back(
            event(process, EventType::invoke, "write", Value::integer(static_cast<std::int64_t>(writes.size()))));
      } else {
        client.pending = reads.size();
        reads.push_back(Read{log.events.size(), 0, c - shape.writers, 0});
        log.events.push_back(event(process, EventType::invoke, "read", Value()));
      }
      continue;
    }
    client.busy = false;
    --busy;
    --open;
    if (writer) {
      Write& w = writes[client.pending];
      w.complete_event = log.events.size();
      entry_write.push_back(client.pending);
      log.events.push_back(event(process, EventType::ok, "write", log.events[w.invoke_event].value));
    } else {
      Read& r = reads[client.pending];
      r.complete_event = log.events.size();
      r.entry = applied[r.reader % shape.followers];
      const std::size_t w = entry_write[r.entry];
      log.events.push_back(event(process, EventType::ok, "read",
                                 w == SIZE_MAX ? Value::integer(0) : log.events[writes[w].invoke_event].value));
    }
  }

  // A certainly stale read (see the header): value of entry j, and a write w2 of a
  // later entry with w(j) completed before w2 began and w2 completed before the read.
  std::optional<std::size_t> stale;
  for (std::size_t i = 0; i < reads.size() && !stale; ++i) {
    const Read& r = reads[i];
    const std::size_t j = r.entry;
    for (std::size_t k = j + 1; k < entry_write.size(); ++k) {
      const Write& w2 = writes[entry_write[k]];
      if (w2.complete_event > r.invoke_event) break;  // entries complete in log order
      if (j == 0 || writes[entry_write[j]].complete_event < w2.invoke_event) {
        stale = i;
        break;
      }
    }
  }
  if (!stale) {
    throw UsageError("generate lagging-follower: no read came out certainly stale; raise --max-lag or --ops");
  }
  generated.expected = Verdict::not_linearizable;
  generated.expected_sequential = Verdict::linearizable;

  generated.notes.push_back("Lagging followers: " + plural(shape.operations, "operation") + " on one register, " +
                            plural(shape.writers, "writer") + " writing through the leader and " +
                            plural(shape.readers, "reader") + " each reading from one of " +
                            plural(shape.followers, "follower") + ", which apply the leader's log at most " +
                            std::to_string(shape.max_lag) + (shape.max_lag == 1 ? " entry" : " entries") +
                            " behind; seed " + std::to_string(shape.seed) + ".");
  generated.notes.push_back("Not linearizable: op " + std::to_string(reads[*stale].invoke_event) + " read " +
                            log.events[reads[*stale].complete_event].value.to_edn() +
                            " after a later write had completed.");

  if (shape.violation) {
    // A reader's read r1 of entry b >= 1, followed by a read r2 of its own: r2 now
    // returns entry a, the latest before b written by b's writer (else the initial
    // value).
    std::optional<std::pair<std::size_t, std::size_t>> pair;  // (r1, r2)
    std::vector<std::size_t> last_read(shape.readers, SIZE_MAX);
    for (std::size_t i = 0; i < reads.size() && !pair; ++i) {
      const std::size_t previous = last_read[reads[i].reader];
      if (previous != SIZE_MAX && reads[previous].entry >= 1 && i * 2 >= reads.size()) pair = {previous, i};
      last_read[reads[i].reader] = i;
    }
    if (!pair) {
      throw UsageError("generate lagging-follower --violation: no reader read twice after a write; raise --ops");
    }
    const std::size_t b = reads[pair->first].entry;
    const std::int64_t writer = writes[entry_write[b]].process;
    std::size_t a = 0;
    for (std::size_t k = b - 1; k >= 1; --k) {
      if (writes[entry_write[k]].process == writer) {
        a = k;
        break;
      }
    }
    Read& r2 = reads[pair->second];
    r2.entry = a;
    log.events[r2.complete_event].value =
        a == 0 ? Value::integer(0) : log.events[writes[entry_write[a]].invoke_event].value;
    generated.expected_sequential = Verdict::not_linearizable;
    generated.notes.push_back("Not sequentially consistent: reader process " +
                              std::to_string(shape.writers + reads[pair->first].reader) + " read " +
                              log.events[reads[pair->first].complete_event].value.to_edn() + " (op " +
                              std::to_string(reads[pair->first].invoke_event) + "), then " +
                              log.events[r2.complete_event].value.to_edn() + " (op " + std::to_string(r2.invoke_event) +
                              "), which " + (a == 0 ? "is the initial value" : "the same writer wrote before it") +
                              ": it moved to a follower further behind.");
  } else {
    generated.notes.push_back(
        "Sequentially consistent: the writes in the leader's log order, each read right after the write it saw.");
  }
  return generated;
}

}  // namespace ariadne::generators
