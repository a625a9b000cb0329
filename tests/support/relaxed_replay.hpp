// A relaxed-history decision's witness replayed as a linearization: the tests of the
// core's quick decisions (the closure look, the mutex sweep) hold each order they
// return to the certificate checker.
#pragma once

#include <ariadne/certificate.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include "refute/relaxed_history.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ariadne::testing {

// `witness` (ids of the partition's ops) as ids of `relaxed` read as the History
// `as_history`, replayed there: an empty string when it replays, else the problem.
inline std::string replay_relaxed_witness(const refute::RelaxedHistory& relaxed, const History& as_history,
                                          const Model& model, const std::vector<std::uint32_t>& witness) {
  std::map<std::uint32_t, std::uint32_t> relaxed_id;
  for (std::size_t r = 0; r < relaxed.ops.size(); ++r) relaxed_id[relaxed.original_id[r]] = relaxed.ops[r].id;
  std::vector<std::uint32_t> order;
  for (const std::uint32_t id : witness) order.push_back(relaxed_id.at(id));
  return verify_linearization(as_history, model, order).value_or("");
}

}  // namespace ariadne::testing
