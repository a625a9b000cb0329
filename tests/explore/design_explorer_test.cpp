// The explorer's searches on toy designs whose answers are known: a design that
// leaves too many operations open makes the random search throw from its worker
// threads (an error, never a crash), and a failure behind a state first met with fewer
// steps left is still found by the exhaustive search, which must revisit a state when
// it comes back with more steps to go.
#include "explore/design_explorer.hpp"
#include "systems/canonical_key.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace ariadne;
using systems::Action;
using systems::CanonicalKey;
using systems::EventKind;
using systems::Successor;
using systems::TraceEvent;

namespace {

// Every step a new client invokes a write that never completes: the 17th is one open
// operation more than the online checker holds.
struct EndlessInvocations {
  struct State {
    int invoked = 0;
  };
  static std::string_view name() { return "endless"; }
  State initial() const { return {}; }
  void successors(const State& state, std::vector<Successor<State>>& out) const {
    Successor<State> next{{state.invoked + 1}, {}};
    next.step.action = {0, 0, 0};
    next.step.add(TraceEvent{EventKind::invoke, 1, state.invoked + 1, state.invoked + 1, systems::kNil});
    out.push_back(next);
  }
  void canonical(const State& state, CanonicalKey& key) const { key.raw(static_cast<std::uint32_t>(state.invoked)); }
  std::string describe_state(const State& state) const { return std::to_string(state.invoked) + " invoked\n"; }
  std::string action_name(Action) const { return "invoke"; }
  std::string actor_name(std::uint8_t) const { return "x"; }
  std::string note_name(std::uint8_t) const { return "note"; }
  void tally(const State&, systems::Tally&) const {}
};

// A walk along a line of positions 0..7: a step forward, or from 0 a jump to 3.
// Arriving at 7, a client reads 2, which nobody wrote: a violation. The shortest
// failure is the jump and four steps (5); walking takes 7. Depth-first search walks
// first, so it meets position 3 at depth 3 with few steps left, and meets it again
// through the jump with more: a visited set that skipped every state seen before
// would never find the 5-step failure.
struct Line {
  struct State {
    int position = 0;
  };
  static std::string_view name() { return "line"; }
  State initial() const { return {}; }
  void successors(const State& state, std::vector<Successor<State>>& out) const {
    if (state.position >= 7) return;
    Successor<State> forward{{state.position + 1}, {}};
    forward.step.action = {0, 0, 0};
    if (forward.state.position == 7) {
      forward.step.add(TraceEvent{EventKind::invoke, 0, 1, systems::kNil, systems::kNil});
      forward.step.add(TraceEvent{EventKind::ok, 0, 1, 2, systems::kNil});
    }
    out.push_back(forward);
    if (state.position == 0) {
      Successor<State> jump{{3}, {}};
      jump.step.action = {1, 0, 0};
      out.push_back(jump);
    }
  }
  void canonical(const State& state, CanonicalKey& key) const { key.raw(static_cast<std::uint32_t>(state.position)); }
  std::string describe_state(const State& state) const { return "at " + std::to_string(state.position) + "\n"; }
  std::string action_name(Action action) const { return action.kind == 0 ? "forward" : "jump"; }
  std::string actor_name(std::uint8_t) const { return "x"; }
  std::string note_name(std::uint8_t) const { return "note"; }
  void tally(const State&, systems::Tally&) const {}
};

}  // namespace

TEST_CASE("explorer: an error in a random search's worker is rethrown, not a crash") {
  const explore::DesignExplorer<EndlessInvocations> explorer(EndlessInvocations{});
  explore::RandomOptions options;
  options.depth = 20;
  options.trajectories = 1000;
  options.jobs = 2;
  CHECK_THROWS_AS(explorer.random(options, {}, {}), std::length_error);
  options.depth = 16;  // 16 open operations fit
  CHECK(explorer.random(options, {}, {}).trajectories == 1000);
}

TEST_CASE("explorer: the exhaustive search finds a failure exactly at its depth, and shrinking proves it shortest") {
  const explore::DesignExplorer<Line> explorer(Line{});
  const explore::ExhaustiveReport shallow = explorer.exhaustive(4, true, {}, {});
  CHECK(shallow.complete);
  CHECK_FALSE(shallow.counterexample.has_value());
  const explore::ExhaustiveReport deep = explorer.exhaustive(5, true, {}, {});
  REQUIRE(deep.counterexample.has_value());
  CHECK(explorer.replay(*deep.counterexample).step_names ==
        std::vector<std::string>{"jump", "forward", "forward", "forward", "forward"});
  // The walk's 7-step failure shrinks to the jump's 5 steps.
  const std::vector<Action> walk(7, Action{0, 0, 0});
  const explore::ShrinkReport shrunk = explorer.shrink(walk, {});
  CHECK(shrunk.proven_shortest);
  CHECK(shrunk.actions.size() == 5);
}
