// Registers by reads-from: every read is matched to the write it observed, and no
// other write may fall between the two. This is the polygraph view of register
// histories [Papadimitriou79], specialised to linearizability as in the SAT-based
// checkers of [GibbonsKorach97]'s NP-hardness setting: the matches are the only
// choice, and the order is what makes them consistent.
//
// For every read of key k (a :read, the read half of a cas, an etcd failed cas that
// saw "anything but v"), the candidates are the writes of k whose value fits, plus
// the initial value as a virtual write before everything. Exactly one candidate is
// chosen when the read takes effect; the chosen write takes effect and precedes the
// read; every other write of k that takes effect lies before the chosen write or after
// the read. With unique written values the match is fixed and only the order remains.
//
// Appends (kv) make a key's value depend on order: a read of "x 1 y x 2 y" observed a
// base write (a put, or the initial value) whose string is a prefix, followed by
// exactly the appends that spell the rest, in that order, and no other write of the
// key between the base and the read. The encoding enumerates those decompositions
// (with unique appended strings there is one), chooses one per read, and forbids
// every other write in between, which is again the polygraph constraint.
//
// Real time prunes both: a candidate the read precedes, or one with a completed write
// entirely between it and the read, is dropped; a write that real time places before
// the candidate or after the read needs no clause.
#include "encoder/theories.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>

namespace ariadne::encoder {

namespace {

using models::RegisterAccess;

constexpr std::uint32_t kInitialWrite = UINT32_MAX;  // the virtual write of the initial value
constexpr std::size_t kMaxDecompositions = 64;       // per read of a key with appends
// Windows of more writes than this are thinned (forbid_writes_between): a completed
// candidate's holds the writes concurrent with it or the read, a few times the
// process count; a crashed candidate's, every write invoked since it was.
constexpr std::size_t kWideWindow = 64;
// How far the search for those ways may go: complete ways met (ruled out or kept),
// and steps of the search, before the encoding is given up as too costly.
constexpr std::size_t kMaxExploredDecompositions = 64 * kMaxDecompositions;
constexpr std::size_t kMaxDecompositionSteps = std::size_t{1} << 20;

struct Writer {
  std::uint32_t op = 0;
  std::uint32_t value = 0;
  bool append = false;
};

struct Reader {
  std::uint32_t op = 0;
  std::uint32_t value = 0;
  bool other_than = false;
};

struct Key {
  std::vector<Writer> writers;
  std::vector<Reader> readers;
  bool has_appends = false;
};

class RegisterEncoder {
 public:
  RegisterEncoder(FormulaBuilder& builder, const models::Semantics& semantics)
      : builder_(builder), semantics_(semantics) {}

  void encode() {
    std::vector<Key> keys(semantics_.initial.size());
    for (std::uint32_t op = 0; op < builder_.op_count(); ++op) {
      const models::OpMeaning& meaning = semantics_.ops[op];
      if (meaning.effect != models::Effect::registers || builder_.presence(op) == kFalse) continue;
      for (const RegisterAccess& access : meaning.accesses) {
        Key& key = keys.at(access.key);
        switch (access.kind) {
          case RegisterAccess::Kind::read: key.readers.push_back({op, access.value, false}); break;
          case RegisterAccess::Kind::read_other_than: key.readers.push_back({op, access.value, true}); break;
          case RegisterAccess::Kind::write: key.writers.push_back({op, access.value, false}); break;
          case RegisterAccess::Kind::append:
            // Appending "" changes nothing; it constrains no read.
            if (semantics_.text(access.value).empty()) break;
            key.writers.push_back({op, access.value, true});
            key.has_appends = true;
            break;
        }
      }
    }
    for (std::uint32_t k = 0; k < keys.size(); ++k) {
      for (const Reader& reader : keys[k].readers) {
        builder_.poll();
        if (keys[k].has_appends) {
          encode_read_of_appends(k, keys[k], reader);
        } else {
          encode_read(k, keys[k], reader);
        }
      }
      chain_dropped_windows(keys[k]);
    }
  }

