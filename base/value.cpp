// Value: construction, Clojure-style equality, a total order that canonicalises sets
// and maps, hashing consistent with equality, and EDN/JSON printing.
#include <ariadne/value.hpp>

#include "base/hash.hpp"

#include "base/text_encoding.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <functional>

namespace ariadne {

namespace {

const std::string kEmptyText;
const std::vector<Value> kNoElements;
const std::vector<Value::Entry> kNoEntries;

// Vectors and lists share a rank so that [1 2] equals (1 2), as in Clojure.
int kind_rank(Value::Kind k) {
  switch (k) {
    case Value::Kind::nil: return 0;
    case Value::Kind::boolean: return 1;
    case Value::Kind::integer: return 2;
    case Value::Kind::big_integer: return 3;
    case Value::Kind::floating: return 4;
    case Value::Kind::string: return 5;
    case Value::Kind::keyword: return 6;
    case Value::Kind::symbol: return 7;
    case Value::Kind::vector:
    case Value::Kind::list: return 8;
    case Value::Kind::set: return 9;
    case Value::Kind::map: return 10;
  }
  return 11;
}

using base::hash_combine;

void append_edn_string(std::string& out, const std::string& s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

// The shortest text that reads back as the same double (0.204605, not the
// 0.20460500000000001 of %.17g): what a person would write, and still exact. A
// whole number keeps a ".0" so that EDN and JSON readers read a double, not an integer.
std::string format_double(double d) {
  if (std::isnan(d)) return "##NaN";
  if (std::isinf(d)) return d > 0 ? "##Inf" : "##-Inf";
  char buf[64];
  const auto printed = std::to_chars(buf, buf + sizeof buf, d);
  std::string s(buf, printed.ptr);
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

void write_edn(std::string& out, const Value& v);

void write_edn_seq(std::string& out, const std::vector<Value>& xs, const char* open, char close) {
  out += open;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (i) out += ' ';
    write_edn(out, xs[i]);
  }
  out += close;
}

void write_edn(std::string& out, const Value& v) {
  switch (v.kind()) {
    case Value::Kind::nil: out += "nil"; break;
    case Value::Kind::boolean: out += v.as_boolean() ? "true" : "false"; break;
    case Value::Kind::integer: out += std::to_string(v.as_integer()); break;
    case Value::Kind::big_integer:
      out += v.text();
      out += 'N';
      break;
    case Value::Kind::floating: out += format_double(v.as_floating()); break;
    case Value::Kind::string: append_edn_string(out, v.text()); break;
    case Value::Kind::keyword:
      out += ':';
      out += v.text();
      break;
    case Value::Kind::symbol: out += v.text(); break;
    case Value::Kind::vector: write_edn_seq(out, v.elements(), "[", ']'); break;
    case Value::Kind::list: write_edn_seq(out, v.elements(), "(", ')'); break;
    case Value::Kind::set: write_edn_seq(out, v.elements(), "#{", '}'); break;
    case Value::Kind::map: {
      out += '{';
      bool first = true;
      for (const auto& [k, val] : v.entries()) {
        if (!first) out += ", ";
        first = false;
        write_edn(out, k);
        out += ' ';
        write_edn(out, val);
      }
      out += '}';
      break;
    }
  }
}

void write_json(std::string& out, const Value& v) {
  switch (v.kind()) {
    case Value::Kind::nil: out += "null"; break;
    case Value::Kind::boolean: out += v.as_boolean() ? "true" : "false"; break;
    case Value::Kind::integer: out += std::to_string(v.as_integer()); break;
    case Value::Kind::big_integer: out += v.text(); break;
    case Value::Kind::floating: out += std::isfinite(v.as_floating()) ? format_double(v.as_floating()) : "null"; break;
    case Value::Kind::string:
    case Value::Kind::keyword:
    case Value::Kind::symbol: out += json_quote(v.text()); break;
    case Value::Kind::vector:
    case Value::Kind::list:
    case Value::Kind::set: {
      out += '[';
      bool first = true;
      for (const auto& x : v.elements()) {
        if (!first) out += ',';
        first = false;
        write_json(out, x);
      }
      out += ']';
      break;
    }
    case Value::Kind::map: {
      out += '{';
      bool first = true;
      for (const auto& [k, val] : v.entries()) {
        if (!first) out += ',';
        first = false;
        if (k.kind() == Value::Kind::string || k.kind() == Value::Kind::keyword || k.kind() == Value::Kind::symbol) {
          out += json_quote(k.text());
        } else {
          out += json_quote(k.to_edn());
        }
        out += ':';
        write_json(out, val);
      }
      out += '}';
      break;
    }
  }
}

}  // namespace

Value Value::boolean(bool b) {
  Value v;
  v.kind_ = Kind::boolean;
  v.scalar_.b = b;
  return v;
}

Value Value::integer(std::int64_t i) {
  Value v;
  v.kind_ = Kind::integer;
  v.scalar_.i = i;
  return v;
}

Value Value::big_integer(std::string decimal) {
  Value v;
  v.kind_ = Kind::big_integer;
  v.payload_ = std::make_shared<const std::string>(std::move(decimal));
  return v;
}

Value Value::floating(double d) {
  Value v;
  v.kind_ = Kind::floating;
  v.scalar_.d = d;
  return v;
}

Value Value::string(std::string s) {
  Value v;
  v.kind_ = Kind::string;
  v.payload_ = std::make_shared<const std::string>(std::move(s));
  return v;
}

Value Value::keyword(std::string name) {
  Value v;
  v.kind_ = Kind::keyword;
  v.payload_ = std::make_shared<const std::string>(std::move(name));
  return v;
}

Value Value::symbol(std::string name) {
  Value v;
  v.kind_ = Kind::symbol;
  v.payload_ = std::make_shared<const std::string>(std::move(name));
  return v;
}

Value Value::vector(std::vector<Value> elements) {
  Value v;
  v.kind_ = Kind::vector;
  v.payload_ = std::make_shared<const std::vector<Value>>(std::move(elements));
  return v;
}

Value Value::list(std::vector<Value> elements) {
  Value v;
  v.kind_ = Kind::list;
  v.payload_ = std::make_shared<const std::vector<Value>>(std::move(elements));
  return v;
}

Value Value::set(std::vector<Value> elements) {
  std::sort(elements.begin(), elements.end());
  elements.erase(std::unique(elements.begin(), elements.end()), elements.end());
  Value v;
  v.kind_ = Kind::set;
  v.payload_ = std::make_shared<const std::vector<Value>>(std::move(elements));
  return v;
}

Value Value::map(std::vector<Entry> entries) {
  // Stable sort keeps insertion order among equal keys, so the last one can win.
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.first < b.first; });
  std::vector<Entry> unique;
  unique.reserve(entries.size());
  for (auto& e : entries) {
    if (!unique.empty() && unique.back().first == e.first) {
      unique.back().second = std::move(e.second);
    } else {
      unique.push_back(std::move(e));
    }
  }
  Value v;
  v.kind_ = Kind::map;
  v.payload_ = std::make_shared<const std::vector<Entry>>(std::move(unique));
  return v;
}

