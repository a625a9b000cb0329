// Two four-event register histories the corpus tests write as rows: one linearizable,
// one not (the read returns a value never written).
#pragma once

namespace ariadne::cli_test {

inline constexpr const char* kGood =
    "[{:process 0, :type :invoke, :f :write, :value 1}\n"
    " {:process 0, :type :ok, :f :write, :value 1}\n"
    " {:process 1, :type :invoke, :f :read, :value nil}\n"
    " {:process 1, :type :ok, :f :read, :value 1}]\n";

inline constexpr const char* kBad =
    "[{:process 0, :type :invoke, :f :write, :value 1}\n"
    " {:process 0, :type :ok, :f :write, :value 1}\n"
    " {:process 1, :type :invoke, :f :read, :value nil}\n"
    " {:process 1, :type :ok, :f :read, :value 2}]\n";

}  // namespace ariadne::cli_test