 private:
  // A read matched to one write (or the initial value).
  void encode_read(std::uint32_t k, const Key& key, const Reader& reader) {
    std::vector<std::uint32_t> candidates;  // writer indices, or kInitialWrite
    // Ops whose intervals ruled a candidate out: named in the group, for cores.
    std::vector<std::uint32_t> pruned_by;
    const auto fits = [&](std::uint32_t value) { return (value == reader.value) != reader.other_than; };
    if (fits(semantics_.initial[k])) {
      if (const auto overwriter = surely_overwritten(key, {kInitialWrite}, reader.op)) {
        pruned_by.push_back(*overwriter);
      } else {
        candidates.push_back(kInitialWrite);
      }
    }
    for (std::uint32_t w = 0; w < key.writers.size(); ++w) {
      const Writer& writer = key.writers[w];
      if (writer.op == reader.op || !fits(writer.value)) continue;
      if (builder_.precedes(reader.op, writer.op)) {
        pruned_by.push_back(writer.op);
        continue;
      }
      if (const auto overwriter = surely_overwritten(key, {writer.op}, reader.op)) {
        pruned_by.push_back(writer.op);
        pruned_by.push_back(*overwriter);
        continue;
      }
      candidates.push_back(w);
    }

    std::vector<std::uint32_t> group_ops{reader.op};
    for (std::uint32_t c : candidates) {
      if (c != kInitialWrite) group_ops.push_back(key.writers[c].op);
    }
    builder_.begin_group("op " + op_id(reader.op) + " reads " + (reader.other_than ? "anything but " : "") +
                             value_name(reader.value) + " from one write",
                         std::move(group_ops));
    for (const std::uint32_t op : pruned_by) builder_.mention(op);
    const Literal present = builder_.presence(reader.op);
    std::vector<Literal> choice{-present};
    for (std::uint32_t c : candidates) {
      const Literal matched = candidates.size() == 1 && present == kTrue ? kTrue : builder_.new_variable();
      choice.push_back(matched);
      const std::uint32_t base = c == kInitialWrite ? kInitialWrite : key.writers[c].op;
      if (base != kInitialWrite) {
        builder_.add_clause({-matched, builder_.presence(base)});
        builder_.add_clause({-matched, builder_.order(base, reader.op)});
      }
      forbid_writes_between(key, matched, {base}, reader.op);
    }
    builder_.add_clause(choice);
    builder_.end_group();
  }

  // A read of a key with appends: one base write plus the appends that spell the rest.
  void encode_read_of_appends(std::uint32_t k, const Key& key, const Reader& reader) {
    if (reader.other_than) {
      throw EncodingUnsupported("a read that excludes a value on a key with appends has no direct encoding");
    }
    const std::string_view seen = semantics_.text(reader.value);
    std::vector<std::vector<std::uint32_t>> decompositions;  // ops: base (or kInitialWrite), then appends
    std::vector<std::uint32_t> pruned_by;                    // overwriters that ruled a decomposition out

    std::unordered_map<std::string_view, std::vector<std::uint32_t>> appends_by_text;
    std::vector<std::size_t> lengths;
    for (const Writer& writer : key.writers) {
      if (!writer.append || builder_.precedes(reader.op, writer.op)) continue;
      const std::string_view text = semantics_.text(writer.value);
      appends_by_text[text].push_back(writer.op);
      if (std::ranges::find(lengths, text.size()) == lengths.end()) lengths.push_back(text.size());
    }

    std::vector<std::uint32_t> path;
    // The ways of combining appends grow exponentially with appends of equal text
    // (Jepsen's few-valued kv): the search polls the limits as it goes, and gives the
    // encoding up once it has met many times more ways than it may keep, ruled out
    // ones included, rather than spend the whole timeout here.
    std::size_t steps = 0, complete = 0;
    const auto extend = [&](auto&& self, std::size_t at) -> void {
      if ((++steps & 4095) == 0) builder_.poll();
      if (steps > kMaxDecompositionSteps) {
        throw EncodingUnsupported("a read of key " + std::to_string(k) + " (op " + op_id(reader.op) +
                                  ") needs more than " + std::to_string(kMaxDecompositionSteps) +
                                  " steps to find the ways of combining appends");
      }
      if (at == seen.size()) {
        if (++complete > kMaxExploredDecompositions) {
          throw EncodingUnsupported("a read of key " + std::to_string(k) + " (op " + op_id(reader.op) +
                                    ") matches more than " + std::to_string(kMaxExploredDecompositions) +
                                    " ways of combining appends, ruled out or not");
        }
        if (const auto overwriter = surely_overwritten(key, path, reader.op)) {
          pruned_by.push_back(*overwriter);
          return;
        }
        if (decompositions.size() == kMaxDecompositions) {
          throw EncodingUnsupported("a read of key " + std::to_string(k) + " (op " + op_id(reader.op) +
                                    ") matches more than " + std::to_string(kMaxDecompositions) +
                                    " ways of combining appends");
        }
        decompositions.push_back(path);
        return;
      }
      for (std::size_t length : lengths) {
        if (at + length > seen.size()) continue;
        auto it = appends_by_text.find(seen.substr(at, length));
        if (it == appends_by_text.end()) continue;
        for (std::uint32_t append : it->second) {
          if (std::ranges::find(path, append) != path.end()) continue;
          const std::uint32_t previous = path.back();
          if (previous != kInitialWrite && builder_.precedes(append, previous)) continue;
          path.push_back(append);
          self(self, at + length);
          path.pop_back();
        }
      }
    };
    const std::string_view initial = semantics_.text(semantics_.initial[k]);
    if (seen.starts_with(initial)) {
      path = {kInitialWrite};
      extend(extend, initial.size());
    }
    for (const Writer& writer : key.writers) {
      if (writer.append || writer.op == reader.op || builder_.precedes(reader.op, writer.op)) continue;
      const std::string_view base = semantics_.text(writer.value);
      if (!seen.starts_with(base)) continue;
      path = {writer.op};
      extend(extend, base.size());
    }

    std::vector<std::uint32_t> group_ops{reader.op};
    for (const auto& d : decompositions) {
      for (std::uint32_t op : d) {
        if (op != kInitialWrite && std::ranges::find(group_ops, op) == group_ops.end()) group_ops.push_back(op);
      }
    }
    builder_.begin_group(
        "op " + op_id(reader.op) + " reads " + value_name(reader.value) + " from one write and the appends after it",
        std::move(group_ops));
    for (const std::uint32_t op : pruned_by) builder_.mention(op);
    const Literal present = builder_.presence(reader.op);
    std::vector<Literal> choice{-present};
    for (const auto& d : decompositions) {
      const Literal chosen = decompositions.size() == 1 && present == kTrue ? kTrue : builder_.new_variable();
      choice.push_back(chosen);
      for (std::size_t i = 0; i < d.size(); ++i) {
        if (d[i] == kInitialWrite) continue;
        builder_.add_clause({-chosen, builder_.presence(d[i])});
        if (i + 1 < d.size()) builder_.add_clause({-chosen, builder_.order(d[i], d[i + 1])});
      }
      if (d.back() != kInitialWrite) builder_.add_clause({-chosen, builder_.order(d.back(), reader.op)});
      forbid_writes_between(key, chosen, d, reader.op);
    }
    builder_.add_clause(choice);
    builder_.end_group();
  }

