// `check FILE --shard I/N` and `check FILE --merge REPORT.json...`: one keyed history
// too large for one machine, checked on N machines by key, and joined.
//
// Shard I checks the keys whose hash (64-bit FNV-1a of the key's EDN text, the same on
// every machine) is I modulo N, with their ops as recorded: op ids are the file's
// positions, as in an unsharded check. By locality [HerlihyWing90] the keys' answers
// are independent, so the merge composes them as check() does: any key not
// linearizable makes the history so, and the failing key reported is the first, in
// order of first appearance, of those refuted; else any unknown key makes it unknown;
// else the keys' witnesses are merged into one order, which the certificate checker
// replays against the whole history before it is printed.
//
// When several keys are refuted, the merge names the first in order of appearance, as
// an unsharded check does: `check --independent` decides every key before choosing,
// and a kv check's scheduler lets the keys before a refuted one finish within a grace
// (portfolio/scheduler.cpp, kMinGrace). The two name different keys only when a key
// before the named one is still undecided when that grace ends; the verdict is the
// same then, and either key's core is a core of the whole history.
//
// Only for keyed models (kv, --independent) and the conditions that are local
// (linearizable, sequential-per-key): sequential consistency is not.
#pragma once

#include "answer/shard.hpp"

#include <ariadne/check.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ariadne::batch {

using answer::KeyShard;

// The shard of `key` among `count`.
std::size_t key_shard_of(const Value& key, std::size_t count);

// Whether an op's key falls in shard `spec`: read_history's filter, so that a shard
// holds only its own keys' operations in memory (ids and times stay the file's).
std::function<bool(const Operation&)> key_shard_filter(const Model& model, answer::ShardSpec spec);

// How many keys `history`'s ops have.
std::size_t count_keys(const History& history, const Model& model);

// The size of the file a history was read from, 0 if it cannot be asked.
std::uint64_t history_bytes(const History& history);

// The first op of the key `result`'s core lies in: see KeyShard.
std::optional<std::uint32_t> failing_key_first_op(const History& shard, const Model& model, const CheckResult& result);

// The reports' own facts the merge prints beside the answer.
struct KeyMerge {
  CheckResult result;
  std::vector<std::string> reports;
  double longest_ms = 0;  // the slowest shard's elapsed_ms
};

// Reads the N reports of `check --shard I/N --json` and composes them (see above).
// `history` is the whole history, read from the same file. Throws InputError naming
// the report for a malformed or foreign one (another N, history, model or options,
// a shard given twice) or the missing shards, or for a refutation that does not hold
// against `history` (portfolio/imported_refutation.hpp: a forged or stale report);
// InternalError when the merged witness fails the certificate check. `limits`: the
// merge's own, which bound that re-check (unknown when they stop it).
KeyMerge merge_key_shards(const std::vector<std::string>& paths, const History& history, const Model& model,
                          const Value& options, const Limits& limits);

// The options a key shard's verdicts depend on, as a map of strings and whole numbers
// (model, consistency, engine, timeout_ms, memory_limit), written into the report's
// "shard": reports merge only when theirs agree with each other's, and their model and
// condition with the merge's own.
Value key_shard_options(const Model& model, const CheckOptions& options);

}  // namespace ariadne::batch
