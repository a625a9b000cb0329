// Decoding a model into a linearization, and the lazy transitivity of the SAT
// back-end: a SAT solver treats order atoms as independent variables, so its model
// may choose a < b, b < c and c < a at once. Rather than adding the cubic number of
// transitivity clauses up front, the engine asks order_or_cycle_cuts() for the
// cycles the model chose and adds one clause per short cycle forbidding it, then
// solves again (the "lemmas on demand" scheme of lazy SMT solving).
//
// The graph has a vertex per op that took effect. Ops that did not are left out,
// which loses nothing: an absent op is a crashed op, a crashed op never completes,
// and only a completed op can be the first of a real-time pair, so an absent op has
// no outgoing real-time edge through which it could carry precedence from one
// present op to another. Its order atoms mean nothing once it is absent.
#include "encoder/decode.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

#include <algorithm>
#include <deque>
#include <functional>
#include <limits>
#include <queue>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

namespace ariadne::encoder {

namespace {

// Why an edge is in the graph: the literal the model made true to put it there, or
// kTrue for a real-time pair (and for an order atom the encoder fixed to a constant).
struct PrecedenceEdge {
  Literal chosen = kTrue;
  std::size_t id = 0;  // dense, for per-edge bookkeeping
};

using ModelOrderGraph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property, PrecedenceEdge>;
using Vertex = boost::graph_traits<ModelOrderGraph>::vertex_descriptor;
using Edge = boost::graph_traits<ModelOrderGraph>::edge_descriptor;

constexpr std::uint32_t kNotPresent = std::numeric_limits<std::uint32_t>::max();

std::vector<std::uint32_t> present_ops(const Formula& formula, const LiteralValue& value) {
  std::vector<std::uint32_t> ops;
  for (std::uint32_t op = 0; op < formula.op_count; ++op) {
    if (value(formula.presence[op])) ops.push_back(op);
  }
  return ops;
}

// The graph of one model. Vertices are added in ascending op index, so comparing
// vertices compares op indices: what the topological tie-break relies on.
class ModelOrder {
 public:
  ModelOrder(const Formula& formula, const LiteralValue& value)
      : formula_(formula),
        op_of_(present_ops(formula, value)),
        vertex_of_(formula.op_count, kNotPresent),
        graph_(op_of_.size()) {
    for (std::uint32_t v = 0; v < op_of_.size(); ++v) vertex_of_[op_of_[v]] = v;
    for (const auto& [first, second] : formula.real_time) add_edge(first, second, kTrue);
    for (const OrderAtom& atom : formula.order_atoms) {
      if (value(atom.var)) {
        add_edge(atom.before, atom.after, atom.var);
      } else {
        add_edge(atom.after, atom.before, -atom.var);
      }
    }
  }

  // Kahn's algorithm with a min-heap, so of the ops free to come next the smallest
  // op index does. Returns fewer than all vertices iff there is a cycle.
  std::vector<std::uint32_t> topological_order() const {
    std::vector<std::size_t> in_degree(op_of_.size(), 0);
    for (auto [it, end] = boost::edges(graph_); it != end; ++it) ++in_degree[boost::target(*it, graph_)];
    std::priority_queue<Vertex, std::vector<Vertex>, std::greater<>> ready;
    for (Vertex v = 0; v < op_of_.size(); ++v) {
      if (in_degree[v] == 0) ready.push(v);
    }
    std::vector<std::uint32_t> order;
    order.reserve(op_of_.size());
    while (!ready.empty()) {
      const Vertex v = ready.top();
      ready.pop();
      order.push_back(op_of_[v]);
      for (auto [it, end] = boost::out_edges(v, graph_); it != end; ++it) {
        const Vertex next = boost::target(*it, graph_);
        if (--in_degree[next] == 0) ready.push(next);
      }
    }
    return order;
  }

  std::size_t present_count() const { return op_of_.size(); }

