// Finding a read that can be made stale, in O(n log n) so that million-operation
// histories are no slower to mutate than to generate: the writers are sorted by
// completion, and a running maximum of their invocation positions tells, for any
// read, the latest writer w2 that lies wholly before it; every writer that completed
// before w2 was invoked is then a candidate w.
#include "generators/stale_read.hpp"

#include <algorithm>

namespace ariadne::generators {

namespace {

// Of the candidate writers, how many of the most recent ones to choose among.
constexpr std::size_t kRecentWriters = 5;

struct WritersByCompletion {
  std::vector<std::size_t> ops;          // writers, in completion order
  std::vector<std::size_t> completions;  // their completion positions, ascending
  // latest_call[i]: among the first i writers, the op invoked last (the best w2).
  std::vector<std::size_t> latest_call;

  explicit WritersByCompletion(const std::vector<RecordedRegisterOp>& recorded) {
    for (std::size_t i = 0; i < recorded.size(); ++i) {
      if (recorded[i].certainly_wrote()) ops.push_back(i);
    }
    std::sort(ops.begin(), ops.end(),
              [&](std::size_t a, std::size_t b) { return recorded[a].complete_event < recorded[b].complete_event; });
    latest_call.resize(ops.size() + 1);
    for (std::size_t i = 0; i < ops.size(); ++i) {
      completions.push_back(recorded[ops[i]].complete_event);
      const std::size_t previous = latest_call[i];
      latest_call[i + 1] =
          i == 0 || recorded[ops[i]].invoke_event > recorded[previous].invoke_event ? ops[i] : previous;
    }
  }

  // How many writers completed before event position `position`.
  std::size_t completed_before(std::size_t position) const {
    return static_cast<std::size_t>(std::lower_bound(completions.begin(), completions.end(), position) -
                                    completions.begin());
  }
};

struct Candidate {
  std::size_t read;
  std::size_t overwriter;
  std::size_t stale_writers;  // the first this-many writers (by completion) qualify as w
};

std::optional<Candidate> candidate_for(const std::vector<RecordedRegisterOp>& ops, const WritersByCompletion& writers,
                                       std::size_t read) {
  const RecordedRegisterOp& op = ops[read];
  if (op.kind != RegisterOpKind::read || op.completion != EventType::ok) return std::nullopt;
  const std::size_t before_read = writers.completed_before(op.invoke_event);
  if (before_read == 0) return std::nullopt;
  const std::size_t overwriter = writers.latest_call[before_read];
  const std::size_t stale_writers = writers.completed_before(ops[overwriter].invoke_event);
  if (stale_writers == 0) return std::nullopt;
  return Candidate{read, overwriter, stale_writers};
}

}  // namespace

std::optional<StaleRead> make_one_read_stale(EventLog& log, const std::vector<RecordedRegisterOp>& ops,
                                             double window_begin, double window_end, SeededRandom& random) {
  const WritersByCompletion writers(ops);
  const auto begin = static_cast<std::size_t>(window_begin * static_cast<double>(ops.size()));
  const auto end = std::min(ops.size(), static_cast<std::size_t>(window_end * static_cast<double>(ops.size())));
  std::vector<Candidate> candidates;
  for (std::size_t i = begin; i < end; ++i) {
    if (auto candidate = candidate_for(ops, writers, i)) candidates.push_back(*candidate);
  }
  if (candidates.empty()) return std::nullopt;

  const Candidate& chosen = candidates[random.below(candidates.size())];
  const std::size_t recent = std::min(kRecentWriters, chosen.stale_writers);
  const std::size_t stale_writer = writers.ops[chosen.stale_writers - recent + random.below(recent)];
  const std::int64_t value = ops[stale_writer].installed;
  log.events[ops[chosen.read].complete_event].value = Value::integer(value);
  return StaleRead{chosen.read, stale_writer, chosen.overwriter, value};
}

}  // namespace ariadne::generators
