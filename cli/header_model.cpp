#include "cli/header_model.hpp"

#include <ariadne/errors.hpp>

#include <filesystem>

namespace ariadne::cli {

std::optional<std::string> header_model(const std::string& path, Format format) {
  if (path == "-") return std::nullopt;
  std::error_code error;
  const std::filesystem::path file = history_file_in(path);
  if (!std::filesystem::is_regular_file(file, error)) return std::nullopt;
  return read_model_hint(file.string(), format);
}

std::string model_spec_for(const std::string& option, const std::optional<std::string>& header,
                           const std::string& path) {
  if (!option.empty()) return option;
  if (header) return *header;
  throw UsageError("--model is required: " + path +
                   " names no model itself (Violin and LiMo logs and fastlin histories do, in their header)");
}

std::optional<ReadWarning> header_model_warning(const std::string& option, const std::string& model_spec,
                                                const std::optional<std::string>& header) {
  // By name: --model's spec carries its initial state ("fifo-queue([])"), the header's not.
  const auto name = [](const std::string& spec) { return spec.substr(0, spec.find('(')); };
  if (option.empty() || !header || name(model_spec) == name(*header)) return std::nullopt;
  return ReadWarning{
      {1, 1}, "the file's header names the model " + *header + "; checked with --model " + model_spec + " as asked"};
}

}  // namespace ariadne::cli