  // When `chosen` holds, every write of the key outside `chain` (whose first element
  // is the base write) that takes effect lies before the base or after the read.
  //
  // Under real time most of these clauses follow from a few. A write W that completed
  // before the read was invoked must lie before the base; if W also completed before
  // another such write W' that surely takes effect was invoked, W' before the base
  // puts W there too, by transitivity (which every back-end enforces: the SAT one by
  // cutting the cycle W' < base < W, real-time edge W -> W', and a completed op is
  // present, so that edge is in its graph). So only the writes that did not complete
  // before the latest-invoked such W' need a clause; likewise, of the writes the base
  // completed before, only those not invoked after the earliest-completing one. A
  // crashed base may take effect arbitrarily late, so every write completed between
  // its invocation and the read is in its window: without this the clauses grew with
  // the square of the history (a 5,000-op cas-register history with 250 crashed ops
  // went past 4 GiB); with it a window keeps about as many as writes run at once, plus
  // its crashed ones. Only wide windows are thinned, and chain_dropped_windows() gives
  // the solver back, in binary clauses, what the dropped ones propagated.
  void forbid_writes_between(const Key& key, Literal chosen, const std::vector<std::uint32_t>& chain,
                             std::uint32_t reader) {
    const std::uint32_t base = chain.front();
    window_.clear();
    for (const Writer& other : key.writers) {
      if (other.op == reader || std::ranges::find(chain, other.op) != chain.end()) continue;
      if (builder_.precedes(reader, other.op)) continue;
      if (base != kInitialWrite && builder_.precedes(other.op, base)) continue;
      window_.push_back(
          {other.op, base != kInitialWrite && builder_.precedes(base, other.op), builder_.precedes(other.op, reader)});
    }
    // The surely present writes that real time puts before the read and invoked last,
    // and after the base and completed first (kNoOp: none).
    std::uint32_t last_before_read = kNoOp, first_after_base = kNoOp;
    if (builder_.orders_by_real_time() && window_.size() > kWideWindow) {
      const RealTimeOrder& time = builder_.real_time();
      for (const WindowWrite& w : window_) {
        if (builder_.presence(w.op) != kTrue) continue;
        if (w.before_read && (last_before_read == kNoOp || time.call(w.op) > time.call(last_before_read))) {
          last_before_read = w.op;
        }
        if (w.after_base && (first_after_base == kNoOp || time.ret(w.op) < time.ret(first_after_base))) {
          first_after_base = w.op;
        }
      }
    }
    bool dropped_before = false, dropped_after = false;
    for (const WindowWrite& w : window_) {
      if (w.before_read && last_before_read != kNoOp && builder_.precedes(w.op, last_before_read)) {
        dropped_before = true;
        continue;
      }
      if (w.after_base && first_after_base != kNoOp && builder_.precedes(first_after_base, w.op)) {
        dropped_after = true;
        continue;
      }
      // Real time put this write after the base and before the read: it overwrites.
      if (w.after_base || w.before_read) builder_.mention(w.op);
      const Literal before_base = base == kInitialWrite ? kFalse : builder_.order(w.op, base);
      const Literal after_read = builder_.order(reader, w.op);
      builder_.add_clause({-chosen, -builder_.presence(w.op), before_base, after_read});
    }
    // Noted once per window, not per clause dropped: millions of those at 5,000 ops.
    if (dropped_before && base != kInitialWrite) dropped_before_.insert(base);
    if (dropped_after) dropped_after_.insert(reader);
  }

