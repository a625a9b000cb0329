#include "certify/drat_checker.hpp"

#include <doctest/doctest.h>
#include <cadical.hpp>

#include <unistd.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using ariadne::certify::check_drat;
using ariadne::certify::DratVerdict;

namespace {

using Clauses = std::vector<std::vector<int>>;

std::string dimacs(int variables, const Clauses& clauses) {
  std::string out = "p cnf " + std::to_string(variables) + " " + std::to_string(clauses.size()) + "\n";
  for (const auto& clause : clauses) {
    for (int literal : clause) out += std::to_string(literal) + " ";
    out += "0\n";
  }
  return out;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Every assignment of x1, x2 falsifies one clause, but no clause is a unit.
const std::string kAllSignsOfTwo = "p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n";

// Binary DRAT: the step kind, then each literal as 2|l| + (l < 0) in base 128, then 0.
std::string binary_step(char kind, const std::vector<int>& literals) {
  std::string out(1, kind);
  for (int literal : literals) {
    unsigned value = 2 * static_cast<unsigned>(literal < 0 ? -literal : literal) + (literal < 0);
    while (value > 0x7f) {
      out += static_cast<char>((value & 0x7f) | 0x80);
      value >>= 7;
    }
    out += static_cast<char>(value);
  }
  out += '\0';
  return out;
}

// Pigeon i sits in hole j: variable i * holes + j + 1.
Clauses pigeonhole(int holes) {
  Clauses clauses;
  const auto var = [holes](int pigeon, int hole) { return pigeon * holes + hole + 1; };
  for (int pigeon = 0; pigeon <= holes; ++pigeon) {
    std::vector<int> somewhere;
    for (int hole = 0; hole < holes; ++hole) somewhere.push_back(var(pigeon, hole));
    clauses.push_back(somewhere);
  }
  for (int hole = 0; hole < holes; ++hole)
    for (int a = 0; a <= holes; ++a)
      for (int b = a + 1; b <= holes; ++b) clauses.push_back({-var(a, hole), -var(b, hole)});
  return clauses;
}

Clauses random_3sat(int variables, int clause_count, std::mt19937& random) {
  std::uniform_int_distribution<int> pick_variable(1, variables);
  std::bernoulli_distribution negative(0.5);
  Clauses clauses;
  while (static_cast<int>(clauses.size()) < clause_count) {
    std::vector<int> clause;
    while (clause.size() < 3) {
      const int v = pick_variable(random);
      if (std::find(clause.begin(), clause.end(), v) != clause.end() ||
          std::find(clause.begin(), clause.end(), -v) != clause.end())
        continue;
      clause.push_back(negative(random) ? -v : v);
    }
    clauses.push_back(clause);
  }
  return clauses;
}

struct SolverRun {
  int result = 0;  // 10 satisfiable, 20 unsatisfiable, as CaDiCaL reports
  std::string proof;
};

// Solves with CaDiCaL, which writes its DRAT proof to a temporary file we read back.
SolverRun solve_with_proof(const Clauses& clauses, bool binary, const std::string& label) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("ariadne-drat-test-" + std::to_string(::getpid()) + "-" + label + ".drat");
  SolverRun run;
  {
    CaDiCaL::Solver solver;
    solver.set("quiet", 1);
    solver.set("binary", binary ? 1 : 0);
    REQUIRE(solver.trace_proof(path.c_str()));
    for (const auto& clause : clauses) {
      for (int literal : clause) solver.add(literal);
      solver.add(0);
    }
    run.result = solver.solve();
    solver.close_proof_trace();
  }
  std::ifstream in(path, std::ios::binary);
  run.proof.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  std::filesystem::remove(path);
  return run;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string join(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += line + "\n";
  return out;
}

// The corruptions below remove most of the reasoning, so no UNSAT formula that needs a
// long resolution refutation (pigeonhole, random 3-SAT) can survive them.
void check_real_proof_and_corruptions(const std::string& cnf, const std::string& proof) {
  const DratVerdict verdict = check_drat(cnf, proof);
  INFO(verdict.message);
  CHECK(verdict.valid);
  CHECK(verdict.lemmas > 0);

  const std::vector<std::string> lines = lines_of(proof);
  REQUIRE(lines.size() > 10);

  const std::vector<std::string> tail(lines.end() - 5, lines.end());
  const DratVerdict only_tail = check_drat(cnf, join(tail));
  INFO(only_tail.message);
  CHECK_FALSE(only_tail.valid);

  // Dropping the first half of the lemmas (deletions stay) leaves later lemmas unjustified.
  std::vector<std::string> second_half;
  std::size_t lemmas_seen = 0;
  for (const auto& line : lines)
    if (line.starts_with("d") || lemmas_seen++ >= verdict.lemmas / 2) second_half.push_back(line);
  const DratVerdict without_first_half = check_drat(cnf, join(second_half));
  INFO(without_first_half.message);
  CHECK_FALSE(without_first_half.valid);

  // Without its last half the proof stops before the contradiction.
  const std::vector<std::string> head(lines.begin(), lines.begin() + lines.size() / 2);
  const DratVerdict truncated = check_drat(cnf, join(head));
  INFO(truncated.message);
  CHECK_FALSE(truncated.valid);
}

}  // namespace

TEST_SUITE("certify") {
  TEST_CASE("a DRAT proof of RUP lemmas derives the empty clause") {
    const DratVerdict verdict = check_drat(kAllSignsOfTwo, "c the comment line counts\n1 0\n0\n");
    INFO(verdict.message);
    CHECK(verdict.valid);
    CHECK(verdict.lemmas == 1);
    CHECK(verdict.rat_lemmas == 0);
    CHECK(contains(verdict.message, "proof line 2"));
  }

  TEST_CASE("a DRAT lemma that is neither RUP nor RAT is rejected with its line") {
    // x1 xor x2: the clause 1 2 is there already, but x1 alone does not follow.
    const std::string cnf = "c x1 xor x2\np cnf 2 2\n1 2 0\n-1 -2 0\n";
    const DratVerdict verdict = check_drat(cnf, "c first\n1 2 0\n1 0\n0\n");
    INFO(verdict.message);
    CHECK_FALSE(verdict.valid);
    CHECK(verdict.lemmas == 1);
    CHECK(contains(verdict.message, "proof line 3: lemma 1 0 is neither RUP nor RAT on 1"));
    CHECK(contains(verdict.message, "its resolvent with -1 -2 0 from cnf line 4 is not RUP"));
  }

  TEST_CASE("a DRAT proof that never derives the empty clause is rejected") {
    const DratVerdict partial = check_drat(kAllSignsOfTwo, "1 2 0\n");
    INFO(partial.message);
    CHECK_FALSE(partial.valid);
    CHECK(partial.lemmas == 1);
    CHECK(contains(partial.message, "without deriving the empty clause"));

    const DratVerdict empty = check_drat(kAllSignsOfTwo, "");
    CHECK_FALSE(empty.valid);
    CHECK(contains(empty.message, "without deriving the empty clause"));

    const DratVerdict bare_claim = check_drat("p cnf 2 2\n1 2 0\n-1 -2 0\n", "0\n");
    INFO(bare_claim.message);
    CHECK_FALSE(bare_claim.valid);
    CHECK(contains(bare_claim.message, "proof line 1: the empty clause is not RUP"));
  }

  TEST_CASE("a formula refuted by unit propagation needs no proof") {
    const DratVerdict verdict = check_drat("p cnf 2 3\n1 0\n-1 2 0\n-2 0\n", "");
    INFO(verdict.message);
    CHECK(verdict.valid);
    CHECK(verdict.lemmas == 0);
    CHECK(check_drat("p cnf 1 1\n0\n", "").valid);
    // The last clause is false as soon as it arrives, without becoming a unit first.
    CHECK(check_drat("p cnf 2 3\n1 0\n-1 2 0\n-2 -1 0\n", "").valid);
  }

  TEST_CASE("DRAT lemmas with repeated literals or both signs of a variable are accepted") {
    CHECK(check_drat(kAllSignsOfTwo, "1 1 0\n").valid);
    const DratVerdict tautology = check_drat(kAllSignsOfTwo, "3 -3 0\n1 0\n");
    INFO(tautology.message);
    CHECK(tautology.valid);
    CHECK(tautology.lemmas == 2);
    CHECK(tautology.rat_lemmas == 0);
  }

  TEST_CASE("DRAT accepts an extended-resolution definition through the RAT check") {
    // x4, x5 take all four sign patterns; x1 or x2. The proof defines x3 = x1 and x2,
    // which no unit propagation justifies, before refuting the formula.
    const std::string cnf = "p cnf 5 5\n4 5 0\n-4 5 0\n4 -5 0\n-4 -5 0\n1 2 0\n";
    const std::string definition = "-3 1 0\n-3 2 0\n3 -1 -2 0\n";
    const DratVerdict verdict = check_drat(cnf, definition + "4 0\n");
    INFO(verdict.message);
    CHECK(verdict.valid);
    CHECK(verdict.lemmas == 4);
    CHECK(verdict.rat_lemmas == 3);

    // x3 is now constrained from both sides, so asserting it is no longer RAT.
    const DratVerdict unjustified = check_drat(cnf, definition + "3 0\n4 0\n");
    INFO(unjustified.message);
    CHECK_FALSE(unjustified.valid);
    CHECK(contains(unjustified.message, "proof line 4: lemma 3 0 is neither RUP nor RAT on 3"));
  }

  TEST_CASE("DRAT checks RAT on the first literal of a lemma only") {
    // x1 xor x2, and a fresh x3: the lemma is RAT on -3, which nothing contradicts,
    // but not on 1, whose resolvent with -1 -2 does not propagate to a conflict.
    const std::string cnf = "p cnf 3 2\n1 2 0\n-1 -2 0\n";
    const DratVerdict fresh_first = check_drat(cnf, "-3 1 0\n");
    INFO(fresh_first.message);
    CHECK(fresh_first.rat_lemmas == 1);
    CHECK(contains(fresh_first.message, "without deriving the empty clause"));

    const DratVerdict fresh_second = check_drat(cnf, "1 -3 0\n");
    INFO(fresh_second.message);
    CHECK(fresh_second.lemmas == 0);
    CHECK(contains(fresh_second.message, "proof line 1: lemma 1 -3 0 is neither RUP nor RAT on 1"));
  }

  TEST_CASE("DRAT deletions remove one matching clause in any literal order") {
    const DratVerdict kept = check_drat(kAllSignsOfTwo, "1 0\n");
    CHECK(kept.valid);

    const DratVerdict deleted = check_drat(kAllSignsOfTwo, "d 2 1 0\n1 0\n");
    INFO(deleted.message);
    CHECK_FALSE(deleted.valid);
    CHECK(deleted.deletions == 1);
    CHECK(deleted.ignored_deletions == 0);
    CHECK(contains(deleted.message, "proof line 2: lemma 1 0 is neither RUP nor RAT"));

    // With the clause twice, one deletion leaves a copy and a second removes it.
    const std::string twice = "p cnf 2 5\n1 2 0\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n";
    CHECK(check_drat(twice, "d 1 2 0\n1 0\n").valid);
    const DratVerdict both = check_drat(twice, "d 1 2 0\nd 2 1 0\n1 0\n");
    CHECK_FALSE(both.valid);
    CHECK(contains(both.message, "proof line 3"));
  }

  TEST_CASE("DRAT ignores deletions of units or reasons or absent clauses") {
    // x1 is a unit and implies x2 through -1 2; x3 and x4 then need all four sign patterns.
    const std::string cnf = "p cnf 4 6\n1 0\n-1 2 0\n-2 3 4 0\n-2 3 -4 0\n-2 -3 4 0\n-2 -3 -4 0\n";
    const DratVerdict verdict = check_drat(cnf, "d 1 0\nd -1 2 0\nd 3 4 0\n3 0\n");
    INFO(verdict.message);
    CHECK(verdict.valid);
    CHECK(verdict.deletions == 3);
    CHECK(verdict.ignored_deletions == 3);
  }

  TEST_CASE("malformed DRAT inputs are reported with the file and line") {
    const auto message = [](std::string_view cnf, std::string_view proof) {
      const DratVerdict verdict = check_drat(cnf, proof);
      CHECK_FALSE(verdict.valid);
      return verdict.message;
    };
    CHECK(contains(message("", "0\n"), "cnf: no 'p cnf' header"));
    CHECK(contains(message("1 2 0\n", ""), "cnf line 1: a clause before the 'p cnf' header"));
    CHECK(contains(message("p cnf 2 1\n1 2\n", ""), "cnf line 2: the last clause is not terminated by 0"));
    CHECK(contains(message("p cnf 2 2\n1 2 0\n", ""), "declares 2 clauses but the file has 1"));
    CHECK(contains(message("p cnf 2 1\n1 3 0\n", ""), "cnf line 2: literal 3 exceeds the 2 variables"));
    CHECK(contains(message("p cnf 2 1\n1 x 0\n", ""), "cnf line 2: unexpected 'x'"));
    CHECK(contains(message("p dnf 2 1\n1 0\n", ""), "cnf line 1: expected the header"));
    CHECK(contains(message("p cnf 2 1\n2147483648 0\n", ""), "cnf line 2: literal '2147483648' is out of range"));

    CHECK(contains(message(kAllSignsOfTwo, "1 2 0\n-2"), "proof line 2: the last step is not terminated by 0"));
    CHECK(contains(message(kAllSignsOfTwo, "d 1 2"), "proof line 1: the last step is not terminated by 0"));
    CHECK(contains(message(kAllSignsOfTwo, "1 d 2 0\n"), "proof line 1: unexpected 'd'"));
    CHECK(
        contains(message(kAllSignsOfTwo, "\n\n2147483648 0\n"), "proof line 3: literal '2147483648' is out of range"));
    CHECK(contains(message(kAllSignsOfTwo, "-99999999999999999999999 0\n"), "is out of range"));
    CHECK(contains(message(kAllSignsOfTwo, "1 2.5 0\n"), "unexpected '2.5'"));
    // Control characters are shown as question marks (split so "??'" is no trigraph).
    CHECK(contains(message(kAllSignsOfTwo, std::string("1 \x01\x02 0\n")),
                   "unexpected '?"
                   "?'"));
  }

  TEST_CASE("DRAT proofs may use variables far beyond the header") {
    // A fresh variable is RAT (nothing contains its negation); the largest 32-bit
    // literal must work without a table of two billion entries.
    const DratVerdict verdict = check_drat(kAllSignsOfTwo, "2147483647 0\n-2147483647 1 2 0\n1 0\n");
    INFO(verdict.message);
    CHECK(verdict.valid);
    CHECK(verdict.lemmas == 3);
    CHECK(verdict.rat_lemmas == 1);
  }

  TEST_CASE("binary DRAT is read like text") {
    const std::string proof = binary_step('d', {1, 2}) + binary_step('a', {1});
    const DratVerdict deleted = check_drat(kAllSignsOfTwo, proof);
    INFO(deleted.message);
    CHECK_FALSE(deleted.valid);
    CHECK(deleted.deletions == 1);
    CHECK(contains(deleted.message, "proof byte 4: lemma 1 0 is neither RUP nor RAT"));

    const DratVerdict valid = check_drat(kAllSignsOfTwo, binary_step('a', {200, -1}) + binary_step('a', {1}));
    INFO(valid.message);
    CHECK(valid.valid);
    CHECK(valid.lemmas == 2);

    const std::string truncated = binary_step('a', {1, 2}) + "a\x82";
    const DratVerdict cut = check_drat(kAllSignsOfTwo, truncated);
    CHECK_FALSE(cut.valid);
    CHECK(contains(cut.message, "not terminated by a zero byte"));

    const DratVerdict overlong = check_drat(kAllSignsOfTwo, std::string("a\xff\xff\xff\xff\xff\xff\x01") + '\0');
    CHECK_FALSE(overlong.valid);
    CHECK(contains(overlong.message, "more than five bytes"));
  }

  TEST_CASE("CaDiCaL's DRAT proofs of pigeonhole formulas check and corrupted ones do not") {
    for (int holes = 4; holes <= 6; ++holes) {
      CAPTURE(holes);
      const Clauses clauses = pigeonhole(holes);
      const SolverRun run = solve_with_proof(clauses, false, "php" + std::to_string(holes));
      REQUIRE(run.result == 20);
      const std::string cnf = dimacs((holes + 1) * holes, clauses);
      check_real_proof_and_corruptions(cnf, run.proof);

      // Pigeon 0 in hole 0 is consistent with the formula as far as propagation sees.
      const DratVerdict bogus_first = check_drat(cnf, "1 0\n" + run.proof);
      INFO(bogus_first.message);
      CHECK_FALSE(bogus_first.valid);
      CHECK(contains(bogus_first.message, "proof line 1: lemma 1 0 is neither RUP nor RAT"));
    }
  }

  TEST_CASE("CaDiCaL's DRAT proofs of random 3-SAT formulas check and corrupted ones do not") {
    const unsigned seed = 20240611;
    MESSAGE("random 3-SAT seed " << seed);
    std::mt19937 random(seed);
    int unsatisfiable = 0;
    for (int attempt = 0; attempt < 20 && unsatisfiable < 3; ++attempt) {
      const Clauses clauses = random_3sat(60, 300, random);
      const SolverRun run = solve_with_proof(clauses, false, "random" + std::to_string(attempt));
      if (run.result != 20) continue;
      ++unsatisfiable;
      check_real_proof_and_corruptions(dimacs(60, clauses), run.proof);
    }
    CHECK(unsatisfiable == 3);
  }

  TEST_CASE("CaDiCaL's binary DRAT proofs check") {
    const Clauses clauses = pigeonhole(5);
    const SolverRun run = solve_with_proof(clauses, true, "php5-binary");
    REQUIRE(run.result == 20);
    REQUIRE(!run.proof.empty());
    const DratVerdict verdict = check_drat(dimacs(30, clauses), run.proof);
    INFO(verdict.message);
    CHECK(verdict.valid);
    CHECK(contains(verdict.message, "proof byte"));
  }

}  // TEST_SUITE
