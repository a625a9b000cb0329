#include "explain/reads_from.hpp"

#include "explain/explanation.hpp"
#include "models/semantics.hpp"
#include "refute/relevant_relaxed.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

namespace ariadne::explain {

namespace {

using models::RegisterAccess;

std::optional<RegisterAccess> access_of(const models::OpMeaning& meaning, RegisterAccess::Kind kind,
                                        std::uint32_t key) {
  for (const RegisterAccess& access : meaning.accesses) {
    if (access.kind == kind && access.key == key) return access;
  }
  return std::nullopt;
}

}  // namespace

std::size_t StarvedRead::source_count() const {
  std::size_t count = late.size() + failed.size() + (initial_source ? 1 : 0);
  for (const Overwritten& group : overwritten) count += group.sources.size();
  return count;
}

std::vector<StarvedRead> starved_reads(std::span<const Operation* const> core,
                                       std::span<const Operation* const> partition, const RelaxedRelevance& relevance,
                                       const Precedes& precedes) {
  // The core's ops as recorded and the relaxed twins of every op, from the
  // partition's one description, so that value ids agree.
  const models::Semantics* semantics = relevance.semantics();
  if (!semantics || semantics->theory != models::Theory::registers) return {};
  const std::size_t n = core.size();
  std::vector<std::pair<const Operation*, std::uint32_t>> core_at;  // (op, index in core)
  for (std::uint32_t r = 0; r < n; ++r) core_at.emplace_back(core[r], r);
  std::sort(core_at.begin(), core_at.end());
  std::vector<const models::OpMeaning*> recorded(n);
  std::vector<const models::OpMeaning*> relaxed(n);
  std::vector<std::uint32_t> others;  // partition indices of the ops outside the core
  for (std::uint32_t i = 0; i < partition.size(); ++i) {
    const auto at = std::lower_bound(core_at.begin(), core_at.end(), std::pair{partition[i], std::uint32_t{0}});
    if (at == core_at.end() || at->first != partition[i]) {
      others.push_back(i);
      continue;
    }
    recorded[at->second] = &relevance.recorded(i);
    relaxed[at->second] = &relevance.relaxed(i);
  }
  // Whether writing `written` could leave what `read` saw: the same value, or for
  // strings, a value the read's string begins with (appends may have followed).
  const auto supplies = [&](std::uint32_t written, const RegisterAccess& read) {
    if (!semantics->strings) return written == read.value;
    const std::string_view seen = semantics->text(read.value);
    const std::string_view put = semantics->text(written);
    return seen.substr(0, put.size()) == put;
  };

  std::vector<StarvedRead> reads;
  for (std::size_t r = 0; r < n; ++r) {
    const Operation& reader = *core[r];
    if (!reader.must_take_effect()) continue;
    for (const RegisterAccess& read : recorded[r]->accesses) {
      if (read.kind != RegisterAccess::Kind::read) continue;
      // The ops outside the core that could write what `read` saw once relaxed: those
      // that could do so unconditionally (a plain write) void the argument; the others
      // (a cas) need some value first, which is left to the solver's refutation.
      StarvedRead found;
      found.reader = &reader;
      found.key = read.key;
      found.value = read.value;
      found.strings = semantics->strings;
      bool unconditional = false;
      for (const std::uint32_t o : others) {
        const models::OpMeaning& meaning = relevance.relaxed(o);
        const auto write = access_of(meaning, RegisterAccess::Kind::write, read.key);
        if (!write || !supplies(write->value, read)) continue;
        if (const auto needs = access_of(meaning, RegisterAccess::Kind::read, read.key)) {
          found.conditional_outside.emplace_back(partition[o], needs->value);
        } else {
          unconditional = true;
        }
      }
      if (unconditional) continue;
      // An op of the core after `source` (if any) and before the read, that shows the
      // source's value gone by then: it wrote a value the read could not have seen;
      // or (plain registers) it saw a value other than the one read, or found the
      // register not holding it; or (strings) it appended text that the string read
      // lacks after the source's part.
      const std::string_view seen = semantics->strings ? semantics->text(read.value) : std::string_view();
      const auto overwriter = [&](std::optional<std::size_t> source) -> std::optional<Overwritten> {
        const std::size_t base =
            semantics->strings
                ? (source ? semantics->text(access_of(*relaxed[*source], RegisterAccess::Kind::write, read.key)->value)
                          : semantics->text(semantics->initial.at(read.key)))
                      .size()
                : 0;
        for (const Overwrite how : {Overwrite::wrote, Overwrite::appended, Overwrite::saw}) {
          for (std::size_t x = 0; x < n; ++x) {
            if (x == r || (source && x == *source) || !precedes(*core[x], reader)) continue;
            if (source && !precedes(*core[*source], *core[x])) continue;
            const models::OpMeaning& meaning = *recorded[x];
            bool shows = false;
            for (const RegisterAccess& access : meaning.accesses) {
              if (access.key != read.key) continue;
              switch (how) {
                case Overwrite::wrote:
                  shows = shows || (access.kind == RegisterAccess::Kind::write && core[x]->status == OpStatus::ok &&
                                    !supplies(access.value, read));
                  break;
                case Overwrite::appended:
                  shows = shows || (semantics->strings && access.kind == RegisterAccess::Kind::append &&
                                    core[x]->status == OpStatus::ok &&
                                    seen.substr(std::min(base, seen.size())).find(semantics->text(access.value)) ==
                                        std::string_view::npos);
                  break;
                case Overwrite::saw:
                  shows =
                      shows || (!semantics->strings && core[x]->must_take_effect() &&
                                ((access.kind == RegisterAccess::Kind::read && access.value != read.value) ||
                                 (access.kind == RegisterAccess::Kind::read_other_than && access.value == read.value)));
                  break;
                case Overwrite::saw_later: break;  // below: it needs every writer of what was seen
              }
            }
            if (shows) return Overwritten{core[x], how, {}, false, 0, {}};
          }
        }
        // A read of another value v' that every write of v' could only follow: then
        // v' came after the source, and the read saw it before this read began.
        if (!source || semantics->strings) return std::nullopt;
        for (std::size_t x = 0; x < n; ++x) {
          if (x == r || x == *source || !core[x]->must_take_effect() || !precedes(*core[x], reader)) continue;
          const auto other = access_of(*recorded[x], RegisterAccess::Kind::read, read.key);
          if (!other || other->value == read.value || semantics->initial.at(read.key) == other->value) continue;
          const auto writes_other = [&](const models::OpMeaning& meaning) {
            const auto write = access_of(meaning, RegisterAccess::Kind::write, read.key);
            return write && write->value == other->value;
          };
          if (std::any_of(others.begin(), others.end(),
                          [&](std::uint32_t o) { return writes_other(relevance.relaxed(o)); })) {
            continue;
          }
          bool after_source = true;
          for (std::size_t w = 0; w < n && after_source; ++w) {
            if (w != x && writes_other(*relaxed[w])) after_source = precedes(*core[*source], *core[w]);
          }
          if (!after_source) continue;
          std::vector<const Operation*> writers;
          for (std::size_t w = 0; w < n; ++w) {
            if (w != x && writes_other(*relaxed[w])) writers.push_back(core[w]);
          }
          return Overwritten{core[x], Overwrite::saw_later, {}, false, other->value, std::move(writers)};
        }
        return std::nullopt;
      };
      const auto overwritten_by = [&](Overwritten by) -> Overwritten& {
        for (Overwritten& group : found.overwritten) {
          if (group.by == by.by) return group;
        }
        return found.overwritten.emplace_back(std::move(by));
      };
      bool starved = true;
      if (supplies(semantics->initial.at(read.key), read)) {
        found.initial_source = true;
        if (const auto x = overwriter(std::nullopt)) {
          overwritten_by(*x).initial = true;
        } else {
          starved = false;
        }
      }
      for (std::size_t w = 0; w < n && starved; ++w) {
        const auto could_write = access_of(*relaxed[w], RegisterAccess::Kind::write, read.key);
        if (w == r || !could_write || !supplies(could_write->value, read)) continue;
        const Operation& writer = *core[w];
        if (precedes(reader, writer)) {
          found.late.push_back(&writer);
        } else if (writer.status == OpStatus::failed) {
          found.failed.push_back(&writer);
        } else if (const auto x = overwriter(w)) {
          overwritten_by(*x).sources.push_back(&writer);
        } else {
          starved = false;
        }
      }
      if (starved) reads.push_back(std::move(found));
    }
  }
  return reads;
}

std::string explain_starved_reads(const Model& model, std::span<const Operation* const> core,
                                  std::span<const Operation* const> partition, const RelaxedRelevance& relevance) {
  const auto in_real_time = [](const Operation& a, const Operation& b) { return a.precedes(b); };
  const std::vector<StarvedRead> reads = starved_reads(core, partition, relevance, in_real_time);
  if (reads.empty()) return {};
  const models::Semantics& semantics = *relevance.semantics();
  // Values are the user's and may run to megabytes: quoted briefly.
  const auto value_name = [&](std::uint32_t value) { return shorten(semantics.value_name(value)); };
  const auto list = [&](const std::vector<const Operation*>& ops) {
    std::string out;
    for (std::size_t i = 0; i < ops.size(); ++i) out += (i ? ", " : "") + name_op(model, *ops[i]);
    return out;
  };
  std::string out;
  for (const StarvedRead& read : reads) {
    const std::string what = read.strings ? "put left that its value could begin with"
                                          : "write of " + value_name(read.value) + " left to read from";
    out += "  - " + name_op(model, *read.reader) + " has no " + what + ":\n";
    for (const Overwritten& group : read.overwritten) {
      const std::string how = group.how == Overwrite::wrote      ? "overwritten by "
                              : group.how == Overwrite::appended ? "followed by an append its value lacks, "
                                                                 : "overwritten before ";
      std::string by = name_op(model, *group.by);
      if (group.how == Overwrite::saw) by += " saw another value";
      if (group.how == Overwrite::saw_later) {
        by += " saw " + value_name(group.seen) + ", which only ops that began after them write (" +
              list(group.seen_writers) + "), and completed";
      }
      std::string sources = list(group.sources);
      if (group.initial) sources = sources.empty() ? "the initial value" : "the initial value, " + sources;
      out += "      " + sources + ": " + how + by + " before the read began.\n";
    }
    if (!read.late.empty()) out += "      " + list(read.late) + ": began after the read completed.\n";
    if (!read.failed.empty()) out += "      " + list(read.failed) + ": failed, so wrote nothing.\n";
    if (read.source_count() == 0 && read.conditional_outside.empty()) {
      out += "      no operation of the history writes " +
             (read.strings ? "a beginning of it" : value_name(read.value)) + ", and the register does not start with " +
             (read.strings ? "one" : "it") + ".\n";
    }
    if (!read.conditional_outside.empty()) {
      out += "      Outside the core, only ";
      for (std::size_t i = 0; i < read.conditional_outside.size(); ++i) {
        const auto& [op, needs] = read.conditional_outside[i];
        out += (i ? ", " : "") + model.describe_operation(*op) + " (op " + std::to_string(op->id) + ", needing " +
               value_name(needs) + " first)";
      }
      const bool one = read.conditional_outside.size() == 1;
      out += std::string(" could write ") + value_name(read.value) + ", and no order of the rest gives " +
             (one ? "it what it needs" : "them what they need") + " in time (the solver's refutation).\n";
    }
  }
  return out;
}

}  // namespace ariadne::explain
