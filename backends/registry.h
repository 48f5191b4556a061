// The backends a process knows, by name (docs/design.md, "Adding a backend"). The built-in ones
// are registered by generator/driver/builtin_backends.cpp; a program or a test may add more.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.h"

namespace splgen::backends {

// Adds a backend; a name registered twice is a std::invalid_argument. Thread-safe.
void register_backend(std::unique_ptr<Backend> backend);
// The backend of that name, or nullptr.
const Backend *find_backend(const std::string &name);
// Every registered backend, in order of registration.
std::vector<const Backend *> registered_backends();

}  // namespace splgen::backends
