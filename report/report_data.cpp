// Building the report's data: lanes, the compressed time axis, interned texts, the
// order or core as op indices, and the model states along the order (state_replay).
#include "report/report_data.hpp"

#include "base/text_encoding.hpp"
#include "models/content_table.hpp"
#include "report/limit_poll.hpp"
#include "report/state_replay.hpp"
#include "report/violation_summary.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <span>
#include <string_view>

namespace ariadne::report {

namespace {

// Each text is kept once and named by its id: models/content_table.hpp's interning
// (texts back to back in chunks that never move, an open-addressing table of ids). A
// million-op history interns up to two million texts, and a node-based map (which
// also kept each text twice) spent as long freeing its nodes as building them, time
// taken after a limit stopped the report.
class StringTable {
 public:
  std::uint32_t intern(std::string_view text) { return table_.intern(std::span<const char>(text)); }

  // The texts in the order interned.
  std::vector<std::string> take() const {
    std::vector<std::string> out;
    out.reserve(table_.size());
    for (std::uint32_t id = 0; id < table_.size(); ++id) {
      const std::span<const char> text = table_.at(id);
      out.emplace_back(text.begin(), text.end());
    }
    return out;
  }

 private:
  models::ContentTable<char> table_;
};

// Op ids to indices into history.ops (which is in ascending id order).
std::vector<std::uint32_t> indices_of(const History& history, const std::vector<std::uint32_t>& ids,
                                      LimitPoll* poll = nullptr) {
  std::vector<std::uint32_t> indices;
  indices.reserve(ids.size());
  for (std::uint32_t id : ids) {
    if (poll) poll->step();
    auto it = std::lower_bound(history.ops.begin(), history.ops.end(), id,
                               [](const Operation& op, std::uint32_t v) { return op.id < v; });
    if (it != history.ops.end() && it->id == id) {
      indices.push_back(static_cast<std::uint32_t>(it - history.ops.begin()));
    }
  }
  return indices;
}

// Explanations list their core's ops, one a line, and a core that could not be shrunk
// may be the whole history: the page keeps the head, the file stays small. A single
// line may be long too (kv values), so the head is capped in bytes as well.
std::string shorten_explanation(const std::string& text) {
  std::size_t lines = 0;
  std::size_t cut = 0;
  while (cut < text.size() && lines < kMaxExplanationLines && cut < kMaxExplanationBytes) {
    const std::size_t end = text.find('\n', cut);
    cut = end == std::string::npos ? text.size() : end + 1;
    ++lines;
  }
  if (cut >= text.size() && text.size() <= 2 * kMaxExplanationBytes) return text;
  const auto rest =
      static_cast<std::size_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(cut), text.end(), '\n'));
  std::string head = shorten(text.substr(0, cut), 2 * kMaxExplanationBytes);
  if (rest == 0 && cut >= text.size()) return head;
  if (!head.empty() && head.back() != '\n') head += '\n';
  return head + "\u2026 and " + std::to_string(rest + (text.back() == '\n' ? 0 : 1)) +
         " more lines (ariadne check --explain prints them all)\n";
}

// The text with its op ids as links to their ops; an id the history does not hold
// (which no text should name) stays plain text.
LinkedText link_text(const History& history, std::string_view text) {
  LinkedText linked;
  for (TextPiece& piece : link_op_ids(text)) {
    const auto index = piece.op ? indices_of(history, {*piece.op}) : std::vector<std::uint32_t>{};
    linked.pieces.push_back(std::move(piece.text));
    linked.ops.push_back(index.empty() ? kNone : static_cast<std::int32_t>(index.front()));
  }
  return linked;
}

std::uint32_t time_slot(const std::vector<std::uint64_t>& times, std::uint64_t position) {
  return static_cast<std::uint32_t>(std::lower_bound(times.begin(), times.end(), position) - times.begin());
}

// What the result says of each partition, by key (EDN): every key's verdict for an
// independent history, the failing key's for a keyed one, every key's when the whole
// history is linearizable; "" where it says nothing.
class PartitionVerdicts {
 public:
  explicit PartitionVerdicts(const CheckResult& result) : result_(result) {
    for (const KeyResult& k : result.keys) by_key_.emplace(k.key.to_edn(), k.verdict);
  }
  std::string operator()(const std::string& key) const {
    if (result_.verdict == Verdict::linearizable) return std::string(verdict_name(result_.verdict));
    if (const auto it = by_key_.find(key); it != by_key_.end()) return std::string(verdict_name(it->second));
    if (result_.verdict == Verdict::not_linearizable && key == result_.failing_partition) {
      return std::string(verdict_name(result_.verdict));
    }
    return {};
  }

