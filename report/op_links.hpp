// Op ids in the report's texts, found so that the page can make each a link to the
// op's bar: "op 84", "Op 84", and the lists "ops 3, 5 and 7" ("or", ", and" too). The
// explanation (explain/explanation.cpp) names every op "(op N, process P)", and the
// violation's sentence (CheckResult::why) names them the same way. Found here rather
// than by the page's script so the rule is unit-tested with the texts it reads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ariadne::report {

struct TextPiece {
  std::string text;
  std::optional<std::uint32_t> op;  // the op id the piece names, if it is a link
};

// The text cut into pieces, in order, which joined give the text back: a link piece
// is "op 84" (or "ops 3" opening a list), or a bare later number of a list ("5").
std::vector<TextPiece> link_op_ids(std::string_view text);

}  // namespace ariadne::report
