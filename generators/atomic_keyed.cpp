// Simulated keyed registers: Knossos' multi-register, whose :txn applies a vector of
// [f k v] micro-ops atomically, and Porcupine's kv store, whose :get, :put and
// :append each name one :key and carry strings.
//
// Both break the same way as a single register (atomic_registers.cpp), on one key: a
// write (a txn [[:write k v1]], or a :put of v1) completes; a second write of v2 to
// the same key is invoked after it and completes; a read of that key (a txn
// [[:read k nil]], or a :get) invoked after that returns v1. Every order puts the
// three in that order, and after the second write the key holds v1 only if something
// writes v1 to it again, which nothing does: v1 is fresh and written once.
//
// For kv, appends might seem to rebuild v1 out of pieces. They cannot: every value
// put or appended is one token "v<n> ", whose only space ends it, so a key's string
// splits into tokens in one way only, and after a put it begins with the token put.
// After the put of v2 the string begins with v2's token until the next put, and no
// later put writes v1's.
#include "generators/atomic_object.hpp"

#include <algorithm>
#include <map>

namespace ariadne::generators {

namespace {

constexpr std::size_t kDefaultKeys = 3;
constexpr std::uint64_t kMaxMicroOps = 3;  // per txn, at least one
constexpr std::uint64_t kMicroReadPercent = 50;
constexpr std::uint64_t kGetPercent = 40;
constexpr std::uint64_t kPutPercent = 30;  // the rest are appends

// The keys the clients use: `count` of our own when asked (--keys), else the initial
// state's when it names any, else a few of our own.
std::vector<Value> keys_of(const Value& init, std::size_t count, Value (*make_key)(std::size_t)) {
  std::vector<Value> keys;
  if (count > 0) {
    for (std::size_t i = 0; i < count; ++i) keys.push_back(make_key(i));
    return keys;
  }
  if (init.is_map()) {
    for (const auto& [key, value] : init.entries()) keys.push_back(key);
  }
  if (keys.empty()) {
    for (std::size_t i = 0; i < kDefaultKeys; ++i) keys.push_back(make_key(i));
  }
  return keys;
}

Value micro_op(const char* f, const Value& key, Value value) {
  return Value::vector({Value::keyword(f), key, std::move(value)});
}

std::string stale_read_sentence(const AtomicOp& first, const AtomicOp& second, const AtomicOp& read,
                                const std::string& key, const std::string& v1, const std::string& v2,
                                const std::string& why) {
  return "The violation, on key " + key + ": " + op_name(first) + " writes " + v1 + " and completes before " +
         op_name(second) + " writes " + v2 + "; " + op_name(read) + ", a read of " + key + " invoked after " +
         op_name(second) + " completed, returns " + v1 + ". " + why +
         " So every order puts the two writes and the read in that order with nothing writing " + v1 +
         " in between: the read is stale and the history not linearizable, whatever the other operations did.";
}

class MultiRegisterObject final : public AtomicObject {
 public:
  explicit MultiRegisterObject(const ObjectContext& context)
      : random_(context.random), values_(context.values), keys_(keys_of(context.init, context.keys, default_key)) {
    if (context.init.is_map()) {
      for (const auto& [key, value] : context.init.entries()) state_[key] = value;
    }
  }

  // One to three micro-ops on distinct keys, in random order, each a read or a write.
  AtomicOp next_op(std::size_t /*slot*/) override {
    std::vector<Value> keys = keys_;
    const std::uint64_t count = std::min<std::uint64_t>(1 + random_.below(kMaxMicroOps), keys.size());
    std::vector<Value> micro_ops;
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::size_t pick = i + random_.below(keys.size() - i);  // a partial Fisher-Yates shuffle
      std::swap(keys[i], keys[pick]);
      if (random_.below(100) < kMicroReadPercent) {
        micro_ops.push_back(micro_op("read", keys[i], Value()));
      } else {
        micro_ops.push_back(micro_op("write", keys[i], Value::integer(values_.draw(random_))));
      }
    }
    return txn(std::move(micro_ops));
  }

  // Micro-ops apply in order, so a read after a write of the same key in one txn sees
  // that write, as the model says.
  void take_effect(AtomicOp& op) override {
    std::vector<Value> results;
    for (const Value& micro : op.invoke_value.elements()) {
      const auto& fkv = micro.elements();
      if (fkv[0].text() == "write") {
        state_[fkv[1]] = fkv[2];
        results.push_back(micro);
      } else {
        const auto held = state_.find(fkv[1]);
        results.push_back(micro_op("read", fkv[1], held == state_.end() ? Value() : held->second));
      }
    }
    op.result = Value::vector(std::move(results));
  }

  std::size_t pattern_size() const override { return 3; }

