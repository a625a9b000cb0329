// The model registry: built-in models by name, the spec notation of expected.tsv
// files ("cas-register(0)"), which only the functions here take apart, the catalogue
// for --help, and the default description of an operation. Like Bitwuzla's solver
// factory, one table says what exists.
//
// Spec convention, chosen so every spec reads back into an equal model and matches
// the corpora's own spelling: Knossos-style models always print their initial state
// ("register(nil)", "cas-register(0)", "set(#{})", "fifo-queue([])"), the mutex, which
// has none, prints "mutex()", and the Porcupine models print their bare name unless
// started from a non-default state ("kv", "etcd", "etcd(3)").
#include "base/text.hpp"
#include "models/model_factories.hpp"

#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <array>
#include <string>
#include <string_view>

namespace ariadne {

namespace {

struct ModelEntry {
  std::string_view name;
  std::string_view alias;  // empty when none
  std::string_view description;
  std::unique_ptr<Model> (*make)(const Value& init);
};

constexpr std::array kModels{
    ModelEntry{"register", "", "read/write register (Knossos); init a value, default nil", models::make_register},
    ModelEntry{"cas-register", "", "register plus :cas [old new] (Knossos); init a value, default nil",
               models::make_cas_register},
    ModelEntry{"multi-register", "", ":txn of [f k v] reads and writes over keys (Knossos); init a map",
               models::make_multi_register},
    ModelEntry{"mutex", "", ":acquire and :release of one lock (Knossos); no init", models::make_mutex},
    ModelEntry{"set", "", ":add x and :read of the whole set (Knossos); init a set, default #{}", models::make_set},
    ModelEntry{"unordered-queue", "", ":enqueue and :dequeue in any order (Knossos); init a vector",
               models::make_unordered_queue},
    ModelEntry{"fifo-queue", "", ":enqueue and :dequeue first-in first-out (Knossos); init a vector",
               models::make_fifo_queue},
    ModelEntry{"stack", "", ":push and :pop last-in first-out; init a vector, bottom first", models::make_stack},
    ModelEntry{"priority-queue", "",
               ":insert [priority x], :poll and :peek, lowest priority first; init a vector of [priority x]",
               models::make_priority_queue},
    ModelEntry{"max-priority-queue", "",
               ":insert [priority x], :poll and :peek, highest priority first (fastlin); init a vector of [priority x]",
               models::make_max_priority_queue},
    ModelEntry{"kv", "", "string :get/:put/:append per :key, partitioned (Porcupine); init a map", models::make_kv},
    ModelEntry{"etcd", "etcd-register-cas",
               "register starting absent with :cas, failed cas observed (Porcupine); init a value", models::make_etcd},
};

[[noreturn]] void throw_no_inner_model(std::string_view spec) {
  throw UsageError("model spec '" + std::string(spec) +
                   "': expected independent(MODEL), e.g. independent(cas-register(0))");
}

// The first symbol in `v`, if any. No history holds one (Jepsen writes keywords,
// numbers and strings), so a symbol in an initial state is a slip such as `--init
// zero` that would otherwise become a state no read can ever match.
const Value* first_symbol(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::symbol: return &v;
    case Value::Kind::vector:
    case Value::Kind::list:
    case Value::Kind::set:
      for (const Value& e : v.elements()) {
        if (const Value* s = first_symbol(e)) return s;
      }
      return nullptr;
    case Value::Kind::map:
      for (const auto& [key, value] : v.entries()) {
        if (const Value* s = first_symbol(key)) return s;
        if (const Value* s = first_symbol(value)) return s;
      }
      return nullptr;
    default: return nullptr;
  }
}

}  // namespace

std::unique_ptr<Model> make_model(std::string_view name, const Value& init) {
  for (const ModelEntry& entry : kModels) {
    if (name != entry.name && (entry.alias.empty() || name != entry.alias)) continue;
    if (const Value* symbol = first_symbol(init)) {
      throw UsageError("initial state " + shorten(init.to_edn()) + ": '" + shorten(symbol->text()) +
                       "' is a bare symbol, which no history value is; write a number, a \"string\" or a "
                       ":keyword (" +
                       std::string(entry.name) + ": " + std::string(entry.description) + ")");
    }
    return entry.make(init);
  }
  std::string known;
  for (const ModelEntry& entry : kModels) {
    if (!known.empty()) known += ", ";
    known += entry.name;
    if (!entry.alias.empty()) known += ", " + std::string(entry.alias);
  }
  throw UsageError("unknown model '" + std::string(name) + "' (known models: " + known + ")");
}

ModelSpecParts split_model_spec(std::string_view spec) {
  const std::string_view text = base::trim(spec);
  const auto open = text.find('(');
  if (open == std::string_view::npos) return {text, std::nullopt};
  if (text.back() != ')') {
    throw UsageError("model spec '" + std::string(spec) + "': expected name(initial-state), missing ')'");
  }
  return {base::trim(text.substr(0, open)), base::trim(text.substr(open + 1, text.size() - open - 2))};
}

std::unique_ptr<Model> make_model_from_spec(std::string_view spec) {
  const ModelSpecParts parts = split_model_spec(spec);
  if (!parts.argument) return make_model(parts.name, Value());
  // independent(MODEL) holds a spec, not an initial state.
  if (parts.name == "independent") {
    if (parts.argument->empty()) throw_no_inner_model(spec);
    return make_independent_model(make_model_from_spec(*parts.argument));
  }
  if (parts.argument->empty()) return make_model(parts.name, Value());
  Value init;
  try {
    init = parse_edn_value(*parts.argument, "model spec");
  } catch (const InputError& e) {
    throw UsageError("model spec '" + std::string(spec) + "': bad initial state: " + e.message());
  }
  return make_model(parts.name, init);
}

std::unique_ptr<Model> make_model_from_spec(std::string_view spec, const Value& init) {
  const std::string_view text = base::trim(spec);
  constexpr std::string_view kIndependent = "independent(";
  if (text.starts_with(kIndependent) && text.ends_with(')')) {
    const std::string_view inner = text.substr(kIndependent.size(), text.size() - kIndependent.size() - 1);
    if (base::trim(inner).empty()) throw_no_inner_model(spec);
    return make_independent_model(make_model_from_spec(inner, init));
  }
  // `init` replaces whatever the parentheses hold, so only the name is read; a spec
  // whose own initial state would not parse is still one name.
  return make_model(base::trim(text.substr(0, text.find('('))), init);
}

std::vector<std::pair<std::string, std::string>> model_catalogue() {
  std::vector<std::pair<std::string, std::string>> catalogue;
  for (const ModelEntry& entry : kModels) {
    std::string description(entry.description);
    if (!entry.alias.empty()) description += " (alias " + std::string(entry.alias) + ")";
    catalogue.emplace_back(std::string(entry.name), std::move(description));
  }
  return catalogue;
}

std::string Model::describe_operation(const Operation& op) const {
  std::string text = shorten(op.f);
  if (!op.key.is_nil()) text += " " + shorten(op.key.to_edn());
  const Value& v = op.value;
  if (op.f == "cas" && v.is_sequential() && v.elements().size() == 2) {
    return text + " " + shorten(v.elements()[0].to_edn()) + "->" + shorten(v.elements()[1].to_edn());
  }
  // A lock's ops carry no value: "acquire", not "acquire nil".
  if ((op.f == "acquire" || op.f == "release") && v.is_nil()) return text;
  return text + " " + shorten(v.to_edn());
}

}  // namespace ariadne
