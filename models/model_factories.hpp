// Constructors of the built-in models, one per model file, for the registry.
// Each takes the initial state (nil = the model's default) and throws UsageError
// when it has the wrong shape.
#pragma once

#include <ariadne/model.hpp>

#include <memory>

namespace ariadne::models {

std::unique_ptr<Model> make_register(const Value& init);
std::unique_ptr<Model> make_cas_register(const Value& init);
std::unique_ptr<Model> make_multi_register(const Value& init);
std::unique_ptr<Model> make_mutex(const Value& init);
std::unique_ptr<Model> make_set(const Value& init);
std::unique_ptr<Model> make_unordered_queue(const Value& init);
std::unique_ptr<Model> make_fifo_queue(const Value& init);
std::unique_ptr<Model> make_stack(const Value& init);
std::unique_ptr<Model> make_priority_queue(const Value& init);
std::unique_ptr<Model> make_max_priority_queue(const Value& init);
std::unique_ptr<Model> make_kv(const Value& init);
std::unique_ptr<Model> make_etcd(const Value& init);

}  // namespace ariadne::models
