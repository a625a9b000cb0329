// Long values quoted where they matter. A kv get's value can run to kilobytes, and
// two such values (the state a get found and the value it returned) usually agree
// for most of their length: cutting both at a fixed width shows the identical start
// and hides the place they differ. These show the text around that place instead.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ariadne::explain {

// Quoted values in explanations are cut to about this many bytes.
inline constexpr std::size_t kExcerptWidth = 80;

// `text` itself when it fits in `width`; otherwise about `width` bytes of it around the
// first byte where it differs from `other`, with "…" where text was left out. Cuts
// fall on UTF-8 character boundaries.
std::string excerpt_near_difference(std::string_view text, std::string_view other, std::size_t width = kExcerptWidth);

}  // namespace ariadne::explain
