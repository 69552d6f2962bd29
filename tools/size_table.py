#!/usr/bin/env python3
"""Every command against the size of the log: check, fmt, export, replay and audit of generated game
logs of 10k, 100k and 1M lines, from both generators, with wall time, peak memory (max RSS) and the
growth exponent from one size to the next; optionally beside another build of dotc (the one before a
change), run interleaved with this one so that both see the same load.

    cargo build --release --bin dotc --example gen_log
    python3 tools/size_table.py [RUNS] [SIZES...]
    DOTC_BEFORE=/path/to/old/dotc python3 tools/size_table.py [RUNS] [SIZES...]

RUNS (default 3) runs of each command, interleaved (every command once with each build, then
again), so all see the same load; the table gives the median wall time and the largest RSS. SIZES
default to 10000 100000 1000000. A command still running after SIZE_TABLE_LIMIT seconds (default
300) is stopped, shown as "> 300" and not run again. The logs are written once into
target/size-table/ by `examples/gen_log.rs`:

- `random`: `lang/benches/support/log.rs`, dice and claims drawn at random, so the audit finds a
  great deal (its findings are part of the work measured);
- `legal`: `tools/legal_log.rs`, a rules-legal game that audits clean, so the replay plays every
  action in full.

The exponent k of a command between two sizes is log(t2 / t1) / log(n2 / n1): 1.0 is linear, 2.0
quadratic. "x check" is the command's time over `check`'s on the same log, with the same build.
Results: BENCHMARKS.md, "Every command against the size of the log".
"""
import math
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOTC = os.path.join(ROOT, "target", "release", "dotc")
BEFORE = os.environ.get("DOTC_BEFORE")
GEN = os.path.join(ROOT, "target", "release", "examples", "gen_log")
OUT = os.path.join(ROOT, "target", "size-table")
LIMIT = float(os.environ.get("SIZE_TABLE_LIMIT", "300"))
COMMANDS = ["check", "fmt", "export", "replay", "audit"]


def log_for(kind: str, lines: int) -> str:
    folder = os.path.join(OUT, f"{kind}-{lines}")
    path = os.path.join(folder, "game.dotc")
    if not os.path.exists(path):
        subprocess.run([GEN, kind, str(lines), folder], check=True)
    return path


def run(binary: str, args: list, cwd: str) -> tuple:
    """Wall seconds and max RSS (KiB) of one run, from wait4's resource usage; (None, rss) when it
    ran past LIMIT seconds and was stopped."""
    start = time.perf_counter()
    with open(os.devnull, "wb") as null:
        proc = subprocess.Popen([binary] + args, cwd=cwd, stdout=null, stderr=null)
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - start > LIMIT:
                proc.kill()
                _, status, usage = os.wait4(proc.pid, 0)
                return None, usage.ru_maxrss
            time.sleep(0.002)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"{binary} {' '.join(args)} in {cwd}: exit {code}")
    return wall, usage.ru_maxrss


def measure(builds: dict, folder: str, runs: int) -> dict:
    """For each build and command: (median wall or None, peak RSS KiB)."""
    times = {(b, c): [] for b in builds for c in COMMANDS}
    rss = {(b, c): 0 for b in builds for c in COMMANDS}
    for _ in range(runs):
        for command in COMMANDS:
            for build, binary in builds.items():
                if None in times[(build, command)]:
                    continue  # stopped once: not run again
                wall, peak = run(binary, [command, "game.dotc"], folder)
                times[(build, command)].append(wall)
                rss[(build, command)] = max(rss[(build, command)], peak)
    return {k: (None if None in t else statistics.median(t), rss[k]) for k, t in times.items()}


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    sizes = [int(s) for s in sys.argv[2:]] or [10_000, 100_000, 1_000_000]
    for tool in (DOTC, GEN) + ((BEFORE,) if BEFORE else ()):
        if not os.path.exists(tool):
            sys.exit(f"{tool} is missing: cargo build --release --bin dotc --example gen_log")
    builds = {"after": DOTC, "before": BEFORE} if BEFORE else {"now": DOTC}
    rows = {}
    for kind in ("random", "legal"):
        for lines in sizes:
            path = log_for(kind, lines)
            # Counted a megabyte at a time: a child's peak RSS starts from this process's own at
            # the fork (Linux keeps the high-water mark across exec), so it must stay small.
            count = 0
            with open(path, "rb") as f:
                while chunk := f.read(1 << 20):
                    count += chunk.count(b"\n")
            rows[(kind, lines)] = (count, os.path.getsize(path), measure(builds, os.path.dirname(path), runs))
            print(f"{kind} {lines}: done", file=sys.stderr)
    print(f"Runs: {runs} of each command and build, interleaved; median wall seconds; peak RSS in MB")
    print("and in bytes per byte of the log; k, the growth exponent from the size before.\n")
    head = "| log | lines | MB | command |"
    rule = "|---|---:|---:|---|"
    for build in builds:
        head += f" {build} s | x check | RSS MB | B/B | k |"
        rule += "---:|---:|---:|---:|---:|"
    print(head)
    print(rule)
    for kind in ("random", "legal"):
        for i, lines in enumerate(sizes):
            count, size, result = rows[(kind, lines)]
            for command in COMMANDS:
                line = f"| {kind} | {count} | {size / 1e6:.1f} | {command} |"
                for build in builds:
                    wall, peak = result[(build, command)]
                    check = result[(build, "check")][0]
                    k = ""
                    if i > 0 and wall is not None:
                        p_count, _, p_result = rows[(kind, sizes[i - 1])]
                        p_wall = p_result[(build, command)][0]
                        if p_wall:
                            k = f"{math.log(wall / p_wall) / math.log(count / p_count):.2f}"
                    shown = f"> {LIMIT:.0f}" if wall is None else f"{wall:.3f}"
                    ratio = f"{wall / check:.2f}" if wall is not None and check else ""
                    line += f" {shown} | {ratio} | {peak / 1024:.0f} | {peak * 1024 / size:.1f} | {k} |"
                print(line)


if __name__ == "__main__":
    main()
