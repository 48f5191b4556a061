// The DMA engines of runtime/dma.h and the file store of runtime/dma_file.h, included as a
// user of the installed package would (<splgen/runtime/...>). docs/streaming.md.
#include <gtest/gtest.h>
#include <splgen/runtime/dma.h>
#include <splgen/runtime/dma_file.h>

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <numeric>
#include <string>
#include <vector>

namespace rt = splgen::runtime;

namespace {

std::vector<double> iota(std::size_t n) {
  std::vector<double> v(n);
  std::iota(v.begin(), v.end(), 1.0);
  return v;
}

std::unique_ptr<rt::dma_engine> make_engine(const std::string &kind) {
  if (kind == "sync") return std::make_unique<rt::sync_engine>();
  return std::make_unique<rt::copy_thread_engine>();
}

std::string temp_path(const std::string &name) {
  return ::testing::TempDir() + "splgen_dma_" + std::to_string(::getpid()) + "_" + name;
}

std::string message_of(const std::function<void()> &f) {
  try {
    f();
  } catch (const std::exception &e) {
    return e.what();
  }
  return "(no error)";
}

class Engines : public ::testing::TestWithParam<std::string> {};

// A strided list in, a strided list out: the data arrive packed and go back to their places,
// and the counters say how many blocks and bytes moved and the smallest block.
TEST_P(Engines, StridedGetAndPutMoveTheBlocksAndAreCounted) {
  auto engine = make_engine(GetParam());
  std::vector<double> x = iota(64), y(64, 0.0), local(16);
  rt::memory_store ex(static_cast<const void *>(x.data()), x.size() * sizeof(double));
  rt::memory_store ey(y.data(), y.size() * sizeof(double));
  // 4 blocks of 4 doubles, 16 doubles apart, starting at element 2.
  rt::block_list list{2 * sizeof(double), 16 * sizeof(double), 4, 4 * sizeof(double)};
  engine->get(3, local.data(), ex, list);
  engine->wait(3);
  for (int b = 0; b < 4; ++b)
    for (int i = 0; i < 4; ++i) EXPECT_EQ(local[std::size_t(4 * b + i)], x[std::size_t(2 + 16 * b + i)]);
  engine->put(5, ey, list, local.data());
  engine->put(5, ey, rt::block_list{0, 0, 1, 1 * sizeof(double)}, local.data() + 1);
  engine->wait_all();
  EXPECT_EQ(y[0], x[3]);
  for (int b = 0; b < 4; ++b) EXPECT_EQ(y[std::size_t(2 + 16 * b + 3)], x[std::size_t(2 + 16 * b + 3)]);
  EXPECT_EQ(y[1], 0.0);
  const rt::transfer_stats &s = engine->stats();
  EXPECT_EQ(s.gets, 4u);
  EXPECT_EQ(s.puts, 5u);
  EXPECT_EQ(s.bytes_in, 16 * sizeof(double));
  EXPECT_EQ(s.bytes_out, 17 * sizeof(double));
  EXPECT_EQ(s.smallest_block, sizeof(double));
  engine->reset_stats();
  EXPECT_EQ(engine->stats().transfers(), 0u);
}

// Many transfers on several tags in flight at once: each wait(tag) sees its own complete.
TEST_P(Engines, ManyTagsInFlight) {
  auto engine = make_engine(GetParam());
  const std::size_t n = 1 << 14, parts = 8, part = n / parts;
  std::vector<double> x = iota(n), y(n, 0.0), local(n);
  rt::memory_store ex(static_cast<const void *>(x.data()), n * sizeof(double)), ey(y.data(), n * sizeof(double));
  for (std::size_t k = 0; k < parts; ++k)
    engine->get(int(k), local.data() + k * part, ex, rt::block_list{k * part * sizeof(double), 0, 1, part * sizeof(double)});
  for (std::size_t k = parts; k-- > 0;) {
    engine->wait(int(k));
    EXPECT_EQ(local[k * part], x[k * part]);
    engine->put(int(parts + k), ey, rt::block_list{k * part * sizeof(double), 0, 1, part * sizeof(double)},
                local.data() + k * part);
  }
  engine->wait_all();
  EXPECT_EQ(x, y);
  EXPECT_EQ(engine->stats().bytes(), 2 * n * sizeof(double));
}

// A block outside the store is refused before anything moves, in one line naming the range.
TEST_P(Engines, OutOfRangeBlockIsAOneLineError) {
  auto engine = make_engine(GetParam());
  std::vector<double> x(8), local(8);
  rt::memory_store ex(static_cast<const void *>(x.data()), x.size() * sizeof(double));
  std::string m = message_of([&] { engine->get(0, local.data(), ex, rt::block_list{32, 16, 3, 16}); });
  EXPECT_EQ(m, "splgen dma: get of bytes [32, 80) outside the external store of 64 bytes");
  EXPECT_EQ(engine->stats().transfers(), 0u);
  m = message_of([&] { engine->get(0, local.data(), ex, rt::block_list{0, 8, 2, 16}); });
  EXPECT_EQ(m, "splgen dma: get: overlapping blocks (stride 8 < block 16)");
  m = message_of([&] { engine->put(0, ex, rt::block_list{0, 0, 1, 8}, local.data()); engine->wait(0); });
  EXPECT_EQ(m, "splgen dma: put into a read-only memory store");
}

// A store that fails: the error comes back from the wait for that tag, once; other tags are fine.
struct FailingStore final : rt::external_store {
  std::uint64_t size() const override { return 1 << 20; }
  void read(void *, std::uint64_t offset, std::uint64_t) override {
    if (offset == 0) throw std::runtime_error("disk on fire");
  }
  void write(std::uint64_t, const void *, std::uint64_t) override {}
};

TEST_P(Engines, TransferErrorsComeBackFromTheirWait) {
  auto engine = make_engine(GetParam());
  FailingStore store;
  std::vector<char> local(64);
  engine->get(1, local.data(), store, rt::block_list{0, 0, 1, 8});
  engine->get(2, local.data() + 8, store, rt::block_list{64, 0, 1, 8});
  EXPECT_NO_THROW(engine->wait(2));
  EXPECT_EQ(message_of([&] { engine->wait(1); }), "disk on fire");
  EXPECT_NO_THROW(engine->wait(1));
  EXPECT_NO_THROW(engine->wait_all());
}

INSTANTIATE_TEST_SUITE_P(Dma, Engines, ::testing::Values("sync", "thread"));

// A store whose reads block until released (or a timeout passes): with the copy thread, get() returns
// while the read is still blocked, so computing overlaps the transfer.
struct GatedStore final : rt::external_store {
  explicit GatedStore(std::chrono::milliseconds t) : timeout(t) {}
  std::chrono::milliseconds timeout;
  std::mutex m;
  std::condition_variable cv;
  bool open = false, released_before_read_ended = false;
  std::uint64_t size() const override { return 64; }
  void read(void *, std::uint64_t, std::uint64_t) override {
    std::unique_lock<std::mutex> lock(m);
    released_before_read_ended = cv.wait_for(lock, timeout, [&] { return open; });
  }
  void write(std::uint64_t, const void *, std::uint64_t) override {}
  void release() {
    {
      std::lock_guard<std::mutex> lock(m);
      open = true;
    }
    cv.notify_all();
  }
};

TEST(DmaCopyThread, GetReturnsBeforeTheTransferEnds) {
  rt::copy_thread_engine engine;
  GatedStore store(std::chrono::seconds(10));
  char local[8];
  engine.get(0, local, store, rt::block_list{0, 0, 1, 8});
  store.release();  // the caller runs on while the copy thread is in read()
  engine.wait(0);
  EXPECT_TRUE(store.released_before_read_ended);
}

TEST(DmaSync, GetReturnsAfterTheTransferEnds) {
  rt::sync_engine engine;
  GatedStore store(std::chrono::milliseconds(100));
  char local[8];
  engine.get(0, local, store, rt::block_list{0, 0, 1, 8});  // waits out the gate
  store.release();
  engine.wait(0);
  EXPECT_FALSE(store.released_before_read_ended);
}

// ---- files ----

void write_file(const std::string &path, const std::vector<double> &v) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char *>(v.data()), std::streamsize(v.size() * sizeof(double)));
}

