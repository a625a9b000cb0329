// How the answers of a history's keys make the history's answer: by locality
// [HerlihyWing90] a history is linearizable exactly when each key's part is, so
//   - some key not linearizable: neither is the history, and the key reported is the
//     first refuted in order of first appearance (so that the answer does not depend
//     on which thread or machine was quicker);
//   - else some key undecided: the history is unknown, said of the first undecided;
//   - else the keys' linearizations merge into one order of the whole history, which
//     the certificate checker replays before it is printed.
// One composition for both places that compose keys: check() of an independent
// history (independent.cpp), whose parts are its keys, and the merge of key shards'
// reports (batch/key_shards.cpp), whose parts are shards of keys.
#pragma once

#include <ariadne/check.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace ariadne::portfolio {

// One part's answer, and where its deciding key first appears in the history (the
// first op id of its first refuted key when refuted, of its first undecided key when
// unknown; a key's index in order of appearance does as well).
struct PartAnswer {
  Verdict verdict = Verdict::unknown;
  std::uint64_t first_appearance = std::numeric_limits<std::uint64_t>::max();
};

// Which parts decide the whole: every refuted part and every undecided one, each in
// order of first appearance (ties: the earlier part).
struct Composition {
  std::vector<std::size_t> refuted;
  std::vector<std::size_t> undecided;
  Verdict verdict() const {
    return !refuted.empty() ? Verdict::not_linearizable
                            : (!undecided.empty() ? Verdict::unknown : Verdict::linearizable);
  }
};
Composition compose(const std::vector<PartAnswer>& parts);

// Where the parts' linearizations come from, which says what is left to certify.
enum class PartOrders {
  certified_here,  // each certified by this process's own check: membership and real time remain
  read_back,       // read from reports (key shards): the model's replay of every op too
};

// The parts' linearizations (each respecting real time within itself) merged into one
// order of `history` that respects it across parts too, certified against the whole
// history under `model`. Throws InternalError naming `parts` ("the keys", "the key
// shards") when the merge fails the certificate check.
std::vector<std::uint32_t> merge_certified(const History& history, const Model& model,
                                           const std::vector<std::vector<const Operation*>>& chains,
                                           Consistency consistency, PartOrders orders, const std::string& parts);

// The first line of a refuted keyed history's explanation: "Key K (n of the history's
// N operations) is not linearizable; so are 2 more of the 7 keys (:a, :b); what
// follows is about key K's operations alone." `other_refuted` are the other refuted
// keys' EDN texts, in order of first appearance (the first 10 are named).
std::string refuted_key_header(const std::string& failing_key, std::size_t key_operations,
                               std::size_t history_operations, const std::vector<std::string>& other_refuted,
                               std::size_t keys, Consistency consistency);

// `explanation`, which a part's check wrote with refuted_key_header's line first, with
// that line replaced by `header`: a merge of key shards says of the whole history what
// each shard said of its own keys. nullopt when the explanation does not start with
// such a line.
std::optional<std::string> with_refuted_key_header(const std::string& explanation, const std::string& header);

// "a, b, c and 4 more": up to 10 key texts, shortened, as refuted_key_header names
// them.
std::string key_list(const std::vector<std::string>& keys);

}  // namespace ariadne::portfolio
