// check() itself, for a model that is not independent (decide.cpp).
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>
#include <ariadne/options.hpp>
#include <ariadne/result.hpp>

namespace ariadne::portfolio {

// With describe_refuted false, a refuted history gets its verdict only: no failing
// op, core or explanation (independent keys get theirs when the key is reported).
CheckResult decide(const History& history, const Model& model, const CheckOptions& options, bool describe_refuted);

}  // namespace ariadne::portfolio
