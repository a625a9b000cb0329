// Porcupine's key/value store (porcupine_test.go, kvModel): every key holds a string,
// "" until written; :get returns S and is legal only when the key holds S; :put S
// sets it; :append S appends to it. Keys are independent, so the model is partitioned
// by key (locality, [HerlihyWing90]) and an engine normally compiles one key's ops.
// A completed :get of nil is read as "" (a key never written), for JSON writers that
// report a missing key as null.
//
// Strings are interned by content in one table. Compiled for one key, as partitioned
// engines do, a state is its string's id; for several keys it is the list of their
// string ids, interned again. Long runs of appends make many distinct strings, so
// every append step (and, for several keys, every put) is memoised: a search
// revisiting a step finds its successor with one probe; for one key the memo is by
// the appended string, which every twin append shares. Crashed ops: a get reveals
// nothing and changes nothing; a put or an append applies. For one key the model
// tells searches that only a put can shorten or change the start of a string
// (resets, may_become_legal).
#include "models/builtin_model.hpp"
#include "models/content_table.hpp"
#include "models/model_factories.hpp"
#include "models/prefetch.hpp"
#include "models/step_cache.hpp"
#include "models/value_table.hpp"

#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>

namespace ariadne::models {

namespace {

enum class KvStep : std::uint8_t { any, get, put, append, never };

struct KvOp {
  KvStep kind = KvStep::any;
  std::uint32_t key = 0;     // index among the compiled keys
  std::uint32_t string = 0;  // string id read, put or appended
};

std::span<const char> chars(std::string_view s) { return {s.data(), s.size()}; }

bool begins_with(std::span<const char> text, std::span<const char> prefix) {
  return prefix.size() <= text.size() && std::equal(prefix.begin(), prefix.end(), text.begin());
}

class CompiledKv final : public CompiledModel {
 public:
  CompiledKv(const Value& init, std::span<const Operation* const> ops) {
    const std::uint32_t empty = strings_.intern(chars(""));
    ops_.reserve(ops.size());
    for (std::size_t i = 0; i < ops.size(); ++i) {
      prefetch_ahead(ops, i);
      ops_.push_back(translate(*ops[i]));
    }
    single_key_ = keys_.size() <= 1;
    scratch_.assign(keys_.size(), empty);
    for (std::uint32_t key = 0; key < keys_.size(); ++key) {
      if (const Value* initial = init.find(keys_.at(key))) scratch_[key] = strings_.intern(chars(initial->text()));
    }
    if (single_key_) {
      initial_ = scratch_.empty() ? empty : scratch_[0];
    } else {
      initial_ = states_.intern(scratch_);
    }
  }

  StateId initial() override { return initial_; }

  void step(StateId state, std::uint32_t op, std::vector<StateId>& next) override {
    const KvOp& o = ops_[op];
    if (state == kForgotten) return step_forgotten(o, next);
    switch (o.kind) {
      case KvStep::any: next.push_back(state); break;
      case KvStep::get:
        if (string_of(state, o.key) == o.string) next.push_back(state);
        break;
      case KvStep::put:
        // One key: the put's string, whatever the state (nothing to intern).
        if (single_key_) {
          next.push_back(o.string);
          break;
        }
        cache_.append_successor(state, op, next, [&] { return write(state, o); });
        break;
      case KvStep::append:
        // One key: every append of the same string steps alike, so they share entries.
        cache_.append_successor(state, single_key_ ? o.string : op, next, [&] { return write(state, o); });
        break;
      case KvStep::never: break;
    }
  }

  // Compiled for one key, a put lands on its string whatever the state, and the
  // other steps (appends, gets, crashed gets) only ever lengthen the string: a get can
  // become legal without a put only if its string is the key's string followed by
  // the strings of available appends, each used once. For several keys a put keeps
  // the other keys' strings, so nothing is claimed.
  bool resets(std::uint32_t op) const override { return single_key_ && ops_[op].kind == KvStep::put; }

  bool may_become_legal(StateId state, std::uint32_t op, std::span<const Available> available) override {
    const KvOp& o = ops_[op];
    if (!single_key_ || o.kind != KvStep::get) return true;
    if (state == kForgotten) return false;  // no get reads what a forgotten string becomes
    const auto have = strings_.at(static_cast<std::uint32_t>(state));
    const auto want = strings_.at(o.string);
    if (!begins_with(want, have)) return false;
    if (have.size() == want.size()) return true;
    appendable_.clear();
    for (const Available& a : available) {
      const KvOp& appended = ops_[a.op];
      if (appended.kind != KvStep::append) continue;
      auto it = std::find_if(appendable_.begin(), appendable_.end(),
                             [&](const auto& e) { return e.first == appended.string; });
      if (it == appendable_.end()) {
        appendable_.emplace_back(appended.string, a.count);
      } else {
        it->second += a.count;
      }
    }
    std::uint32_t budget = kSpellingBudget;
    return spells(want.subspan(have.size()), budget);
  }

