#include "support/engine_sweep.hpp"

#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "history/edn_writer.hpp"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <map>
#include <random>
#include <stdexcept>
#include <string_view>

namespace ariadne::testing {

namespace {

constexpr std::string_view kIndependentPrefix = "independent(";

bool is_independent(const std::string& spec) { return spec.rfind(kIndependentPrefix, 0) == 0; }

// FNV-1a: the spec's share of a history's seed, the same on every platform (unlike
// std::hash), so a seed and an index name one history everywhere.
std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t h = 14695981039346656037ULL;
  for (const unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

const CheckOptions kBruteForce{.engine = Engine::brute, .timeout_seconds = 60, .jobs = 1, .minimal_core = false};

}  // namespace

std::vector<std::string> sweep_models() {
  std::vector<std::string> models = random_history_models();
  for (const std::string& inner : random_history_models()) models.push_back("independent(" + inner + ")");
  return models;
}

RandomHistoryShape sweep_shape(int index) {
  const int turn = index / 4;
  RandomHistoryShape shape;
  switch (index % 4) {
    case 0:  // values from a few, as the other differential tests draw them
      shape.operations = 3 + turn % 8;
      shape.processes = shape.operations <= 5 ? 3 : 4;
      break;
    case 1:  // crash-heavy: most ops left open, where the searches prune hardest
      shape.operations = 6 + turn % 4;
      shape.processes = 6;
      shape.crash_probability = 0.45;
      shape.fail_probability = 0.05;
      break;
    case 2:  // values from a few, and crashed duplicates of them
      shape.operations = 4 + turn % 7;
      shape.processes = 4;
      shape.fail_probability = 0.05;
      shape.crashed_duplicate_probability = 0.4;
      break;
    default:  // unique values but for crashed duplicates: what the unique-value tests decide
      shape.operations = 4 + turn % 7;
      shape.processes = 4;
      shape.fail_probability = 0.05;
      shape.unique_values = true;
      shape.crashed_duplicate_probability = 0.3;
      break;
  }
  return shape;
}

const char* sweep_shape_name(int index) {
  static constexpr const char* kNames[] = {"few-values", "crash-heavy", "crashed-duplicates",
                                           "unique-crashed-duplicates"};
  return kNames[index % 4];
}

EventLog sweep_history(const std::string& spec, std::uint64_t seed, int index) {
  const std::uint64_t spec_hash = fnv1a(spec);
  std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                    static_cast<std::uint32_t>(spec_hash), static_cast<std::uint32_t>(spec_hash >> 32),
                    static_cast<std::uint32_t>(index)};
  std::mt19937_64 rng(seq);
  return random_history(spec, sweep_shape(index), rng);
}

Verdict brute_force_verdict(const EventLog& log, const std::string& spec) {
  if (!is_independent(spec)) {
    const auto model = make_model_from_spec(spec);
    return check(build_history(log, *model), *model, kBruteForce).verdict;
  }
  const std::string inner = spec.substr(kIndependentPrefix.size(), spec.size() - kIndependentPrefix.size() - 1);
  const auto model = make_model_from_spec(inner);
  // Each key's events, in file order, their values taken out of the tuples.
  std::map<Value, EventLog> by_key;
  for (const Event& event : log.events) {
    if (!event.value.is_sequential() || event.value.elements().size() != 2) {
      throw std::logic_error("an independent history's event without a [key value] tuple");
    }
    EventLog& key_log = by_key[event.value.elements()[0]];
    key_log.source = log.source;
    Event unwrapped = event;
    unwrapped.value = event.value.elements()[1];
    key_log.events.push_back(std::move(unwrapped));
  }
  Verdict verdict = Verdict::linearizable;
  for (const auto& [key, key_log] : by_key) {
    const Verdict v = check(build_history(key_log, *model), *model, kBruteForce).verdict;
    if (v == Verdict::not_linearizable) return v;
    if (v == Verdict::unknown) verdict = v;
  }
  return verdict;
}

bool writes_a_value_twice(const History& history) {
  static constexpr std::string_view kWrites[] = {"write", "cas", "enqueue", "push", "add", "put", "append", "txn"};
  const auto writes = [](const Operation& op) {
    return std::find(std::begin(kWrites), std::end(kWrites), op.f) != std::end(kWrites);
  };
  for (const Operation& first : history.ops) {
    if (!writes(first)) continue;
    for (const Operation& other : history.ops) {
      if (&other != &first && other.f == first.f && other.key == first.key &&
          other.invoke_value == first.invoke_value) {
        return true;
      }
    }
  }
  return false;
}

std::uint64_t sweep_env_number(const char* name, std::uint64_t fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  const std::string_view digits(text);
  if (digits.find_first_not_of("0123456789") != std::string_view::npos || digits.size() > 18) {
    throw std::invalid_argument(std::string(name) + "=" + text + ": expected a count");
  }
  return std::stoull(std::string(digits));
}

std::vector<std::string> sweep_models_from_env(const char* name) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return sweep_models();
  // Specs hold commas of their own only inside braces (multi-register's map), so a
  // comma splits the list only outside brackets.
  std::vector<std::string> specs(1);
  int depth = 0;
  for (const char c : std::string_view(text)) {
    if (c == ',' && depth == 0) {
      specs.emplace_back();
      continue;
    }
    depth += (c == '(' || c == '{' || c == '[') - (c == ')' || c == '}' || c == ']');
    specs.back() += c;
  }
  return specs;
}

std::string spec_file_name(const std::string& spec) {
  std::string name;
  for (const char c : spec) {
    const bool word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (word) {
      name += c;
    } else if (!name.empty() && name.back() != '-') {
      name += '-';
    }
  }
  while (!name.empty() && name.back() == '-') name.pop_back();
  return name;
}

std::string sweep_edn_file(const EventLog& log, const std::string& spec, Verdict expected, const std::string& note) {
  std::string text;
  std::string_view rest = note;
  while (!rest.empty()) {
    const std::size_t end = rest.find('\n');
    text += "; " + std::string(rest.substr(0, end)) + "\n";
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  }
  text += "; expected: " + std::string(verdict_name(expected)) + "\n";
  text += "; model: " + spec + "\n";
  return text + format_edn_events(log);
}

}  // namespace ariadne::testing
