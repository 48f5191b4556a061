// Calls a threaded kernel (compiled with it under ThreadSanitizer, run_tsan.sh) repeatedly and
// from 4 user threads at once, checking every result against the first: TSan reports any race
// inside the kernel or its runtime; the comparison catches a race that corrupts data.
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

extern "C" void KERNEL(double *__restrict y, const double *__restrict x);

int main() {
  const std::size_t reals = 2 * std::size_t(POINTS);
  std::vector<double> x(reals), first(reals);
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-1, 1);
  for (double &v : x) v = u(rng);
  KERNEL(first.data(), x.data());
  std::vector<int> bad(4, 0);
  std::vector<std::thread> users;
  for (int t = 0; t < 4; ++t)
    users.emplace_back([&, t] {
      std::vector<double> y(reals);
      for (int rep = 0; rep < 3; ++rep) {
        KERNEL(y.data(), x.data());
        bad[std::size_t(t)] += std::memcmp(y.data(), first.data(), reals * sizeof(double)) != 0;
      }
    });
  for (std::thread &t : users) t.join();
  int mismatches = 0;
  for (int b : bad) mismatches += b;
  std::printf("%d calls from 4 threads, %d results differ\n", 12, mismatches);
  return mismatches == 0 ? 0 : 1;
}