std::vector<double> read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<double> v(bytes.size() / sizeof(double));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(double));
  return v;
}

struct AlignedBuffer {
  void *p = nullptr;
  explicit AlignedBuffer(std::size_t bytes) {
    if (posix_memalign(&p, rt::file_store::kDirectAlignment, bytes) != 0) p = nullptr;
  }
  ~AlignedBuffer() { std::free(p); }
  double *data() { return static_cast<double *>(p); }
};

// File to file through local memory, both block sizes: aligned 4 KiB blocks (O_DIRECT where
// the file system has it) and odd ones (always through the page cache).
TEST_P(Engines, FileToFileThroughLocalMemory) {
  auto engine = make_engine(GetParam());
  const std::size_t n = 8192;  // 64 KiB
  const std::string in_path = temp_path("in_" + GetParam()), out_path = temp_path("out_" + GetParam());
  std::vector<double> x = iota(n);
  write_file(in_path, x);
  AlignedBuffer local(n * sizeof(double));
  ASSERT_NE(local.p, nullptr);
  {
    rt::file_store in(in_path, rt::file_store::read_only);
    rt::file_store out(out_path, rt::file_store::create, n * sizeof(double));
    EXPECT_EQ(in.size(), n * sizeof(double));
    const bool direct = in.direct_available();  // until the odd list sends all through the page cache
    // the two halves swapped, in 4 KiB blocks
    const std::uint64_t half = n * sizeof(double) / 2;
    engine->get(0, local.data(), in, rt::block_list{half, 4096, half / 4096, 4096});
    engine->get(1, local.data() + n / 2, in, rt::block_list{0, 24, half / 24, 24});
    engine->wait_all();
    engine->put(2, out, rt::block_list{0, 0, 1, 2 * half}, local.data());
    engine->wait(2);
    out.commit();
    // the 4 KiB blocks are adjacent: one direct read of the whole half
    EXPECT_EQ(in.direct_transfers(), direct ? 1u : 0u);
    EXPECT_FALSE(in.direct_available());
  }
  std::vector<double> y = read_file(out_path);
  ASSERT_EQ(y.size(), n);
  const std::size_t whole_24 = (n / 2 * sizeof(double)) / 24 * 24 / sizeof(double);  // the odd list stops short
  for (std::size_t i = 0; i < n / 2; ++i) EXPECT_EQ(y[i], x[n / 2 + i]) << i;
  for (std::size_t i = 0; i < whole_24; ++i) EXPECT_EQ(y[n / 2 + i], x[i]) << i;
  std::remove(in_path.c_str());
  std::remove(out_path.c_str());
}

