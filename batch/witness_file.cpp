// Reading a witness file; see witness_file.hpp.
#include "batch/witness_file.hpp"

#include "answer/text_files.hpp"

#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>
#include <ariadne/value.hpp>

namespace ariadne::batch {

std::vector<std::uint32_t> read_witness_file(const std::string& path) {
  const Value document = parse_json_value(answer::read_text_file(path, "no such file"), path);
  const Value* order = &document;
  if (document.is_map()) {
    order = document.find(Value::string("linearization"));
    if (!order) throw InputError(path, {}, "expected a \"linearization\" field (an array of op ids)");
  }
  if (!order->is_sequential()) throw InputError(path, {}, "expected an array of op ids");
  std::vector<std::uint32_t> ids;
  for (const Value& id : order->elements()) {
    if (!id.is_integer() || id.as_integer() < 0 || id.as_integer() > UINT32_MAX) {
      throw InputError(path, {}, "expected op ids (whole numbers), got " + id.to_edn());
    }
    ids.push_back(static_cast<std::uint32_t>(id.as_integer()));
  }
  return ids;
}

}  // namespace ariadne::batch
