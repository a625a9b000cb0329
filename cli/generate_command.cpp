// `ariadne generate`: build the shape from the options, generate, and write the file
// with its header. Every file's `; generated:` line names one seed and no output
// option, so running it prints that very file to stdout, whichever way it was first
// written (alone, with -o, or as one of a --count batch).
#include "cli/generate_command.hpp"

#include "generators/generated_history.hpp"

#include <ariadne/errors.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

namespace ariadne::cli {

namespace fs = std::filesystem;

namespace {

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) out.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out) throw UsageError("cannot write " + path.string() + ": " + std::strerror(errno));
}

std::string crash_storm_file(const generators::CrashStormShape& shape) {
  return generators::format_generated_file(generators::generate_crash_storm(shape), crash_storm_command(shape));
}

void check_batch_options(const GenerateCommandOptions& options) {
  if (options.count == 0) throw UsageError("--count must be at least 1");
  if (options.count > 1 && !options.out_dir) {
    throw UsageError("--count " + std::to_string(options.count) + " needs --out-dir DIR to put the files in");
  }
  if (options.output && options.out_dir) throw UsageError("-o and --out-dir cannot be combined");
  const std::uint64_t first = options.crash_storm.seed;
  if (options.count - 1 > std::numeric_limits<std::uint64_t>::max() - first) {
    throw UsageError("--seed " + std::to_string(first) + " plus --count " + std::to_string(options.count) +
                     " runs past the largest seed");
  }
}

}  // namespace

std::string crash_storm_command(const generators::CrashStormShape& shape) {
  std::string command = "ariadne generate crash-storm --ops " + std::to_string(shape.operations) +
                        " --crashed-writes " + std::to_string(shape.crashed_writes) + " --clients " +
                        std::to_string(shape.clients);
  if (shape.stale_read) command += " --stale-read";
  command += " --seed " + std::to_string(shape.seed);
  return command;
}

std::string crash_storm_file_name(const generators::CrashStormShape& shape) {
  return "crash-storm-" + std::to_string(shape.operations) + "-" + std::to_string(shape.crashed_writes) + "-" +
         std::to_string(shape.seed) + (shape.stale_read ? "-stale" : "") + ".edn";
}

int run_generate_command(const GenerateCommandOptions& options) {
  if (options.family.empty()) {
    throw UsageError("generate needs a family, e.g. 'ariadne generate crash-storm'; families: crash-storm");
  }
  check_batch_options(options);
  if (!options.out_dir) {
    const std::string text = crash_storm_file(options.crash_storm);
    if (options.output) {
      write_file(*options.output, text);
    } else {
      std::fwrite(text.data(), 1, text.size(), stdout);
      std::fflush(stdout);
    }
    return 0;
  }

  const fs::path directory(*options.out_dir);
  std::error_code error;
  fs::create_directories(directory, error);
  if (error) throw UsageError("cannot create " + directory.string() + ": " + error.message());
  generators::CrashStormShape shape = options.crash_storm;
  for (std::size_t i = 0; i < options.count; ++i, ++shape.seed) {
    const fs::path file = directory / crash_storm_file_name(shape);
    write_file(file, crash_storm_file(shape));
    // One path per line, so a script can pick up exactly the files written.
    std::printf("%s\n", file.string().c_str());
  }
  std::fflush(stdout);
  return 0;
}

}  // namespace ariadne::cli
