// Aligned plain-text tables for the human reports (a check's witness or core, the
// corpus summary). Cells may carry ANSI colour; alignment ignores it.
#pragma once

#include <string>
#include <vector>

namespace ariadne::answer {

class TextTable {
 public:
  enum class Align { left, right };

  void add_column(std::string header, Align align = Align::left);
  // One cell per column; missing cells are blank.
  void add_row(std::vector<std::string> cells);

  // The header, a rule and the rows, each line prefixed by `indent`. Trailing blanks
  // are trimmed so the output diffs cleanly.
  std::string render(const std::string& indent = "  ") const;

 private:
  struct Column {
    std::string header;
    Align align;
  };
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace ariadne::answer
