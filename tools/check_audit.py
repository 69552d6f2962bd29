#!/usr/bin/env python3
"""Median wall and CPU time of `dotc check` and `dotc audit` on one generated log, with builds
side by side (issue 16: the audit of a legal log against its check).

Usage: tools/check_audit.py DIR RUNS BIN [BIN...]

DIR holds `game.dotc` and its scenario (e.g. `target/size-table/legal-100000`, made by
`tools/size_table.py` or `target/release/examples/gen_log legal 100000 DIR`). Each round runs
`check` then `audit` with every build in turn, so a change in the machine's load falls on all
of them; RUNS rounds, then the medians. The figures to read are the ratios within one run.
"""
import os
import resource
import statistics
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    folder, runs = sys.argv[1], int(sys.argv[2])
    builds = [os.path.abspath(b) for b in sys.argv[3:]]
    results = {}
    for _ in range(runs):
        for build in builds:
            for command in ["check", "audit"]:
                start = time.perf_counter()
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                subprocess.run([build, command, "game.dotc"], cwd=folder,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                results.setdefault((build, command), []).append((time.perf_counter() - start, cpu))
    for build in builds:
        wall = {c: statistics.median(r[0] for r in results[(build, c)]) for c in ["check", "audit"]}
        cpu = {c: statistics.median(r[1] for r in results[(build, c)]) for c in ["check", "audit"]}
        print(f"{os.path.basename(build):14} check {wall['check']:.3f}s audit {wall['audit']:.3f}s "
              f"ratio {wall['audit'] / wall['check']:.2f}  (cpu: {cpu['check']:.3f} {cpu['audit']:.3f} "
              f"ratio {cpu['audit'] / cpu['check']:.2f})")


if __name__ == "__main__":
    main()
