// See verify_commands.hpp. Both commands trust nothing but the files they are given:
// the proof is re-encoded and checked by our DRAT checker, the witness replayed
// against the history parsed afresh.
#include "cli/verify_commands.hpp"

#include "answer/text_files.hpp"
#include "batch/witness_file.hpp"
#include "cli/header_model.hpp"
#include "cli/option_values.hpp"
#include "cli/shared_options.hpp"

#include <ariadne/certificate.hpp>
#include <ariadne/check.hpp>
#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>

#include <filesystem>
#include <iostream>

namespace ariadne::cli {

void add_verify_proof_options(CLI::App& verify, VerifyProofOptions& options) {
  verify.add_option("DIR", options.dir, "The directory check --proof wrote")->required();
}

int run_verify_proof_command(const VerifyProofOptions& options) {
  const std::string& dir = options.dir;
  if (!std::filesystem::is_directory(dir)) throw UsageError("verify-proof: " + dir + " is not a directory");
  const ProofCheck check = verify_proof(dir);
  for (const std::string& line : check.passed) std::cout << "ok    " << line << "\n";
  if (!check.valid) {
    std::cout << "FAIL  " << check.failure << "\nThe proof in " << dir << " does NOT check." << std::endl;
    return 1;
  }
  std::cout << "The proof in " << dir << " checks: the history in it is "
            << (keeps_real_time(check.consistency) ? "not linearizable" : "not sequentially consistent") << "."
            << std::endl;
  return 0;
}

void add_verify_witness_options(CLI::App& verify, VerifyWitnessOptions& options) {
  verify.add_option("FILE", options.file, "History file")->required();
  verify.add_option("-m,--model", options.model,
                    "Model name or spec (default: the model the file's header names, as Violin and LiMo logs and "
                    "fastlin histories do)");
  verify.add_option("--init", options.init, "Initial state as EDN (overrides the spec's)");
  add_format_option(verify, options.format);
  verify
      .add_option("-w,--witness", options.witness,
                  "JSON file: an array of op ids, or check --json output with its \"linearization\"")
      ->required()
      ->type_name("W.json");
}

int run_verify_witness_command(const VerifyWitnessOptions& options) {
  const Format format = choose_format(options.format);
  if (!std::filesystem::exists(options.file)) throw InputError(options.file, {}, "no such file");
  const std::optional<std::string> file_model =
      options.model.empty() ? header_model(options.file, format) : std::nullopt;
  const auto model = choose_model(model_spec_for(options.model, file_model, options.file), options.init);
  const History history = read_history(options.file, *model, format);
  const std::vector<std::uint32_t> order = batch::read_witness_file(options.witness);
  if (const auto problem = verify_linearization(history, *model, order)) {
    std::cout << "NOT A WITNESS  " << *problem << std::endl;
    return 1;
  }
  std::cout << "WITNESS OK  the " << order.size() << " ops of " << options.witness << " are a linearization of "
            << options.file << " under " << model->spec() << std::endl;
  return 0;
}

}  // namespace ariadne::cli