  // Compiled for one key, a string that no get of the window starts with: until a
  // put, the window's gets cannot become legal (appends only lengthen the string),
  // appends and crashed ops are legal from any string, and a put lands on its own
  // string from any. So every such string is kForgotten, a state of its own: appends
  // and crashed gets keep it, puts leave it, gets are never legal in it.
  std::optional<StateId> forget(StateId state, std::span<const std::uint32_t> window) override {
    if (!single_key_) return std::nullopt;
    if (state == kForgotten) return state;
    const auto have = strings_.at(static_cast<std::uint32_t>(state));
    for (const std::uint32_t op : window) {
      const KvOp& o = ops_[op];
      if (o.kind != KvStep::get) continue;
      if (begins_with(strings_.at(o.string), have)) return std::nullopt;
    }
    return kForgotten;
  }

  std::string describe_state(StateId state) const override {
    if (state == kForgotten) return "a string no get reads";
    if (single_key_) return string_value(static_cast<std::uint32_t>(state)).to_edn();
    const auto strings = states_.at(static_cast<std::uint32_t>(state));
    std::vector<Value::Entry> entries;
    for (std::uint32_t key = 0; key < strings.size(); ++key) {
      entries.emplace_back(keys_.at(key), string_value(strings[key]));
    }
    return Value::map(std::move(entries)).to_edn();
  }

  // One key's string. Compiled for ops that name no key (crashed gets alone do not),
  // the state is no key's, and several keys' states are not carried.
  std::optional<Value> state_value(StateId state) const override {
    if (keys_.size() != 1 || state == kForgotten) return std::nullopt;
    return string_value(static_cast<std::uint32_t>(state));
  }

  std::size_t memory_bytes() const override {
    return keys_.memory_bytes() + strings_.memory_bytes() + states_.memory_bytes() + cache_.memory_bytes() +
           text_.capacity();
  }

 private:
  KvOp translate(const Operation& op) {
    if (op.status == OpStatus::failed) return {KvStep::any};  // never happened
    // A partition's ops share one key, and mostly one Value of it: equal at a glance.
    if (!last_key_ || !(op.key == last_key_->first)) last_key_.emplace(op.key, keys_.intern(op.key));
    const std::uint32_t key = last_key_->second;
    const bool crashed = op.status == OpStatus::crashed;
    if (op.f == "get") {
      if (crashed) return {KvStep::any};
      if (op.value.is_nil()) return {KvStep::get, key, strings_.intern(chars(""))};
      if (op.value.is_string()) return {KvStep::get, key, strings_.intern(chars(op.value.text()))};
    }
    if ((op.f == "put" || op.f == "append") && op.value.is_string()) {
      return {op.f == "put" ? KvStep::put : KvStep::append, key, strings_.intern(chars(op.value.text()))};
    }
    return {KvStep::never};  // rejected by check_operation beforehand
  }

  void step_forgotten(const KvOp& o, std::vector<StateId>& next) const {
    switch (o.kind) {
      case KvStep::any:
      case KvStep::append: next.push_back(kForgotten); break;
      case KvStep::put: next.push_back(o.string); break;
      case KvStep::get:
      case KvStep::never: break;
    }
  }

  std::uint32_t string_of(StateId state, std::uint32_t key) const {
    return single_key_ ? static_cast<std::uint32_t>(state) : states_.at(static_cast<std::uint32_t>(state))[key];
  }

  StateId write(StateId state, const KvOp& o) {
    std::uint32_t written = o.string;
    if (o.kind == KvStep::append) {
      const auto head = strings_.at(string_of(state, o.key));
      const auto tail = strings_.at(o.string);
      text_.assign(head.begin(), head.end());
      text_.insert(text_.end(), tail.begin(), tail.end());
      written = strings_.intern(text_);
    }
    if (single_key_) return written;
    const auto strings = states_.at(static_cast<std::uint32_t>(state));
    scratch_.assign(strings.begin(), strings.end());
    scratch_[o.key] = written;
    return states_.intern(scratch_);
  }

  // Whether `rest` is a concatenation of appendable_ strings, each used at most as
  // often as it is counted there. A search of at most `budget` tries (tokens of
  // different lengths, one a prefix of another, can branch); past it, yes.
  bool spells(std::span<const char> rest, std::uint32_t& budget) {
    if (rest.empty()) return true;
    for (auto& [string, count] : appendable_) {
      if (count == 0) continue;
      const auto token = strings_.at(string);
      if (token.empty() || token.size() > rest.size() || !std::equal(token.begin(), token.end(), rest.begin()))
        continue;
      if (budget == 0) return true;
      --budget;
      --count;
      const bool found = spells(rest.subspan(token.size()), budget);
      ++count;
      if (found) return true;
    }
    return false;
  }

  Value string_value(std::uint32_t id) const {
    const auto text = strings_.at(id);
    return Value::string(std::string(text.begin(), text.end()));
  }

