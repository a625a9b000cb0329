// Real-time order of a partition's operations, and its transitive reduction; or, under
// the sequential conditions (consistency.hpp), program order in its place: the order
// every theory and back-end asks through precedes() and the reduction.
//
// An op precedes another when it completed before the other was invoked. This is an
// interval order [Fishburn70], so its transitive reduction is small: op a is an
// immediate predecessor of b exactly when a completed before b was invoked and no op
// fits entirely between them, i.e. a completed after the latest invocation among the
// ops that completed before b's invocation. That gives O(n * c) edges for concurrency c
// instead of the O(n^2) pairs of the full order, found by one sweep in call order
// (Boost's generic transitive_reduction would first build the O(n^2) closure).
//
// Program order is a union of chains, one per process, with crashed ops as leaves:
// an op's immediate predecessors are the latest completed op its process invoked
// before it. Its call() and ret() are still the recorded times, which only the
// real-time theories read (encode.hpp says which theories apply).
#pragma once

#include <ariadne/consistency.hpp>
#include <ariadne/history.hpp>

#include <boost/graph/adjacency_list.hpp>

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace ariadne::encoder {

// Vertices are op indices; an edge a -> b means a completed before b was invoked.
using PrecedenceGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

class RealTimeOrder {
 public:
  // `ops` in ascending call order, as the engines receive a partition.
  explicit RealTimeOrder(std::span<const Operation* const> ops, Consistency consistency = Consistency::linearizable);

  std::uint32_t size() const { return static_cast<std::uint32_t>(call_.size()); }
  bool precedes(std::uint32_t a, std::uint32_t b) const {
    if (process_.empty()) return ret_[a] < call_[b];
    return process_[a] == process_[b] && ret_[a] != kNever && call_[a] < call_[b];
  }
  bool concurrent(std::uint32_t a, std::uint32_t b) const { return !precedes(a, b) && !precedes(b, a); }
  std::uint64_t call(std::uint32_t op) const { return call_[op]; }
  std::uint64_t ret(std::uint32_t op) const { return ret_[op]; }

  // The transitive reduction as a graph over all ops.
  const PrecedenceGraph& reduction() const { return reduction_; }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> reduction_edges() const;
  // Every pair, for formulas whose completed ops may be absent (encode.hpp's
  // OpSelector): the reduction routes a -> b through an op c between them, and when c
  // did not take effect, back-ends that order only present ops would lose a -> b.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> closure_edges() const;
  // An estimate of the memory held, for --memory-limit: the times and the graph's
  // per-vertex edge vectors.
  std::size_t memory_bytes() const { return memory_bytes_; }

 private:
  std::vector<std::uint64_t> call_;
  std::vector<std::uint64_t> ret_;
  std::vector<std::int64_t> process_;  // program order: each op's process; empty for real time
  PrecedenceGraph reduction_;
  std::size_t memory_bytes_ = 0;

  void build_program_order(std::span<const Operation* const> ops);
};

}  // namespace ariadne::encoder
