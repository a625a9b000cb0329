// Generating an atomic history: vet the shape, build the model's simulated object,
// run the clients, break the violation pattern if asked, and describe the result in
// the notes of the file's header. See atomic_history.hpp.
#include "generators/atomic_history.hpp"

#include "generators/atomic_object.hpp"
#include "generators/atomic_simulation.hpp"
#include "generators/seeded_random.hpp"

#include <ariadne/errors.hpp>
#include <ariadne/model.hpp>

#include <algorithm>
#include <charconv>
#include <set>

namespace ariadne::generators {

namespace {

std::string plural(std::size_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

// The initial state a model spec names: "register(0)" gives 0; "kv", "mutex()" and
// "register(nil)" give nil, which every object reads as the model's default. The
// canonical spec is read back rather than asking the model, since spec() is the
// one promise every model makes about its initial state.
Value initial_state(const Model& model) {
  const std::string spec = model.spec();
  const std::optional<std::string_view> argument = split_model_spec(spec).argument;
  if (!argument || argument->empty()) return Value();
  return parse_edn_value(*argument, "model spec");
}

// Every integer anywhere in `value`: fresh values must avoid them, or an initial
// queue holding 3 would make a fresh 3 a second copy.
void collect_integers(const Value& value, std::set<std::int64_t>& out) {
  if (value.is_integer()) out.insert(value.as_integer());
  if (value.is_sequential() || value.is_set()) {
    for (const Value& element : value.elements()) collect_integers(element, out);
  } else if (value.is_map()) {
    for (const auto& [key, element] : value.entries()) {
      collect_integers(key, out);
      collect_integers(element, out);
    }
  }
}

// The model each simulated object is of: MODEL for independent(MODEL), whose keys
// are objects of their own, else the model itself.
const Model& object_model(const Model& model) {
  const Model* inner = independent_inner_model(model);
  return inner != nullptr ? *inner : model;
}

void validate(const AtomicShape& shape, const Model& whole) {
  const Model& model = object_model(whole);
  if (independent_inner_model(model) != nullptr) {
    throw UsageError("independent(independent(...)) has no simulated object: one level of keys is Jepsen's");
  }
  if (shape.operations == 0) throw UsageError("an atomic history needs at least one operation (--ops)");
  if (shape.processes == 0) throw UsageError("an atomic history needs at least one process (--processes)");
  if (!(shape.crash_rate >= 0 && shape.crash_rate <= 1)) {
    throw UsageError("--crash-rate is a probability, from 0 to 1; got " + format_crash_rate(shape.crash_rate));
  }
  if (shape.values > kMaxValueDomain) {
    throw UsageError("--values " + std::to_string(shape.values) + " is too large (at most " +
                     std::to_string(kMaxValueDomain) + ")");
  }
  const bool independent = &model != &whole;
  if (shape.keys > 0 && !independent && model.name() != "kv" && model.name() != "multi-register") {
    throw UsageError("--keys means nothing to " + model.name() +
                     ": only kv, multi-register and independent(MODEL) have keys");
  }
  if (shape.keys > kMaxKeys) {
    throw UsageError("--keys " + std::to_string(shape.keys) + " is too many (at most " + std::to_string(kMaxKeys) +
                     ")");
  }
  if (shape.empty_observations && model.name() != "unordered-queue" && model.name() != "fifo-queue" &&
      model.name() != "stack") {
    throw UsageError("--empty-observations means nothing to " + model.name() +
                     ": only unordered-queue, fifo-queue and stack choose between :fail and :empty for a removal that "
                     "finds nothing (a priority queue always records :empty)");
  }
  if (model.name() == "mutex" && shape.values != kUniqueValues) {
    throw UsageError("--values " + std::to_string(shape.values) +
                     " means nothing to the mutex: :acquire and :release carry no values (leave --values out)");
  }
}

std::string values_sentence(const AtomicShape& shape, const Model& model) {
  if (model.name() == "mutex") return "";
  if (shape.values == kUniqueValues) return ", every value written or inserted fresh";
  return ", values drawn from a domain of " + std::to_string(shape.values) +
         (model.name() == "kv" ? " tokens (\"v0 \" to \"v" + std::to_string(shape.values - 1) + " \")"
                               : " (0 to " + std::to_string(shape.values - 1) + ")");
}

// Invoked and not yet :ok or :fail; crashed operations stay open to the end.
std::size_t max_open(const EventLog& log) {
  std::size_t open = 0;
  std::size_t most = 0;
  for (const Event& event : log.events) {
    if (event.type == EventType::invoke) most = std::max(most, ++open);
    if (event.type == EventType::ok || event.type == EventType::fail) --open;
  }
  return most;
}

}  // namespace

std::uint64_t parse_value_domain(std::string_view text) {
  if (text == "unique") return kUniqueValues;
  std::uint64_t values = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), values);
  const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
  if (!digits || error != std::errc() || end != text.data() + text.size() || values == 0 || values > kMaxValueDomain) {
    throw UsageError("--values must be 'unique' or a number of values K from 1 to " + std::to_string(kMaxValueDomain) +
                     ", got '" + std::string(text) + "'");
  }
  return values;
}

