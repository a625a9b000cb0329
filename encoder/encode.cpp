// encode(): pick the model family's direct encoding, or the unrolling, and set up what
// every family shares: which ops must take effect, may, or cannot.
#include "encoder/encode.hpp"

#include "encoder/formula_builder.hpp"
#include "encoder/theories.hpp"
#include "models/semantics.hpp"

#include <stdexcept>

namespace ariadne::encoder {

namespace {

std::string theory_name(models::Theory theory) {
  switch (theory) {
    case models::Theory::registers: return "reads-from (register family)";
    case models::Theory::mutex: return "acquire/release alternation (mutex)";
    case models::Theory::unordered_queue: return "matching (unordered queue)";
    case models::Theory::fifo_queue: return "matching with the FIFO axiom (queue)";
    case models::Theory::stack: return "matching with the LIFO axiom (stack)";
    case models::Theory::set: return "membership (set)";
    case models::Theory::priority_queue: return "matching with the priority axiom (priority queue)";
  }
  return "direct";
}

// A completed op took effect; a crashed one may have; one that changes and observes
// nothing is left out, since leaving it out is always allowed and keeps witnesses
// short; an impossible op that must take effect makes the formula unsatisfiable.
//
// Under real time an op that may or may not take effect and changes nothing (a read
// of a relaxed history's core question, a crashed read of a set) is left out as well:
// leaving out an op that changes no state keeps every other op's observations, so a
// linearization with it is one without it, and the formula keeps its answer. The
// reads of a one-key kv history with few values each combine appends in
// exponentially many ways: encoded, every relaxed read of a core question cost the
// search for them, and the core of a one-op violation ran out of time at the whole
// key. Under program order an op left out would break the chain of its process's
// order, so there the rule is not used.
//
// With selectors (OpSelector), a kept op's presence answers to its selector: a
// completed one took effect exactly when the selector holds, a crashed one only if it
// does; its relaxed twin may take effect only when the selector does not hold.
void set_presence(FormulaBuilder& builder, const models::Semantics& semantics, const std::vector<OpSelector>& selectors,
                  bool real_time) {
  std::vector<Literal> selector_literals;
  for (const OpSelector& s : selectors) {
    if (s.side == OpSelector::Side::none) continue;
    while (selector_literals.size() <= s.selector) selector_literals.push_back(builder.new_variable());
  }
  builder.set_selectors(selector_literals);
  for (std::uint32_t i = 0; i < builder.op_count(); ++i) {
    const models::OpMeaning& meaning = semantics.ops[i];
    const OpSelector::Side side = selectors.empty() ? OpSelector::Side::none : selectors[i].side;
    if (side != OpSelector::Side::none) {
      const Literal selector = selector_literals[selectors[i].selector];
      // Reaching here, the op may be left out (see above).
      const bool inert = meaning.effect == models::Effect::none || meaning.effect == models::Effect::impossible ||
                         (real_time && models::observes_only(meaning));
      if (side == OpSelector::Side::kept && meaning.must_take_effect) {
        builder.set_presence(i, selector);
        if (meaning.effect == models::Effect::impossible) {
          builder.begin_group("op " + std::to_string(builder.op(i).id) + " cannot take effect", {i});
          builder.add_clause({-selector});
          builder.end_group();
        }
      } else if (inert) {
        builder.set_presence(i, kFalse);
      } else {
        const Literal present = builder.new_variable();
        builder.set_presence(i, present);
        builder.add_clause({-present, side == OpSelector::Side::kept ? selector : -selector});
      }
      continue;
    }
    if (meaning.must_take_effect) {
      builder.set_presence(i, kTrue);
      if (meaning.effect == models::Effect::impossible) {
        builder.begin_group("op " + std::to_string(builder.op(i).id) + " cannot take effect", {i});
        builder.add_clause({kFalse});
        builder.end_group();
      }
    } else if (meaning.effect == models::Effect::none || meaning.effect == models::Effect::impossible ||
               (real_time && models::observes_only(meaning))) {
      builder.set_presence(i, kFalse);
    } else {
      builder.set_presence(i, builder.new_variable());
    }
  }
}

}  // namespace

namespace {
// Under the sequential conditions only the register family's direct encoding applies
// (EncodeOptions::consistency).
bool direct_encoding_keeps(models::Theory theory, Consistency consistency) {
  return keeps_real_time(consistency) || theory == models::Theory::registers;
}
}  // namespace

std::optional<std::string> supports(const Model& model, std::span<const Operation* const> ops, std::string* why_not,
                                    Consistency consistency) {
  if (auto semantics = models::semantics_of(model, ops)) {
    if (direct_encoding_keeps(semantics->theory, consistency)) return theory_name(semantics->theory);
  }
  return unrolling_supported(model, ops, why_not);
}

Formula encode(const Model& model, std::span<const Operation* const> ops, const EncodeOptions& options) {
  FormulaBuilder builder(ops, options);
  std::optional<models::Semantics> semantics;
  if (!options.force_unrolling) semantics = models::semantics_of(model, ops);
  if (semantics && !direct_encoding_keeps(semantics->theory, options.consistency)) semantics.reset();
  if (!semantics) {
    if (!options.selectors.empty()) throw EncodingUnsupported("selectors need a model with semantics");
    std::string why_not;
    auto how = unrolling_supported(model, ops, &why_not);
    if (!how) throw EncodingUnsupported(why_not);
    encode_by_unrolling(builder, model, ops);
    return builder.finish(*how);
  }
  if (!options.selectors.empty() && options.selectors.size() != ops.size()) {
    throw std::logic_error("encode: one selector entry per op, or none");
  }
  set_presence(builder, *semantics, options.selectors, keeps_real_time(options.consistency));
  switch (semantics->theory) {
    case models::Theory::registers: encode_registers(builder, *semantics); break;
    case models::Theory::mutex: encode_mutex(builder, *semantics); break;
    case models::Theory::unordered_queue:
    case models::Theory::fifo_queue:
    case models::Theory::stack:
    case models::Theory::priority_queue: encode_container(builder, *semantics); break;
    case models::Theory::set: encode_set(builder, *semantics); break;
  }
  // Symmetry breaking counts the ops completed before each invocation, which is
  // exact for real time only.
  if (keeps_real_time(options.consistency)) break_crashed_symmetry(builder, options.selectors);
  return builder.finish(theory_name(semantics->theory));
}

}  // namespace ariadne::encoder
