// splgen runtime: a team of persistent worker threads and a spin-then-wait barrier, for
// kernels generated with `--threading team` (builds without OpenMP). Header-only, C++17,
// the standard library only. Installed as <splgen/runtime/thread_team.h>.
//
// A kernel runs one parallel region per call:
//   splgen::runtime::ThreadTeam &team = splgen::runtime::thread_team(P);
//   team.run([&](long worker) { ...stage...; team.barrier(); ...stage... });
// thread_team() gives each calling thread its own team (per size), so kernels may be called
// from several user threads at once; the workers live until the calling thread exits.
#pragma once
#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace splgen::runtime {

namespace detail {

// Spins a while (a barrier between FFT stages is usually reached within microseconds), then
// yields and finally blocks, so more workers than cores still make progress.
template <class Ready>
void spin_then_wait(Ready ready, std::mutex &m, std::condition_variable &cv) {
  constexpr int kSpins = 1 << 12, kYieldAfter = 1 << 6;
  for (int i = 0; i < kSpins; ++i) {
    if (ready()) return;
    if (i >= kYieldAfter) std::this_thread::yield();
  }
  std::unique_lock<std::mutex> lock(m);
  cv.wait(lock, ready);
}

}  // namespace detail

// A reusable barrier for a fixed number of threads (sense reversal by generation count).
class Barrier {
 public:
  explicit Barrier(int threads) : threads_(threads) {}
  void wait() {
    const unsigned generation = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads_) {
      arrived_.store(0, std::memory_order_relaxed);  // nobody passes before the bump below
      {
        std::lock_guard<std::mutex> lock(mutex_);
        generation_.store(generation + 1, std::memory_order_release);
      }
      cv_.notify_all();
      return;
    }
    detail::spin_then_wait([&] { return generation_.load(std::memory_order_acquire) != generation; }, mutex_, cv_);
  }

 private:
  const int threads_;
  std::atomic<int> arrived_{0};
  std::atomic<unsigned> generation_{0};
  std::mutex mutex_;
  std::condition_variable cv_;
};

// size - 1 persistent threads plus the caller as worker 0.
class ThreadTeam {
 public:
  explicit ThreadTeam(int size) : size_(size < 1 ? 1 : size), barrier_(size_) {
    for (int w = 1; w < size_; ++w) threads_.emplace_back([this, w] { work(w); });
  }
  ~ThreadTeam() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
      job_.fetch_add(1, std::memory_order_release);
    }
    job_cv_.notify_all();
    for (std::thread &t : threads_) t.join();
  }
  ThreadTeam(const ThreadTeam &) = delete;
  ThreadTeam &operator=(const ThreadTeam &) = delete;

  int size() const { return size_; }

  // Runs body(worker) on every worker, the caller being worker 0; returns when all are done.
  template <class Body>
  void run(Body &&body) {
    using B = std::remove_reference_t<Body>;
    done_.store(0, std::memory_order_relaxed);
    task_ = [](void *context, long worker) { (*static_cast<B *>(context))(worker); };
    context_ = static_cast<void *>(&body);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_.fetch_add(1, std::memory_order_release);
    }
    job_cv_.notify_all();
    body(0L);
    detail::spin_then_wait([&] { return done_.load(std::memory_order_acquire) == size_ - 1; }, mutex_, done_cv_);
  }

  // Every worker of a run() calls it at the same points.
  void barrier() { barrier_.wait(); }

 private:
  void work(int worker) {
    unsigned seen = 0;
    while (true) {
      detail::spin_then_wait([&] { return job_.load(std::memory_order_acquire) != seen; }, mutex_, job_cv_);
      seen = job_.load(std::memory_order_acquire);
      if (stop_) return;
      task_(context_, worker);
      if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 == size_ - 1) {
        std::lock_guard<std::mutex> lock(mutex_);  // the caller may be about to block
        done_cv_.notify_all();
      }
    }
  }

  const int size_;
  Barrier barrier_;
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable job_cv_, done_cv_;
  std::atomic<unsigned> job_{0};
  std::atomic<int> done_{0};
  bool stop_ = false;  // written under mutex_ before the job_ bump that workers acquire
  void (*task_)(void *, long) = nullptr;
  void *context_ = nullptr;
};

// The calling thread's team of `size` workers, created on first use.
inline ThreadTeam &thread_team(int size) {
  thread_local std::map<int, std::unique_ptr<ThreadTeam>> teams;
  std::unique_ptr<ThreadTeam> &team = teams[size];
  if (!team) team = std::make_unique<ThreadTeam>(size);
  return *team;
}

}  // namespace splgen::runtime
