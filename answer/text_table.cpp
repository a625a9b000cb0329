// Column widths are measured in display columns (terminal.hpp) so colour codes and
// multi-byte UTF-8 do not skew the alignment.
#include "answer/text_table.hpp"

#include "answer/terminal.hpp"

#include <algorithm>

namespace ariadne::answer {

void TextTable::add_column(std::string header, Align align) { columns_.push_back({std::move(header), align}); }

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
}

std::string TextTable::render(const std::string& indent) const {
  std::vector<std::size_t> widths(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    widths[c] = display_width(columns_[c].header);
    for (const auto& row : rows_) widths[c] = std::max(widths[c], display_width(row[c]));
  }

  std::string out;
  const auto emit_line = [&](const std::vector<std::string>& cells) {
    std::string line = indent;
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      if (c > 0) line += "  ";
      const std::string padding(widths[c] - display_width(cells[c]), ' ');
      if (columns_[c].align == Align::right) {
        line += padding + cells[c];
      } else {
        line += cells[c] + padding;
      }
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line;
    out += '\n';
  };

  std::vector<std::string> headers;
  for (const auto& column : columns_) headers.push_back(column.header);
  emit_line(headers);
  std::vector<std::string> rule;
  for (const auto width : widths) rule.push_back(std::string(width, '-'));
  emit_line(rule);
  for (const auto& row : rows_) emit_line(row);
  return out;
}

}  // namespace ariadne::answer
