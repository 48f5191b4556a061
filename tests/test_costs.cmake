# Included by ctest (TEST_INCLUDE_FILES) after the discovered gtest cases: a COST for each
# kernel test, so that `ctest -j` starts the longest first and the last ones to finish are
# short (on 2 cores a long test started last leaves one core idle). ctest orders by COST
# until it has timings of its own (Testing/Temporary/CTestCostData.txt). The figures are
# seconds on 2 shared cores, roughly; only their order matters.
foreach(test IN LISTS kernel_tests_TESTS)
  if(test MATCHES "^Isa/SimdKernels\\.PowersOfTwo2e(15To2e20|8To2e14)/avx512")
    set(cost 300)
  elseif(test MATCHES "^Isa/SimdKernels\\.(PowersOfTwo2e15To2e20|Sizes65To128|CompositesAndPrimes)/")
    set(cost 150)
  elseif(test MATCHES "^(Isa/RealKernels|RealKernelSizes)\\.")
    set(cost 60)
  elseif(test MATCHES "^Isa/SimdKernels\\.")
    set(cost 50)
  elseif(test MATCHES "^LargePrimeKernels\\.")  # 22-53 s each under load
    set(cost 60)
  elseif(test MATCHES "^Kernels\\.(PowersOfTwo2e15To2e20|Composites|PrimesAndPrimeFactors)$")
    set(cost 40)
  else()
    set(cost 20)
  endif()
  set_tests_properties("${test}" PROPERTIES COST ${cost})
endforeach()
