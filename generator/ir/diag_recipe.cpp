#include "generator/ir/diag_recipe.h"

namespace splgen {

int64_t diag_size(const DiagRecipe &r) {
  switch (r.kind) {
    case DiagRecipe::Kind::Chirp: return r.n;
    case DiagRecipe::Kind::ChirpSpectrum: return r.M;
    case DiagRecipe::Kind::RaderSpectrum: return r.n - 2;
    case DiagRecipe::Kind::None: break;
  }
  return 0;
}

}  // namespace splgen
