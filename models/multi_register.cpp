// Registers named by keys, read and written by transactions, as Knossos'
// knossos.model/multi-register: the only op is :txn, whose value is a vector of
// micro-ops [f k v] with f :read or :write, applied in order and atomically. A read
// of nil is always legal; any other read must equal the current value of k (a key
// never written reads as nil), which includes writes earlier in the same txn. Writes
// set k. Micro-op names may be keywords (EDN) or strings (JSON); keys and values
// compare as Values, so :x and "x" are different keys.
//
// Keys are numbered at compile time and a state is the list of every key's interned
// value id, interned by content; a key absent from the map and one holding nil are
// the same state, since no read can tell them apart. Crashed ops: the invocation's
// reads carry no results, so they are wildcards, and the writes apply.
#include "models/builtin_model.hpp"
#include "models/content_table.hpp"
#include "models/model_factories.hpp"
#include "models/step_cache.hpp"
#include "models/value_table.hpp"

#include <algorithm>

namespace ariadne::models {

namespace {

bool is_micro_op(const Value& v) {
  if (!v.is_sequential() || v.elements().size() != 3) return false;
  const Value& f = v.elements()[0];
  return is_named(f, "read") || is_named(f, "write");
}

bool is_transaction(const Value& v) {
  if (!v.is_sequential()) return false;
  for (const Value& micro_op : v.elements()) {
    if (!is_micro_op(micro_op)) return false;
  }
  return true;
}

struct MicroOp {
  bool write = false;
  std::uint32_t key = 0;    // key index
  std::uint32_t value = 0;  // value id read or written
};

enum class TxnStep : std::uint8_t { any, read_only, read_write, never };

struct TxnOp {
  TxnStep kind = TxnStep::any;
  std::uint32_t begin = 0;  // micro-ops [begin, end) of micro_ops_
  std::uint32_t end = 0;
};

class CompiledMultiRegister final : public CompiledModel {
 public:
  CompiledMultiRegister(const Value& init, std::span<const Operation* const> ops) {
    nil_ = values_.intern(Value());
    for (const auto& [key, value] : init.entries()) keys_.intern(key);
    key_in_init_.assign(keys_.size(), true);
    ops_.reserve(ops.size());
    for (const Operation* op : ops) ops_.push_back(translate(*op));
    scratch_.assign(keys_.size(), nil_);
    for (const auto& [key, value] : init.entries()) scratch_[keys_.intern(key)] = values_.intern(value);
    initial_ = states_.intern(scratch_);
  }

  StateId initial() override { return initial_; }

  void step(StateId state, std::uint32_t op, std::vector<StateId>& next) override {
    const TxnOp& o = ops_[op];
    switch (o.kind) {
      case TxnStep::any: next.push_back(state); break;
      case TxnStep::read_only:
        // Nothing to intern, so nothing worth caching.
        if (reads_match(states_.at(static_cast<std::uint32_t>(state)), o)) next.push_back(state);
        break;
      case TxnStep::read_write:
        cache_.append_successor(state, op, next, [&] { return apply(static_cast<std::uint32_t>(state), o); });
        break;
      case TxnStep::never: break;
    }
  }

  std::string describe_state(StateId state) const override {
    const auto registers = states_.at(static_cast<std::uint32_t>(state));
    std::vector<Value::Entry> entries;
    for (std::uint32_t key = 0; key < registers.size(); ++key) {
      if (registers[key] != nil_ || (key < key_in_init_.size() && key_in_init_[key])) {
        entries.emplace_back(keys_.at(key), values_.at(registers[key]));
      }
    }
    return Value::map(std::move(entries)).to_edn();
  }

  std::size_t memory_bytes() const override {
    return values_.memory_bytes() + keys_.memory_bytes() + states_.memory_bytes() + cache_.memory_bytes() +
           micro_ops_.capacity() * sizeof(MicroOp);
  }

 private:
  TxnOp translate(const Operation& op) {
    if (op.status == OpStatus::failed) return {TxnStep::any};                 // never happened
    if (op.f != "txn" || !is_transaction(op.value)) return {TxnStep::never};  // check_operation rejects
    const bool crashed = op.status == OpStatus::crashed;
    TxnOp txn{TxnStep::read_only, static_cast<std::uint32_t>(micro_ops_.size()), 0};
    for (const Value& micro_op : op.value.elements()) {
      const auto& fkv = micro_op.elements();
      const bool write = is_named(fkv[0], "write");
      // Wildcard reads constrain nothing; leave them out of the hot loop.
      if (!write && (crashed || fkv[2].is_nil())) continue;
      if (write) txn.kind = TxnStep::read_write;
      micro_ops_.push_back({write, keys_.intern(fkv[1]), values_.intern(fkv[2])});
    }
    txn.end = static_cast<std::uint32_t>(micro_ops_.size());
    if (txn.begin == txn.end) txn.kind = TxnStep::any;
    return txn;
  }

  bool reads_match(std::span<const std::uint32_t> registers, const TxnOp& o) const {
    for (std::uint32_t i = o.begin; i < o.end; ++i) {
      if (registers[micro_ops_[i].key] != micro_ops_[i].value) return false;
    }
    return true;
  }

