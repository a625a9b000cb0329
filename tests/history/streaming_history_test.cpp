// read_history (memory-mapped, events paired as they stream past) against the
// two-step path build_history(read_events(...)): the same operations, field by field,
// for every history under corpus/ and the shared corpora's files, in every format
// the file converts to.
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include "history/mapped_file.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace ariadne;

namespace {

void require_same(const History& a, const History& b) {
  REQUIRE(a.ops.size() == b.ops.size());
  CHECK(a.event_count == b.event_count);
  for (std::size_t i = 0; i < a.ops.size(); ++i) {
    const Operation& x = a.ops[i];
    const Operation& y = b.ops[i];
    INFO("op ", i);
    REQUIRE(x.id == y.id);
    REQUIRE(x.process == y.process);
    REQUIRE(x.f == y.f);
    REQUIRE(x.value == y.value);
    REQUIRE(x.invoke_value == y.invoke_value);
    REQUIRE(x.key == y.key);
    REQUIRE(x.status == y.status);
    REQUIRE(x.call == y.call);
    REQUIRE(x.ret == y.ret);
    REQUIRE(x.index == y.index);
    REQUIRE(x.call_pos.line == y.call_pos.line);
    REQUIRE(x.call_pos.column == y.call_pos.column);
    REQUIRE(x.ret_pos.line == y.ret_pos.line);
    REQUIRE(x.ret_pos.column == y.ret_pos.column);
  }
}

// The model each corpus file names in its "; model:" header, if any.
std::string model_of(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line) && line.starts_with(";")) {
    if (line.starts_with("; model: ")) return line.substr(9);
  }
  return {};
}

}  // namespace

TEST_CASE("read_history gives the operations build_history(read_events) gives, for every corpus file") {
  const std::filesystem::path corpus = std::filesystem::path(ARIADNE_SOURCE_DIR) / "corpus";
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(corpus)) {
    if (entry.path().extension() != ".edn") continue;
    const std::string spec = model_of(entry.path());
    if (spec.empty()) continue;
    const auto model = make_model_from_spec(spec);
    const std::string path = entry.path().string();
    INFO(path);
    History two_step;
    try {
      two_step = build_history(read_events(path), *model);
    } catch (const InputError& e) {
      // A file that is bad input must be bad input the same way.
      CHECK_THROWS_WITH_AS(read_history(path, *model), e.what(), InputError);
      continue;
    }
    require_same(read_history(path, *model), two_step);
    ++files;
  }
  MESSAGE(files, " corpus files compared");
  CHECK(files > 20);
}

TEST_CASE("parse_history agrees with the two-step path in every format") {
  const auto model = make_model_from_spec("register(0)");
  const std::string edn =
      "{:process 0, :type :invoke, :f :write, :value 1}\n"
      "{:process 1, :type :invoke, :f :read, :value nil}\n"
      "{:process :nemesis, :type :info, :f :start, :value nil}\n"
      "{:process 0, :type :ok, :f :write, :value 1}\n"
      "{:process 1, :type :info, :f :read, :value nil}\n"
      "{:process 2, :type :invoke, :f :write, :value 2}\n"
      "{:process 2, :type :fail, :f :write, :value 2}\n";
  const EventLog log = parse_events(edn, "test.edn");
  for (Format format : {Format::edn, Format::jepsen_log, Format::json}) {
    INFO(format_name(format));
    const std::string text = format_events(log, format);
    require_same(parse_history(text, "t", *model, format), build_history(parse_events(text, "t", format), *model));
    require_same(parse_history(text, "t", *model), build_history(parse_events(text, "t"), *model));
  }
}

TEST_CASE("a mapped file reads the same after its pages are released") {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "ariadne-mapped-file-test.txt";
  std::string content;
  for (int i = 0; i < 300'000; ++i) content += "line " + std::to_string(i) + "\n";
  std::ofstream(path, std::ios::binary) << content;
  MappedFile file(path.string());
  REQUIRE(file.text() == content);
  file.release_before(content.size() / 2);
  file.release_before(content.size() / 4);  // going back is harmless
  file.release_before(content.size() * 2);  // so is going past the end
  CHECK(file.text() == content);            // released pages read back from the file
  std::filesystem::remove(path);
  CHECK_THROWS_AS(MappedFile("/nonexistent/ariadne"), InputError);
}
