// Lowe's just-in-time linearization [Lowe17], the second algorithm of Knossos: walk
// the history's events in order, keeping the set of configurations (model state,
// open ops not yet linearized) that explain everything so far. A call adds its op
// to every configuration's open set. At a return, every configuration must have
// linearized the op by now: those that have not do so just in time, possibly
// linearizing other open ops first (a memoised search over such sequences). If no
// configuration survives a return, that completion is the first result no order
// explains. Crashed ops never return, so they are never forced; they are linearized
// only when some other op needs them.
//
// Where WGL searches depth-first through orders, this searches breadth-first through
// time: it wins when few configurations survive each return, and loses when many
// pending crashed ops multiply them (Knossos' corpus measurements show both).
//
// Crashed ops, which multiply the configurations, are pruned two ways, as in WGL:
// - one whose step leaves the state unchanged is not linearized: the configuration
//   it would make (same state, one fewer open op) is dominated by the one it comes
//   from, which can do everything it can and never has to linearize the op;
// - of twins (crashed ops with the same f, argument and key, search/twin_classes.hpp)
//   open in a configuration only the one in the lowest slot is tried: the others
//   would make configurations differing only in which twin is still open, and twins
//   are interchangeable (both invoked, neither ever forced).
//
// Open ops occupy slots, reused once an op returns, so a configuration's open set is
// a bitset over at most the history's maximum concurrency. Each configuration
// carries a trail (a persistent list of the ops it linearized), from which the
// witness is read when the history is linearizable.
#include "search/search_engine.hpp"
#include "search/twin_classes.hpp"

#include <algorithm>

namespace ariadne::search {

namespace {

constexpr std::uint32_t kNoTrail = 0xffffffffu;
constexpr std::uint32_t kNoClass = 0xffffffffu;

struct Event {
  std::uint64_t time;
  std::uint32_t op;
  bool is_call;
};

// A set of configurations stored back to back in one vector, so that millions of them
// cost a few allocations (and, when a deadline stops the search, are freed at once).
// A configuration is [state, trail, open-slot words...]; the trail is not part of its
// identity: two ways of reaching the same state and open set are the same future.
class ConfigSet {
 public:
  explicit ConfigSet(std::size_t words) : stride_(2 + words) {}

  std::size_t size() const { return count_; }
  std::size_t stride() const { return stride_; }
  const std::uint64_t* at(std::size_t i) const { return &data_[i * stride_]; }
  std::size_t bytes() const { return data_.capacity() * 8 + table_.capacity() * 4; }
  // The bytes the next insert allocates anew (0 if it needs no room): a new hash table
  // of twice the size, or a new array of configurations, libstdc++ doubling it.
  std::size_t growth_on_insert() const {
    std::size_t growth = 0;
    if ((count_ + 1) * 2 > table_.size()) growth += std::max<std::size_t>(64, table_.size() * 2) * 4;
    if (data_.size() + stride_ > data_.capacity()) growth += (data_.size() + std::max(data_.size(), stride_)) * 8;
    return growth;
  }

  // Adds the configuration unless one with the same state and open set is present.
  bool insert(const std::uint64_t* config) {
    if ((count_ + 1) * 2 > table_.size()) grow();
    const std::size_t mask = table_.size() - 1;
    for (std::size_t i = hash(config) & mask;; i = (i + 1) & mask) {
      if (table_[i] == 0) {
        data_.insert(data_.end(), config, config + stride_);
        table_[i] = static_cast<std::uint32_t>(++count_);
        return true;
      }
      if (same(at(table_[i] - 1), config)) return false;
    }
  }

 private:
  std::uint64_t hash(const std::uint64_t* c) const {
    std::uint64_t h = c[0] * 0x9e3779b97f4a7c15ULL;
    for (std::size_t w = 2; w < stride_; ++w) h = (h ^ c[w]) * 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 31);
  }
  bool same(const std::uint64_t* a, const std::uint64_t* b) const {
    if (a[0] != b[0]) return false;
    for (std::size_t w = 2; w < stride_; ++w) {
      if (a[w] != b[w]) return false;
    }
    return true;
  }
  void grow() {
    table_.assign(std::max<std::size_t>(64, table_.size() * 2), 0);
    const std::size_t mask = table_.size() - 1;
    for (std::uint32_t k = 0; k < count_; ++k) {
      std::size_t i = hash(at(k)) & mask;
      while (table_[i] != 0) i = (i + 1) & mask;
      table_[i] = k + 1;
    }
  }

