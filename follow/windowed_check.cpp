#include "follow/windowed_check.hpp"

#include "certify/witness_checker.hpp"
#include "search/search_engine.hpp"

#include <ariadne/errors.hpp>

#include <algorithm>
#include <chrono>
#include <utility>

namespace ariadne::follow {

namespace {

// A window is checked again, while the reader is behind the writer, once it has twice
// the ops of its last check that did not settle it, and at least this many.
constexpr std::size_t kLeastWindow = 128;

// How long, and in how much memory, JIT may work over one window while following before
// the portfolio decides it instead (JIT multiplies configurations where many crashed ops
// are open).
constexpr auto kJitBudget = std::chrono::milliseconds(50);
constexpr std::uint64_t kJitMemory = std::uint64_t{256} << 20;

const char* const kFollowBug = "check --follow: ";

}  // namespace

WindowedCheck::WindowedCheck(std::string source, const Model& model, const CheckOptions& options)
    : source_(std::move(source)), model_(model), options_(options) {}

std::size_t WindowedCheck::window_of(const Operation& op) {
  Value key = model_.is_partitioned() ? model_.partition_key(op) : Value();
  const auto [it, added] = index_.try_emplace(key, windows_.size());
  if (added) {
    Window& window = windows_.emplace_back();
    window.key = std::move(key);
    window.first_id = op.id;
  }
  return it->second;
}

void WindowedCheck::called(const Operation& op) {
  Window& window = windows_[window_of(op)];
  window.ops.push_back(op);
  ++window.pending;
  ++pending_;
  ++ops_;
  ++held_;
}

void WindowedCheck::ended(Operation&& op) {
  // Vetted as the offline reading vets every op, with its completion.
  if (auto problem = model_.check_operation(op)) {
    throw InputError(source_, op.status == OpStatus::ok ? op.ret_pos : op.call_pos, *problem);
  }
  const std::size_t index = window_of(op);
  Window& window = windows_[index];
  auto it = std::find_if(window.ops.rbegin(), window.ops.rend(), [&](const Operation& o) { return o.id == op.id; });
  if (it == window.ops.rend()) throw InternalError(std::string(kFollowBug) + "an op ended that was never called");
  --window.pending;
  --pending_;
  if (window.ended_since_check++ == 0 && !window.refuted) with_news_.push_back(index);
  if (op.status == OpStatus::failed && !model_.failed_is_observation(op)) {
    window.ops.erase(std::next(it).base());  // never happened
    --ops_;
    --held_;
    return;
  }
  if (op.status == OpStatus::ok) ++ok_ended_;
  if (op.status == OpStatus::crashed) ++crashed_;
  *it = std::move(op);
}

bool WindowedCheck::check_windows(bool caught_up) {
  bool refuted = false;
  const auto now = std::chrono::steady_clock::now();
  // Sweeps of every window with news take a quarter of the time at most, however often
  // the reader catches up.
  if (caught_up && now < next_sweep_) caught_up = false;
  // Only the windows with news are looked at: a history of a million keys has a few
  // with news between two pieces.
  std::size_t kept = 0;
  for (const std::size_t index : with_news_) {
    Window& window = windows_[index];
    const bool grown = window.ops.size() >= std::max(kLeastWindow, 2 * window.size_at_check);
    if (!window.refuted && !(caught_up ? now >= window.next_check : grown)) {
      with_news_[kept++] = index;  // not checked yet: still news
      continue;
    }
    if (!window.refuted) check_window(window, false);
    window.ended_since_check = 0;
    refuted = refuted || window.refuted;
  }
  with_news_.resize(kept);
  if (caught_up) {
    const auto done = std::chrono::steady_clock::now();
    next_sweep_ = done + 3 * (done - now);
  }
  return refuted;
}

bool WindowedCheck::has_news() const { return !with_news_.empty(); }

std::optional<Value> WindowedCheck::refuted_partition() const {
  const Window* first = nullptr;
  for (const Window& window : windows_) {
    if (window.refuted && (!first || window.first_id < first->first_id)) first = &window;
  }
  if (!first) return std::nullopt;
  return first->key;
}

void WindowedCheck::check_window(Window& window, bool at_the_end) {
  window.ended_since_check = 0;
  if (window.ops.empty()) return;
  const auto begun = std::chrono::steady_clock::now();
  struct NextCheck {
    Window& window;
    std::chrono::steady_clock::time_point begun;
    ~NextCheck() {
      const auto done = std::chrono::steady_clock::now();
      window.next_check = done + 3 * (done - begun);
    }
  } next_check{window, begun};
  const Model& model = window.model ? *window.model : model_;
  search::SubHistory sub;
  sub.ops.reserve(window.ops.size());
  for (const Operation& op : window.ops) sub.ops.push_back(&op);
  search::MemoryBudget memory(std::min(options_.memory_limit, kJitMemory), options_.limits);
  search::StopSignal stop;
  stop.limits = options_.limits;
  stop.deadline = std::chrono::steady_clock::now() + kJitBudget;
  const search::JitFrontier frontier = search::run_jit_to_the_end(sub, model, memory, stop);
  switch (frontier.outcome) {
    case search::Outcome::not_linearizable: window.refuted = true; return;
    case search::Outcome::linearizable:
      if (at_the_end || (window.pending == 0 && frontier.configurations == 1 && frontier.state)) {
        settle(window, model, frontier.order, frontier.open, at_the_end);
      } else {
        window.size_at_check = window.ops.size();
      }
      return;
    default: break;
  }
  if (options_.limits && options_.limits->reached() != Limit::none) return;
  // JIT gave up: the portfolio decides the window, pending ops as crashed.
  History history;
  history.source = source_;
  history.ops = window.ops;
  CheckOptions options = options_;
  options.minimal_core = false;
  // Its own deadline while following, so one hard window cannot hold the reading up.
  std::optional<Limits> limits;
  if (!at_the_end) {
    limits.emplace(LimitSettings{.timeout_seconds = window.portfolio_seconds}, options_.limits);
    options.limits = &*limits;
  }
  const CheckResult result = check(history, model, options);
  window.size_at_check = window.ops.size();
  if (result.verdict == Verdict::unknown && !at_the_end) window.portfolio_seconds *= 2;
  if (result.verdict == Verdict::not_linearizable) {
    window.refuted = true;
  } else if (result.verdict == Verdict::linearizable && at_the_end) {
    std::vector<std::uint32_t> order;
    for (const std::uint32_t id : result.linearization) {
      const auto at =
          std::find_if(window.ops.begin(), window.ops.end(), [&](const Operation& op) { return op.id == id; });
      order.push_back(static_cast<std::uint32_t>(at - window.ops.begin()));
    }
    settle(window, model, order, {}, true);
  } else if (result.verdict == Verdict::unknown && at_the_end) {
    gave_up_ = result.reason;
  }
}

void WindowedCheck::settle(Window& window, const Model& model, const std::vector<std::uint32_t>& order,
                           const std::vector<std::uint32_t>& open, bool at_the_end) {
  std::vector<const Operation*> in_order;
  in_order.reserve(order.size());
  std::size_t ok_placed = 0;
  for (const std::uint32_t i : order) {
    in_order.push_back(&window.ops[i]);
    ok_placed += window.ops[i].status == OpStatus::ok ? 1 : 0;
  }
  const std::size_t ok_held = static_cast<std::size_t>(std::count_if(
      window.ops.begin(), window.ops.end(), [](const Operation& op) { return op.status == OpStatus::ok; }));
  if (ok_placed != ok_held) {
    throw InternalError(std::string(kFollowBug) + "a stretch's order leaves out " +
                        std::to_string(ok_held - ok_placed) + " completed ops");
  }
  // The certificate checker replays the order, and says the state it ends in: the next
  // stretch starts from that, not from what the search claims.
  std::optional<Value> end;
  if (auto error = certify::check_legality(model, in_order, end)) {
    throw InternalError(std::string(kFollowBug) + "a stretch's order does not replay: " + *error);
  }
  std::unique_ptr<Model> next;
  if (!at_the_end) {
    if (end) next = model.starting_from(window.key, *end);
    if (!next) {  // the replay ends in several states, or the model cannot start there
      window.size_at_check = window.ops.size();
      return;
    }
  }
  for (const Operation* op : in_order) {
    const std::uint64_t point = std::max(op->call, window.last_point);
    if (point > op->ret) {
      throw InternalError(std::string(kFollowBug) + "op " + std::to_string(op->id) +
                          " is ordered after an op invoked after it returned");
    }
    window.last_point = point;
    point_keys_.push_back(point << 32 | point_ids_.size());
    point_ids_.push_back(op->id);
  }
  ok_placed_ += ok_placed;
  settled_ += window.ops.size() - open.size();
  held_ -= window.ops.size() - open.size();
  std::vector<Operation> carried;
  carried.reserve(open.size());
  for (const std::uint32_t i : open) {
    if (window.ops[i].status != OpStatus::crashed) {
      throw InternalError(std::string(kFollowBug) + "a settled stretch leaves op " + std::to_string(window.ops[i].id) +
                          ", which is not crashed, unlinearized");
    }
    carried.push_back(std::move(window.ops[i]));
  }
  window.ops = std::move(carried);
  window.model = std::move(next);
  window.size_at_check = 0;
}

CheckResult WindowedCheck::finish() {
  CheckResult result;
  // Ops invoked and never completed are crashed: vetted as such, as the offline
  // reading vets them.
  for (const Window& window : windows_) {
    for (const Operation& op : window.ops) {
      if (op.status != OpStatus::crashed || op.ret_pos.line != 0) continue;
      if (auto problem = model_.check_operation(op)) throw InputError(source_, op.call_pos, *problem);
    }
  }
  for (Window& window : windows_) {
    if (!window.refuted) check_window(window, true);
    if (options_.limits && options_.limits->reached() != Limit::none) break;
  }
  if (refuted_partition()) {
    result.verdict = Verdict::not_linearizable;
    return result;
  }
  if (options_.limits && options_.limits->reached() != Limit::none) {
    result.verdict = Verdict::unknown;
    result.limit = options_.limits->reached();
    result.reason = options_.limits->describe(result.limit);
    return result;
  }
  if (!gave_up_.empty()) {
    result.verdict = Verdict::unknown;
    result.reason = gave_up_;
    return result;
  }
  if (ok_placed_ != ok_ended_) {
    throw InternalError(std::string(kFollowBug) + "the witness places " + std::to_string(ok_placed_) + " of " +
                        std::to_string(ok_ended_) + " completed ops");
  }
  std::sort(point_keys_.begin(), point_keys_.end());
  result.linearization.reserve(point_keys_.size());
  for (const std::uint64_t key : point_keys_) result.linearization.push_back(point_ids_[key & 0xffffffffu]);
  std::deque<std::uint64_t>().swap(point_keys_);
  std::deque<std::uint32_t>().swap(point_ids_);
  result.verdict = Verdict::linearizable;
  result.engine = "jit";
  result.operations = ops_;
  result.partitions = windows_.size();
  return result;
}

}  // namespace ariadne::follow
