#!/usr/bin/env python3
"""Median wall and CPU time of `dotc replay` on one log under the rulings' defaults and with one
switch set, side by side in one run (dotc D53's cost: BENCHMARKS.md).

Usage: tools/ruling_cost.py DIR RUNS BIN NAME=VALUE

DIR holds `game.dotc` and its scenario (`target/release/examples/gen_log legal 100000 DIR`).
Each round replays the log (its rules trace to /dev/null) under the defaults, then with
`--ruling NAME=VALUE`, so a change in the machine's load falls on both; RUNS rounds, then the
medians and the ratio of CPU time, the figure to read.
"""
import os
import resource
import statistics
import subprocess
import sys
import time


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    folder, runs, switch = sys.argv[1], int(sys.argv[2]), sys.argv[4]
    build = os.path.abspath(sys.argv[3])
    modes = {"defaults": [], switch: ["--ruling", switch]}
    results = {mode: [] for mode in modes}
    for _ in range(runs):
        for mode, extra in modes.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run([build, "replay", "game.dotc", "--rules", *extra], cwd=folder,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            results[mode].append((wall, cpu))
    cpu = {}
    for mode, times in results.items():
        cpu[mode] = statistics.median(t[1] for t in times)
        wall = statistics.median(t[0] for t in times)
        print(f"{mode}: wall median {wall:.3f} s, cpu median {cpu[mode]:.3f} s")
    print(f"cpu ratio defaults / {switch}: {cpu['defaults'] / cpu[switch]:.3f}")


if __name__ == "__main__":
    main()
