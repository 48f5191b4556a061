// The real DFT's packing z_j = x_2j + i x_2j+1 (@rdft_pack, the first stage of rdft_half) and
// unpacking y_2j = Re z_j, y_2j+1 = Im z_j (@irdft_unpack, the last of irdft_half) are no
// passes: the 2m reals are m interleaved complex values, same bytes, so the stage next to
// them reads (writes) them as such (docs/transforms.md, "How real data lives in the IR";
// the packed buffers of generator/ir/loops.h). In a batch, I(B) (x) RDFT(2m) is a loop over
// the transforms whose body packs transform b: that packing becomes a gather of m complex
// values from the packed x (B m of them) at b m, so a batch reads its reals in pairs too.
#pragma once
#include "generator/ir/sigma.h"

namespace splgen::lower {

struct PackedIo {
  Sigma body;                          // s without the packing and unpacking stages
  bool input = false, output = false;  // which of them were there: x (y) is then packed
};

// real_in / real_out: whether the kernel's x / y are real (RealIo) and may be read (written)
// packed. s is the formula, or a loop over a batch whose body is one transform's formula.
PackedIo strip_packing(const Sigma &s, bool real_in, bool real_out);

}  // namespace splgen::lower
