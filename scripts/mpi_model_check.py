#!/usr/bin/env python3
# The model (splgen model, docs/mpi.md "The model") against measured distributed runs:
#   scripts/mpi_model_check.py SPLGEN MPI.txt
# MPI.txt: `splgen bench --target mpi ...` output (several runs may be concatenated). Each row
# carries the model's inputs, measured in the same run with every rank at it at once (as the
# kernel's ranks share the machine): node = `node Gflop/s` (the sequential DFT of a rank's N/P
# points), memory = `copy GB/s` (a copy of a rank's part, read + write), network = `a2a GB/s`;
# latency 1 us. Prints model/measured per row and the model's steps.
import math, re, subprocess, sys

splgen, table = sys.argv[1], sys.argv[2]
P = None
row_re = re.compile(r'(DFT\([^)]*\))\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)x\s+\S+\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$')
for line in open(table):
    m = re.match(r'# (\d+) ranks', line)
    if m:
        P = int(m.group(1))
        continue
    m = row_re.match(line)
    if not m:
        continue
    spec, N, gf, ratio = m.group(1), int(m.group(2)), float(m.group(4)), float(m.group(6))
    a2a, node, copy = float(m.group(7)), float(m.group(8)), float(m.group(9))
    measured = 5 * N * math.log2(N) / (gf * 1e9)
    out = subprocess.run([splgen, 'model', spec, '--ranks', str(P), '--node-gflops', str(node), '--memory-gbs', str(copy),
                          '--link-gbits', str(a2a * 8), '--latency-us', '1'], capture_output=True, text=True, check=True).stdout
    row = [l for l in out.splitlines() if re.match(r'\s*%d\s' % P, l)][0].split()
    predicted = float(row[4]) / 1e3
    steps = ' '.join(row[7:])
    print(f"{P} ranks {spec:24s} measured {measured*1e3:8.1f} ms  model {predicted*1e3:8.1f} ms  "
          f"model/measured {predicted/measured:5.2f}  (vs FFTW-MPI {ratio:.2f}x; node {node} Gflop/s, copy {copy} GB/s, "
          f"a2a {a2a} GB/s; model steps ms: {steps})")
