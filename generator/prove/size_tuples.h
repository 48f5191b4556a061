// The size tuples the rule checker tries (generator/prove/checker.h): tuples of positive
// integers with product at most a bound, in order of increasing sum, then lexicographically,
// produced one at a time: a rule with many size variables never materialises the product
// (20 variables up to 512 are billions of tuples).
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

namespace splgen::prove {

// Calls visit(tuple) for each tuple of `length` positive integers with product <= bound, in
// the order above, until visit returns false or `max_tuples` tuples were visited. Returns
// the number visited.
int64_t for_each_size_tuple(std::size_t length, int64_t bound, int64_t max_tuples,
                            const std::function<bool(const std::vector<int64_t> &)> &visit);

}  // namespace splgen::prove
