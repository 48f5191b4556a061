// Parsing sizes moved to generator/support/sizes.h (splgen rules stats takes --sizes in a build
// without FFTW3 too); the measuring code keeps its names for it.
#pragma once
#include "generator/support/sizes.h"

namespace splgen::measure {

using support::kMaxBenchSize;
using support::parse_sizes;
using support::SizesError;

}  // namespace splgen::measure