  // The clauses forbid_writes_between() dropped follow from the kept ones by
  // transitivity through real-time edges, which the SAT back-end enforces only by
  // cutting the cycles its models propose: hundreds of models where the clauses had
  // propagated at once. These binary clauses propagate the same along the real-time
  // order of the key's surely present writes, once per op instead of once per read:
  // for each immediate edge W -> W' of that order, W' before a base puts W before it,
  // and a reader before W puts it before W'. Each is a transitivity fact about present
  // ops, so no linearization is lost.
  void chain_dropped_windows(const Key& key) {
    if (dropped_before_.empty() && dropped_after_.empty()) return;
    const RealTimeOrder& time = builder_.real_time();
    std::vector<std::uint32_t> writes;  // surely present, by call
    for (const Writer& w : key.writers) {
      if (builder_.presence(w.op) == kTrue && time.ret(w.op) != kNever) writes.push_back(w.op);
    }
    std::ranges::sort(writes, {}, [&](std::uint32_t op) { return time.call(op); });
    // first_return_from[i]: the earliest return among writes[i..].
    std::vector<std::uint64_t> first_return_from(writes.size() + 1, kNever);
    for (std::size_t i = writes.size(); i-- > 0;) {
      first_return_from[i] = std::min(first_return_from[i + 1], time.ret(writes[i]));
    }
    const auto invoked_after = [&](std::uint64_t t) {
      return static_cast<std::size_t>(
          std::ranges::upper_bound(writes, t, {}, [&](std::uint32_t op) { return time.call(op); }) - writes.begin());
    };
    for (const std::uint32_t w : writes) {
      builder_.poll();
      // W's immediate successors: the writes invoked after W returned and before any
      // write invoked after W returned had returned.
      const std::size_t from = invoked_after(time.ret(w));
      const std::uint64_t until = first_return_from[from];
      for (std::size_t j = from; j < writes.size() && time.call(writes[j]) <= until; ++j) {
        const std::uint32_t next = writes[j];
        for (const std::uint32_t base : dropped_before_) {
          if (base == w || base == next || builder_.precedes(w, base)) continue;  // nothing to chain
          builder_.add_clause({-builder_.presence(base), -builder_.order(next, base), builder_.order(w, base)});
        }
        for (const std::uint32_t reader : dropped_after_) {
          // A cas reads and writes; a write before the reader has nothing to chain.
          if (reader == w || reader == next || builder_.precedes(w, reader)) continue;
          builder_.add_clause({-builder_.presence(reader), -builder_.order(reader, w), builder_.order(reader, next)});
        }
      }
    }
    dropped_before_.clear();
    dropped_after_.clear();
  }

  // Some write outside `chain` that must take effect and that real time puts after the
  // base write and before the read, which rules the chain out; nullopt if none.
  std::optional<std::uint32_t> surely_overwritten(const Key& key, const std::vector<std::uint32_t>& chain,
                                                  std::uint32_t reader) const {
    const std::uint32_t base = chain.front();
    for (const Writer& other : key.writers) {
      if (other.op == reader || builder_.presence(other.op) != kTrue) continue;
      if (!builder_.precedes(other.op, reader)) continue;
      if (base != kInitialWrite && !builder_.precedes(base, other.op)) continue;
      if (std::ranges::find(chain, other.op) != chain.end()) continue;
      return other.op;
    }
    return std::nullopt;
  }

  std::string op_id(std::uint32_t op) const { return std::to_string(builder_.op(op).id); }
  std::string value_name(std::uint32_t value) const { return semantics_.value_name(value); }

  // A write in a read's window, and whether real time puts it after the base or
  // before the read.
  struct WindowWrite {
    std::uint32_t op = 0;
    bool after_base = false;
    bool before_read = false;
  };
  static constexpr std::uint32_t kNoOp = UINT32_MAX;

  FormulaBuilder& builder_;
  const models::Semantics& semantics_;
  std::vector<WindowWrite> window_;  // forbid_writes_between's, kept for its capacity
  // Bases and readers of the key whose window clauses forbid_writes_between() dropped.
  std::set<std::uint32_t> dropped_before_, dropped_after_;
};

}  // namespace

void encode_registers(FormulaBuilder& builder, const models::Semantics& semantics) {
  RegisterEncoder(builder, semantics).encode();
}

}  // namespace ariadne::encoder
