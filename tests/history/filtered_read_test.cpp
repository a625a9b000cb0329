// read_history with a filter (a key shard's read, batch/key_shards.hpp): the kept
// operations are exactly the whole read's that the filter accepts, with the same ids,
// times, values and statuses; every event is still paired, so a pairing error in an
// operation the filter drops is still an error at its place; and the model vets only
// what is kept.
#include <ariadne/history.hpp>
#include <ariadne/limits.hpp>
#include <ariadne/model.hpp>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

using namespace ariadne;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

}  // namespace

TEST_CASE("read_history with a filter keeps the accepted operations as the whole read has them") {
  const std::string text =
      "{:process 0, :type :invoke, :f :put, :key \"a\", :value \"1\"}\n"
      "{:process 1, :type :invoke, :f :get, :key \"b\", :value nil}\n"
      "{:process 0, :type :ok, :f :put, :key \"a\", :value \"1\"}\n"
      "{:process 1, :type :ok, :f :get, :key \"b\", :value \"\"}\n"
      "{:process 2, :type :invoke, :f :get, :key \"a\", :value nil}\n"
      "{:process 0, :type :invoke, :f :put, :key \"b\", :value \"2\"}\n"
      "{:process 0, :type :info, :f :put, :key \"b\", :value \"2\"}\n"
      "{:process 2, :type :ok, :f :get, :key \"a\", :value \"1\"}\n";
  const std::string file = write_temp("ariadne-filtered-read.edn", text);
  const auto model = make_model_from_spec("kv");
  const Limits limits;
  const History whole = read_history(file, *model, Format::auto_detect, limits);
  const History only_a = read_history(file, *model, Format::auto_detect, limits,
                                      [](const Operation& op) { return op.key == Value::string("a"); });
  CHECK(only_a.event_count == whole.event_count);
  std::vector<const Operation*> expected;
  for (const Operation& op : whole.ops) {
    if (op.key == Value::string("a")) expected.push_back(&op);
  }
  REQUIRE(only_a.ops.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CHECK(only_a.ops[i].id == expected[i]->id);
    CHECK(only_a.ops[i].call == expected[i]->call);
    CHECK(only_a.ops[i].ret == expected[i]->ret);
    CHECK(only_a.ops[i].status == expected[i]->status);
    CHECK(only_a.ops[i].value == expected[i]->value);
  }
  const History only_b = read_history(file, *model, Format::auto_detect, limits,
                                      [](const Operation& op) { return op.key == Value::string("b"); });
  REQUIRE(only_b.ops.size() == 2);
  CHECK(only_b.ops[1].status == OpStatus::crashed);

  // A completion that does not match its invocation is an error, kept or not.
  const std::string bad = write_temp("ariadne-filtered-read-bad.edn",
                                     "{:process 0, :type :invoke, :f :put, :key \"b\", :value \"1\"}\n"
                                     "{:process 0, :type :ok, :f :get, :key \"b\", :value \"1\"}\n");
  CHECK_THROWS_AS(read_history(bad, *model, Format::auto_detect, limits, [](const Operation&) { return false; }),
                  InputError);
  std::filesystem::remove(file);
  std::filesystem::remove(bad);
}
