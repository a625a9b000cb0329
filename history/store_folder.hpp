// A Jepsen store folder (store/<test>/<time>/, or the store/<test>/latest link) in
// place of a history file: Jepsen writes the history there as history.edn, and as
// history.txt (one tab-separated line per event, which the jepsen-log reader reads).
#pragma once

#include <string>

namespace ariadne {

// `path` itself when it is not a directory; else its history.edn, else its
// history.txt. Throws InputError naming the folder when it holds neither.
std::string history_file_in(const std::string& path);

}  // namespace ariadne
