// The names of the result vocabulary (<ariadne/result.hpp>).
#include <ariadne/result.hpp>

namespace ariadne {

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::linearizable: return "linearizable";
    case Verdict::not_linearizable: return "not-linearizable";
    case Verdict::unknown: return "unknown";
  }
  return "unknown";
}

}  // namespace ariadne
