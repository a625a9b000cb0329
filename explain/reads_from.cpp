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

std::string explain_starved_reads(const Model& model, std::span<const Operation* const> core,
                                  std::span<const Operation* const> partition, const RelaxedRelevance& relevance) {
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
  // The ops outside the core that could write what `read` saw once relaxed: those
  // that could do so unconditionally (a plain write) void the argument; the others
  // (a cas) need some value first, which is left to the solver's refutation.
  struct Outside {
    bool unconditional = false;
    std::vector<std::pair<const Operation*, std::uint32_t>> conditional;  // op, value it needs
  };
  const auto outside_writers = [&](const RegisterAccess& read) {
    Outside found;
    for (const std::uint32_t o : others) {
      const models::OpMeaning& meaning = relevance.relaxed(o);
      const auto write = access_of(meaning, RegisterAccess::Kind::write, read.key);
      if (!write || write->value != read.value) continue;
      const auto needs = access_of(meaning, RegisterAccess::Kind::read, read.key);
      if (needs) {
        found.conditional.emplace_back(partition[o], needs->value);
      } else {
        found.unconditional = true;
      }
    }
    return found;
  };

  std::string out;
  for (std::size_t r = 0; r < n; ++r) {
    const Operation& reader = *core[r];
    if (!reader.must_take_effect()) continue;
    for (const RegisterAccess& read : recorded[r]->accesses) {
      if (read.kind != RegisterAccess::Kind::read) continue;
      const Outside outside = outside_writers(read);
      if (outside.unconditional) continue;
      // Why each possible source is out, grouped by reason.
      std::map<std::string, std::vector<const Operation*>> ruled_out;
      const auto overwriter = [&](std::optional<std::size_t> source) -> std::optional<std::size_t> {
        for (std::size_t x = 0; x < n; ++x) {
          if (x == r || (source && x == *source) || core[x]->status != OpStatus::ok) continue;
          const auto write = access_of(*recorded[x], RegisterAccess::Kind::write, read.key);
          if (!write || write->value == read.value || !core[x]->precedes(reader)) continue;
          if (!source || core[*source]->precedes(*core[x])) return x;
        }
        return std::nullopt;
      };
      bool starved = true;
      if (semantics->initial.at(read.key) == read.value) {
        if (const auto x = overwriter(std::nullopt)) {
          ruled_out["the initial value: overwritten by " + name_op(model, *core[*x]) + " before the read began"];
        } else {
          starved = false;
        }
      }
      for (std::size_t w = 0; w < n && starved; ++w) {
        const auto could_write = access_of(*relaxed[w], RegisterAccess::Kind::write, read.key);
        if (w == r || !could_write || could_write->value != read.value) continue;
        const Operation& writer = *core[w];
        if (reader.precedes(writer)) {
          ruled_out["began after the read completed"].push_back(&writer);
        } else if (writer.status == OpStatus::failed) {
          ruled_out["failed, so wrote nothing"].push_back(&writer);
        } else if (const auto x = overwriter(w)) {
          ruled_out["overwritten by " + name_op(model, *core[*x]) + " before the read began"].push_back(&writer);
        } else {
          starved = false;
        }
      }
      if (!starved) continue;
      // Values are the user's and may run to megabytes: quoted briefly.
      const auto value_name = [&](std::uint32_t value) { return shorten(semantics->value_name(value)); };
      out += "  - " + name_op(model, reader) + " has no write of " + value_name(read.value) + " left to read from:\n";
      for (const auto& [reason, writers] : ruled_out) {
        out += "      ";
        for (std::size_t i = 0; i < writers.size(); ++i) out += (i ? ", " : "") + name_op(model, *writers[i]);
        out += (writers.empty() ? "" : ": ") + reason + ".\n";
      }
      if (ruled_out.empty() && outside.conditional.empty()) {
        out += "      no operation of the history writes " + value_name(read.value) +
               ", and the register does not start with it.\n";
      }
      if (!outside.conditional.empty()) {
        out += "      Outside the core, only ";
        for (std::size_t i = 0; i < outside.conditional.size(); ++i) {
          const auto& [op, needs] = outside.conditional[i];
          out += (i ? ", " : "") + model.describe_operation(*op) + " (op " + std::to_string(op->id) + ", needing " +
                 value_name(needs) + " first)";
        }
        const bool one = outside.conditional.size() == 1;
        out += std::string(" could write ") + value_name(read.value) + ", and no order of the rest gives " +
               (one ? "it what it needs" : "them what they need") + " in time (the solver's refutation).\n";
      }
    }
  }
  return out;
}

}  // namespace ariadne::explain
