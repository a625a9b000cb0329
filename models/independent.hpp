// The [key value] tuples of independent(MODEL) (models/independent.cpp), taken apart
// for the layers that check each key with MODEL itself.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

namespace ariadne {

// The key the op's invocation names: the first element of its [key value] tuple (nil
// when it has none, which check_operation() has already refused).
Value independent_key(const Operation& op);

// The op as MODEL sees it: its invocation's and completion's values without the key.
// Everything else (id, process, times, status) is kept, so op ids and real time stay
// those of the original history.
Operation independent_unwrap(const Operation& op);

}  // namespace ariadne
