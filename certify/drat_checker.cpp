// Forward DRAT checking [WetzlerHeuleHunt14]: every lemma is checked, in proof order,
// against the clauses present at that point. Unlike drat-trim's backward mode this
// also checks lemmas the refutation never uses, which costs time but keeps the checker
// small enough to read in one sitting.
//
// Speed comes from the usual two watched literals per clause and from a top-level
// trail that persists across lemmas: units of the current clause set are propagated
// once, and each lemma check only assigns the lemma's negation on top of them,
// propagates, and backtracks to the top level again. Because that trail only ever
// grows, deletions that would shrink it (of unit clauses, or of the reason of a
// top-level assignment) are ignored, as drat-trim does. Ignoring a deletion is sound:
// the checked sequence is then a valid DRAT proof that merely keeps that clause.
//
// Variables are renumbered densely in order of first appearance, so a proof that
// introduces variable 2000000000 costs as little memory as one introducing variable 7.

#include "certify/drat_checker.hpp"

#include "base/hash.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <new>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace ariadne::certify {
namespace {

// DIMACS and DRAT literals are 32-bit signed integers in every tool that writes them.
constexpr std::int64_t kMaxExternal = std::numeric_limits<std::int32_t>::max();

// ---------------------------------------------------------------------------------
// Reading the inputs.

// A clause of the formula or a step of the proof, as read.
struct Step {
  bool deletion = false;
  std::vector<std::int32_t> literals;  // DIMACS numbering, without the closing 0
  std::size_t position = 0;            // line of a text input, byte offset of a binary proof
};

// Quotes an unexpected token so that a binary or enormous token cannot garble the message.
std::string quote(std::string_view token) {
  constexpr std::size_t kShown = 20;
  std::string out = "'";
  for (char c : token.substr(0, kShown)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (token.size() > kShown) out += "...";
  return out + "'";
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

// Splits DIMACS-style text into whitespace-separated tokens and skips comment lines:
// a token starting with 'c' that is the first on its line begins a comment.
class TextTokens {
 public:
  struct Token {
    enum class Kind { number, out_of_range, word, end } kind = Kind::end;
    std::int64_t value = 0;
    std::string_view text;
    std::size_t line = 0;
  };

  explicit TextTokens(std::string_view text) : text_(text) {}

  Token next() {
    for (;;) {
      while (pos_ < text_.size() && is_space(text_[pos_])) {
        if (text_[pos_] == '\n') {
          ++line_;
          at_line_start_ = true;
        }
        ++pos_;
      }
      if (pos_ == text_.size()) return {Token::Kind::end, 0, {}, line_};
      if (!at_line_start_ || text_[pos_] != 'c') break;
      while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    }
    at_line_start_ = false;
    const std::size_t start = pos_;
    while (pos_ < text_.size() && !is_space(text_[pos_])) ++pos_;
    return classify(text_.substr(start, pos_ - start));
  }

 private:
  Token classify(std::string_view token) const {
    Token result{Token::Kind::word, 0, token, line_};
    std::size_t digits_from = token.starts_with('-') ? 1 : 0;
    if (digits_from == token.size()) return result;
    std::int64_t magnitude = 0;
    for (std::size_t i = digits_from; i < token.size(); ++i) {
      if (token[i] < '0' || token[i] > '9') return result;
      // Saturate instead of overflowing; anything past the limit is rejected anyway.
      if (magnitude <= kMaxExternal) magnitude = magnitude * 10 + (token[i] - '0');
    }
    result.kind = magnitude > kMaxExternal ? Token::Kind::out_of_range : Token::Kind::number;
    result.value = digits_from == 1 ? -magnitude : magnitude;
    return result;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
  bool at_line_start_ = true;
};

// Reads the whole formula before checking starts, so that a malformed CNF is reported
// as such rather than as a proof failure halfway through. Returns what is wrong, if
// anything.
// `stop_now` is polled once a clause; when it fires, reading ends with `stopped` set.
std::optional<std::string> read_formula(std::string_view text, std::vector<Step>& clauses,
                                        const std::function<bool()>& stop_now, bool& stopped) {
  TextTokens tokens(text);
  bool have_header = false;
  std::int64_t variables = 0;
  std::int64_t declared_clauses = 0;
  Step clause;
  bool in_clause = false;
  using Kind = TextTokens::Token::Kind;
  for (;;) {
    const TextTokens::Token token = tokens.next();
    if (token.kind == Kind::end) break;
    // Built only on error: this loop runs once per literal of the formula.
    const auto where = [&token] { return "cnf line " + std::to_string(token.line) + ": "; };
    if (token.kind == Kind::word && token.text == "p") {
      if (have_header) return where() + "a second 'p' header";
      const auto format = tokens.next();
      const auto v = tokens.next();
      const auto c = tokens.next();
      if (format.kind != Kind::word || format.text != "cnf" || v.kind != Kind::number || c.kind != Kind::number ||
          v.value < 0 || c.value < 0)
        return where() + "expected the header 'p cnf VARIABLES CLAUSES'";
      have_header = true;
      variables = v.value;
      declared_clauses = c.value;
      continue;
    }
    if (token.kind == Kind::word) return where() + "unexpected " + quote(token.text);
    if (!have_header) return where() + "a clause before the 'p cnf' header";
    if (token.kind == Kind::out_of_range) return where() + "literal " + quote(token.text) + " is out of range";
    if (!in_clause) {
      clause = Step{false, {}, token.line};
      in_clause = true;
    }
    if (token.value == 0) {
      clauses.push_back(std::move(clause));
      in_clause = false;
      if (stop_now()) {
        stopped = true;
        return "stopped while reading the formula";
      }
      continue;
    }
    if (token.value > variables || -token.value > variables)
      return where() + "literal " + std::to_string(token.value) + " exceeds the " + std::to_string(variables) +
             " variables declared in the header";
    clause.literals.push_back(static_cast<std::int32_t>(token.value));
  }
  if (!have_header) return "cnf: no 'p cnf' header";
  if (in_clause) return "cnf line " + std::to_string(clause.position) + ": the last clause is not terminated by 0";
  if (static_cast<std::int64_t>(clauses.size()) != declared_clauses)
    return "cnf: the header declares " + std::to_string(declared_clauses) + " clauses but the file has " +
           std::to_string(clauses.size());
  return std::nullopt;
}

// Reads proof steps one at a time, from text or binary DRAT.
class ProofReader {
 public:
  enum class Status { step, end, error };

  // Binary proofs end every step with a zero byte, which text never contains, so
  // that byte tells the formats apart even when both start with 'd'.
  explicit ProofReader(std::string_view proof)
      : text_(proof),
        tokens_(proof),
        binary_(!proof.empty() && (proof[0] == 'a' || proof[0] == 'd') && proof.find('\0') != std::string_view::npos) {}

  Status next(Step& step, std::string& error) {
    step.deletion = false;
    step.literals.clear();
    return binary_ ? next_binary(step, error) : next_text(step, error);
  }

  // "proof line 17" or "proof byte 1024", for messages.
  std::string where(std::size_t position) const {
    return std::string(binary_ ? "proof byte " : "proof line ") + std::to_string(position);
  }

 private:
  Status next_text(Step& step, std::string& error) {
    using Kind = TextTokens::Token::Kind;
    bool started = false;
    for (;;) {
      const TextTokens::Token token = tokens_.next();
      if (!started) step.position = token.line;
      if (token.kind == Kind::end) {
        if (!started) return Status::end;
        error = where(step.position) + ": the last step is not terminated by 0";
        return Status::error;
      }
      if (token.kind == Kind::word && token.text == "d" && !started) {
        step.deletion = true;
        started = true;
        continue;
      }
      if (token.kind == Kind::word) {
        error = where(token.line) + ": unexpected " + quote(token.text);
        return Status::error;
      }
      if (token.kind == Kind::out_of_range) {
        error = where(token.line) + ": literal " + quote(token.text) + " is out of range";
        return Status::error;
      }
      started = true;
      if (token.value == 0) return Status::step;
      step.literals.push_back(static_cast<std::int32_t>(token.value));
    }
  }

  // Binary DRAT: 'a' or 'd', then each literal l as the unsigned number 2|l| + (l < 0)
  // in little-endian base-128 (high bit set on all but the last byte), then a zero byte.
  Status next_binary(Step& step, std::string& error) {
    if (pos_ == text_.size()) return Status::end;
    step.position = pos_;
    const char kind = text_[pos_++];
    if (kind != 'a' && kind != 'd') {
      error = where(step.position) + ": expected 'a' or 'd', found byte " +
              std::to_string(static_cast<unsigned char>(kind));
      return Status::error;
    }
    step.deletion = kind == 'd';
    for (;;) {
      std::uint64_t value = 0;
      const std::size_t literal_start = pos_;
      for (unsigned shift = 0;; shift += 7) {
        if (pos_ == text_.size()) {
          error = where(step.position) + ": the last step is not terminated by a zero byte";
          return Status::error;
        }
        const auto byte = static_cast<unsigned char>(text_[pos_++]);
        // Five bytes hold 35 bits, enough for every 32-bit literal; stop before shifting
        // past 64 bits on a run of continuation bytes.
        if (shift > 28) {
          error = where(literal_start) + ": a literal is encoded in more than five bytes";
          return Status::error;
        }
        value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
        if ((byte & 0x80) == 0) break;
      }
      if (value == 0) return Status::step;
      const std::uint64_t magnitude = value >> 1;
      if (magnitude > static_cast<std::uint64_t>(kMaxExternal)) {
        error = where(literal_start) + ": literal is out of range";
        return Status::error;
      }
      const auto literal = static_cast<std::int32_t>(magnitude);
      step.literals.push_back((value & 1) != 0 ? -literal : literal);
    }
  }

  std::string_view text_;
  TextTokens tokens_;
  bool binary_;
  std::size_t pos_ = 0;
};

// ---------------------------------------------------------------------------------
// The clause database and the checks.

using Lit = std::uint32_t;  // 2 * dense variable + 1 if negative; lit ^ 1 negates
using ClauseId = std::uint32_t;
constexpr ClauseId kNoReason = std::numeric_limits<ClauseId>::max();

// What propagation reads of a clause besides its literals, kept to 16 bytes so that
// four clauses share a cache line.
struct Clause {
  std::size_t begin = 0;  // into the literal arena
  std::uint32_t size = 0;
  bool active = true;
};

// Where a clause was read, for messages only.
struct Origin {
  bool from_proof = false;
  std::size_t position = 0;  // line, or byte offset of a binary proof
};

// A clause watching a literal; the blocker is another literal of the clause whose
// truth lets propagation skip the clause without touching its literals. In a binary
// clause the blocker is the other literal, so propagation never touches its literals.
struct Watch {
  ClauseId clause;
  Lit blocker;
  bool binary;
};

class Checker {
 public:
  enum class Deletion { deleted, ignored_unit, ignored_reason, absent };
  enum class Lemma { rup, rat, rejected };

  // Variables up to `direct_limit` are looked up in a table, larger ones in a hash map,
  // so the table never outgrows the input that named them.
  explicit Checker(std::size_t direct_limit) : direct_limit_(direct_limit) {}

  // Maps DIMACS literals to dense internal ones, and removes repeated literals
  // (keeping first occurrences, so a RAT pivot stays first). Returns whether the
  // clause contains a literal and its negation.
  bool internalize(std::span<const std::int32_t> external, std::vector<Lit>& out) {
    out.clear();
    for (std::int32_t literal : external) out.push_back(internal(literal));
    new_stamp();
    bool tautology = false;
    std::size_t kept = 0;
    for (Lit lit : out) {
      if (marks_[lit] == stamp_) continue;
      if (marks_[lit ^ 1] == stamp_) tautology = true;
      marks_[lit] = stamp_;
      out[kept++] = lit;
    }
    out.resize(kept);
    return tautology;
  }

  bool refuted() const { return refuted_; }

  // Adds a clause at the top level and propagates; sets refuted() when the clause set
  // becomes contradictory under unit propagation.
  void add(std::span<const Lit> lits, bool tautology, bool from_proof, std::size_t position) {
    const auto id = static_cast<ClauseId>(clauses_.size());
    clauses_.push_back(Clause{arena_.size(), static_cast<std::uint32_t>(lits.size()), true});
    origins_.push_back(Origin{from_proof, position});
    arena_.insert(arena_.end(), lits.begin(), lits.end());
    by_literals_.emplace(set_hash(lits), id);
    if (occurrences_built_)
      for (Lit lit : lits) occurrences_[lit].push_back(id);
    // A tautology is never false, so it never propagates and needs no watches.
    if (tautology) return;
    if (lits.empty()) {
      refuted_ = true;
      return;
    }
    Lit* stored = &arena_[clauses_[id].begin];
    if (lits.size() == 1) {
      if (value(stored[0]) == kFalse) refuted_ = true;
      if (value(stored[0]) == kUnassigned) {
        assign(stored[0], id);
        refuted_ = !propagate();
      }
      return;
    }
    // Watch the two best literals: true, then unassigned, then false. The top-level
    // assignment never shrinks, so a false watch beside a true one stays harmless.
    const auto rank = [this](Lit lit) { return value(lit) == kTrue ? 2 : value(lit) == kUnassigned ? 1 : 0; };
    for (std::size_t slot = 0; slot < 2; ++slot)
      for (std::size_t i = slot + 1; i < lits.size(); ++i)
        if (rank(stored[i]) > rank(stored[slot])) std::swap(stored[i], stored[slot]);
    const bool binary = lits.size() == 2;
    watches_[stored[0]].push_back({id, stored[1], binary});
    watches_[stored[1]].push_back({id, stored[0], binary});
    if (rank(stored[0]) == 0) {
      refuted_ = true;
    } else if (rank(stored[0]) == 1 && rank(stored[1]) == 0) {
      assign(stored[0], id);
      refuted_ = !propagate();
    }
  }

  Deletion remove(std::span<const Lit> lits) {
    if (lits.size() == 1) return Deletion::ignored_unit;
    new_stamp();
    for (Lit lit : lits) marks_[lit] = stamp_;
    auto [first, last] = by_literals_.equal_range(set_hash(lits));
    for (auto it = first; it != last; ++it) {
      const Clause& clause = clauses_[it->second];
      if (clause.size != lits.size()) continue;
      const std::span<const Lit> stored = literals(it->second);
      if (!std::all_of(stored.begin(), stored.end(), [this](Lit lit) { return marks_[lit] == stamp_; })) continue;
      if (is_reason(it->second)) return Deletion::ignored_reason;
      clauses_[it->second].active = false;  // watches and occurrences drop it lazily
      by_literals_.erase(it);
      return Deletion::deleted;
    }
    return Deletion::absent;
  }

  // Checks a lemma against the current clause set without adding it. On rejection,
  // `blocking` is the clause whose resolvent is not RUP (kNoReason if RAT had no pivot).
  Lemma check(std::span<const Lit> lits, bool tautology, ClauseId& blocking) {
    blocking = kNoReason;
    if (tautology) return Lemma::rup;
    const std::size_t top = trail_.size();
    if (assume_negation(lits, kNoLiteral) || !propagate()) {
      backtrack(top);
      return Lemma::rup;
    }
    if (lits.empty()) {
      backtrack(top);
      return Lemma::rejected;
    }
    const Lit pivot = lits[0];
    const bool rat = resolvents_are_rup(pivot, blocking);
    backtrack(top);
    return rat ? Lemma::rat : Lemma::rejected;
  }

  std::span<const Lit> literals(ClauseId id) const { return {arena_.data() + clauses_[id].begin, clauses_[id].size}; }
  const Origin& origin(ClauseId id) const { return origins_[id]; }
  std::int32_t external(Lit lit) const {
    const std::int32_t variable = external_variable_[lit >> 1];
    return (lit & 1) != 0 ? -variable : variable;
  }

 private:
  static constexpr std::int8_t kTrue = 1;
  static constexpr std::int8_t kFalse = -1;
  static constexpr std::int8_t kUnassigned = 0;
  static constexpr Lit kNoLiteral = std::numeric_limits<Lit>::max();

  Lit internal(std::int32_t literal) {
    const std::uint32_t magnitude =
        literal < 0 ? -static_cast<std::uint32_t>(literal) : static_cast<std::uint32_t>(literal);
    std::uint32_t* slot = nullptr;
    if (magnitude < direct_limit_) {
      if (magnitude >= direct_.size()) direct_.resize(magnitude + 1, kNoVariable);
      slot = &direct_[magnitude];
    } else {
      slot = &sparse_.try_emplace(magnitude, kNoVariable).first->second;
    }
    if (*slot == kNoVariable) *slot = new_variable(static_cast<std::int32_t>(magnitude));
    return 2 * *slot + (literal < 0 ? 1 : 0);
  }

  std::uint32_t new_variable(std::int32_t external_variable) {
    const auto variable = static_cast<std::uint32_t>(external_variable_.size());
    external_variable_.push_back(external_variable);
    reason_.push_back(kNoReason);
    values_.resize(values_.size() + 2, kUnassigned);
    marks_.resize(marks_.size() + 2, 0);
    watches_.resize(watches_.size() + 2);
    if (occurrences_built_) occurrences_.resize(occurrences_.size() + 2);
    return variable;
  }

  void new_stamp() {
    if (++stamp_ == 0) {
      std::fill(marks_.begin(), marks_.end(), 0);
      stamp_ = 1;
    }
  }

  // Order-independent, so deletions match clauses whatever order they list literals in.
  static std::uint64_t set_hash(std::span<const Lit> lits) {
    std::uint64_t hash = lits.size();
    for (Lit lit : lits) {
      hash += base::splitmix64(lit + base::kGoldenGamma);
    }
    return hash;
  }

  std::int8_t value(Lit lit) const { return values_[lit]; }

  void assign(Lit lit, ClauseId reason) {
    values_[lit] = kTrue;
    values_[lit ^ 1] = kFalse;
    reason_[lit >> 1] = reason;
    trail_.push_back(lit);
  }

  void backtrack(std::size_t size) {
    while (trail_.size() > size) {
      const Lit lit = trail_.back();
      trail_.pop_back();
      values_[lit] = values_[lit ^ 1] = kUnassigned;
    }
    propagated_ = std::min(propagated_, size);
  }

  // Assigns the negation of every literal but `skip`; true if that is contradictory
  // already, that is if one of them is true.
  bool assume_negation(std::span<const Lit> lits, Lit skip) {
    for (Lit lit : lits) {
      if (lit == skip || value(lit) == kFalse) continue;
      if (value(lit) == kTrue) return true;
      assign(lit ^ 1, kNoReason);
    }
    return false;
  }

  // Only top-level assignments remain when deletions are read, so a true literal whose
  // reason is this clause means the clause holds up part of the persistent trail.
  bool is_reason(ClauseId id) const {
    const std::span<const Lit> lits = literals(id);
    return std::any_of(lits.begin(), lits.end(),
                       [this, id](Lit lit) { return value(lit) == kTrue && reason_[lit >> 1] == id; });
  }

  // Unit propagation with two watched literals; false on conflict.
  bool propagate() {
    while (propagated_ < trail_.size()) {
      const Lit falsified = trail_[propagated_++] ^ 1;
      std::vector<Watch>& list = watches_[falsified];
      std::size_t kept = 0;
      std::size_t i = 0;
      bool conflict = false;
      while (i < list.size()) {
        const Watch watch = list[i++];
        // A satisfied clause is skipped before anything else is read; a deleted one
        // may linger in the list until it is next looked at, and is dropped then.
        if (value(watch.blocker) == kTrue) {
          list[kept++] = watch;
          continue;
        }
        const Clause& clause = clauses_[watch.clause];
        if (!clause.active) continue;
        Lit other = watch.blocker;
        if (!watch.binary) {
          Lit* lits = &arena_[clause.begin];
          if (lits[0] == falsified) std::swap(lits[0], lits[1]);
          other = lits[0];
          if (value(other) == kTrue) {
            list[kept++] = {watch.clause, other, false};
            continue;
          }
          Lit* replacement =
              std::find_if(lits + 2, lits + clause.size, [this](Lit lit) { return value(lit) != kFalse; });
          if (replacement != lits + clause.size) {
            std::swap(lits[1], *replacement);
            // A different list from `list`: lits[1] is not false, `falsified` is.
            watches_[lits[1]].push_back({watch.clause, other, false});
            continue;
          }
        }
        list[kept++] = {watch.clause, other, watch.binary};
        if (value(other) == kFalse) {
          conflict = true;
          break;
        }
        assign(other, watch.clause);
      }
      while (i < list.size()) list[kept++] = list[i++];
      list.resize(kept);
      if (conflict) return false;
    }
    return true;
  }

  // The RAT condition on `pivot`, with the lemma's negation assigned and propagated:
  // for every clause with the negated pivot, the resolvent's negation (the lemma's
  // plus the rest of that clause's) must propagate to a conflict.
  bool resolvents_are_rup(Lit pivot, ClauseId& blocking) {
    build_occurrences();
    std::vector<ClauseId>& candidates = occurrences_[pivot ^ 1];
    std::erase_if(candidates, [this](ClauseId id) { return !clauses_[id].active; });
    const std::size_t lemma_level = trail_.size();
    for (ClauseId id : candidates) {
      const bool conflict = assume_negation(literals(id), pivot ^ 1) || !propagate();
      backtrack(lemma_level);
      if (!conflict) {
        blocking = id;
        return false;
      }
    }
    return true;
  }

  // Occurrence lists serve only the RAT check, which proofs from CDCL solvers rarely
  // need, so they are built the first time it is needed and kept up to date after.
  void build_occurrences() {
    if (occurrences_built_) return;
    occurrences_built_ = true;
    occurrences_.resize(values_.size());
    for (ClauseId id = 0; id < clauses_.size(); ++id)
      if (clauses_[id].active)
        for (Lit lit : literals(id)) occurrences_[lit].push_back(id);
  }

  static constexpr std::uint32_t kNoVariable = std::numeric_limits<std::uint32_t>::max();

  std::size_t direct_limit_;
  std::vector<std::uint32_t> direct_;  // external variable -> dense variable
  std::unordered_map<std::uint32_t, std::uint32_t> sparse_;
  std::vector<std::int32_t> external_variable_;

  std::vector<Clause> clauses_;
  std::vector<Origin> origins_;
  std::vector<Lit> arena_;
  std::unordered_multimap<std::uint64_t, ClauseId> by_literals_;  // active clauses only

  std::vector<std::int8_t> values_;  // per literal
  std::vector<ClauseId> reason_;     // per variable
  std::vector<std::vector<Watch>> watches_;
  std::vector<Lit> trail_;
  std::size_t propagated_ = 0;
  bool refuted_ = false;

  bool occurrences_built_ = false;
  std::vector<std::vector<ClauseId>> occurrences_;

  std::vector<std::uint32_t> marks_;  // per literal, equal to stamp_ when marked
  std::uint32_t stamp_ = 0;
};

// ---------------------------------------------------------------------------------
// Messages.

std::string describe(const Checker& checker, std::span<const Lit> lits) {
  constexpr std::size_t kShown = 16;
  std::string out;
  for (std::size_t i = 0; i < lits.size() && i < kShown; ++i) out += std::to_string(checker.external(lits[i])) + " ";
  if (lits.size() > kShown) out += "... (" + std::to_string(lits.size()) + " literals) ";
  return out + "0";
}

std::string rejection(const Checker& checker, const ProofReader& reader, std::size_t position,
                      std::span<const Lit> lemma, ClauseId blocking) {
  const std::string where = reader.where(position) + ": ";
  if (lemma.empty()) return where + "the empty clause is not RUP (unit propagation finds no conflict)";
  std::string message = where + "lemma " + describe(checker, lemma) + " is neither RUP nor RAT on " +
                        std::to_string(checker.external(lemma[0]));
  if (blocking == kNoReason) return message;
  const Origin& origin = checker.origin(blocking);
  const std::string source =
      origin.from_proof ? reader.where(origin.position) : "cnf line " + std::to_string(origin.position);
  return message + " (its resolvent with " + describe(checker, checker.literals(blocking)) + " from " + source +
         " is not RUP)";
}

std::string counts(const DratVerdict& verdict) {
  return std::to_string(verdict.lemmas) + " lemmas (" + std::to_string(verdict.rat_lemmas) + " RAT), " +
         std::to_string(verdict.deletions) + " deletions (" + std::to_string(verdict.ignored_deletions) + " ignored)";
}

DratVerdict check_forward(std::string_view cnf, std::string_view proof, const std::function<bool()>& should_stop) {
  std::size_t polled = 0;
  const std::function<bool()> stop_now = [&] { return should_stop && (++polled & 255) == 0 && should_stop(); };
  DratVerdict verdict;
  std::vector<Step> formula;
  if (auto error = read_formula(cnf, formula, stop_now, verdict.stopped)) {
    verdict.message = std::move(*error);
    return verdict;
  }

  // Bounds the direct variable table by the input size (see Checker's constructor).
  Checker checker(std::min<std::size_t>(cnf.size() + proof.size() + 2, kMaxExternal));
  std::vector<Lit> lits;
  for (const Step& clause : formula) {
    if (stop_now()) {
      verdict.stopped = true;
      verdict.message = "stopped before the check ended";
      return verdict;
    }
    const bool tautology = checker.internalize(clause.literals, lits);
    checker.add(lits, tautology, false, clause.position);
    if (checker.refuted()) {
      verdict.valid = true;
      verdict.message =
          "valid: the formula is refuted by unit propagation alone (cnf line " + std::to_string(clause.position) + ")";
      return verdict;
    }
  }

  ProofReader reader(proof);
  Step step;
  for (;;) {
    switch (reader.next(step, verdict.message)) {
      case ProofReader::Status::error: return verdict;
      case ProofReader::Status::end:
        verdict.message = "the proof ends without deriving the empty clause, after " + counts(verdict);
        return verdict;
      case ProofReader::Status::step: break;
    }
    if (stop_now()) {
      verdict.stopped = true;
      verdict.message = "stopped before the check ended, after " + counts(verdict);
      return verdict;
    }
    const bool tautology = checker.internalize(step.literals, lits);
    if (step.deletion) {
      ++verdict.deletions;
      if (checker.remove(lits) != Checker::Deletion::deleted) ++verdict.ignored_deletions;
      continue;
    }
    ClauseId blocking = kNoReason;
    const Checker::Lemma outcome = checker.check(lits, tautology, blocking);
    if (outcome == Checker::Lemma::rejected) {
      verdict.message = rejection(checker, reader, step.position, lits, blocking);
      return verdict;
    }
    ++verdict.lemmas;
    if (outcome == Checker::Lemma::rat) ++verdict.rat_lemmas;
    checker.add(lits, tautology, true, step.position);
    if (checker.refuted()) {
      verdict.valid = true;
      verdict.message =
          "valid: the empty clause is derived at " + reader.where(step.position) + ", after " + counts(verdict);
      return verdict;
    }
  }
}

}  // namespace

DratVerdict check_drat(std::string_view cnf, std::string_view proof, const std::function<bool()>& should_stop) {
  try {
    return check_forward(cnf, proof, should_stop);
  } catch (const std::bad_alloc&) {
    DratVerdict verdict;
    verdict.message = "out of memory while checking the proof";
    return verdict;
  }
}

}  // namespace ariadne::certify
