// Random walks through the collection models, checked against a plain reference
// written with std::vector: same legal steps, same successors, and equal states
// always named by equal ids (the interning and step-cache invariants).
#include "tests/models/model_harness.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>
#include <set>

using namespace ariadne;
using namespace ariadne::model_tests;

namespace {

enum class Discipline { fifo, lifo, bag, set };

struct Spec {
  const char* model;
  const char* insert;
  const char* remove;  // the set's "read"
  Discipline discipline;
};

using Contents = std::vector<std::int64_t>;

std::string render(const Contents& c, Discipline d) {
  std::string text = d == Discipline::set ? "#{" : "[";
  for (std::size_t n = 0; n < c.size(); ++n) text += (n ? " " : "") + std::to_string(c[n]);
  return text + (d == Discipline::set ? "}" : "]");
}

// The reference step: every successor of `c` under the op (f, value, crashed).
std::vector<Contents> reference_step(const Contents& c, const Spec& s, bool insert, std::int64_t v, bool crashed,
                                     const Contents& read) {
  if (insert) {
    Contents next = c;
    if (s.discipline == Discipline::set) {
      if (std::ranges::find(next, v) == next.end()) next.push_back(v);
      std::ranges::sort(next);
    } else {
      next.push_back(v);
      if (s.discipline == Discipline::bag) std::ranges::sort(next);
    }
    return {next};
  }
  switch (s.discipline) {
    case Discipline::set:
      if (crashed || c == read) return {c};
      return {};
    case Discipline::fifo:
    case Discipline::lifo: {
      if (c.empty()) return {};
      const bool front = s.discipline == Discipline::fifo;
      if (!crashed && (front ? c.front() : c.back()) != v) return {};
      return {front ? Contents(c.begin() + 1, c.end()) : Contents(c.begin(), c.end() - 1)};
    }
    case Discipline::bag: {
      std::vector<Contents> out;
      for (std::size_t n = 0; n < c.size(); ++n) {
        if (n > 0 && c[n] == c[n - 1]) continue;
        if (!crashed && c[n] != v) continue;
        Contents next = c;
        next.erase(next.begin() + static_cast<std::ptrdiff_t>(n));
        out.push_back(next);
      }
      return out;
    }
  }
  return {};
}

}  // namespace

TEST_SUITE("models") {
  TEST_CASE("collections: random walks agree with a std::vector reference") {
    const std::vector<Spec> specs{{"fifo-queue", "enqueue", "dequeue", Discipline::fifo},
                                  {"stack", "push", "pop", Discipline::lifo},
                                  {"unordered-queue", "enqueue", "dequeue", Discipline::bag},
                                  {"set", "add", "read", Discipline::set}};
    // ARIADNE_SEED=<n> replays a run.
    const char* fixed = std::getenv("ARIADNE_SEED");
    const auto seed = fixed ? static_cast<std::uint32_t>(std::stoul(fixed)) : std::random_device{}();
    MESSAGE("collections random walk seed " << seed);
    std::mt19937 rng(seed);
    for (const Spec& s : specs) {
      CAPTURE(s.model);
      struct RefOp {
        bool insert;
        std::int64_t v;
        bool crashed;
        Contents read;
      };
      std::vector<Operation> ops;
      std::vector<RefOp> ref;
      for (int n = 0; n < 40; ++n) {
        const bool insert = rng() % 2 == 0;
        const std::int64_t v = rng() % 4;
        const bool is_crashed = rng() % 5 == 0;
        Contents read;
        Value value = i(v);
        if (!insert && s.discipline == Discipline::set) {
          for (std::int64_t x = 0; x < 4; ++x) {
            if (rng() % 2) read.push_back(x);
          }
          std::vector<Value> elements;
          for (std::int64_t x : read) elements.push_back(i(x));
          value = is_crashed ? Value() : Value::set(elements);
        }
        ops.push_back(is_crashed ? crashed(insert ? s.insert : s.remove, value)
                                 : op(insert ? s.insert : s.remove, value));
        ref.push_back({insert, v, is_crashed, read});
      }
      auto model = make_model(s.model, Value());
      Harness h(*model, ops);
      std::map<Contents, StateId> ids;
      for (int walk = 0; walk < 200; ++walk) {
        Contents c;
        StateId state = h.initial();
        ids.emplace(c, state);
        for (int length = 0; length < 30; ++length) {
          const auto o = static_cast<std::uint32_t>(rng() % ops.size());
          const auto expected = reference_step(c, s, ref[o].insert, ref[o].v, ref[o].crashed, ref[o].read);
          const auto got = h.successors(state, o);
          REQUIRE(got.size() == expected.size());
          std::set<std::string> expected_text;
          std::set<std::string> got_text;
          for (const Contents& e : expected) expected_text.insert(render(e, s.discipline));
          for (StateId g : got) got_text.insert(h.describe(g));
          REQUIRE(got_text == expected_text);
          if (expected.empty()) continue;
          const std::size_t pick = rng() % expected.size();
          c = expected[pick];
          state = *std::ranges::find_if(got, [&](StateId g) { return h.describe(g) == render(c, s.discipline); });
          // Equal contents must always be the same id, however they were reached.
          const auto [it, inserted] = ids.emplace(c, state);
          REQUIRE(it->second == state);
        }
      }
    }
  }

}  // TEST_SUITE
