#!/usr/bin/env python3
"""A season at once: `dotc audit DIR/` over 1,000 game logs with 1 and with 2 threads.

Writes a season folder (the tutorial scenario and 1,000 copies of its shipped game log, the
even ones with one claim wrong so that half the logs have a finding to report), then runs
`dotc audit season -j 1` and `-j 2` in turn, RUNS times each (default 5), interleaved so that
both see the same load, and prints each run's wall time, the medians and their ratio.

    cargo build --release && python3 tools/season_bench.py [RUNS]

Results: BENCHMARKS.md, "The season audit".
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOTC = os.path.join(ROOT, "target", "release", "dotc")
LOGS = 1000


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    if not os.path.exists(DOTC):
        sys.exit("build it first: cargo build --release")
    with tempfile.TemporaryDirectory() as tmp:
        season = os.path.join(tmp, "season")
        os.makedirs(season)
        shutil.copy(os.path.join(ROOT, "scenarios/tutorial/fence-line.dotc"), season)
        with open(os.path.join(ROOT, "scenarios/tutorial/fence-line-game.dotc"), encoding="utf-8") as f:
            log = f.read()
        wrong = log.replace("roll [5] => 4", "roll [5] => 3", 1)
        if wrong == log:
            sys.exit("the tutorial log no longer has `roll [5] => 4`: update the bench")
        for i in range(LOGS):
            with open(os.path.join(season, f"game-{i:04}.dotc"), "w", encoding="utf-8") as f:
                f.write(wrong if i % 2 == 0 else log)
        times = {1: [], 2: []}
        for _ in range(runs):
            for jobs in (1, 2):
                start = time.perf_counter()
                done = subprocess.run([DOTC, "audit", "season", "-j", str(jobs)], cwd=tmp,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                elapsed = time.perf_counter() - start
                last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
                times[jobs].append(elapsed)
                print(f"-j {jobs}: {elapsed:.3f} s  ({last})")
        one, two = statistics.median(times[1]), statistics.median(times[2])
        print(f"median -j 1: {one:.3f} s, {LOGS / one:.0f} logs/s")
        print(f"median -j 2: {two:.3f} s, {LOGS / two:.0f} logs/s")
        print(f"speed-up with 2 threads: {one / two:.2f}x")


if __name__ == "__main__":
    main()
