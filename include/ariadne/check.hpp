// Checking a history: the one entry point engines, the command line and tests share.
//
//   ariadne::History history = ariadne::build_history(ariadne::read_events(path), *model);
//   ariadne::CheckResult result = ariadne::check(history, *model, {.timeout_seconds = 10});
//   if (result.verdict == ariadne::Verdict::linearizable) ... result.linearization ...
//
// A verdict comes with its evidence: a linearizable history with a witness order the
// independent certificate checker has replayed, a non-linearizable one with a core of
// operations that no order explains, and unknown with the reason. docs/library.md is
// the tour; what here is stable API is said there too.
#pragma once

#include <ariadne/certificate.hpp>
#include <ariadne/engine.hpp>
#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>
#include <ariadne/limits.hpp>
#include <ariadne/model.hpp>
#include <ariadne/options.hpp>
#include <ariadne/result.hpp>

namespace ariadne {

// Decides the history, which build_history() made with the same model. Every
// linearizable answer has been replayed by the independent certificate checker before
// it is returned; a certificate that fails throws InternalError (a bug, never a wrong
// verdict). Limits and cancellation give unknown, never an exception.
//
// check() may run on several threads at once, for different histories or the same
// one: it keeps no state between calls, and every thread it starts has been joined
// when it returns.
CheckResult check(const History& history, const Model& model, const CheckOptions& options);

}  // namespace ariadne
