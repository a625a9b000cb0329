// The composition of keys' answers; see key_composition.hpp.
#include "portfolio/key_composition.hpp"

#include "certify/witness_checker.hpp"
#include "portfolio/merge.hpp"

#include <ariadne/errors.hpp>

#include <algorithm>
#include <numeric>

namespace ariadne::portfolio {

namespace {

// How many refuted keys the explanation names before "and N more".
constexpr std::size_t kNamedKeys = 10;

constexpr std::string_view kHeaderStart = "Key ";

}  // namespace

Composition compose(const std::vector<PartAnswer>& parts) {
  Composition composition;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].verdict == Verdict::not_linearizable) composition.refuted.push_back(i);
    if (parts[i].verdict == Verdict::unknown) composition.undecided.push_back(i);
  }
  const auto by_appearance = [&](std::size_t a, std::size_t b) {
    return parts[a].first_appearance < parts[b].first_appearance;
  };
  std::ranges::stable_sort(composition.refuted, by_appearance);
  std::ranges::stable_sort(composition.undecided, by_appearance);
  return composition;
}

std::vector<std::uint32_t> merge_certified(const History& history, const Model& model,
                                           const std::vector<std::vector<const Operation*>>& chains,
                                           Consistency consistency, PartOrders orders, const std::string& parts) {
  std::vector<std::uint32_t> order = merge_linearizations(chains);
  // A part's linearization certified by its own check leaves the merge to certify:
  // every op once and real time across parts. One read from a report is trusted for
  // nothing: the whole order is replayed.
  const std::optional<std::string> problem = orders == PartOrders::certified_here
                                                 ? certify::check_order(history, model, order, consistency)
                                                 : certify::check_linearization(history, model, order, consistency);
  if (problem) {
    throw InternalError(parts + "' linearizations merged into an order that failed the certificate check: " + *problem);
  }
  return order;
}

std::string key_list(const std::vector<std::string>& keys) {
  std::string out;
  for (std::size_t n = 0; n < keys.size() && n < kNamedKeys; ++n) out += (n ? ", " : "") + shorten(keys[n]);
  if (keys.size() > kNamedKeys) out += " and " + std::to_string(keys.size() - kNamedKeys) + " more";
  return out;
}

std::string refuted_key_header(const std::string& failing_key, std::size_t key_operations,
                               std::size_t history_operations, const std::vector<std::string>& other_refuted,
                               std::size_t keys, Consistency consistency) {
  std::string header = std::string(kHeaderStart) + shorten(failing_key) + " (" + std::to_string(key_operations) +
                       " of the history's " + std::to_string(history_operations) + " operations) is " +
                       (keeps_real_time(consistency) ? "not linearizable" : "not sequentially consistent");
  if (!other_refuted.empty()) {
    header += "; so are " + std::to_string(other_refuted.size()) + " more of the " + std::to_string(keys) + " keys (" +
              key_list(other_refuted) + "); what follows is about key " + shorten(failing_key) + "'s operations alone";
  }
  return header + ".\n";
}

std::optional<std::string> with_refuted_key_header(const std::string& explanation, const std::string& header) {
  // refuted_key_header's line: "Key ", then text without a line break, then ".\n".
  const std::size_t end_of_line = explanation.find('\n');
  if (!explanation.starts_with(kHeaderStart) || end_of_line == std::string::npos || end_of_line == 0 ||
      explanation[end_of_line - 1] != '.') {
    return std::nullopt;
  }
  return header + explanation.substr(end_of_line + 1);
}

}  // namespace ariadne::portfolio