  std::size_t stride_;
  std::size_t count_ = 0;
  std::vector<std::uint64_t> data_;
  std::vector<std::uint32_t> table_;
};

class Jit final : public SearchEngine {
 public:
  Jit(const SubHistory& sub, const Model& model, MemoryBudget& memory, const StopSignal& stop)
      : sub_(sub), memory_(memory), stop_(stop), compiled_(model.compile(sub.ops)) {
    for (std::uint32_t i = 0; i < sub.ops.size(); ++i) {
      events_.push_back({sub.ops[i]->call, i, true});
      if (sub.ops[i]->ret != kNever) events_.push_back({sub.ops[i]->ret, i, false});
    }
    std::sort(events_.begin(), events_.end(), [](const Event& a, const Event& b) { return a.time < b.time; });
    assign_slots();
    TwinClasses twins;
    class_of_.assign(sub.ops.size(), kNoClass);
    for (std::uint32_t i = 0; i < sub.ops.size(); ++i) {
      if (!sub.ops[i]->must_take_effect()) class_of_[i] = twins.add(*sub.ops[i], i);
    }
    class_tried_at_.assign(twins.size(), 0);
    configs_ = std::make_unique<ConfigSet>(words_);
    std::vector<std::uint64_t> first(2 + words_, 0);
    first[0] = compiled_->initial();
    first[1] = kNoTrail;
    configs_->insert(first.data());
  }

  Engine id() const override { return Engine::jit; }
  std::uint64_t steps() const override { return steps_; }
  StopSignal::Why stop_reason() const override { return stop_reason_; }

  std::vector<std::uint32_t> linearization() const override {
    std::vector<std::uint32_t> order;
    for (std::uint32_t t = witness_trail_; t != kNoTrail; t = trail_[t].parent) order.push_back(trail_[t].op);
    std::reverse(order.begin(), order.end());
    return order;
  }

  // Budgets are honoured between events; a single return's search is bounded only by
  // the stop signal (time, cancellation) and the memory budget.
  Outcome run(std::uint64_t step_budget) override {
    if (finished_) return outcome_;
    // Saturating: a resumed search given UINT64_MAX (the race) must not wrap around.
    const std::uint64_t limit = step_budget > UINT64_MAX - steps_ ? UINT64_MAX : steps_ + step_budget;
    while (next_event_ < events_.size()) {
      if (steps_ >= limit) return Outcome::undecided;
      const Event& e = events_[next_event_];
      if (e.is_call) {
        // Every configuration gains the op as open: same set of keys, new bit.
        auto called = std::make_unique<ConfigSet>(words_);
        std::vector<std::uint64_t> c(configs_->stride());
        for (std::size_t i = 0; i < configs_->size(); ++i) {
          // Millions of configurations take a while to copy: poll here too. Stopping
          // leaves configs_ and next_event_ as they were, so run() resumes cleanly.
          if ((i & 4095) == 4095) {
            if (auto why = stop_.check(); why != StopSignal::Why::none) {
              stop_reason_ = why;
              return Outcome::stopped;
            }
          }
          if (!room_to_grow(called->bytes(), called->growth_on_insert())) return finish(Outcome::out_of_memory);
          std::copy(configs_->at(i), configs_->at(i) + c.size(), c.begin());
          set_bit(&c[2], slot_[e.op]);
          called->insert(c.data());
        }
        configs_ = std::move(called);
      } else {
        switch (resolve_return(e.op)) {
          case Resolution::ok: break;
          case Resolution::none: return finish(Outcome::not_linearizable);
          case Resolution::stopped: return Outcome::stopped;
          case Resolution::out_of_memory: return finish(Outcome::out_of_memory);
        }
      }
      ++next_event_;
    }
    witness_trail_ = static_cast<std::uint32_t>(configs_->at(0)[1]);
    final_configs_ = std::move(configs_);
    return finish(Outcome::linearizable);
  }

  // After `linearizable`: what the run ends with (search_engine.hpp, JitFrontier).
  JitFrontier frontier() {
    JitFrontier out;
    out.outcome = Outcome::linearizable;
    out.configurations = final_configs_ ? final_configs_->size() : 0;
    out.order = linearization();
    if (out.configurations != 1) return out;
    const std::uint64_t* config = final_configs_->at(0);
    out.state = compiled_->state_value(config[0]);
    refresh_slot_owners();
    for (std::uint32_t s = 0; s < op_in_slot_.size(); ++s) {
      if (test_bit(config + 2, s)) out.open.push_back(op_in_slot_[s]);
    }
    std::sort(out.open.begin(), out.open.end());
    return out;
  }

