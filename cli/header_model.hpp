// The model a history file's own header names (a Violin or LiMo log's `# @object
// queue`, a fastlin history's `# stack`), for the commands that take --model: with
// --model the user's choice wins, and a header naming another model is a warning;
// without it, the header's model is checked (docs/command-line.md, "The model from
// the file's header").
#pragma once

#include <ariadne/history.hpp>

#include <optional>
#include <string>

namespace ariadne::cli {

// The model the header of the history at `path` names; nullopt for formats that name
// none, and for what cannot be looked at before it is read (a FIFO, standard input:
// looking would consume it). Throws InputError for a header that names no object
// ariadne reads.
std::optional<std::string> header_model(const std::string& path, Format format);

// The model spec to check with: `option` (--model as given) unless empty, else the
// header's. Throws UsageError when neither names a model.
std::string model_spec_for(const std::string& option, const std::optional<std::string>& header,
                           const std::string& path);

// When --model was given and the header names another model: the warning that says
// so, which the command prints and lists in its JSON answer.
std::optional<ReadWarning> header_model_warning(const std::string& option, const std::string& model_spec,
                                                const std::optional<std::string>& header);

}  // namespace ariadne::cli
