#!/usr/bin/env python3
"""Every command against the size of the log: check, fmt, export, replay and audit of generated game
logs of 10k, 100k and 1M lines, from both generators, with wall time, peak memory (max RSS) and the
growth exponent from one size to the next.

    cargo build --release --bin dotc --example gen_log
    python3 tools/size_table.py [RUNS] [SIZES...]

RUNS (default 3) runs of each command, interleaved (every command once, then again), so all see the
same load; the table gives the median wall time and the largest RSS. SIZES default to 10000 100000
1000000. The logs are written once into target/size-table/ by `examples/gen_log.rs`:

- `random`: `lang/benches/support/log.rs`, dice and claims drawn at random, so the audit finds a
  great deal (its findings are part of the work measured);
- `legal`: `tools/legal_log.rs`, a rules-legal game that audits clean, so the replay plays every
  action in full.

The exponent k of a command between two sizes is log(t2 / t1) / log(n2 / n1): 1.0 is linear, 2.0
quadratic. "x check" is the command's time over `check`'s on the same log. Results: BENCHMARKS.md,
"Every command against the size of the log".
"""
import math
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# DOTC_BIN runs another build (the one before a change) against the same logs.
DOTC = os.environ.get("DOTC_BIN") or os.path.join(ROOT, "target", "release", "dotc")
GEN = os.path.join(ROOT, "target", "release", "examples", "gen_log")
OUT = os.path.join(ROOT, "target", "size-table")
COMMANDS = [
    ("check", ["check"]),
    ("fmt", ["fmt"]),
    ("export", ["export"]),
    ("replay", ["replay"]),
    ("audit", ["audit"]),
]


def log_for(kind: str, lines: int) -> str:
    folder = os.path.join(OUT, f"{kind}-{lines}")
    path = os.path.join(folder, "game.dotc")
    if not os.path.exists(path):
        subprocess.run([GEN, kind, str(lines), folder], check=True)
    return path


def run(args: list, cwd: str) -> tuple:
    """Wall seconds and max RSS (KiB) of one run, from wait4's resource usage."""
    start = time.perf_counter()
    with open(os.devnull, "wb") as null:
        proc = subprocess.Popen([DOTC] + args, cwd=cwd, stdout=null, stderr=null)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"dotc {' '.join(args)} in {cwd}: exit {code}")
    return wall, usage.ru_maxrss


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    sizes = [int(s) for s in sys.argv[2:]] or [10_000, 100_000, 1_000_000]
    for tool in (DOTC, GEN):
        if not os.path.exists(tool):
            sys.exit("build first: cargo build --release --bin dotc --example gen_log")
    rows = {}
    for kind in ("random", "legal"):
        for lines in sizes:
            path = log_for(kind, lines)
            folder = os.path.dirname(path)
            size = os.path.getsize(path)
            with open(path, "rb") as f:
                count = f.read().count(b"\n")
            times = {name: [] for name, _ in COMMANDS}
            rss = {name: 0 for name, _ in COMMANDS}
            for _ in range(runs):
                for name, args in COMMANDS:
                    wall, peak = run(args + ["game.dotc"], folder)
                    times[name].append(wall)
                    rss[name] = max(rss[name], peak)
            rows[(kind, lines)] = (count, size, {n: statistics.median(t) for n, t in times.items()}, rss)
            print(f"{kind} {lines}: done", file=sys.stderr)
    print(f"Runs: {runs} of each command, interleaved; median wall seconds; peak RSS in MB and bytes per input byte.\n")
    print("| log | lines | bytes | command | wall s | x check | RSS MB | RSS B/B | k (from the size before) |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---:|")
    for kind in ("random", "legal"):
        for i, lines in enumerate(sizes):
            count, size, med, rss = rows[(kind, lines)]
            for name, _ in COMMANDS:
                k = ""
                if i > 0:
                    p_count, _, p_med, _ = rows[(kind, sizes[i - 1])]
                    k = f"{math.log(med[name] / p_med[name]) / math.log(count / p_count):.2f}"
                ratio = med[name] / med["check"]
                mb = rss[name] / 1024
                per_byte = rss[name] * 1024 / size
                print(
                    f"| {kind} | {count} | {size} | {name} | {med[name]:.3f} | {ratio:.2f} | {mb:.0f} | {per_byte:.1f} | {k} |"
                )


if __name__ == "__main__":
    main()