 private:
  struct TrailNode {
    std::uint32_t op;
    std::uint32_t parent;
  };
  enum class Resolution { ok, none, stopped, out_of_memory };

  // Slots: an op takes the lowest free slot at its call and frees it at its return.
  void assign_slots() {
    slot_.assign(sub_.ops.size(), 0);
    std::vector<std::uint32_t> free_slots;
    std::uint32_t next_slot = 0;
    for (const Event& e : events_) {
      if (e.is_call) {
        if (free_slots.empty()) {
          slot_[e.op] = next_slot++;
        } else {
          std::pop_heap(free_slots.begin(), free_slots.end(), std::greater<>());
          slot_[e.op] = free_slots.back();
          free_slots.pop_back();
        }
      } else {
        free_slots.push_back(slot_[e.op]);
        std::push_heap(free_slots.begin(), free_slots.end(), std::greater<>());
      }
    }
    op_in_slot_.assign(next_slot, 0);
    words_ = std::max<std::size_t>(1, (next_slot + 63) / 64);
  }

  static bool test_bit(const std::uint64_t* bits, std::uint32_t i) { return (bits[i >> 6] >> (i & 63)) & 1; }
  static void set_bit(std::uint64_t* bits, std::uint32_t i) { bits[i >> 6] |= std::uint64_t{1} << (i & 63); }
  static void clear_bit(std::uint64_t* bits, std::uint32_t i) { bits[i >> 6] &= ~(std::uint64_t{1} << (i & 63)); }

  // Every configuration must have linearized `op` by its return. Those that have are
  // kept; the others linearize it now, after any sequence of other open ops.
  Resolution resolve_return(std::uint32_t op) {
    refresh_slot_owners();
    const std::uint32_t slot = slot_[op];
    auto next = std::make_unique<ConfigSet>(words_);
    ConfigSet explored(words_);
    std::vector<std::uint32_t> frontier;  // indices into `explored`
    for (std::size_t i = 0; i < configs_->size(); ++i) {
      if ((i & 4095) == 4095) {
        if (auto why = stop_.check(); why != StopSignal::Why::none) {
          stop_reason_ = why;
          return Resolution::stopped;
        }
      }
      if (!room_to_grow(explored.bytes() + next->bytes(), explored.growth_on_insert() + next->growth_on_insert())) {
        return Resolution::out_of_memory;
      }
      const std::uint64_t* c = configs_->at(i);
      if (!test_bit(c + 2, slot)) {
        next->insert(c);
      } else if (explored.insert(c)) {
        frontier.push_back(static_cast<std::uint32_t>(explored.size() - 1));
      }
    }
    std::vector<StateId> successors;
    std::vector<std::uint64_t> d(explored.stride());
    std::uint32_t iterations = 0;
    while (!frontier.empty()) {
      const std::uint32_t index = frontier.back();
      frontier.pop_back();
      ++expansion_;  // class_tried_at_ entries older than this are from other configurations
      for (std::uint32_t s = 0; s < op_in_slot_.size(); ++s) {
        if (!test_bit(explored.at(index) + 2, s)) continue;
        const std::uint32_t candidate_class = class_of_[op_in_slot_[s]];
        if (candidate_class != kNoClass) {
          // A twin in a lower slot of this configuration came first.
          if (class_tried_at_[candidate_class] == expansion_) continue;
          class_tried_at_[candidate_class] = expansion_;
        }
        if ((++iterations & 1023) == 0) {
          if (auto why = stop_.check(); why != StopSignal::Why::none) {
            stop_reason_ = why;
            return Resolution::stopped;
          }
          if (!account_memory(explored.bytes() + next->bytes())) return Resolution::out_of_memory;
        }
        const std::uint32_t candidate = op_in_slot_[s];
        successors.clear();
        compiled_->step(explored.at(index)[0], candidate, successors);
        ++steps_;
        for (StateId after : successors) {
          if (candidate_class != kNoClass && after == explored.at(index)[0]) continue;
          const std::size_t growth = trail_growth() + explored.growth_on_insert() + next->growth_on_insert();
          if (!room_to_grow(explored.bytes() + next->bytes(), growth)) return Resolution::out_of_memory;
          // `explored` may reallocate on insert, so copy the parent before changing it.
          std::copy(explored.at(index), explored.at(index) + d.size(), d.begin());
          d[0] = after;
          d[1] = push_trail(candidate, static_cast<std::uint32_t>(d[1]));
          clear_bit(&d[2], s);
          if (candidate == op) {
            next->insert(d.data());
          } else if (explored.insert(d.data())) {
            frontier.push_back(static_cast<std::uint32_t>(explored.size() - 1));
          }
        }
      }
    }
    configs_ = std::move(next);
    if (configs_->size() == 0) return Resolution::none;
    return account_memory(0) ? Resolution::ok : Resolution::out_of_memory;
  }

