// The names of the consistency conditions (<ariadne/consistency.hpp>).
#include <ariadne/consistency.hpp>
#include <ariadne/result.hpp>

#include <array>
#include <utility>

namespace ariadne {

namespace {
constexpr std::array<std::pair<Consistency, std::string_view>, 3> kNames = {{
    {Consistency::linearizable, "linearizable"},
    {Consistency::sequential, "sequential"},
    {Consistency::sequential_per_key, "sequential-per-key"},
}};
}  // namespace

std::string_view consistency_name(Consistency c) {
  for (const auto& [value, name] : kNames) {
    if (value == c) return name;
  }
  return "linearizable";
}

std::optional<Consistency> parse_consistency(std::string_view name) {
  for (const auto& [value, known] : kNames) {
    if (known == name) return value;
  }
  return std::nullopt;
}

std::string consistency_names_listed() { return "linearizable, sequential or sequential-per-key"; }

std::string_view verdict_name(Verdict v, Consistency c) {
  if (keeps_real_time(c) || v == Verdict::unknown) return verdict_name(v);
  return v == Verdict::linearizable ? "sequentially-consistent" : "not-sequentially-consistent";
}

}  // namespace ariadne