// Strided lists on a file: the blocks, the transfer counts and the bytes are those of the same
// lists on memory; a list moves in one system call (docs/streaming.md, "Out of core"): aligned
// 4 KiB blocks in one AIO submission (O_DIRECT, where the file system has it), other blocks
// through the file's mapping after one fstat.
TEST_P(Engines, FileListsMoveLikeMemoryInOneCall) {
  const std::size_t n = 16384;  // 128 KiB
  const std::string path = temp_path("lists_" + GetParam());
  std::vector<double> x = iota(n), mirror = x;
  write_file(path, x);
  AlignedBuffer local(n * sizeof(double));
  ASSERT_NE(local.p, nullptr);
  struct Case {
    rt::block_list list;
    bool direct;  // aligned 4 KiB blocks
  };
  const Case cases[] = {
      {{4096, 8192, 12, 4096}, true},  // every other 4 KiB block
      {{16, 40, 300, 24}, false},      // odd, dense
      {{8, 1000, 100, 56}, false},     // odd, sparse
  };
  for (const Case &c : cases) {
    auto file_engine = make_engine(GetParam());
    auto memory_engine = make_engine(GetParam());
    rt::file_store file(path, rt::file_store::read_write);
    rt::memory_store memory(mirror.data(), n * sizeof(double));
    std::vector<double> from_memory(n);
    const bool direct = c.direct && file.direct_available();
    file_engine->get(0, local.data(), file, c.list);
    file_engine->wait(0);
    const std::uint64_t calls = file.system_calls();
    EXPECT_EQ(calls, 1u) << c.list.block_bytes;
    EXPECT_EQ(file.direct_transfers(), direct ? c.list.count : 0u);
    memory_engine->get(0, from_memory.data(), memory, c.list);
    memory_engine->wait(0);
    EXPECT_EQ(std::memcmp(local.data(), from_memory.data(), c.list.bytes()), 0) << c.list.block_bytes;
    for (std::size_t i = 0; i < c.list.bytes() / sizeof(double); ++i) local.data()[i] = -double(i), from_memory[i] = -double(i);
    file_engine->put(1, file, c.list, local.data());
    file_engine->wait(1);
    memory_engine->put(1, memory, c.list, from_memory.data());
    memory_engine->wait(1);
    EXPECT_EQ(file.system_calls() - calls, 1u);
    EXPECT_EQ(file_engine->stats().gets, memory_engine->stats().gets);
    EXPECT_EQ(file_engine->stats().puts, memory_engine->stats().puts);
    EXPECT_EQ(file_engine->stats().bytes(), memory_engine->stats().bytes());
    EXPECT_EQ(file_engine->stats().smallest_block, memory_engine->stats().smallest_block);
  }
  EXPECT_EQ(read_file(path), mirror);
  std::remove(path.c_str());
}