  // Short cycles through the atom edges inside strongly connected components, one
  // cut each. Each atom edge starts at most one search, and an edge already on a
  // found cycle starts none: the cycle through it would likely repeat. Every search
  // starts from an edge no earlier cycle used, so it finds a new cycle, and the work
  // stays near max_cuts searches; cycles that differ only in constants give the same
  // cut, which is kept once.
  // Only if no atom edge lies on a cycle (every cycle is made of constants: the
  // encoder fixed a cycle among ops that may all take effect) do the constant edges
  // start searches; those cuts hold presence literals only, or none.
  std::vector<std::vector<Literal>> cycle_cuts(std::size_t max_cuts) const {
    std::vector<std::size_t> component(op_of_.size());
    boost::strong_components(
        graph_, boost::make_iterator_property_map(component.begin(), boost::get(boost::vertex_index, graph_)));
    std::vector<bool> on_found_cycle(edge_count_, false);
    std::set<std::vector<Literal>> seen;
    std::vector<std::vector<Literal>> cuts;
    CycleSearch search(op_of_.size());
    const auto cut_cycles_from = [&](bool atom_edges) {
      for (auto [it, end] = boost::edges(graph_); it != end && cuts.size() < max_cuts; ++it) {
        const Edge start = *it;
        const Vertex tail = boost::source(start, graph_);
        const Vertex head = boost::target(start, graph_);
        if ((graph_[start].chosen != kTrue) != atom_edges || on_found_cycle[graph_[start].id]) continue;
        if (component[tail] != component[head]) continue;  // on no cycle at all
        std::vector<Edge> cycle = search.shortest_path(graph_, component, head, tail);
        cycle.push_back(start);
        for (const Edge& e : cycle) on_found_cycle[graph_[e].id] = true;
        std::vector<Literal> cut = cut_for(cycle);
        if (seen.insert(cut).second) cuts.push_back(std::move(cut));
      }
    };
    cut_cycles_from(true);
    if (cuts.empty()) cut_cycles_from(false);
    return cuts;
  }

 private:
  // Breadth-first search inside one strongly connected component, reusing its arrays
  // across searches (a search stamp instead of clearing them).
  class CycleSearch {
   public:
    explicit CycleSearch(std::size_t vertex_count) : visited_in_(vertex_count, 0), reached_by_(vertex_count) {}

    // The edges of a shortest path from `from` to `to`; both lie in one component,
    // so a path exists.
    std::vector<Edge> shortest_path(const ModelOrderGraph& graph, const std::vector<std::size_t>& component,
                                    Vertex from, Vertex to) {
      ++stamp_;
      std::deque<Vertex> frontier{from};
      visited_in_[from] = stamp_;
      while (!frontier.empty() && visited_in_[to] != stamp_) {
        const Vertex v = frontier.front();
        frontier.pop_front();
        for (auto [it, end] = boost::out_edges(v, graph); it != end; ++it) {
          const Vertex next = boost::target(*it, graph);
          if (component[next] != component[from] || visited_in_[next] == stamp_) continue;
          visited_in_[next] = stamp_;
          reached_by_[next] = *it;
          frontier.push_back(next);
        }
      }
      std::vector<Edge> path;
      for (Vertex v = to; v != from; v = boost::source(reached_by_[v], graph)) path.push_back(reached_by_[v]);
      std::reverse(path.begin(), path.end());
      return path;
    }

   private:
    std::size_t stamp_ = 0;
    std::vector<std::size_t> visited_in_;
    std::vector<Edge> reached_by_;
  };

  void add_edge(std::uint32_t from_op, std::uint32_t to_op, Literal chosen) {
    const std::uint32_t from = vertex_of_[from_op];
    const std::uint32_t to = vertex_of_[to_op];
    if (from == kNotPresent || to == kNotPresent) return;
    boost::add_edge(from, to, PrecedenceEdge{chosen, edge_count_++}, graph_);
  }