 private:
  const CheckResult& result_;
  std::map<std::string, Verdict> by_key_;
};

// The partitions (the keys of kv, of independent(MODEL)) in key order, except that
// the failing one, when there is one, comes first: it is the one the reader came for.
void assign_partitions(ReportData& data, const History& history, const Model& model, const CheckResult& result,
                       const std::string& failing_partition, LimitPoll& poll) {
  if (!model.is_partitioned()) {
    data.partition_keys.clear();
    data.initial_state.assign(1, kNone);
    return;
  }
  std::map<Value, std::uint32_t> index;
  std::vector<Value> keys;
  for (const Operation& op : history.ops) {
    poll.step();
    keys.push_back(model.partition_key(op));
  }
  poll.check();
  for (const Value& key : keys) {
    poll.step();
    index.emplace(key, 0);
  }
  const PartitionVerdicts verdict_of(result);
  const auto number = [&](const Value& key, std::uint32_t& i) {
    i = static_cast<std::uint32_t>(data.partition_keys.size());
    const std::string edn = key.to_edn();
    data.partition_keys.push_back(shorten(edn, kMaxOpText));
    data.partition_verdicts.push_back(verdict_of(edn));
  };
  for (auto& [key, i] : index) {
    if (!failing_partition.empty() && key.to_edn() == failing_partition) number(key, i);
  }
  for (auto& [key, i] : index) {
    if (failing_partition.empty() || key.to_edn() != failing_partition) number(key, i);
  }
  poll.check();
  data.partition_of.reserve(keys.size());
  for (const Value& key : keys) {
    poll.step();
    data.partition_of.push_back(index.at(key));
  }
  data.initial_state.assign(std::max<std::size_t>(data.partition_keys.size(), 1), kNone);
}

// Fills state_after for the ops of `order` and initial_state for their partitions.
void replay_order(ReportData& data, StringTable& strings, const History& history, const Model& model,
                  const std::vector<std::uint32_t>& order, const Limits* limits) {
  LimitPoll poll(limits);
  std::map<std::uint32_t, std::vector<std::uint32_t>> by_partition;
  for (std::uint32_t i : order) {
    poll.step();
    by_partition[data.partition_of.empty() ? 0 : data.partition_of[i]].push_back(i);
  }
  for (const auto& [partition, indices] : by_partition) {
    poll.check();
    std::vector<const Operation*> ops;
    ops.reserve(indices.size());
    for (std::uint32_t i : indices) ops.push_back(&history.ops[i]);
    ReplayedStates replay = replay_states(model, ops, limits);
    data.initial_state[partition] = static_cast<std::int32_t>(strings.intern(replay.initial));
    for (std::size_t k = 0; k < replay.after.size(); ++k) {
      data.state_after[indices[k]] = static_cast<std::int32_t>(strings.intern(replay.after[k]));
    }
  }
}

// --- JSON -------------------------------------------------------------------------

void append_string(std::string& out, std::string_view text) {
  for (char c : json_quote(text)) {
    if (c == '<') {
      out += "\\u003c";
    } else {
      out += c;
    }
  }
}

template <typename Integer>
void append_integer(std::string& out, Integer value) {
  char buffer[24];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, end);
}

// The fields of one JSON object, appended in order: "key":value, comma-separated.
class JsonFields {
 public:
  explicit JsonFields(std::string& out) : out_(out) { out_ += '{'; }
  void close() { out_ += '}'; }

