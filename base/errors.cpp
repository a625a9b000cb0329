// InputError formats its what() as "file:line:column: message", the form compilers use,
// so editors and terminals can jump to the spot.
#include <ariadne/errors.hpp>

namespace ariadne {

namespace {
std::string format_input_error(const std::string& source, SourcePos pos, const std::string& message) {
  std::string out = source;
  if (pos.line > 0) {
    out += ":" + std::to_string(pos.line);
    if (pos.column > 0) out += ":" + std::to_string(pos.column);
  }
  out += ": " + message;
  return out;
}
}  // namespace

InputError::InputError(std::string source, SourcePos pos, std::string message)
    : std::runtime_error(format_input_error(source, pos, message)),
      source_(std::move(source)),
      pos_(pos),
      message_(std::move(message)) {}

}  // namespace ariadne
