// The version every answer and report states, and the one a merge of shards' reports
// must find in each of them (a newer ariadne may answer differently).
#pragma once

#include <string>

namespace ariadne::answer {

// "ariadne 0.2.0".
std::string version_text();

}  // namespace ariadne::answer