  JsonFields& text(std::string_view key, std::string_view value) {
    append_string(begin(key), value);
    return *this;
  }
  template <typename Integer>
  JsonFields& integer(std::string_view key, Integer value) {
    append_integer(begin(key), value);
    return *this;
  }
  JsonFields& boolean(std::string_view key, bool value) {
    begin(key) += value ? "true" : "false";
    return *this;
  }
  JsonFields& number(std::string_view key, double value) {
    std::string& out = begin(key);
    if (!std::isfinite(value)) {
      out += "null";
      return *this;
    }
    char buffer[32];
    const int n = std::snprintf(buffer, sizeof buffer, "%.3f", value);
    out.append(buffer, static_cast<std::size_t>(n));
    return *this;
  }
  // Integers as is; with `differences`, each minus the one before it (the first as
  // is), which turns ascending ids and positions into runs of small numbers.
  template <typename Integer>
  JsonFields& integers(std::string_view key, const std::vector<Integer>& values, bool differences = false) {
    std::string& out = begin(key);
    out += '[';
    std::int64_t previous = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i > 0) out += ',';
      const auto value = static_cast<std::int64_t>(values[i]);
      append_integer(out, differences ? value - previous : value);
      previous = value;
    }
    out += ']';
    return *this;
  }
  JsonFields& texts(std::string_view key, const std::vector<std::string>& values) {
    std::string& out = begin(key);
    out += '[';
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i > 0) out += ',';
      append_string(out, values[i]);
    }
    out += ']';
    return *this;
  }
  // A nested object: its fields go to the returned writer, which the caller closes.
  JsonFields object(std::string_view key) { return JsonFields(begin(key)); }

 private:
  std::string& begin(std::string_view key) {
    if (out_.back() != '{') out_ += ',';
    out_ += '"';
    out_ += key;
    out_ += "\":";
    return out_;
  }

  std::string& out_;
};

// A linked text as {"text": [pieces], "op": [op index or -1 per piece]}.
void linked_text(JsonFields& fields, std::string_view key, const LinkedText& linked) {
  JsonFields object = fields.object(key);
  object.texts("text", linked.pieces).integers("op", linked.ops).close();
}

}  // namespace

std::string LinkedText::joined() const {
  std::string out;
  for (const std::string& piece : pieces) out += piece;
  return out;
}

ReportData build_report_data(const History& history, const Model& model, const CheckResult& result,
                             const ReportContext& context) {
  LimitPoll poll(context.limits);
  poll.check();
  ReportData data;
  data.file = context.file;
  data.model = context.model_spec;
  data.engine = result.engine;
  data.verdict = std::string(verdict_name(result.verdict));
  data.explanation = shorten_explanation(result.verdict == Verdict::unknown ? result.reason : result.explanation);
  data.failing_partition = result.failing_partition;
  data.elapsed_ms = result.elapsed_ms;
  data.partition_count = result.partitions;
  data.core_minimal = result.core_minimal;

  const auto& ops = history.ops;
  for (const Operation& op : ops) {
    poll.step();
    data.times.push_back(op.call);
    if (op.ret != kNever) data.times.push_back(op.ret);
    data.processes.push_back(op.process);
  }
  poll.check();
  std::sort(data.times.begin(), data.times.end());
  data.times.erase(std::unique(data.times.begin(), data.times.end()), data.times.end());
  std::sort(data.processes.begin(), data.processes.end());
  data.processes.erase(std::unique(data.processes.begin(), data.processes.end()), data.processes.end());

  poll.check();
  StringTable strings;
  const std::size_t n = ops.size();
  data.ids.reserve(n);
  data.lanes.reserve(n);
  data.calls.reserve(n);
  data.rets.reserve(n);
  data.statuses.reserve(n);
  data.descriptions.reserve(n);
  for (const Operation& op : ops) {
    poll.step();
    data.ids.push_back(op.id);
    data.lanes.push_back(static_cast<std::uint32_t>(
        std::lower_bound(data.processes.begin(), data.processes.end(), op.process) - data.processes.begin()));
    data.calls.push_back(time_slot(data.times, op.call));
    data.rets.push_back(op.ret == kNever ? kOpen : time_slot(data.times, op.ret));
    data.statuses.push_back(op.status == OpStatus::ok ? 'o' : op.status == OpStatus::crashed ? 'c' : 'f');
    data.descriptions.push_back(strings.intern(shorten(model.describe_operation(op), kMaxOpText)));
  }

  assign_partitions(data, history, model, result,
                    result.verdict == Verdict::not_linearizable ? result.failing_partition : std::string(), poll);
  data.state_after.assign(n, kNone);
  if (result.verdict == Verdict::linearizable) {
    data.linearization = indices_of(history, result.linearization, &poll);
    replay_order(data, strings, history, model, data.linearization, context.limits);
  } else if (result.verdict == Verdict::not_linearizable) {
    data.core = indices_of(history, result.core, &poll);
    data.prefix = indices_of(history, result.prefix_linearization, &poll);
    if (!data.prefix.empty()) replay_order(data, strings, history, model, data.prefix, context.limits);
    for (const RealTimeFact& fact : result.core_real_time) {
      const auto pair = indices_of(history, {fact.before, fact.after});
      if (pair.size() == 2) data.core_facts.emplace_back(pair[0], pair[1]);
    }
    if (result.failing_op) {
      const auto failing = indices_of(history, {*result.failing_op});
      if (!failing.empty()) data.failing = static_cast<std::int32_t>(failing.front());
    }
    const ViolationSummary summary = summarise_violation(history, model, result);
    data.why = summary.sentence;
    data.why_given = summary.sentence_given;
    data.why_links = link_text(history, data.why);
    data.roles_given = summary.roles_given;
    for (const WhyOp& named : summary.roles) {
      const auto index = indices_of(history, {named.op});
      if (index.empty()) continue;
      data.role_ops.push_back(index.front());
      data.roles.push_back(named.role);
    }
  }
  data.explanation_links = link_text(history, data.explanation);
  data.strings = strings.take();
  poll.check();
  return data;
}

