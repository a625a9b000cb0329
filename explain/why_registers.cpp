// The register family's sentence: a read with nothing left to read from
// (explain/reads_from.hpp gives the argument; this says it in one sentence).
#include "explain/reads_from.hpp"
#include "explain/why_words.hpp"
#include "models/semantics.hpp"

#include <algorithm>

namespace ariadne::explain {

namespace {

using models::RegisterAccess;

// The core's ops in partition order, each with its index in the partition (where its
// meaning is), and a membership test.
class CoreOps {
 public:
  struct Kept {
    const Operation* op;
    std::uint32_t index;
  };

  explicit CoreOps(const ShapeInput& in) : sorted_(in.core.begin(), in.core.end()) {
    std::sort(sorted_.begin(), sorted_.end());
    for (std::uint32_t i = 0; i < in.partition.size(); ++i) {
      if (has(in.partition[i])) kept_.push_back(Kept{in.partition[i], i});
    }
  }
  bool has(const Operation* op) const { return std::binary_search(sorted_.begin(), sorted_.end(), op); }
  const std::vector<Kept>& kept() const { return kept_; }

 private:
  std::vector<const Operation*> sorted_;
  std::vector<Kept> kept_;
};

// Two reads that disagree on the order of two writes: read a needs the only write of
// a after the only write of b, because that one completed before read a began (so
// the last write before read a, which must be a's, comes after it); and read b needs
// the opposite for the same reason. Neither value is the initial one, and each write
// completed, so both took effect.
std::optional<Shape> crossed_reads(const ShapeInput& in) {
  const models::Semantics& semantics = *in.relevance.semantics();
  if (semantics.strings) return std::nullopt;
  const WhyWords& words = in.words;
  const CoreOps core(in);
  const auto only_writer = [&](std::uint32_t key, std::uint32_t value) -> const Operation* {
    const Operation* found = nullptr;
    for (std::uint32_t i = 0; i < in.partition.size(); ++i) {
      for (const RegisterAccess& access : in.relevance.relaxed(i).accesses) {
        if (access.kind != RegisterAccess::Kind::write || access.key != key || access.value != value) continue;
        if (found) return nullptr;
        found = in.partition[i];
      }
    }
    if (!found || found->status != OpStatus::ok || !core.has(found)) return nullptr;
    return found;
  };
  struct Read {
    const Operation* op;
    std::uint32_t key;
    std::uint32_t value;
    const Operation* writer;
  };
  std::vector<Read> reads;
  for (const auto& [op, i] : core.kept()) {
    if (!op->must_take_effect()) continue;
    for (const RegisterAccess& access : in.relevance.recorded(i).accesses) {
      if (access.kind != RegisterAccess::Kind::read || semantics.initial.at(access.key) == access.value) continue;
      const Operation* writer = only_writer(access.key, access.value);
      if (writer && writer != op) reads.push_back(Read{op, access.key, access.value, writer});
    }
  }
  // The failing op's pair first.
  std::stable_partition(reads.begin(), reads.end(), [&](const Read& r) { return r.op == in.failing; });
  for (const Read& a : reads) {
    for (const Read& b : reads) {
      if (a.key != b.key || a.value == b.value || a.op == b.op) continue;
      if (!words.precedes(*b.writer, *a.op) || !words.precedes(*a.writer, *b.op)) continue;
      Shape shape;
      shape.name(a.op, WhyRole::refused);
      shape.name(b.op, WhyRole::cause);
      shape.name(a.writer, WhyRole::source);
      shape.name(b.writer, WhyRole::cause);
      const std::string na = "op " + std::to_string(a.op->id);
      const std::string nb = "op " + std::to_string(b.op->id);
      const std::string wa = "op " + std::to_string(a.writer->id);
      const std::string wb = "op " + std::to_string(b.writer->id);
      const std::string before = words.real_time() ? " completed before " : " came before ";
      const std::string began = words.real_time() ? " began" : " in its process";
      shape.sentence = words.named(*a.op) + " and " + words.named(*b.op) +
                       " disagree on the order of the only writes of their values: " + words.named(*b.writer) + before +
                       na + began + ", so " + na + " needs " + words.named(*a.writer) + " after it, but " + wa +
                       before + nb + began + ", so " + nb + " needs " + wb + " after " + wa + ".";
      return shape;
    }
  }
  return std::nullopt;
}

// The ops of the partition that could write `value` to `key` once relaxed, and
// whether the register starts with it.
std::size_t supplies_of(const ShapeInput& in, std::uint32_t key, std::uint32_t value) {
  std::size_t count = in.relevance.semantics()->initial.at(key) == value ? 1 : 0;
  for (std::uint32_t i = 0; i < in.partition.size(); ++i) {
    for (const RegisterAccess& access : in.relevance.relaxed(i).accesses) {
      if (access.kind == RegisterAccess::Kind::write && access.key == key && access.value == value) ++count;
    }
  }
  return count;
}

// What an op does to a register's key, as the core records it.
struct KeyAccess {
  bool reads = false, writes = false;
  std::uint32_t read = 0, written = 0;
};

KeyAccess key_access(const models::OpMeaning& meaning, std::uint32_t key) {
  KeyAccess found;
  for (const RegisterAccess& access : meaning.accesses) {
    if (access.key != key) continue;
    if (access.kind == RegisterAccess::Kind::read) found = {true, found.writes, access.value, found.written};
    if (access.kind == RegisterAccess::Kind::write) found = {found.reads, true, found.read, access.value};
  }
  return found;
}

// A value that comes back: read once, then another value seen or written, then read
// again, though only one op (or the initial value) can ever supply it.
std::optional<Shape> value_comes_back(const ShapeInput& in) {
  const models::Semantics& semantics = *in.relevance.semantics();
  if (semantics.strings) return std::nullopt;
  const WhyWords& words = in.words;
  using Kept = CoreOps::Kept;
  std::vector<Kept> kept = CoreOps(in).kept();
  std::stable_partition(kept.begin(), kept.end(), [&](const Kept& k) { return k.op == in.failing; });
  for (const Kept& again : kept) {
    if (!again.op->must_take_effect()) continue;
    for (const RegisterAccess& read : in.relevance.recorded(again.index).accesses) {
      if (read.kind != RegisterAccess::Kind::read || supplies_of(in, read.key, read.value) != 1) continue;
      for (const Kept& first : kept) {
        const KeyAccess seen = key_access(in.relevance.recorded(first.index), read.key);
        if (first.op == again.op || !first.op->must_take_effect() || !seen.reads || seen.read != read.value ||
            !words.precedes(*first.op, *again.op)) {
          continue;
        }
        for (const Kept& between : kept) {
          const KeyAccess other = key_access(in.relevance.recorded(between.index), read.key);
          const bool wrote = other.writes && other.written != read.value && between.op->status == OpStatus::ok;
          const bool saw = other.reads && other.read != read.value && between.op->must_take_effect();
          if (!(wrote || saw) || !words.precedes(*first.op, *between.op) || !words.precedes(*between.op, *again.op)) {
            continue;
          }
          Shape shape;
          shape.name(again.op, WhyRole::refused);
          shape.name(first.op, WhyRole::source);
          shape.name(between.op, WhyRole::cause);
          const std::string value = shorten(semantics.value_name(read.value), 40);
          const std::string supplier = semantics.initial.at(read.key) == read.value
                                           ? "the register starts with " + value + " and no op writes it"
                                           : "only one op writes " + value + ", and it takes effect once";
          shape.sentence = words.named(*again.op) + " saw " + value + " come back: " + words.named(*first.op) +
                           " had seen it, then " + words.named(*between.op) + (wrote ? " wrote " : " saw ") +
                           shorten(semantics.value_name(wrote ? other.written : other.read), 40) + ", each " +
                           (words.real_time() ? "completing before the next began" : "in the order of their process") +
                           ", and " + supplier + ".";
          return shape;
        }
      }
    }
  }
  return std::nullopt;
}

// Two reads of a value that each need a write of it of their own: the first after an
// op that left or saw another value before it (or from the start), the second after an
// op that left or saw another value after the first. The spans do not overlap, no
// write of the value in the core falls in either, and at most one op outside the core
// can write it (unconditionally; a cas that needs the value itself supplies nothing),
// taking effect once: one span goes without.
std::optional<Shape> two_spans_one_write(const ShapeInput& in) {
  const models::Semantics& semantics = *in.relevance.semantics();
  if (semantics.strings) return std::nullopt;
  const WhyWords& words = in.words;
  const CoreOps core(in);
  using Kept = CoreOps::Kept;
  const std::vector<Kept>& kept = core.kept();
  // Whether the op leaves or sees a value other than `value` on `key`.
  const auto moves_away = [&](const Kept& k, std::uint32_t key, std::uint32_t value) {
    const KeyAccess access = key_access(in.relevance.recorded(k.index), key);
    return (access.writes && access.written != value && k.op->status == OpStatus::ok) ||
           (access.reads && access.read != value && k.op->must_take_effect());
  };
  for (const Kept& second : kept) {
    if (!second.op->must_take_effect()) continue;
    for (const RegisterAccess& read : in.relevance.recorded(second.index).accesses) {
      if (read.kind != RegisterAccess::Kind::read) continue;
      const std::uint32_t key = read.key;
      const std::uint32_t value = read.value;
      // The writes of the value: those of the core, and how many outside it supply it.
      std::vector<const Operation*> core_writers;
      std::size_t outside = 0;
      bool conditional = false;
      for (std::uint32_t i = 0; i < in.partition.size(); ++i) {
        const KeyAccess could = key_access(in.relevance.relaxed(i), key);
        if (!could.writes || could.written != value) continue;
        if (core.has(in.partition[i])) {
          core_writers.push_back(in.partition[i]);
        } else if (!could.reads) {
          ++outside;
        } else if (could.read != value) {
          conditional = true;
        }
      }
      if (conditional || outside > 1) continue;
      const auto serves = [&](const Operation* after, const Operation& before) {
        return std::any_of(core_writers.begin(), core_writers.end(), [&](const Operation* w) {
          return w->status != OpStatus::failed && !(after && words.precedes(*w, *after)) && !words.precedes(before, *w);
        });
      };
      for (const Kept& first : kept) {
        const KeyAccess seen = key_access(in.relevance.recorded(first.index), key);
        if (first.op == second.op || !first.op->must_take_effect() || !seen.reads || seen.read != value) continue;
        for (const Kept& away : kept) {
          // After the first read (or the first itself, a cas that moved on), before the second.
          if (away.op == second.op || !moves_away(away, key, value) || !words.precedes(*away.op, *second.op)) continue;
          if (away.op != first.op && !words.precedes(*first.op, *away.op)) continue;
          if (serves(away.op, *second.op)) continue;
          for (const Kept& before : kept) {
            if (before.op == first.op || !moves_away(before, key, value) || !words.precedes(*before.op, *first.op)) {
              continue;
            }
            if (serves(before.op, *first.op)) continue;
            Shape shape;
            shape.name(second.op, WhyRole::refused);
            shape.name(first.op, WhyRole::source);
            shape.name(away.op, WhyRole::cause);
            shape.name(before.op, WhyRole::cause);
            const std::string v = shorten(semantics.value_name(value), 40);
            // What each op did to the value: left another one, or saw another one.
            const auto moved = [&](const Kept& k) {
              const KeyAccess access = key_access(in.relevance.recorded(k.index), key);
              return access.writes && access.written != value && k.op->status == OpStatus::ok
                         ? std::string(" left another value")
                         : std::string(" saw another value");
            };
            const std::string away_words =
                away.op == first.op ? "the " + first.op->f + " itself" : words.named(*away.op);
            shape.sentence =
                words.named(*first.op) + " and " + words.named(*second.op) + " each need a write of " + v +
                " of their own: the first after " + words.named(*before.op) + moved(before) + " and " +
                words.before(*first.op) + ", the second after " + away_words + moved(away) + " and " +
                words.before(*second.op) + "; no write of " + v + " in the core falls in either span, and " +
                (outside == 0 ? "no op outside it writes " + v : "only one op outside it writes " + v + ", once") + ".";
            return shape;
          }
        }
      }
    }
  }
  return std::nullopt;
}

// A failed cas says the register did not hold its expected value; the history says
// it did: a write of that value completed before the cas began (or the register
// started with it), and no op that could write another value can come between.
std::optional<Shape> failed_cas_held(const ShapeInput& in) {
  const models::Semantics& semantics = *in.relevance.semantics();
  const WhyWords& words = in.words;
  const CoreOps core(in);
  const auto in_core = [&](const Operation* op) { return core.has(op); };
  for (std::uint32_t c = 0; c < in.partition.size(); ++c) {
    const Operation& cas = *in.partition[c];
    if (!in_core(&cas) || !cas.must_take_effect()) continue;
    for (const RegisterAccess& expected : in.relevance.recorded(c).accesses) {
      if (expected.kind != RegisterAccess::Kind::read_other_than) continue;
      // The latest write of the value before the cas, or the initial value.
      const Operation* holder = nullptr;
      for (const auto& [op, i] : core.kept()) {
        const KeyAccess access = key_access(in.relevance.recorded(i), expected.key);
        if (op->status == OpStatus::ok && access.writes && access.written == expected.value &&
            words.precedes(*op, cas) && (!holder || words.precedes(*holder, *op))) {
          holder = op;
        }
      }
      if (!holder && semantics.initial.at(expected.key) != expected.value) continue;
      // Every op that could write another value comes before the holder or after the cas.
      bool none_between = true;
      for (std::uint32_t i = 0; i < in.partition.size() && none_between; ++i) {
        const Operation* op = in.partition[i];
        const KeyAccess could = key_access(in.relevance.relaxed(i), expected.key);
        if (op == &cas || !could.writes || could.written == expected.value) continue;
        none_between = in_core(op) && ((holder && words.precedes(*op, *holder)) || words.precedes(cas, *op));
      }
      if (!none_between) continue;
      Shape shape;
      shape.name(&cas, WhyRole::refused);
      const std::string value = shorten(semantics.value_name(expected.value), 40);
      std::string held;
      if (holder) {
        shape.name(holder, WhyRole::cause);
        held = words.named(*holder) + " " + words.before(cas);
      } else {
        held = "the register started with it";
      }
      shape.sentence = words.named(cas) + " failed, so the register did not hold " + value + ", but it did: " + held +
                       ", and no op could write another value " + (holder ? "between them." : "before the cas.");
      return shape;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<Shape> register_shape(const ShapeInput& in) {
  const WhyWords& words = in.words;
  const auto precedes = [&](const Operation& a, const Operation& b) { return words.precedes(a, b); };
  const std::vector<StarvedRead> reads = starved_reads(in.core, in.partition, in.relevance, precedes);
  if (reads.empty()) {
    const models::Semantics* semantics = in.relevance.semantics();
    if (!semantics || semantics->theory != models::Theory::registers) return std::nullopt;
    if (auto shape = failed_cas_held(in)) return shape;
    if (auto shape = value_comes_back(in)) return shape;
    if (auto shape = two_spans_one_write(in)) return shape;
    return crossed_reads(in);
  }
  // The failing op's own read when it is starved: it is the result the report leads with.
  const auto chosen =
      std::find_if(reads.begin(), reads.end(), [&](const StarvedRead& r) { return r.reader == in.failing; });
  const StarvedRead& read = chosen != reads.end() ? *chosen : reads.front();
  const models::Semantics& semantics = *in.relevance.semantics();
  const Operation& reader = *read.reader;
  const std::string value = shorten(semantics.value_name(read.value), 40);

  Shape shape;
  shape.name(&reader, WhyRole::refused);
  std::vector<std::string> clauses;
  for (const Overwritten& group : read.overwritten) {
    const std::vector<const Operation*>& sources = group.sources;
    shape.name_all(sources, WhyRole::source);
    shape.name(group.by, WhyRole::cause);
    // What the sources did: "op 3 wrote 2", "the initial value 2", "op 409 put "x"".
    std::string what;
    if (!sources.empty()) {
      if (!read.strings) {
        what = words.ids(sources) + " wrote " + value;
      } else if (sources.size() == 1) {
        what =
            words.ids(sources) + " put " + WhyWords::quoted(sources.front()->value) + ", which its value begins with";
      } else {
        what = words.ids(sources) + " put values it begins with";
      }
    }
    if (group.initial) {
      const std::string initial_text = read.strings ? semantics.value_name(semantics.initial.at(read.key)) : "";
      const std::string initial = !read.strings            ? "the register started with " + value
                                  : initial_text == "\"\"" ? "the key started empty"
                                                           : "the key started with " + shorten(initial_text, 40);
      what = what.empty() ? initial : what + ", and " + initial;
    }
    const bool one = sources.size() + (group.initial ? 1 : 0) == 1;
    const std::string them = one ? "it" : "them";
    std::string clause = what + (group.initial && !sources.empty() ? ", but " : " but ");
    switch (group.how) {
      case Overwrite::wrote:
        clause += (one ? "was" : "were") + std::string(" overwritten by ") + words.named(*group.by) + ", which " +
                  words.before(reader);
        break;
      case Overwrite::saw:
        clause += words.named(*group.by) + " saw another value after " + them + " and " + words.before(reader);
        break;
      case Overwrite::saw_later:
        shape.name_all(group.seen_writers, WhyRole::cause);
        clause += words.named(*group.by) + ", which " + words.before(reader) + ", saw " +
                  shorten(semantics.value_name(group.seen), 40) + ", which only " +
                  (group.seen_writers.size() == 1 ? words.named(*group.seen_writers.front())
                                                  : words.ids(group.seen_writers)) +
                  " could write, and only after " + them;
        break;
      case Overwrite::appended:
        clause += words.named(*group.by) + ", which " + words.before(reader) + ", appended after " + them +
                  " text that its value lacks";
        break;
    }
    clauses.push_back(std::move(clause));
  }
  if (!read.late.empty()) {
    shape.name_all(read.late, WhyRole::late);
    const std::string who = read.late.size() == 1 ? words.named(*read.late.front()) : words.ids(read.late);
    clauses.push_back(who + (read.late.size() == 1 ? " " : ", which could also write it, ") + words.after(reader));
  }
  if (!read.failed.empty()) {
    shape.name_all(read.failed, WhyRole::source);
    const std::string who = read.failed.size() == 1 ? words.named(*read.failed.front()) : words.ids(read.failed);
    clauses.push_back(who + " failed, so wrote nothing");
  }
  if (read.source_count() == 0 && !read.conditional_outside.empty()) {
    clauses.push_back("no op of the core writes " + value +
                      ", the register does not start with it, and the only ops that could (outside the core) need "
                      "another value first, which no order gives them in time");
  } else if (read.source_count() == 0) {
    clauses.push_back(read.strings ? "no op puts a value it begins with, and the key does not start with one"
                                   : "no op writes " + value + ", and the register does not start with it");
  } else if (!read.conditional_outside.empty()) {
    clauses.push_back(
        "outside the core, only ops that need another value first could write it, and no order gives them that "
        "value in time");
  }
  std::string sentence = words.named(reader) + (read.strings ? " has no put left that its value could begin with: "
                                                             : " has no write of " + value + " left to read from: ");
  for (std::size_t i = 0; i < clauses.size(); ++i) sentence += (i ? "; " : "") + clauses[i];
  shape.sentence = sentence + ".";
  return shape;
}

}  // namespace ariadne::explain
