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

std::string_view why_role_name(WhyRole role) {
  switch (role) {
    case WhyRole::refused: return "refused";
    case WhyRole::source: return "source";
    case WhyRole::cause: return "cause";
    case WhyRole::late: return "late";
    case WhyRole::context: return "context";
  }
  return "context";
}

}  // namespace ariadne
