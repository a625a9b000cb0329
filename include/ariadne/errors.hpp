// Errors that cross the library boundary, all std::runtime_error, one class per
// kind of fault so that a caller can answer each its own way (the command line exits
// 65, 64 and 70 respectively). Bad input is always an InputError carrying the place
// it was found, so the command line can print file:line:column.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ariadne {

struct SourcePos {
  std::uint32_t line = 0;    // 1-based; 0 when unknown
  std::uint32_t column = 0;  // 1-based; 0 when unknown
};

// Bad input: a history, witness or value that cannot be read or does not fit the
// model. what() reads "source:line:column: message", or "source: message" when the
// place is unknown (pos 0, as for events built in memory).
class InputError : public std::runtime_error {
 public:
  InputError(std::string source, SourcePos pos, std::string message);
  const std::string& source() const { return source_; }
  SourcePos pos() const { return pos_; }
  // The message alone, without the "file:line:column: " prefix that what() carries.
  const std::string& message() const { return message_; }

 private:
  std::string source_;
  SourcePos pos_;
  std::string message_;
};

// A command-line or API misuse (unknown model name, bad option value): exit 64.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A bug in ariadne, never bad input: a linearization that fails the certificate
// check, an engine that failed. check() throws it rather than return a verdict it
// cannot stand behind. Exit 70.
class InternalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ariadne
