// The sweep that builds the transitive reduction of real-time order (see the header).
#include "encoder/real_time.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace ariadne::encoder {

RealTimeOrder::RealTimeOrder(std::span<const Operation* const> ops, Consistency consistency) : reduction_(ops.size()) {
  call_.reserve(ops.size());
  ret_.reserve(ops.size());
  for (const Operation* op : ops) {
    call_.push_back(op->call);
    ret_.push_back(op->ret);
  }
  if (!keeps_real_time(consistency)) {
    build_program_order(ops);
    return;
  }
  // Ops by completion time; crashed ops (kNever) complete after everything and are
  // nobody's predecessor.
  std::vector<std::uint32_t> by_ret(ops.size());
  std::iota(by_ret.begin(), by_ret.end(), 0u);
  std::ranges::sort(by_ret, [&](std::uint32_t a, std::uint32_t b) { return ret_[a] < ret_[b]; });

  // Walking ops in call order, `completed` counts the ops that completed before the
  // current invocation, and `latest_call` is the latest invocation among them: any
  // predecessor completing before that invocation has an op between it and us.
  std::vector<std::uint32_t> by_call(ops.size());
  std::iota(by_call.begin(), by_call.end(), 0u);
  std::ranges::stable_sort(by_call, [&](std::uint32_t a, std::uint32_t b) { return call_[a] < call_[b]; });
  std::size_t completed = 0;
  std::uint64_t latest_call = 0;
  bool any_completed = false;
  for (std::uint32_t b : by_call) {
    while (completed < by_ret.size() && ret_[by_ret[completed]] < call_[b]) {
      latest_call = any_completed ? std::max(latest_call, call_[by_ret[completed]]) : call_[by_ret[completed]];
      any_completed = true;
      ++completed;
    }
    // Immediate predecessors: completed before b's call, and after latest_call. They
    // sit at the end of the completed prefix of by_ret.
    for (std::size_t k = completed; k-- > 0;) {
      const std::uint32_t a = by_ret[k];
      if (ret_[a] < latest_call) break;
      boost::add_edge(a, b, reduction_);
    }
  }
  // A vertex is an edge vector (three pointers); an edge a target, with the vector's
  // doubling slack.
  constexpr std::size_t kBytesPerVertex = 3 * sizeof(void*);
  constexpr std::size_t kBytesPerEdge = 2 * sizeof(std::size_t);
  memory_bytes_ = (call_.capacity() + ret_.capacity()) * sizeof(std::uint64_t) +
                  boost::num_vertices(reduction_) * kBytesPerVertex + boost::num_edges(reduction_) * kBytesPerEdge;
}

void RealTimeOrder::build_program_order(std::span<const Operation* const> ops) {
  process_.reserve(ops.size());
  for (const Operation* op : ops) process_.push_back(op->process);
  // Ops arrive in call order: one pass, keeping each process's latest completed op.
  std::unordered_map<std::int64_t, std::uint32_t> latest_completed;
  for (std::uint32_t b = 0; b < ops.size(); ++b) {
    if (const auto it = latest_completed.find(process_[b]); it != latest_completed.end()) {
      boost::add_edge(it->second, b, reduction_);
    }
    if (ret_[b] != kNever) latest_completed[process_[b]] = b;
  }
  memory_bytes_ = (call_.capacity() + ret_.capacity() + process_.capacity()) * sizeof(std::uint64_t) +
                  boost::num_vertices(reduction_) * 3 * sizeof(void*) +
                  boost::num_edges(reduction_) * 2 * sizeof(std::size_t);
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> RealTimeOrder::closure_edges() const {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  for (std::uint32_t a = 0; a < size(); ++a) {
    for (std::uint32_t b = 0; b < size(); ++b) {
      if (precedes(a, b)) edges.emplace_back(a, b);
    }
  }
  return edges;
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> RealTimeOrder::reduction_edges() const {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  edges.reserve(boost::num_edges(reduction_));
  for (auto [it, end] = boost::edges(reduction_); it != end; ++it) {
    edges.emplace_back(static_cast<std::uint32_t>(boost::source(*it, reduction_)),
                       static_cast<std::uint32_t>(boost::target(*it, reduction_)));
  }
  return edges;
}

}  // namespace ariadne::encoder