  // The clause forbidding a cycle: not all of its chosen atoms, given that all of its
  // ops took effect. The presence literals make the cut valid whatever the encoder
  // does with the atoms of absent ops; without them, a cut through a crashed op
  // could exclude a model that is fine once that op is dropped. Constants (real
  // time, fixed atoms, completed ops) are true and contribute nothing.
  std::vector<Literal> cut_for(const std::vector<Edge>& cycle) const {
    std::vector<Literal> cut;
    for (const Edge& e : cycle) {
      if (graph_[e].chosen != kTrue) cut.push_back(-graph_[e].chosen);
      const Literal present = formula_.presence[op_of_[boost::source(e, graph_)]];
      if (present != kTrue) cut.push_back(-present);
    }
    std::sort(cut.begin(), cut.end());
    cut.erase(std::unique(cut.begin(), cut.end()), cut.end());
    return cut;
  }

  const Formula& formula_;
  std::vector<std::uint32_t> op_of_;      // per vertex: its op
  std::vector<std::uint32_t> vertex_of_;  // per op: its vertex, or kNotPresent
  ModelOrderGraph graph_;
  std::size_t edge_count_ = 0;
};

// Sorts ops by a key, ties by op index.
template <typename Key>
void sort_by_key(std::vector<std::uint32_t>& ops, const std::vector<Key>& key_of_op) {
  std::sort(ops.begin(), ops.end(),
            [&](std::uint32_t a, std::uint32_t b) { return std::pair(key_of_op[a], a) < std::pair(key_of_op[b], b); });
}

}  // namespace

OrderCheck order_or_cycle_cuts(const Formula& formula, const LiteralValue& value, std::size_t max_cuts) {
  const ModelOrder graph(formula, value);
  OrderCheck check;
  check.order = graph.topological_order();
  check.acyclic = check.order.size() == graph.present_count();
  if (!check.acyclic) {
    check.order.clear();
    check.cuts = graph.cycle_cuts(max_cuts);
  }
  return check;
}

std::vector<std::uint32_t> order_from_positions(const Formula& formula, const LiteralValue& value) {
  std::vector<std::uint32_t> ops = present_ops(formula, value);
  std::vector<std::size_t> position_of(formula.op_count, 0);
  for (std::uint32_t op : ops) {
    const std::vector<Literal>& at = formula.positions[op];
    const auto where = std::find_if(at.begin(), at.end(), [&](Literal here) { return value(here); });
    if (where == at.end()) {
      throw std::logic_error("the model places op " + std::to_string(op) + " at no position although it took effect");
    }
    position_of[op] = static_cast<std::size_t>(where - at.begin());
  }
  sort_by_key(ops, position_of);
  return ops;
}

std::vector<std::uint32_t> order_from_integers(const Formula& formula, const LiteralValue& value,
                                               const std::vector<std::int64_t>& positions) {
  std::vector<std::uint32_t> ops = present_ops(formula, value);
  sort_by_key(ops, positions);
  return ops;
}

bool respects_order(const Formula& formula, const LiteralValue& value, std::span<const std::uint32_t> order) {
  std::vector<std::uint32_t> rank(formula.op_count, kNotPresent);
  for (std::uint32_t i = 0; i < order.size(); ++i) {
    const std::uint32_t op = order[i];
    if (op >= formula.op_count || rank[op] != kNotPresent || !value(formula.presence[op])) return false;
    rank[op] = i;
  }
  if (order.size() != present_ops(formula, value).size()) return false;
  const auto agrees = [&](std::uint32_t first, std::uint32_t second) {
    return rank[first] == kNotPresent || rank[second] == kNotPresent || rank[first] < rank[second];
  };
  for (const auto& [first, second] : formula.real_time) {
    if (!agrees(first, second)) return false;
  }
  for (const OrderAtom& atom : formula.order_atoms) {
    const bool holds = value(atom.var) ? agrees(atom.before, atom.after) : agrees(atom.after, atom.before);
    if (!holds) return false;
  }
  return true;
}

}  // namespace ariadne::encoder
