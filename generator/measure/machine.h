// Facts about the machine a measurement was taken on, for benchmark reports.
#pragma once
#include <string>

namespace splgen::measure {

// The "model name" of /proc/cpuinfo ("AMD EPYC 7763 64-Core Processor"); "unknown CPU" elsewhere.
std::string cpu_model();

// The current time in UTC, ISO 8601: "2024-05-01T12:34:56Z".
std::string utc_timestamp();

}  // namespace splgen::measure