  ValueTable keys_;
  std::optional<std::pair<Value, std::uint32_t>> last_key_;  // while translating
  ContentTable<char> strings_;
  ContentTable<std::uint32_t> states_;  // used only when compiled for several keys
  StepCache cache_;
  std::vector<KvOp> ops_;
  std::vector<std::uint32_t> scratch_;
  std::vector<char> text_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> appendable_;  // may_become_legal(): string, count
  static constexpr std::uint32_t kSpellingBudget = 256;
  // See forget(): past every string id, which are 32-bit.
  static constexpr StateId kForgotten = StateId{1} << 32;
  std::uint32_t initial_ = 0;
  bool single_key_ = true;
};

class KvModel final : public BuiltinModel {
 public:
  explicit KvModel(Value init) : BuiltinModel("kv"), init_(std::move(init)) {}

  // Bare "kv" for the usual empty start, as Porcupine's corpus writes it.
  std::string spec() const override { return init_.entries().empty() ? name() : spec_with_init(name(), init_); }

  std::optional<std::string> check_operation(const Operation& op) const override {
    const bool is_get = op.f == "get";
    if (!is_get && op.f != "put" && op.f != "append") return unknown_operation(op, {"get", "put", "append"});
    if (op.key.is_nil()) return name() + ": :" + op.f + " has no :key (every kv operation names its key)";
    if (!value_matters(op)) return std::nullopt;
    if (is_get) {
      if (op.status == OpStatus::ok && !op.value.is_nil() && !op.value.is_string()) {
        return bad_value(op, "a string (or nil for a missing key)");
      }
    } else if (!op.value.is_string()) {
      return bad_value(op, "a string");
    }
    return std::nullopt;
  }

  bool is_partitioned() const override { return true; }
  Value partition_key(const Operation& op) const override { return op.key; }

  std::unique_ptr<Model> starting_from(const Value& key, const Value& state) const override {
    if (!state.is_string()) return nullptr;
    std::vector<Value::Entry> entries;
    for (const auto& [k, v] : init_.entries()) {
      if (!(k == key)) entries.emplace_back(k, v);
    }
    entries.emplace_back(key, state);
    return std::make_unique<KvModel>(Value::map(std::move(entries)));
  }

  std::unique_ptr<CompiledModel> compile(std::span<const Operation* const> ops) const override {
    return std::make_unique<CompiledKv>(init_, ops);
  }

  // The register test declines appends (they make a value of two writes); a kv
  // history with any is Porcupine's usual one, and describing its every string only
  // to learn that cost a tenth of checking a large one.
  std::optional<std::string> unique_values_out_of_reach(std::span<const Operation* const> ops) const override {
    for (const Operation* op : ops) {
      if (op->f == "append" && op->status != OpStatus::failed) return "an append";
    }
    return std::nullopt;
  }

  // The same reading as CompiledKv::translate(), in the encoder's terms: every key is
  // a register of strings, appends concatenate.
  std::optional<Semantics> semantics(std::span<const Operation* const> ops) const override {
    using Kind = RegisterAccess::Kind;
    ValueTable keys;
    ValueTable strings;
    Semantics s;
    s.ops.reserve(ops.size());  // one meaning per op: never moved again
    s.theory = Theory::registers;
    s.strings = true;
    // A read of nil is a read of "", and every other value is a string already: the
    // op's own Value is interned, with no copy of its text.
    const Value empty = Value::string("");
    auto string_id = [&](const Value& value) { return strings.intern(value.is_nil() ? empty : value); };
    for (const Operation* op : ops) {
      OpMeaning& m = s.ops.emplace_back();
      m.must_take_effect = op->status == OpStatus::ok;
      if (op->status == OpStatus::failed) continue;  // never happened
      const std::uint32_t key = keys.intern(op->key);
      const bool crashed = op->status == OpStatus::crashed;
      m.effect = Effect::registers;
      if (op->f == "get" && !crashed && (op->value.is_nil() || op->value.is_string())) {
        m.accesses = {{Kind::read, key, string_id(op->value)}};
      } else if (op->f == "get" && crashed) {
        m.effect = Effect::none;
      } else if ((op->f == "put" || op->f == "append") && op->value.is_string()) {
        m.accesses = {{op->f == "put" ? Kind::write : Kind::append, key, string_id(op->value)}};
      } else {
        m.effect = Effect::impossible;  // check_operation rejects these beforehand
      }
    }
    for (std::uint32_t key = 0; key < keys.size(); ++key) {
      const Value* initial = init_.find(keys.at(key));
      s.initial.push_back(string_id(initial ? *initial : empty));
    }
    name_values(s, strings);
    return s;
  }

 private:
  Value init_;  // a map from keys to strings
};

}  // namespace

std::unique_ptr<Model> make_kv(const Value& init) {
  if (init.is_nil()) return std::make_unique<KvModel>(Value::map({}));
  bool strings_only = init.is_map();
  if (strings_only) {
    for (const auto& [key, value] : init.entries()) strings_only = strings_only && value.is_string();
  }
  if (!strings_only) reject_init("kv", "a map from keys to strings such as {\"k\" \"x 0 0 y\"}", init);
  return std::make_unique<KvModel>(init);
}

}  // namespace ariadne::models
