// A reading written out as text: every event with its position, every warning, or
// the error that ended it. Two ways of reading one file (the general reader and the
// fast paths, one thread and several) are the same reading when their transcripts
// are the same string; the differential test and the reader fuzz targets compare them
// so.
#pragma once

#include "history/event_sink.hpp"

#include <string>
#include <string_view>

namespace ariadne {

std::string read_transcript(std::string_view text, const std::string& source, Format format, const ReadPlan& plan);

}  // namespace ariadne