// A direct list on a file that shrank after opening: the batch falls back block by block and
// reports the read past the end in one line.
TEST_P(Engines, ShortFileUnderADirectListIsAOneLineError) {
  auto engine = make_engine(GetParam());
  const std::string path = temp_path("short_list_" + GetParam());
  write_file(path, iota(4096));  // 32 KiB
  rt::file_store in(path, rt::file_store::read_only);
  AlignedBuffer local(4 * 4096);
  ASSERT_NE(local.p, nullptr);
  ASSERT_EQ(::truncate(path.c_str(), 12288), 0);
  engine->get(0, local.data(), in, rt::block_list{0, 8192, 4, 4096});
  EXPECT_EQ(message_of([&] { engine->wait(0); }), path + ": too short: ended at byte 16384");
  // small blocks go through the mapping: refused before any copy, not a SIGBUS
  engine->get(0, local.data(), in, rt::block_list{8, 4000, 4, 16});  // within the 12288 bytes left
  EXPECT_EQ(message_of([&] { engine->wait(0); }), "(no error)");
  EXPECT_EQ(local.data()[2], 4000.0 / 8 + 2);  // element 501 of iota
  engine->get(0, local.data(), in, rt::block_list{8, 8000, 4, 16});
  EXPECT_EQ(message_of([&] { engine->wait(0); }), path + ": too short: needs 24024 bytes, has 12288");
  std::remove(path.c_str());
}

TEST(DmaFile, MissingAndUnwritableFilesAreOneLineErrors) {
  const std::string missing = temp_path("no_such_file");
  EXPECT_EQ(message_of([&] { rt::file_store f(missing, rt::file_store::read_only); }),
            missing + ": cannot open: No such file or directory");
  const std::string bad_dir = temp_path("no_such_dir") + "/out.bin";
  std::string m = message_of([&] { rt::file_store f(bad_dir, rt::file_store::create, 64); });
  EXPECT_EQ(m, bad_dir + ": cannot open for writing: No such file or directory");
  EXPECT_EQ(message_of([&] { rt::file_store f("/", rt::file_store::read_only); }), "/: not a regular file");
  const std::string path = temp_path("ro");
  write_file(path, iota(8));
  rt::file_store ro(path, rt::file_store::read_only);
  double v = 1;
  EXPECT_EQ(message_of([&] { ro.write(0, &v, sizeof v); }), path + ": put into a file opened read-only");
  std::remove(path.c_str());
}

// A file shorter than the kernel needs: refused before the transfer when the engine sees it,
// and by the read itself when the file shrinks after it was opened.
TEST_P(Engines, ShortFileIsAOneLineError) {
  auto engine = make_engine(GetParam());
  const std::string path = temp_path("short_" + GetParam());
  write_file(path, iota(16));
  rt::file_store in(path, rt::file_store::read_only);
  std::vector<double> local(32);
  EXPECT_EQ(message_of([&] { engine->get(0, local.data(), in, rt::block_list{0, 0, 1, 32 * sizeof(double)}); }),
            "splgen dma: get of bytes [0, 256) outside the external store of 128 bytes");
  ASSERT_EQ(::truncate(path.c_str(), 40), 0);
  engine->get(0, local.data(), in, rt::block_list{0, 0, 1, 16 * sizeof(double)});
  EXPECT_EQ(message_of([&] { engine->wait(0); }), path + ": too short: ended at byte 40");
  std::remove(path.c_str());
}

// A created file that is never committed leaves the old file as it was, and no temporary.
TEST(DmaFile, UncommittedOutputLeavesTheOldFile) {
  const std::string path = temp_path("keep");
  write_file(path, iota(4));
  {
    rt::file_store out(path, rt::file_store::create, 64);
    double zeros[8] = {};
    out.write(0, zeros, sizeof zeros);
  }  // abandoned: a failed run
  EXPECT_EQ(read_file(path), iota(4));
  EXPECT_NE(::access((path + ".tmp." + std::to_string(::getpid())).c_str(), F_OK), 0);
  {
    rt::file_store out(path, rt::file_store::create, 16);
    double two[2] = {7, 8};
    out.write(0, two, sizeof two);
    out.commit();
  }
  EXPECT_EQ(read_file(path), (std::vector<double>{7, 8}));
  std::remove(path.c_str());
}

}  // namespace