std::string value_domain_text(std::uint64_t values) {
  return values == kUniqueValues ? "unique" : std::to_string(values);
}

std::string format_crash_rate(double rate) {
  // The shortest text that reads back as the same double, the same on every platform.
  char buffer[64];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, rate);
  return std::string(buffer, error == std::errc() ? end : buffer);
}

GeneratedHistory generate_atomic_history(const AtomicShape& shape) {
  const auto model = make_model_from_spec(shape.model_spec);
  validate(shape, *model);
  const Value init = initial_state(object_model(*model));
  std::set<std::int64_t> reserved;
  collect_integers(init, reserved);

  SeededRandom random(shape.seed);
  ValueSource values(shape.values, std::move(reserved));
  const auto object =
      make_atomic_object({*model, init, shape.processes, random, values, shape.keys, shape.empty_observations});
  if (shape.violation && shape.operations < object->pattern_size()) {
    throw UsageError("a " + model->name() + " violation needs at least " + plural(object->pattern_size(), "operation") +
                     "; --ops is " + std::to_string(shape.operations));
  }
  SimulatedRun run = simulate({shape.operations, shape.processes, shape.crash_rate, shape.violation}, *object, random);
  std::string violation;
  if (shape.violation) violation = object->break_pattern(run.pattern_ops());

  GeneratedHistory generated;
  generated.model_spec = model->spec();
  generated.log = run.event_log("atomic-" + model->name());
  generated.max_open_operations = max_open(generated.log);
  generated.expected = shape.violation ? Verdict::not_linearizable : Verdict::linearizable;
  const std::string processes =
      std::to_string(shape.processes) + " client process" + (shape.processes == 1 ? "" : "es");
  const Model& objects = object_model(*model);
  const std::string simulated = &objects == model.get()
                                    ? "one simulated " + generated.model_spec
                                    : std::to_string(shape.keys > 0 ? shape.keys : kDefaultIndependentKeys) +
                                          " independent keys, [key value] tuples, each key "
                                          "a simulated " +
                                          objects.spec();
  generated.notes.push_back("An atomic " + model->name() + ": " + plural(shape.operations, "operation") + " by " +
                            processes + " on " + simulated + values_sentence(shape, objects) + ", crash rate " +
                            format_crash_rate(shape.crash_rate) + ", seed " + std::to_string(shape.seed) + ".");
  const std::size_t most_open = generated.max_open_operations;
  const std::string open_at_once =
      "At most " + plural(most_open, "operation") + (most_open == 1 ? " is" : " are") + " open at once.";
  if (run.crashed == 0) {
    generated.notes.push_back("No operation crashed. " + open_at_once);
  } else {
    const std::size_t never = run.crashed - run.effects_before_crash - run.effects_after_crash;
    generated.notes.push_back(
        plural(run.crashed, "operation") + (run.crashed == 1 ? " crashed and stays" : " crashed and stay") +
        " open to the end (" + std::to_string(run.crashed - run.never_completed) + " with :info, " +
        std::to_string(run.never_completed) + " with no completion, the history ending first); " +
        std::to_string(run.effects_before_crash) + " took effect before the crash, " +
        std::to_string(run.effects_after_crash) + " after it, " + std::to_string(never) + " never. " + open_at_once);
  }
  if (!shape.violation) {
    generated.notes.push_back(
        "Every result comes from the simulated object, each operation taking effect at one "
        "point within its own interval: linearizable by construction.");
  } else {
    generated.notes.push_back(
        "Every other result comes from the simulated object, each operation taking effect at "
        "one point within its own interval. " +
        violation);
  }
  return generated;
}

}  // namespace ariadne::generators
