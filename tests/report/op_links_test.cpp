// Op ids in the report's texts: which words become links to ops, and that the pieces
// give the text back.
#include "report/op_links.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace ariadne::report;

namespace {

// The pieces that are links, as "text=id".
std::vector<std::string> links_in(const std::string& text) {
  std::vector<std::string> out;
  std::string joined;
  for (const TextPiece& piece : link_op_ids(text)) {
    joined += piece.text;
    if (piece.op) out.push_back(piece.text + "=" + std::to_string(*piece.op));
  }
  CHECK(joined == text);
  return out;
}

using Links = std::vector<std::string>;

}  // namespace

TEST_SUITE("report") {
  TEST_CASE("op links: each \"op N\" of the explanation links to op N, the process beside it does not") {
    CHECK(links_in("  - write 3 (op 20, process 68), events 20 to 21\n") == Links{"op 20=20"});
    CHECK(links_in("Op 84 (process 11, read 2) completed at event 85") == Links{"Op 84=84"});
    CHECK(links_in("after write 1 (op 5, outside the core), write 3 (op 20): the state is 1") ==
          Links{"op 5=5", "op 20=20"});
    CHECK(links_in("op 0") == Links{"op 0=0"});
  }

  TEST_CASE("op links: a list after \"ops\" links every number in it, however it is joined") {
    CHECK(links_in("ops 3, 5 and 7 overlap") == Links{"ops 3=3", "5=5", "7=7"});
    CHECK(links_in("the writes ops 1, 2, and 9.") == Links{"ops 1=1", "2=2", "9=9"});
    CHECK(links_in("ops 4 or 6") == Links{"ops 4=4", "6=6"});
    // A singular "op" starts no list: the number after its comma is something else.
    CHECK(links_in("op 5, 6 times") == Links{"op 5=5"});
  }

  TEST_CASE("op links: words that only look like an op id stay text") {
    CHECK(links_in("ops marked 'outside the core' may take effect anywhere").empty());
    CHECK(links_in("stop 12, shop 3, op12, op 12a, op -1, ops, op ").empty());
    CHECK(links_in("op 99999999999 is past any op id").empty());
    CHECK(links_in("").empty());
  }
}  // TEST_SUITE("report")
