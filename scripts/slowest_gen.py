#!/usr/bin/env python3
"""Times `splgen gen "DFT(n)"` for the sizes n <= 2^20 likely to be the slowest to generate
(docs/cli.md, "Size limits"; issue 17: every such n under 1 s).

Timing all primes above 2^19 would take hours, so the candidates are chosen by what costs:
  - Bluestein primes: the time grows with the convolution size M (the least 2^a, 3 2^a or
    5 2^a >= 2p - 1): the largest and smallest prime of each band of M from 2^19 on;
  - Rader primes whose p - 1 has a large prime factor q (nested Rader or Bluestein of q),
    and the largest primes (p - 1 smooth: one Rader of about 2^20 points);
  - composites with a large prime factor (2 x 524269 ...) and smooth composites
    (2^20, 3^12, 5^8, 7^7, 1000 x 1000, 2^20 - 1).

Usage: scripts/slowest_gen.py [--splgen build/splgen] [--isa avx2 ...] [--top N] [--list]
Prints one line per size and ISA, slowest first: wall and CPU seconds (user + system; the
wall time of a loaded machine is mostly waiting), source size, n, why it was chosen.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

LIMIT = 1 << 20


def primes_upto(n):
    sieve = bytearray([1]) * (n + 1)
    sieve[0:2] = b"\0\0"
    for i in range(2, int(n**0.5) + 1):
        if sieve[i]:
            sieve[i * i :: i] = bytearray(len(sieve[i * i :: i]))
    return [i for i in range(n + 1) if sieve[i]]


def largest_prime_factor(n):
    f, largest = 2, 1
    while f * f <= n:
        while n % f == 0:
            largest, n = f, n // f
        f += 1
    return max(largest, n) if n > 1 else largest


def bluestein_size(n):  # generator/rewrite/functions.cpp
    best = 0
    for odd in (1, 3, 5):
        m = odd
        while m < 2 * n - 1:
            m *= 2
        best = m if best == 0 or m < best else best
    return best


def candidates():
    primes = primes_upto(LIMIT)
    big = [p for p in primes if p > LIMIT // 2]
    out = {}
    bands = {}
    for p in big:
        bands.setdefault(bluestein_size(p), []).append(p)
    for m, ps in sorted(bands.items()):
        out[ps[-1]] = f"largest prime of Bluestein M = {m}"
        out[ps[0]] = f"smallest prime of Bluestein M = {m}"
    # p - 1 = small * q, q a large prime: Rader over a DFT(q) that is itself Rader or Bluestein
    nested = sorted(big, key=lambda p: -largest_prime_factor(p - 1))[:4]
    for p in nested:
        out.setdefault(p, f"p - 1 has the prime factor {largest_prime_factor(p - 1)}")
    for p in big[-3:]:
        out.setdefault(p, "one of the largest primes")
    for n, why in [
        (524287, "2^19 - 1, the largest prime of Bluestein M = 2^20"),
        (1000003, "a Bluestein prime of M = 2^21 (p - 1 = 2 3 166667)"),
        (2 * 524269, "2 x 524269 (a large prime factor)"),
        (2 * 524287, "2 x 524287"),
        (3 * 349519, "3 x 349519"),
        (LIMIT, "2^20"),
        (LIMIT - 1, "2^20 - 1 = 3 5^2 11 31 41"),
        (3**12, "3^12"),
        (5**8, "5^8"),
        (7**7, "7^7"),
        (1000 * 1000, "1000 x 1000"),
    ]:
        out.setdefault(n, why)
    return out


def time_gen(splgen, n, isa):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "x.cpp")
        before, start = os.times(), time.monotonic()
        run = subprocess.run([splgen, "gen", f"DFT({n})", "--isa", isa, "-o", path], capture_output=True, text=True)
        wall, after = time.monotonic() - start, os.times()
        cpu = after.children_user - before.children_user + after.children_system - before.children_system
        if run.returncode != 0:
            return wall, cpu, -1, run.stderr.strip().splitlines()[-1] if run.stderr else "failed"
        return wall, cpu, os.path.getsize(path), ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--splgen", default="build/splgen")
    ap.add_argument("--isa", action="append", help="avx2 (default), avx512, scalar ...")
    ap.add_argument("--top", type=int, default=0, help="print only the N slowest")
    ap.add_argument("--list", action="store_true", help="print the candidates, time nothing")
    ap.add_argument("--sizes", help="comma-separated sizes instead of the candidates")
    args = ap.parse_args()
    chosen = {int(s): "given" for s in args.sizes.split(",")} if args.sizes else candidates()
    if args.list:
        for n, why in sorted(chosen.items()):
            print(n, why)
        return 0
    rows = []
    for isa in args.isa or ["avx2"]:
        for n, why in sorted(chosen.items()):
            wall, cpu, size, err = time_gen(args.splgen, n, isa)
            rows.append((wall, cpu, size, n, isa, why, err))
            print(f"  {n} {isa}: {wall:.2f} s ({cpu:.2f} s CPU)", file=sys.stderr, flush=True)
    rows.sort(reverse=True)
    for wall, cpu, size, n, isa, why, err in rows[: args.top or len(rows)]:
        print(f"{wall:6.2f} s ({cpu:5.2f} s CPU) {size / 1e6:7.2f} MB  DFT({n}) {isa}  {why}{'  ERROR ' + err if err else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
