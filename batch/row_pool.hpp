// The rows of a batch (a corpus, a cross-check) are independent, so they are checked
// on a few threads at once, from the pool the checker's own parallel work uses
// (portfolio/parallel.hpp): how many threads run is decided in one place.
#pragma once

#include <cstddef>
#include <functional>

namespace ariadne::batch {

// Calls check_row(i) for every row i in [0, rows), on up to `jobs` threads (0: one per
// core), each taking the next row as it finishes the last; returns when all are done.
// With one job, every row is checked on the caller's thread. `check_row` must not
// throw.
void for_each_row(std::size_t rows, unsigned jobs, const std::function<void(std::size_t)>& check_row);

}  // namespace ariadne::batch
