// The shared harness of the fuzz targets (see harness.hpp): the model selector, the
// whole check with the oracles a result must pass, and event comparison.
//
// The oracles are the result's contract as include/ariadne/check.hpp states it,
// checked from the outside with nothing but the history: a linearization lists every
// op that must take effect, each once, in an order real time allows; a refutation
// names a non-empty core of existing ops in ascending order; an unknown says why.
// check() has already replayed the linearization against the model; repeating the
// real-time half here costs one pass and does not trust the certificate checker.
#include "harness.hpp"

#include "base/text.hpp"

#include <ariadne/errors.hpp>
#include <ariadne/model.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ariadne::fuzz {

namespace {

std::vector<std::string> model_names() {
  std::vector<std::string> names;
  for (const auto& [name, description] : model_catalogue()) names.push_back(name);
  return names;
}

void check_linearization(const History& history, const CheckResult& result) {
  std::unordered_map<std::uint32_t, const Operation*> by_id;
  for (const Operation& op : history.ops) by_id.emplace(op.id, &op);
  std::unordered_set<std::uint32_t> listed;
  std::uint64_t latest_call = 0;
  bool any = false;
  for (const std::uint32_t id : result.linearization) {
    const auto it = by_id.find(id);
    if (it == by_id.end()) report_bug("linearization", "lists op " + std::to_string(id) + ", which is no operation");
    if (!listed.insert(id).second) report_bug("linearization", "lists op " + std::to_string(id) + " twice");
    const Operation& op = *it->second;
    // Placing op after one invoked later than op returned contradicts real time.
    if (any && op.ret < latest_call) {
      report_bug("linearization",
                 "op " + std::to_string(id) + " returned before an op ordered ahead of it was invoked");
    }
    latest_call = std::max(latest_call, op.call);
    any = true;
  }
  for (const Operation& op : history.ops) {
    if (op.must_take_effect() && !listed.contains(op.id)) {
      report_bug("linearization", "leaves out op " + std::to_string(op.id) + ", which must take effect");
    }
  }
}

void check_refutation(const History& history, const CheckResult& result) {
  if (result.core.empty()) report_bug("refutation", "has an empty core");
  std::unordered_set<std::uint32_t> ids;
  for (const Operation& op : history.ops) ids.insert(op.id);
  for (std::size_t i = 0; i < result.core.size(); ++i) {
    if (!ids.contains(result.core[i]))
      report_bug("refutation", "core names op " + std::to_string(result.core[i]) + ", which is no operation");
    if (i > 0 && result.core[i - 1] >= result.core[i]) report_bug("refutation", "core is not in ascending order");
  }
  if (result.failing_op && !ids.contains(*result.failing_op)) {
    report_bug("refutation", "failing op " + std::to_string(*result.failing_op) + " is no operation");
  }
}

}  // namespace

std::string model_spec_for_selector(std::uint8_t selector) {
  const std::vector<std::string> names = model_names();
  const std::string& name = names[selector % names.size()];
  return (selector / names.size()) % 2 == 0 ? name : name + "(0)";
}

std::uint8_t selector_for_model_spec(std::string_view spec) {
  const std::string_view text = base::trim(spec);
  const std::string_view name = split_model_spec(text).name;
  // Aliases ("etcd-register-cas") resolve through the model itself.
  const std::string canonical = make_model_from_spec(name)->name();
  const std::vector<std::string> names = model_names();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] != canonical) continue;
    const bool from_zero = text.ends_with("(0)");
    return static_cast<std::uint8_t>(i + (from_zero ? names.size() : 0));
  }
  throw UsageError("model '" + std::string(name) + "' is not in the catalogue");
}

std::optional<Verdict> check_input(std::string_view text, const std::string& spec, const CheckLimits& limits) {
  History history;
  std::unique_ptr<Model> model;
  try {
    model = make_model_from_spec(spec);
    history = build_history(parse_events(text, "fuzz-input"), *model);
  } catch (const InputError&) {
    return std::nullopt;
  } catch (const UsageError&) {
    return std::nullopt;
  } catch (const std::exception& e) {
    report_bug("reading or building the history threw", e.what());
  }

  CheckResult result;
  try {
    result =
        check(history, *model,
              CheckOptions{.timeout_seconds = limits.timeout_seconds, .memory_limit = limits.memory_limit, .jobs = 1});
  } catch (const std::exception& e) {
    report_bug("check() threw", e.what());
  }
  switch (result.verdict) {
    case Verdict::linearizable: check_linearization(history, result); break;
    case Verdict::not_linearizable: check_refutation(history, result); break;
    case Verdict::unknown:
      if (result.reason.empty()) report_bug("unknown", "has no reason");
      break;
    default: report_bug("check()", "returned a verdict that is none of the three");
  }
  return result.verdict;
}

bool same_event(const Event& a, const Event& b) {
  return a.process == b.process && a.type == b.type && a.f == b.f && a.value == b.value && a.key == b.key &&
         a.index == b.index;
}

void report_bug(std::string_view what, std::string_view detail) {
  std::fprintf(stderr, "ariadne fuzz: BUG: %.*s: %.*s\n", static_cast<int>(what.size()), what.data(),
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

}  // namespace ariadne::fuzz
