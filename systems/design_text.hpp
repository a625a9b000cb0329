// Small text helpers the designs share for describe_state(): one aligned "label  text"
// line per coordinator, client and node, in the layout of the explorer's report.
#pragma once

#include "systems/system_design.hpp"

#include <cstdint>
#include <string>

namespace ariadne::systems {

class DesignText {
 public:
  void line(const std::string& label, const std::string& text) {
    text_ += "  " + label + std::string(label.size() < 12 ? 12 - label.size() : 1, ' ') + text + "\n";
  }
  const std::string& str() const { return text_; }

 private:
  std::string text_;
};

// "n1", "n2", ... for node indices; "-" for none (a negative index).
inline std::string node_or_none(int index) { return index < 0 ? "-" : "n" + std::to_string(index + 1); }

inline std::string value_text(Val v) { return v == kNil ? "nil" : std::to_string(v); }

}  // namespace ariadne::systems