  // op_in_slot_[s] is the op open in slot s now: every op called so far whose return
  // is still ahead (or never comes).
  void refresh_slot_owners() {
    for (std::size_t k = owners_done_; k < next_event_; ++k) {
      const Event& e = events_[k];
      if (e.is_call) op_in_slot_[slot_[e.op]] = e.op;
    }
    owners_done_ = next_event_;
  }

  std::uint32_t push_trail(std::uint32_t op, std::uint32_t parent) {
    trail_.push_back({op, parent});
    return static_cast<std::uint32_t>(trail_.size() - 1);
  }

  // What the search holds: the model's interned states, the trail, the current
  // configurations, and `transient_bytes` of sets being built beside them.
  std::int64_t usage(std::size_t transient_bytes) const {
    return static_cast<std::int64_t>(compiled_->memory_bytes() + trail_.capacity() * sizeof(TrailNode) +
                                     configs_->bytes() + transient_bytes);
  }

  bool account_memory(std::size_t transient_bytes) {
    return memory_.report(usage(transient_bytes)) && trail_.size() < kNoTrail;
  }

  // A set or the trail that grows takes its new array while the old one is still held,
  // doubling at once; the check every 1024 steps would see that only after the limit
  // was crossed. So an insertion that will allocate asks the budget first.
  bool room_to_grow(std::size_t transient_bytes, std::size_t growth) const {
    return growth == 0 || memory_.would_fit(usage(transient_bytes + growth));
  }

  std::size_t trail_growth() const {
    if (trail_.size() < trail_.capacity()) return 0;
    return std::max<std::size_t>(1, 2 * trail_.capacity()) * sizeof(TrailNode);
  }

  Outcome finish(Outcome o) {
    finished_ = true;
    outcome_ = o;
    configs_ = std::make_unique<ConfigSet>(words_);
    return o;
  }

  const SubHistory& sub_;
  MemoryShare memory_;
  const StopSignal& stop_;
  std::unique_ptr<CompiledModel> compiled_;
  std::vector<Event> events_;
  std::vector<std::uint32_t> slot_;
  std::vector<std::uint32_t> op_in_slot_;
  std::vector<std::uint32_t> class_of_;        // per op: its twin class if crashed, else kNoClass
  std::vector<std::uint64_t> class_tried_at_;  // per class: the expansion that last tried a member
  std::uint64_t expansion_ = 0;
  std::size_t words_ = 1;
  std::unique_ptr<ConfigSet> configs_;
  std::unique_ptr<ConfigSet> final_configs_;  // kept for frontier() once linearizable
  std::vector<TrailNode> trail_;
  std::uint32_t witness_trail_ = kNoTrail;
  std::size_t next_event_ = 0;
  std::size_t owners_done_ = 0;
  std::uint64_t steps_ = 0;
  bool finished_ = false;
  Outcome outcome_ = Outcome::undecided;
  StopSignal::Why stop_reason_ = StopSignal::Why::none;
};

}  // namespace

std::unique_ptr<SearchEngine> make_jit(const SubHistory& sub, const Model& model, MemoryBudget& memory,
                                       const StopSignal& stop) {
  return std::make_unique<Jit>(sub, model, memory, stop);
}

JitFrontier run_jit_to_the_end(const SubHistory& sub, const Model& model, MemoryBudget& memory,
                               const StopSignal& stop) {
  Jit jit(sub, model, memory, stop);
  const Outcome outcome = jit.run(UINT64_MAX);
  if (outcome != Outcome::linearizable) {
    JitFrontier out;
    out.outcome = outcome;
    return out;
  }
  return jit.frontier();
}

}  // namespace ariadne::search
