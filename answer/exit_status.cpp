// See exit_status.hpp. Rethrowing the exception being handled lets one ladder of
// catch clauses classify it wherever it was caught.
#include "answer/exit_status.hpp"

#include <ariadne/errors.hpp>

#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>

namespace ariadne::answer {

Failure current_failure() {
  try {
    throw;
  } catch (const InputError& error) {
    return {kExitBadInput, error.what()};
  } catch (const UsageError& error) {
    return {kExitUsage, error.what()};
  } catch (const CLI::Error& error) {
    return {kExitUsage, error.what()};
  } catch (const std::exception& error) {
    return {kExitInternal, std::string("internal error: ") + error.what()};
  } catch (...) {
    return {kExitInternal, "internal error: unknown exception"};
  }
}

int run_guarded(const std::function<int()>& command) {
  try {
    return command();
  } catch (...) {
    const Failure failure = current_failure();
    std::cerr << "ariadne: " << failure.message;
    if (failure.exit_status == kExitUsage) std::cerr << "\nRun 'ariadne --help' for usage.";
    if (failure.exit_status == kExitInternal) std::cerr << ", please report";
    std::cerr << std::endl;
    return failure.exit_status;
  }
}

}  // namespace ariadne::answer
