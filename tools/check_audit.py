#!/usr/bin/env python3
"""Median wall and CPU time of `dotc check` and `dotc audit` on one generated log, with builds
side by side (issue 16: the audit of a legal log against its check).

Usage: tools/check_audit.py DIR RUNS BIN [BIN...]
       DOTC_COMMANDS=check,audit,replay tools/check_audit.py DIR RUNS BIN

DOTC_COMMANDS names the commands to time (default `check,audit`); every ratio is against the
first. `replay` writes its text narrative to /dev/null, as a user's `dotc replay > file` does.

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
    commands = os.environ.get("DOTC_COMMANDS", "check,audit").split(",")
    results = {}
    for _ in range(runs):
        for build in builds:
            for command in commands:
                start = time.perf_counter()
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                subprocess.run([build, command, "game.dotc"], cwd=folder,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                results.setdefault((build, command), []).append((time.perf_counter() - start, cpu))
    base = commands[0]
    for build in builds:
        wall = {c: statistics.median(r[0] for r in results[(build, c)]) for c in commands}
        cpu = {c: statistics.median(r[1] for r in results[(build, c)]) for c in commands}
        line = f"{os.path.basename(build):14} {base} {wall[base]:.3f}s (cpu {cpu[base]:.3f}s)"
        for c in commands[1:]:
            line += (f"  {c} {wall[c]:.3f}s ratio {wall[c] / wall[base]:.2f}"
                     f" (cpu {cpu[c]:.3f}s ratio {cpu[c] / cpu[base]:.2f})")
        print(line)

if __name__ == "__main__":
    main()