const std::string& Value::text() const {
  const bool has_text =
      kind_ == Kind::string || kind_ == Kind::keyword || kind_ == Kind::symbol || kind_ == Kind::big_integer;
  return has_text && payload_ ? *static_cast<const std::string*>(payload_.get()) : kEmptyText;
}
const std::vector<Value>& Value::elements() const {
  const bool has_elements = kind_ == Kind::vector || kind_ == Kind::list || kind_ == Kind::set;
  return has_elements && payload_ ? *static_cast<const std::vector<Value>*>(payload_.get()) : kNoElements;
}
const std::vector<Value::Entry>& Value::entries() const {
  return kind_ == Kind::map && payload_ ? *static_cast<const std::vector<Entry>*>(payload_.get()) : kNoEntries;
}

const Value* Value::find(const Value& key) const {
  if (kind_ != Kind::map) return nullptr;
  const auto& es = entries();
  auto it = std::lower_bound(es.begin(), es.end(), key, [](const Entry& e, const Value& k) { return e.first < k; });
  if (it != es.end() && it->first == key) return &it->second;
  return nullptr;
}

const Value* Value::find_keyword(std::string_view name) const {
  if (kind_ != Kind::map) return nullptr;
  for (const auto& [k, v] : entries()) {
    if (k.kind_ == Kind::keyword && k.text() == name) return &v;
  }
  return nullptr;
}

