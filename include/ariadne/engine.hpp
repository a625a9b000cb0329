// The engines a check can run. Each has one row in engines/engine_table.cpp, the table
// that names it, says what kind of engine it is and makes one: adding an engine is a
// value here and a row there.
#pragma once

#include <ariadne/consistency.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ariadne {

// automatic: the race (the unique-value test first, which answers at once or
// declines; then WGL alone for 100 ms per partition, then WGL, JIT, SAT and SMT side
// by side; the first answer wins). The others run alone: wgl (Wing and Gong's search
// with Lowe's memo table), jit (Lowe's just-in-time linearization), sat (CaDiCaL),
// smt (Z3), brute (every order; partitions of at most 14 operations, the test
// oracle), unique (near-linear tests for registers, queues, stacks and sets whose
// values are written or inserted once, search/unique_values.hpp, which decline every
// other history), and program_order (the search for sequential consistency,
// search/program_order_search.cpp). Under the sequential conditions (consistency.hpp)
// only program_order, sat, smt and brute decide; under linearizability all but
// program_order.
enum class Engine : std::uint8_t { automatic, wgl, jit, sat, smt, brute, unique, program_order };
inline constexpr std::size_t kEngineCount = 8;  // automatic included

// The brute-force engine (Engine::brute) tries every order, so it takes partitions of
// at most this many operations.
inline constexpr std::size_t kBruteForceMaxOps = 14;

// "auto", "wgl", "jit", "sat", "smt", "brute", "unique", "program-order"; nullopt for
// any other name.
std::optional<Engine> parse_engine(std::string_view name);
std::string_view engine_name(Engine e);
// Its entry in `--help`'s list of engines: lines of at most 80 columns, the later ones
// to be indented under the first.
std::string_view engine_help(Engine e);
// Whether `e` decides condition `c` (automatic decides every condition, choosing its
// engines by it).
bool engine_decides(Engine e, Consistency c);
// Every name parse_engine() takes, for messages: "auto, wgl, jit, sat, smt, brute,
// unique or program-order".
std::string engine_names_listed();

}  // namespace ariadne
