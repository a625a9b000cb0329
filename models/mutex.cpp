// A single lock, as Knossos' knossos.model/mutex: :acquire is legal only while the
// lock is free and takes it; :release is legal only while it is held and frees it.
// Values are ignored. The state is 0 (unlocked) or 1 (locked).
//
// Crashed ops behave as completed ones: whatever a crashed acquire or release
// returned, taking effect means changing the lock the same way.
#include "models/builtin_model.hpp"
#include "models/model_factories.hpp"

namespace ariadne::models {

namespace {

constexpr StateId kUnlocked = 0;
constexpr StateId kLocked = 1;

enum class MutexStep : std::uint8_t { any, acquire, release, never };

class CompiledMutex final : public CompiledModel {
 public:
  explicit CompiledMutex(std::vector<MutexStep> ops) : ops_(std::move(ops)) {}

  StateId initial() override { return kUnlocked; }

  void step(StateId state, std::uint32_t op, std::vector<StateId>& next) override {
    switch (ops_[op]) {
      case MutexStep::any: next.push_back(state); break;
      case MutexStep::acquire:
        if (state == kUnlocked) next.push_back(kLocked);
        break;
      case MutexStep::release:
        if (state == kLocked) next.push_back(kUnlocked);
        break;
      case MutexStep::never: break;
    }
  }

  std::string describe_state(StateId state) const override { return state == kLocked ? "locked" : "unlocked"; }

 private:
  std::vector<MutexStep> ops_;
};

class MutexModel final : public BuiltinModel {
 public:
  MutexModel() : BuiltinModel("mutex") {}

  std::string spec() const override { return "mutex()"; }

  std::optional<std::string> check_operation(const Operation& op) const override {
    if (op.f == "acquire" || op.f == "release") return std::nullopt;
    return unknown_operation(op, {"acquire", "release"});
  }

  std::unique_ptr<CompiledModel> compile(std::span<const Operation* const> ops) const override {
    std::vector<MutexStep> compiled;
    compiled.reserve(ops.size());
    for (const Operation* op : ops) {
      // A :fail pair (e.g. etcd.edn's releases that failed :not-held) never happened.
      if (op->status == OpStatus::failed) {
        compiled.push_back(MutexStep::any);
      } else if (op->f == "acquire") {
        compiled.push_back(MutexStep::acquire);
      } else if (op->f == "release") {
        compiled.push_back(MutexStep::release);
      } else {
        compiled.push_back(MutexStep::never);  // rejected by check_operation beforehand
      }
    }
    return std::make_unique<CompiledMutex>(std::move(compiled));
  }

  // The same reading as compile(), in the encoder's terms.
  std::optional<Semantics> semantics(std::span<const Operation* const> ops) const override {
    Semantics s;
    s.ops.reserve(ops.size());  // one meaning per op: never moved again
    s.theory = Theory::mutex;
    for (const Operation* op : ops) {
      OpMeaning& m = s.ops.emplace_back();
      m.must_take_effect = op->status == OpStatus::ok;
      if (op->status == OpStatus::failed) {
        m.effect = Effect::none;
      } else if (op->f == "acquire") {
        m.effect = Effect::acquire;
      } else if (op->f == "release") {
        m.effect = Effect::release;
      } else {
        m.effect = Effect::impossible;
      }
    }
    return s;
  }
};

}  // namespace

std::unique_ptr<Model> make_mutex(const Value& init) {
  if (!init.is_nil()) reject_init("mutex", "empty (a mutex starts unlocked)", init);
  return std::make_unique<MutexModel>();
}

}  // namespace ariadne::models
