// The loop IR that backends print: loops over integer variables, real scalar assignments,
// loads and stores of the real/imaginary parts of complex buffers, constants.
// Nodes are immutable and reference counted; Expr factories fold constants, remove
// multiplications by 0 and +-1, and canonicalise signs so equal subexpressions are shared.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "generator/ir/affine.h"
#include "generator/ir/dense.h"
#include "generator/ir/spl.h"

namespace splgen {

// ---- integer index expressions -------------------------------------------------------
enum class IdxKind { Affine, Add, Mul, Div, Mod, Lookup };
struct IdxNode;
using Idx = std::shared_ptr<const IdxNode>;
struct IdxNode {
  IdxKind kind;
  Affine affine;                                  // Affine
  Idx a, b;                                       // Add, Mul (a*b), Div/Mod (a by divisor), Lookup (table[a])
  int64_t divisor = 1;                            // Div, Mod
  std::shared_ptr<const std::vector<int64_t>> table;  // Lookup
};
Idx idx_affine(Affine a);
inline Idx idx_const(int64_t c) { return idx_affine(Affine::constant(c)); }
Idx idx_add(Idx x, Idx y);
Idx idx_scale(Idx x, int64_t c);
Idx idx_mul(Idx x, Idx y);
Idx idx_div(Idx x, int64_t d);  // floor division of a non-negative index
Idx idx_mod(Idx x, int64_t d);
Idx idx_lookup(std::shared_ptr<const std::vector<int64_t>> table, Idx i);
const Affine *as_affine(const Idx &x);  // nullptr unless affine
// x with loop variable var_id replaced by value, simplified again by the factories.
Idx substitute(const Idx &x, int var_id, const Affine &value);
bool uses_var(const Idx &x, int var_id);
// x = (terms without var_id) + var_id: consecutive values of the variable address consecutive
// elements (an affine x with coefficient 1, or sums whose one term using it is such).
bool unit_stride(const Idx &x, int var_id);
int64_t eval(const Idx &x, const Env &env);
std::string to_string(const Idx &x);

// ---- buffers --------------------------------------------------------------------------
// Complex buffers, interleaved (re, im). Input and Output are the kernel's x and y; Temp is
// local scratch; Table is a read-only constant table; Local is the local memory of a streamed
// loop (docs/streaming.md), filled and drained only by Dma statements and the compute between.
enum class BufferRole { Input, Output, Temp, Table, Local };
struct Buffer {
  int id = 0;
  BufferRole role = BufferRole::Temp;
  int64_t size = 0;  // complex elements
  std::string name;
  std::vector<cplx> values;  // Table
  // Table whose entry q is w_N^(k (q / n) (q % n)) (a twiddle diagonal T(N, n, k) in diagonal
  // order); N = 0 when the values have no such recipe. A backend may compute a large table
  // at run time from it instead of printing the values.
  // worker_stride > 0: the table is one rank's slice (lower/slice_rank_tables.h), entries
  // [worker * worker_stride, + size) of the recipe's; `values` stays the whole table.
  struct Recipe {
    int64_t N = 0, n = 0, k = 0;
    int64_t worker_stride = 0;
    // > 1: workers come in groups of this many per rank (chunk workers, docs/mpi.md
    // "Overlap"), whose slices a rank computes and keeps together
    int workers_per_rank = 1;
  } recipe;
  bool per_worker = false;  // Temp used inside a parallel loop: each worker has its own
  // Input/Output of a real transform (docs/transforms.md): one real number per element, no
  // imaginary part to load or store.
  bool real = false;
  // The input of a real DFT whose first stage reads its reals in pairs (x_2j + i x_2j+1, the
  // packing of RDFT(2m) = Post DFT(m) Pack), or the output of an inverse one whose last stage
  // writes them so: complex elements over the caller's 2 size reals.
  bool packed = false;
  // Input/Output in split format: separate arrays of real and imaginary parts (x -> xr, xi).
  bool split = false;
  // Table of a Rader or Bluestein Diag (generator/ir/diag_recipe.h): entry q is the Diag's
  // entry diag_first + diag_step q. A backend may compute a large one at run time.
  DiagRecipe diag_recipe;
  int64_t diag_first = 0, diag_step = 1;
  Spl diag_source;  // the lazy Diag (SplNode::lazy) of a table whose `values` are not computed
};

// ---- real-valued expressions ------------------------------------------------------------
enum class ExprKind { Const, Load, Scalar, Add, Sub, Mul, Neg };
struct ExprNode;
using Expr = std::shared_ptr<const ExprNode>;
struct ExprNode {
  ExprKind kind;
  double value = 0;   // Const
  int buffer = -1;    // Load
  Idx index;          // Load (complex element)
  int part = 0;       // Load: 0 real, 1 imaginary
  int scalar = -1;    // Scalar: a variable assigned by Stmt::Assign
  Expr a, b;
  std::size_t hash = 0;
};
bool same(const Expr &x, const Expr &y);  // structural equality
struct ExprHash {
  std::size_t operator()(const Expr &e) const { return e->hash; }
};
struct ExprSame {
  bool operator()(const Expr &x, const Expr &y) const { return same(x, y); }
};
Expr e_const(double v);
Expr e_load(int buffer, Idx index, int part);
Expr e_scalar(int scalar);
Expr e_add(Expr x, Expr y);
Expr e_sub(Expr x, Expr y);
Expr e_mul(Expr x, Expr y);
Expr e_neg(Expr x);
bool is_const(const Expr &e, double v);

// ---- statements -------------------------------------------------------------------------
enum class StmtKind { Block, For, Assign, Store, Dma, DmaWait };
// How a printer declares an assigned scalar; decided by generator/lower/scope_declarations.h.
// Unscoped: not decided yet. Plain: an assignment to a variable declared before (in an
// enclosing scope, or hoisted to the top of the function: Function::hoisted_scalars). Local:
// declares a block-local variable. ConstLocal: the same, assigned only here.
enum class ScalarDecl { Unscoped, Plain, Local, ConstLocal };
// An explicit block transfer (Cell paper sec. 3.2; docs/streaming.md): `count` blocks of
// `block` complex elements between the external buffer StmtNode::buffer, block b at element
// StmtNode::index + b * stride, and the local buffer `local`, packed from local_index on.
// A get moves external -> local, a put local -> external; both are issued with `tag` and are
// complete only after a DmaWait on that tag (interpret() does them at once: same meaning).
struct DmaTransfer {
  bool get = true;
  int local = -1;
  Idx local_index, tag;  // DmaWait: tag only
  int64_t stride = 0, count = 1, block = 0;
};
struct StmtNode;
using Stmt = std::shared_ptr<const StmtNode>;
struct StmtNode {
  StmtKind kind;
  std::vector<Stmt> body;  // Block
  LoopVar var;             // For: 0 <= var < var.extent
  int vector_width = 1;    // For: > 1 runs var in groups of this many SIMD lanes, in lockstep
  bool parallel = false;   // For: iterations shared out among the workers (Sum_par), a barrier after
  Stmt loop_body;          // For
  int scalar = -1;         // Assign: scalar = value; `declare` introduces it
  bool declare = true;
  ScalarDecl decl = ScalarDecl::Unscoped;  // Assign
  Expr value;              // Assign, Store
  int buffer = -1;         // Store; Dma: the external buffer
  Idx index;               // Store; Dma: the external element of the first block
  int part = 0;            // Store
  DmaTransfer dma;         // Dma, DmaWait
};
Stmt make_block(std::vector<Stmt> body);  // flattens nested blocks
Stmt make_for(LoopVar var, Stmt body);    // a loop of extent 0 is an empty block
// A loop whose iterations run vector_width at a time, statement by statement in lockstep
// (see generator/lower/vectorize_loops.h). The extent is a multiple of vector_width, or below
// it: one group with the lanes from the extent on masked off (AVX-512 masks, is_masked).
Stmt make_vector_for(LoopVar var, Stmt body, int vector_width);
// A loop whose iterations the workers of a parallel region share out (a Sum_par of
// Sigma-SPL): contiguous blocks of iterations per worker, a barrier after the loop. Only at
// the top level of a function body (no nested parallel regions); its body is sequential.
Stmt make_parallel_for(LoopVar var, Stmt body);
// A vector loop of fewer iterations than lanes (make_vector_for).
inline bool is_masked(const StmtNode &loop) { return loop.vector_width > 1 && loop.var.extent < loop.vector_width; }
Stmt make_assign(int scalar, Expr value, bool declare = true, ScalarDecl decl = ScalarDecl::Unscoped);
Stmt make_store(int buffer, Idx index, int part, Expr value);
// A Dma statement (DmaTransfer): checks count, block >= 1 and stride >= block when count > 1.
Stmt make_dma(int external, Idx index, DmaTransfer transfer);
Stmt make_dma_wait(Idx tag);

// A whole kernel: y = M x for an rows x cols formula.
struct Function {
  std::string name;
  int64_t rows = 0, cols = 0;
  std::vector<Buffer> buffers;  // index = Buffer::id; buffers[0] = x, buffers[1] = y
  int scalars = 0;              // scalar variables are numbered 0 .. scalars-1
  Stmt body;
  // The most workers a parallel loop of the body asks for (its extent); 1: no parallel loop.
  int workers = 1;
  // Set by generator/lower/scope_declarations.h: every Assign has its ScalarDecl, and these
  // scalars (some access lies outside any declaring assignment's scope) are declared once at
  // the top of the function, initialised to 0 as interpret() does, in order of first access.
  bool scalars_scoped = false;
  std::vector<int> hoisted_scalars;
  // Streamed loops (Sum_stream): the tags their transfers use are 0 .. dma_tags-1; 0: none.
  int dma_tags = 0;
  // One buffer for x and y (docs/transforms.md, "Layouts"): the body reads and writes y only;
  // interpret() starts with y = x.
  bool in_place = false;
};
// The bytes of local memory the function's Local buffers take (complex elements of `real_bytes` parts).
int64_t local_memory_bytes(const Function &f, int64_t real_bytes);
constexpr int kInputBuffer = 0, kOutputBuffer = 1;

// Evaluates a function on an input vector (reference semantics for tests and `verify`).
std::vector<cplx> interpret(const Function &f, const std::vector<cplx> &x);
// A table's entries: `values`, or those of its lazy Diag (computed now, if not yet).
std::vector<cplx> table_values(const Buffer &b);
// As rank `rank` of a distributed kernel runs it (SPMD): a parallel loop runs only its
// iteration `rank`.
std::vector<cplx> interpret(const Function &f, const std::vector<cplx> &x, int64_t rank);
// The function's matrix, column by column from unit vectors.
Matrix to_dense(const Function &f);

// Human-readable dump (for --dump-after=loops).
std::string to_string(const Function &f);

}  // namespace splgen
