// The designs `ariadne explore` knows, by name.
#include "explore/design_explorer.hpp"
#include "explore/explorer.hpp"
#include "systems/redis_redux.hpp"
#include "systems/redis_wait.hpp"
#include "systems/redis_wait_fenced.hpp"

#include <ariadne/errors.hpp>

namespace ariadne::explore {

namespace {

void refuse_parameters(std::string_view design, const std::vector<systems::DesignParameter>& params) {
  if (!params.empty())
    throw UsageError("--param: design '" + std::string(design) + "' takes no parameters, got '" + params.front().name +
                     "'");
}

}  // namespace

std::vector<DesignInfo> design_catalogue() {
  return {
      {std::string(systems::RedisWait::name()), std::string(systems::RedisWait::summary()), ""},
      {std::string(systems::RedisWaitFenced::name()), std::string(systems::RedisWaitFenced::summary()), ""},
      {std::string(systems::RedisRedux::name()), std::string(systems::RedisRedux::summary()),
       systems::RedisRedux::parameters()},
  };
}

std::unique_ptr<Explorer> make_explorer(std::string_view name, const std::vector<systems::DesignParameter>& params) {
  if (name == systems::RedisWait::name()) {
    refuse_parameters(name, params);
    return std::make_unique<DesignExplorer<systems::RedisWait>>(systems::RedisWait{});
  }
  if (name == systems::RedisWaitFenced::name()) {
    refuse_parameters(name, params);
    return std::make_unique<DesignExplorer<systems::RedisWaitFenced>>(systems::RedisWaitFenced{});
  }
  if (name == systems::RedisRedux::name())
    return std::make_unique<DesignExplorer<systems::RedisRedux>>(systems::RedisRedux(params));
  std::string known;
  for (const DesignInfo& info : design_catalogue()) known += (known.empty() ? "" : ", ") + info.name;
  throw UsageError("unknown design '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace ariadne::explore
