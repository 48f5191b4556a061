#include "backends/registry.h"

#include <mutex>
#include <stdexcept>

namespace splgen::backends {

namespace {

struct Registry {
  std::mutex mutex;
  std::vector<std::unique_ptr<Backend>> backends;
};

Registry &registry() {
  static Registry r;
  return r;
}

}  // namespace

void register_backend(std::unique_ptr<Backend> backend) {
  if (!backend) throw std::invalid_argument("register_backend: no backend");
  Registry &r = registry();
  std::lock_guard lock(r.mutex);
  for (const auto &b : r.backends)
    if (b->name() == backend->name()) throw std::invalid_argument("backend '" + backend->name() + "' is already registered");
  r.backends.push_back(std::move(backend));
}

const Backend *find_backend(const std::string &name) {
  Registry &r = registry();
  std::lock_guard lock(r.mutex);
  for (const auto &b : r.backends)
    if (b->name() == name) return b.get();
  return nullptr;
}

std::vector<const Backend *> registered_backends() {
  Registry &r = registry();
  std::lock_guard lock(r.mutex);
  std::vector<const Backend *> out;
  for (const auto &b : r.backends) out.push_back(b.get());
  return out;
}

}  // namespace splgen::backends
