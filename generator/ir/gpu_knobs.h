// The parameters of the GPU form (docs/cuda.md, "Parameters"), in one place (genfft style):
// what `gen --target cuda` chooses by default, `--gpu-knobs "k=v,..."` overrides and
// `search --target cuda` explores. The text form is what wisdom files store and what the search
// prints, so a user can copy it back into gen.
#pragma once
#include <cstdint>
#include <string>

namespace splgen {

// When a global buffer goes through shared memory although the group's accesses are ones a
// warp could make straight (a row read with unit stride by the lanes).
enum class GpuStaging {
  Warp,    // unless a stage has at least a warp (32) of lanes stepping through it with unit stride
  Sector,  // unless the lanes with unit stride fill whole 32-byte sectors (2 double2, 4 float2)
};

struct GpuKnobs {
  // Shared memory a block may use: 96 KiB, what the GPUs from Volta (sm_70) on grant a block
  // that asks, but Turing (sm_75, 64 KiB); `--arch` gives each its own (gpu_arch_shared_bytes).
  // Beyond 48 KiB the kernel asks with cudaFuncSetAttribute (CUDA programming guide,
  // "Compute capabilities").
  int64_t shared_bytes = 96 * 1024;
  // Threads a block aims at when groups are small: 4 warps, the smallest block that keeps an
  // SM's schedulers busy with several blocks resident (CUDA best-practices guide, occupancy).
  int block_threads = 128;
  // Threads per block of a kernel whose groups are single lanes.
  int grid_block_threads = 256;
  // Threads of one group at most (the GPU paper's threads per transform): a stage with more
  // lanes gives each thread several. 1024, CUDA's most per block.
  int group_threads = 1024;
  // __launch_bounds__'s second argument: blocks per SM the compiler keeps registers for
  // (0: none asked, the compiler's choice).
  int min_blocks = 0;
  GpuStaging staging = GpuStaging::Warp;
  // A group's last writes of y go straight to global memory (when that stage writes every
  // element of the group's row with coalesced stores), not through its shared copy.
  bool direct_stores = false;
  // Shared rows padded and swizzled against bank conflicts (gpu_program.h, shared_row_elements).
  bool padding = true;
  // Twiddle tables of up to this many entries are printed as __device__ arrays; larger ones are
  // computed where they are read (sincospi). 0: every table computed.
  int64_t max_table = 4096;
  // The four-step's largest factor, the largest transform one group holds (driver/gpu_spec.h):
  // 1024, so that 2^20 is two passes and the input and output rows of 2 (double) or 4 (float)
  // groups fit 96 KiB of shared memory, 32 bytes of each column per block read at a time.
  int64_t factor_max = 1024;
  // 0: a composite DFT(m) (x) I(k) (the four-step's column pass) runs as flat passes over
  // codelets, one grid-stride kernel each. c > 0: in blocks of c adjacent columns, each block a
  // group that runs all of DFT(m)'s stages in shared memory (one kernel, one pass over the data).
  int64_t columns = 0;
  // Set by the driver from the precision: 4 (float) or 8 (double).
  int real_bytes = 8;
  bool operator==(const GpuKnobs &) const = default;
};

// "block=128,grid_block=256,group=1024,min_blocks=0,staging=warp,stores=staged,padding=on,
// table=4096,factor=1024,shared=98304": every knob, in this order.
std::string to_string(const GpuKnobs &k);
// KNOBS with the assignments of `text` ("k=v,k=v", any subset, any order, or none) applied; a
// std::invalid_argument naming the key or value and its column (1-based) when one is wrong.
GpuKnobs parse_gpu_knobs(const std::string &text, GpuKnobs knobs = {});

// The shared memory a block of compute capability `arch` ("sm_90", "90", "compute_90") may ask
// for (the programming guide's table: 227 KiB on sm_90 and sm_100, 163 KiB on sm_80 and
// sm_87, 99 KiB on sm_86/89/120, 96 KiB on sm_70/72, 64 KiB on sm_75);
// std::invalid_argument for another name.
int64_t gpu_arch_shared_bytes(const std::string &arch);

}  // namespace splgen
