// Values carried by histories: the data model of EDN (Jepsen's notation), which also
// covers JSON and the Porcupine formats. Values are immutable and cheap to copy
// (composites share their payload). Equality follows Clojure, because Knossos' model
// semantics are written in terms of it: vectors and lists with the same elements are
// equal, sets and maps compare without regard to order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ariadne {

class Value {
 public:
  enum class Kind : std::uint8_t {
    nil,
    boolean,
    integer,      // fits in 64 bits
    big_integer,  // does not; kept as its canonical decimal text so equality still works
    floating,
    string,
    keyword,  // :name, stored without the colon
    symbol,
    vector,
    list,
    set,
    map,
  };
  using Entry = std::pair<Value, Value>;

  Value() = default;  // nil
  static Value boolean(bool b);
  static Value integer(std::int64_t i);
  static Value big_integer(std::string decimal);  // optional leading '-', then digits
  static Value floating(double d);
  static Value string(std::string s);
  static Value keyword(std::string name);
  static Value symbol(std::string name);
  static Value vector(std::vector<Value> elements);
  static Value list(std::vector<Value> elements);
  static Value set(std::vector<Value> elements);  // duplicates are removed
  static Value map(std::vector<Entry> entries);   // a repeated key keeps the last value

  Kind kind() const { return kind_; }
  bool is_nil() const { return kind_ == Kind::nil; }
  bool is_integer() const { return kind_ == Kind::integer; }
  bool is_string() const { return kind_ == Kind::string; }
  bool is_keyword() const { return kind_ == Kind::keyword; }
  // Vectors and lists: both are ordered sequences.
  bool is_sequential() const { return kind_ == Kind::vector || kind_ == Kind::list; }
  bool is_set() const { return kind_ == Kind::set; }
  bool is_map() const { return kind_ == Kind::map; }

  bool as_boolean() const { return scalar_.b; }
  std::int64_t as_integer() const { return scalar_.i; }
  double as_floating() const { return scalar_.d; }
  // Text of a string, keyword (no colon), symbol or big integer.
  const std::string& text() const;
  // Elements of a vector, list or set (sets in canonical order).
  const std::vector<Value>& elements() const;
  // Entries of a map, in canonical key order.
  const std::vector<Entry>& entries() const;
  // Map lookup; nullptr when absent or when this is not a map.
  const Value* find(const Value& key) const;
  // Convenience for keyword-keyed maps such as Jepsen op maps.
  const Value* find_keyword(std::string_view name) const;

  friend bool operator==(const Value& a, const Value& b) { return compare(a, b) == 0; }
  friend bool operator!=(const Value& a, const Value& b) { return compare(a, b) != 0; }
  friend bool operator<(const Value& a, const Value& b) { return compare(a, b) < 0; }
  // A total order consistent with equality; used to canonicalise sets and maps.
  static int compare(const Value& a, const Value& b);
  std::size_t hash() const;

  // Asks the processor to start loading the payload (a string's text, a vector's
  // elements) before it is read: passes over operations scattered through a large
  // history call it a few operations ahead, so the loads overlap.
  void prefetch() const {
    if (payload_) __builtin_prefetch(payload_.get());
  }

  // EDN text, readable back by the EDN reader; a double in the fewest digits that read
  // back as the same double (0.1, not 0.10000000000000001).
  std::string to_edn() const;
  // JSON text (keywords and symbols become strings, sets become arrays), doubles as in
  // to_edn() but NaN and infinities as null.
  std::string to_json() const;

 private:
  Kind kind_ = Kind::nil;
  union Scalar {
    bool b;
    std::int64_t i;
    double d;
  } scalar_{.i = 0};
  // One shared payload, whose type the kind names: a std::string for text kinds, a
  // std::vector<Value> for sequences and sets, a std::vector<Entry> for maps. One
  // pointer instead of three keeps a Value at 32 bytes, which matters when a history
  // holds tens of millions of them.
  std::shared_ptr<const void> payload_;
};

// How much of a name or value ariadne's messages and reports quote.
inline constexpr std::size_t kQuotedTextLimit = 80;

// `text` cut to at most `limit` bytes around an ellipsis (head and tail kept, since a
// growing kv value differs at its end), never splitting a UTF-8 sequence; whole when
// it fits. A history may hold names and values of megabytes, and every message or
// report that quotes one goes through here: shorten(value.to_edn()).
std::string shorten(std::string text, std::size_t limit = kQuotedTextLimit);

struct ValueHash {
  std::size_t operator()(const Value& v) const { return v.hash(); }
};

}  // namespace ariadne
