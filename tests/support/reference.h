// The tests' names for the reference transforms, which live in the core library
// (generator/measure/reference.h) so that the benchmark reports accuracy the same way.
#pragma once
#include "generator/measure/reference.h"

namespace splgen::test {

using measure::accurate_dft;
using measure::convert;
using measure::fftw_dft;
using measure::fftwf_dft;
using measure::fftwl_dft;
using measure::reference_dft;
using measure::reference_dft_entry;
using measure::relative_rms_error;

}  // namespace splgen::test
