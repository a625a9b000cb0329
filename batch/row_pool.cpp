// See row_pool.hpp.
#include "batch/row_pool.hpp"

#include "portfolio/parallel.hpp"

namespace ariadne::batch {

void for_each_row(std::size_t rows, unsigned jobs, const std::function<void(std::size_t)>& check_row) {
  portfolio::for_each_index(rows, jobs, check_row);
}

}  // namespace ariadne::batch