int Value::compare(const Value& a, const Value& b) {
  int ra = kind_rank(a.kind_), rb = kind_rank(b.kind_);
  if (ra != rb) return ra < rb ? -1 : 1;
  // Payloads are immutable: one shared payload (a key or value the reader read once
  // and shared, "k17") is equal to itself without a look at its bytes.
  if (a.payload_ && a.payload_ == b.payload_ && a.kind_ == b.kind_) return 0;
  switch (a.kind_) {
    case Kind::nil: return 0;
    case Kind::boolean: return int(a.scalar_.b) - int(b.scalar_.b);
    case Kind::integer: return a.scalar_.i < b.scalar_.i ? -1 : (a.scalar_.i > b.scalar_.i ? 1 : 0);
    case Kind::floating: {
      double x = a.scalar_.d, y = b.scalar_.d;
      if (x < y) return -1;
      if (x > y) return 1;
      // NaNs sort last and equal each other, which keeps the order total.
      bool nx = std::isnan(x), ny = std::isnan(y);
      return int(nx) - int(ny);
    }
    case Kind::big_integer:
    case Kind::string:
    case Kind::keyword:
    case Kind::symbol: {
      int c = a.text().compare(b.text());
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case Kind::vector:
    case Kind::list:
    case Kind::set: {
      const auto& xs = a.elements();
      const auto& ys = b.elements();
      std::size_t n = std::min(xs.size(), ys.size());
      for (std::size_t i = 0; i < n; ++i) {
        if (int c = compare(xs[i], ys[i])) return c;
      }
      return xs.size() < ys.size() ? -1 : (xs.size() > ys.size() ? 1 : 0);
    }
    case Kind::map: {
      const auto& xs = a.entries();
      const auto& ys = b.entries();
      std::size_t n = std::min(xs.size(), ys.size());
      for (std::size_t i = 0; i < n; ++i) {
        if (int c = compare(xs[i].first, ys[i].first)) return c;
        if (int c = compare(xs[i].second, ys[i].second)) return c;
      }
      return xs.size() < ys.size() ? -1 : (xs.size() > ys.size() ? 1 : 0);
    }
  }
  return 0;
}

std::size_t Value::hash() const {
  std::size_t h = static_cast<std::size_t>(kind_rank(kind_)) * 0x100000001b3ULL;
  switch (kind_) {
    case Kind::nil: return h;
    case Kind::boolean: return hash_combine(h, scalar_.b);
    case Kind::integer: return hash_combine(h, std::hash<std::int64_t>{}(scalar_.i));
    case Kind::floating: return hash_combine(h, std::isnan(scalar_.d) ? 0 : std::hash<double>{}(scalar_.d));
    case Kind::big_integer:
    case Kind::string:
    case Kind::keyword:
    case Kind::symbol: return hash_combine(h, std::hash<std::string>{}(text()));
    case Kind::vector:
    case Kind::list:
    case Kind::set:
      for (const auto& x : elements()) h = hash_combine(h, x.hash());
      return h;
    case Kind::map:
      for (const auto& [k, v] : entries()) h = hash_combine(hash_combine(h, k.hash()), v.hash());
      return h;
  }
  return h;
}

std::string Value::to_edn() const {
  std::string out;
  write_edn(out, *this);
  return out;
}

std::string Value::to_json() const {
  std::string out;
  write_json(out, *this);
  return out;
}

}  // namespace ariadne