  StateId apply(std::uint32_t state, const TxnOp& o) {
    const auto registers = states_.at(state);
    scratch_.assign(registers.begin(), registers.end());
    for (std::uint32_t i = o.begin; i < o.end; ++i) {
      const MicroOp& m = micro_ops_[i];
      if (m.write) {
        scratch_[m.key] = m.value;
      } else if (scratch_[m.key] != m.value) {
        return StepCache::kNoSuccessor;
      }
    }
    return states_.intern(scratch_);
  }

  ValueTable values_;
  ValueTable keys_;
  std::vector<bool> key_in_init_;  // shown by describe_state even when nil
  ContentTable<std::uint32_t> states_;
  StepCache cache_;
  std::vector<MicroOp> micro_ops_;
  std::vector<TxnOp> ops_;
  std::vector<std::uint32_t> scratch_;
  std::uint32_t nil_ = 0;
  std::uint32_t initial_ = 0;
};

class MultiRegisterModel final : public BuiltinModel {
 public:
  explicit MultiRegisterModel(Value init) : BuiltinModel("multi-register"), init_(std::move(init)) {}

  std::string spec() const override { return spec_with_init(name(), init_); }

  std::optional<std::string> check_operation(const Operation& op) const override {
    if (op.f != "txn") return unknown_operation(op, {"txn"});
    if (value_matters(op) && !is_transaction(op.value)) {
      return bad_value(op, "a vector of micro-ops [f k v] with f :read or :write");
    }
    return std::nullopt;
  }

  std::unique_ptr<CompiledModel> compile(std::span<const Operation* const> ops) const override {
    return std::make_unique<CompiledMultiRegister>(init_, ops);
  }

  // The same reading as CompiledMultiRegister, in the encoder's terms. A txn's reads
  // that follow its own write of the key see that write, not the shared state: they
  // are checked here (a mismatch makes the txn impossible) and only the txn's first
  // reads of each key, before any write to it, and its last write to each key remain.
  std::optional<Semantics> semantics(std::span<const Operation* const> ops) const override {
    using Kind = RegisterAccess::Kind;
    ValueTable keys;
    ValueTable values;
    Semantics s;
    s.ops.reserve(ops.size());  // one meaning per op: never moved again
    s.theory = Theory::registers;
    const std::uint32_t nil = values.intern(Value());
    for (const auto& [key, value] : init_.entries()) keys.intern(key);
    for (const Operation* op : ops) {
      OpMeaning& m = s.ops.emplace_back();
      m.must_take_effect = op->status == OpStatus::ok;
      if (op->status == OpStatus::failed) continue;  // never happened
      if (op->f != "txn" || !is_transaction(op->value)) {
        m.effect = Effect::impossible;
        continue;
      }
      const bool crashed = op->status == OpStatus::crashed;
      m.effect = Effect::registers;
      std::vector<std::pair<std::uint32_t, std::uint32_t>> written;  // key, value: latest write
      auto find_written = [&](std::uint32_t key) {
        return std::ranges::find_if(written, [&](const auto& kv) { return kv.first == key; });
      };
      for (const Value& micro_op : op->value.elements()) {
        const auto& fkv = micro_op.elements();
        const std::uint32_t key = keys.intern(fkv[1]);
        const std::uint32_t value = values.intern(fkv[2]);
        if (is_named(fkv[0], "write")) {
          if (auto it = find_written(key); it != written.end()) {
            it->second = value;
          } else {
            written.emplace_back(key, value);
          }
          continue;
        }
        if (crashed || fkv[2].is_nil()) continue;  // a wildcard read
        if (auto it = find_written(key); it != written.end()) {
          if (it->second != value) m.effect = Effect::impossible;
          continue;
        }
        // Two reads of the same key before any write must agree; keep one.
        auto same_key = std::ranges::find_if(m.accesses, [&](const RegisterAccess& a) { return a.key == key; });
        if (same_key == m.accesses.end()) {
          m.accesses.push_back({Kind::read, key, value});
        } else if (same_key->value != value) {
          m.effect = Effect::impossible;
        }
      }
      for (const auto& [key, value] : written) m.accesses.push_back({Kind::write, key, value});
      if (m.effect == Effect::impossible) m.accesses.clear();
      if (m.effect == Effect::registers && m.accesses.empty()) m.effect = Effect::none;
    }
    s.initial.assign(keys.size(), nil);
    for (const auto& [key, value] : init_.entries()) s.initial[keys.intern(key)] = values.intern(value);
    name_values(s, values);
    return s;
  }

 private:
  Value init_;  // a map
};

}  // namespace

std::unique_ptr<Model> make_multi_register(const Value& init) {
  if (init.is_nil()) return std::make_unique<MultiRegisterModel>(Value::map({}));
  if (!init.is_map()) reject_init("multi-register", "a map of keys to values such as {:x 0 :y 0}", init);
  return std::make_unique<MultiRegisterModel>(init);
}

}  // namespace ariadne::models