  AtomicOp pattern_op(std::size_t step) override {
    if (step == 0) {
      key_ = keys_[random_.below(keys_.size())];
      v1_ = Value::integer(values_.fresh());
    }
    if (step == 2) return txn({micro_op("read", key_, Value())});
    return txn({micro_op("write", key_, step == 0 ? v1_ : Value::integer(values_.fresh()))});
  }

  std::string break_pattern(std::span<AtomicOp* const> pattern) override {
    pattern[2]->result = Value::vector({micro_op("read", key_, v1_)});
    const Value& v2 = pattern[1]->invoke_value.elements()[0].elements()[2];
    return stale_read_sentence(
        *pattern[0], *pattern[1], *pattern[2], key_.to_edn(), v1_.to_edn(), v2.to_edn(),
        "Both are single-write txns of fresh values, and no other txn ever writes " + v1_.to_edn() + ".");
  }

 private:
  // :x :y :z, then :k3 :k4 ... when --keys asks for more.
  static Value default_key(std::size_t i) {
    return Value::keyword(i < 3 ? std::string(1, static_cast<char>('x' + i)) : "k" + std::to_string(i));
  }

  static AtomicOp txn(std::vector<Value> micro_ops) {
    AtomicOp op;
    op.f = "txn";
    op.invoke_value = Value::vector(std::move(micro_ops));
    return op;
  }

  SeededRandom& random_;
  ValueSource& values_;
  std::vector<Value> keys_;
  std::map<Value, Value> state_;  // a key never written is absent, and reads nil
  Value key_;                     // the pattern's key and first, later stale, value
  Value v1_;
};

class KvObject final : public AtomicObject {
 public:
  explicit KvObject(const ObjectContext& context)
      : random_(context.random), values_(context.values), keys_(keys_of(context.init, context.keys, default_key)) {
    if (context.init.is_map()) {
      for (const auto& [key, value] : context.init.entries()) state_[key] = value.text();
    }
  }

  AtomicOp next_op(std::size_t /*slot*/) override {
    const Value& key = keys_[random_.below(keys_.size())];
    const std::uint64_t draw = random_.below(100);
    if (draw < kGetPercent) return get(key);
    return write(draw < kGetPercent + kPutPercent ? "put" : "append", key, token(values_.draw(random_)));
  }

  void take_effect(AtomicOp& op) override {
    std::string& held = state_[op.key];  // "" until written, as the model says
    if (op.f == "get") {
      op.result = Value::string(held);
      return;
    }
    if (op.f == "put") held.clear();
    held += op.invoke_value.text();
    op.result = op.invoke_value;
  }

  std::size_t pattern_size() const override { return 3; }

  AtomicOp pattern_op(std::size_t step) override {
    if (step == 0) {
      key_ = keys_[random_.below(keys_.size())];
      v1_ = token(values_.fresh());
    }
    if (step == 2) return get(key_);
    return write("put", key_, step == 0 ? v1_ : token(values_.fresh()));
  }

  std::string break_pattern(std::span<AtomicOp* const> pattern) override {
    pattern[2]->result = v1_;
    const std::string v1 = v1_.to_edn();
    return stale_read_sentence(*pattern[0], *pattern[1], *pattern[2], key_.to_edn(), v1,
                               pattern[1]->invoke_value.to_edn(),
                               "Both are puts of fresh tokens, each put once and never appended; every value put "
                               "or appended is one token \"v<n> \" ending in its only space, so after the put of " +
                                   pattern[1]->invoke_value.to_edn() +
                                   " the key's string begins with that token until another put, and no later put "
                                   "writes " +
                                   v1 + ".");
  }

 private:
  static Value default_key(std::size_t i) { return Value::string("k" + std::to_string(i)); }
  static Value token(std::int64_t value) { return Value::string("v" + std::to_string(value) + " "); }

  static AtomicOp get(const Value& key) {
    AtomicOp op;
    op.f = "get";
    op.key = key;
    return op;
  }

  static AtomicOp write(const char* f, const Value& key, Value value) {
    AtomicOp op;
    op.f = f;
    op.key = key;
    op.invoke_value = std::move(value);
    return op;
  }

  SeededRandom& random_;
  ValueSource& values_;
  std::vector<Value> keys_;
  std::map<Value, std::string> state_;
  Value key_;  // the pattern's key and first, later stale, token
  Value v1_;
};

}  // namespace

std::unique_ptr<AtomicObject> make_multi_register_object(const ObjectContext& context) {
  return std::make_unique<MultiRegisterObject>(context);
}

std::unique_ptr<AtomicObject> make_kv_object(const ObjectContext& context) {
  return std::make_unique<KvObject>(context);
}

}  // namespace ariadne::generators
