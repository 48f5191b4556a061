#!/usr/bin/env python3
# The model (splgen model, docs/mpi.md "The model") against measured distributed runs:
#   scripts/mpi_model_check.py SPLGEN SEQ.txt MPI.txt COPY_GBS [CORES]
# SEQ.txt: `splgen bench --sizes ...` output (the sequential kernel at the ranks' sizes); MPI.txt:
# `splgen bench --target mpi ...` output (several runs may be concatenated); COPY_GBS: the
# machine's copy bandwidth (read + write). Node speed = the sequential Gflop/s at N/P, memory =
# COPY_GBS, both shared when P ranks exceed CORES (default 2); network = the run's all-to-all
# GB/s; latency 1 us. Prints model/measured per row.
import math, re, subprocess, sys
splgen = sys.argv.pop(1)
cores = int(sys.argv[4]) if len(sys.argv) > 4 else 2
seq = {}   # n -> Gflop/s of the sequential kernel
for line in open(sys.argv[1]):
    m = re.match(r'\s*(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+', line)
    if m: seq[int(m.group(1))] = float(m.group(2))
copy = float(sys.argv[3])
P = None
for line in open(sys.argv[2]):
    m = re.match(r'# (\d+) ranks', line)
    if m: P = int(m.group(1)); continue
    m = re.match(r'(DFT\([^)]*\))\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)x\s+\S+\s+([\d.]+)', line)
    if not m: continue
    spec, N, gf, ratio, a2a = m.group(1), int(m.group(2)), float(m.group(4)), float(m.group(6)), float(m.group(7))
    measured = 5 * N * math.log2(N) / (gf * 1e9)
    local = N // P
    node = seq.get(local, seq[max(k for k in seq if k <= local)])
    share = min(1.0, cores / P)              # a core's share per rank
    out = subprocess.run([splgen, 'model', spec, '--ranks', str(P), '--node-gflops', str(node * share),
                          '--memory-gbs', str(copy * share), '--link-gbits', str(a2a * 8), '--latency-us', '1'],
                         capture_output=True, text=True).stdout
    row = [l for l in out.splitlines() if re.match(r'\s*%d\s' % P, l)][0].split()
    predicted = float(row[4]) / 1e3
    print(f"{P} ranks {spec:24s} measured {measured*1e3:8.1f} ms  model {predicted*1e3:8.1f} ms  model/measured {predicted/measured:5.2f}  (vs FFTW-MPI {ratio:.2f}x, node {node*share:.1f} Gflop/s, a2a {a2a} GB/s)")
