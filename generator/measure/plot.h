// A benchmark's result as an SVG plot in the style of FFTW's benchFFT: pseudo-Gflop/s (y)
// against log2(n) (x), one polyline with markers per implementation, a legend, and a title
// naming the spec, isa, precision and CPU. Written with fmt; valid standalone XML.
#pragma once
#include <string>

#include "generator/measure/bench.h"

namespace splgen::measure {

std::string format_svg(const BenchResult &result);

// "1", "2", "2.5", "5", "10", ... : a round step that cuts [0, max] into at most about 8 ticks.
double nice_step(double max);

// s with &, <, >, " and ' escaped for XML text and attributes.
std::string xml_escape(const std::string &s);

}  // namespace splgen::measure
