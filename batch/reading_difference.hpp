// Why another checker answers otherwise on a history ariadne decided and certified.
// Checkers read the same file differently in a few known ways; each is tried here by
// checking the history again as the other checker would read it, so the reason given
// is one ariadne has seen hold, not a guess:
//   - crashed operations: ariadne lets a crashed op take effect with whatever result
//     the model allows; Knossos steps it with its invocation's value (nil, for a
//     dequeue), so a crashed dequeue can never have taken an element. When the history
//     is not linearizable with crashed ops read that way, that is the difference (and
//     the crashed ops ariadne's witness has take effect with another result are named);
//   - a completed set read written as a vector: ariadne reads it as the set of its
//     elements; Knossos compares it with a set by Clojure's = and never matches it;
//   - events of processes that are no clients (:nemesis issuing a write): ariadne
//     leaves them out and says so; a checker that takes them as operations checks
//     another history.
#pragma once

#include <ariadne/check.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <string>

namespace ariadne::batch {

// The difference in reading that explains why a checker would answer the opposite of
// `ours` on `history`, in words; when none of those above does, a sentence saying so
// and naming the readings tried. Runs check() with `options` at most twice.
std::string find_reading_difference(const History& history, const Model& model, Verdict ours,
                                    const CheckOptions& options);

}  // namespace ariadne::batch
