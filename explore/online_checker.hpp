// Checking a history while it is being written, one event at a time, so that a
// trajectory stops at the first operation no order can explain and no history is ever
// rechecked from scratch.
//
// This is the "worlds" search of Knossos [Kingsbury13] in the just-in-time form of
// [Lowe17]: the checker keeps every configuration the history so far allows, a
// configuration being the register's value plus which of the open (invoked, not yet
// completed) operations have already taken effect, and for each such read the value it
// saw. An invocation only opens an op. A completion extends each configuration by
// linearizing open ops in every order that the register allows, keeps those in which
// the completing op has taken effect with the result recorded, and closes the op. No
// configuration left means no linearization exists for the events so far.
//
// The register semantics here (read, write, cas on opaque values) are the register
// and cas-register models of models/, Knossos' semantics: a read of nil means "value
// unknown" and fits anywhere; the explorer re-checks every counterexample
// with the full check() before printing it, and tests compare the two on random
// trajectories.
#pragma once

#include "systems/canonical_key.hpp"
#include "systems/system_design.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace ariadne::explore {

using systems::CanonicalKey;
using systems::ClientOp;
using systems::TraceEvent;
using systems::Val;

class OnlineChecker {
 public:
  // Open ops at once; a design that leaves more open is reported as an error.
  static constexpr int kMaxOpen = 16;

  explicit OnlineChecker(Val initial = systems::kNil) { reset(initial); }
  void reset(Val initial = systems::kNil);

  // Feeds one event (notes are ignored). Returns false if, with it, the history is no
  // longer linearizable; the checker must then be reset before further use.
  bool feed(const TraceEvent& event);

  // The open ops and every configuration, values renamed (see canonical_key.hpp).
  void canonical(CanonicalKey& key) const;
  std::size_t configurations() const { return configs_.size(); }

 private:
  struct OpenOp {
    std::int32_t process = 0;
    ClientOp op = ClientOp::read;
    Val a = systems::kNil;  // write: the value; cas: the expected value
    Val b = systems::kNil;  // cas: the new value
    bool crashed = false;
  };
  struct Config {
    Val state = systems::kNil;
    std::uint16_t linearized = 0;      // bit per open slot
    std::array<Val, kMaxOpen> seen{};  // for linearized reads: the value read; else nil
    friend bool operator==(const Config&, const Config&) = default;
  };

  int slot_of(std::int32_t process) const;
  int free_slot() const;
  void close_slot(int slot);  // forgets the slot in every configuration
  std::uint16_t crashed_slots() const;
  static bool subsumes(const Config& a, const Config& b, std::uint16_t crashed);
  void remove_subsumed(std::vector<Config>& configs) const;  // also removes duplicates
  void linearize_closure();                                  // scratch_ := every configuration reachable from configs_
  bool complete_ok(int slot, Val result);

  std::array<OpenOp, kMaxOpen> open_{};
  std::uint16_t used_ = 0;  // bit per occupied slot
  std::vector<Config> configs_;
  std::vector<Config> scratch_;
};

}  // namespace ariadne::explore