std::string report_data_json(const ReportData& data, const Limits* limits) {
  const LimitPoll poll(limits);
  const std::size_t n = data.ids.size();
  // How many slots each op spans, -1 for a crashed op (open to the end).
  std::vector<std::int64_t> spans(n);
  for (std::size_t i = 0; i < n; ++i) {
    spans[i] = data.rets[i] == kOpen ? -1 : std::int64_t{data.rets[i]} - std::int64_t{data.calls[i]};
  }
  const bool any_state =
      std::any_of(data.state_after.begin(), data.state_after.end(), [](std::int32_t s) { return s != kNone; });
  std::vector<std::uint32_t> facts;
  for (const auto& [before, after] : data.core_facts) facts.insert(facts.end(), {before, after});

  std::string out;
  out.reserve(256 + 24 * n + data.times.size() * 3);
  // The limits are polled between columns: a column of a million ops takes tens of
  // milliseconds to write.
  poll.check();
  JsonFields top(out);
  top.integer("format", 1)
      .text("file", data.file)
      .text("model", data.model)
      .text("engine", data.engine)
      .text("verdict", data.verdict)
      .text("failingPartition", data.failing_partition)
      .number("elapsedMs", data.elapsed_ms)
      .integer("partitions", data.partition_count)
      .boolean("coreMinimal", data.core_minimal)
      .integers("times", data.times, true)
      .integers("processes", data.processes);
  poll.check();
  JsonFields columns = top.object("ops");
  columns.integer("count", n).integers("id", data.ids, true).integers("lane", data.lanes);
  poll.check();
  columns.integers("call", data.calls, true).integers("span", spans).text("status", data.statuses);
  poll.check();
  columns.integers("text", data.descriptions)
      .integers("stateAfter", any_state ? data.state_after : std::vector<std::int32_t>{});
  poll.check();
  columns.integers("partition", data.partition_of).close();
  poll.check();
  top.integers("initialState", data.initial_state)
      .texts("partitionKeys", data.partition_keys)
      .texts("partitionVerdicts", data.partition_verdicts);
  poll.check();
  top.texts("strings", data.strings);
  poll.check();
  top.integers("linearization", data.linearization, true)
      .integers("prefix", data.prefix, true)
      .integers("core", data.core, true)
      .integers("coreFacts", facts)
      .integer("failing", data.failing);
  linked_text(top, "explanation", data.explanation_links);
  linked_text(top, "why", data.why_links);
  std::vector<std::string> role_names;
  for (const WhyRole role : data.roles) role_names.emplace_back(why_role_name(role));
  top.boolean("whyGiven", data.why_given).boolean("rolesGiven", data.roles_given);
  JsonFields roles = top.object("roles");
  roles.integers("op", data.role_ops).texts("role", role_names).close();
  top.close();
  poll.check();
  return out;
}

}  // namespace ariadne::report
