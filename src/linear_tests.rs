//! Every command's reporting grows linearly with the log, however many findings it has
//! (issue 16): `check`, `audit` and `replay` as text and as JSON, `luck`, `export` and
//! `fmt --check`, on generated logs of 10,000 and 100,000 lines with findings on every turn. Growth is measured by counting work, not by timing: the
//! placing work of `dotc_lang::lines::work` (indexing, lookups, the bytes miette reads to draw
//! each diagnostic, the findings the replay's narrative looks at) and every allocation this thread makes (the allocator below), so
//! the test gives the same verdict on a loaded machine. A quadratic path (a line found by
//! counting from the top of the file, a copy of the file per diagnostic) makes the ratio between
//! the two sizes about 100 instead of about 10.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::{Path, PathBuf};

use clap::Parser;

#[path = "../lang/benches/support/log.rs"]
#[allow(dead_code)]
mod log;

/// The system allocator, counting this thread's allocations and the bytes they ask for.
struct Counting;

thread_local! {
    static ALLOCATED: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
}

// SAFETY: every call is passed to the system allocator unchanged; the count is a thread-local
// `Cell` without a destructor, which allocates nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: the caller's layout, as given.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: allocated by `System` in `alloc` or `realloc` above.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: the caller's layout, as given.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        // SAFETY: the caller's pointer and layout, as given.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

fn count(bytes: usize) {
    let _ = ALLOCATED.try_with(|a| {
        let (n, b) = a.get();
        a.set((n + 1, b + bytes as u64));
    });
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The work one command did on this thread.
#[derive(Debug, Clone, Copy)]
struct Work {
    lines: u64,
    allocations: u64,
    allocated: u64,
}

fn measure(args: &[&str]) -> Work {
    let cli = crate::Cli::try_parse_from(args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    let (lines, (allocations, allocated)) = (dotc_lang::lines::work::done(), ALLOCATED.with(Cell::get));
    let code = crate::run(cli);
    assert!(code.is_ok(), "{args:?}: {code:?}");
    let after = ALLOCATED.with(Cell::get);
    Work {
        lines: dotc_lang::lines::work::done() - lines,
        allocations: after.0 - allocations,
        allocated: after.1 - allocated,
    }
}

/// Two game logs of about `lines` lines and their scenario, written under `dir`: the
/// benchmarks' generated game, whose dice are random, so that the audit finds something in every
/// turn; and the same with one brigadier's name misspelt in every turn, so that `check` does.
/// (A log `check` finds errors in is not replayed.)
fn write_games(dir: &Path, lines: usize) -> (PathBuf, PathBuf, usize) {
    let (text, turns) = log::generate_log(lines);
    let mut misspelt = String::with_capacity(text.len());
    for (i, turn) in text.split("\nturn ").enumerate() {
        if i > 0 {
            misspelt.push_str("\nturn ");
        }
        misspelt.push_str(&turn.replacen("\"Col. Asa Hollister\"", "\"Col. Asa Holister\"", 1));
    }
    std::fs::write(dir.join("fence-line.dotc"), log::scenario_with_turns(turns)).expect("write the scenario");
    let (audited, checked) =
        (dir.join(format!("game-{lines}.dotc")), dir.join(format!("misspelt-{lines}.dotc")));
    std::fs::write(&audited, &text).expect("write the log");
    std::fs::write(&checked, &misspelt).expect("write the misspelt log");
    (audited, checked, turns as usize)
}

#[test]
fn check_and_audit_report_in_linear_work_with_a_finding_on_every_turn() {
    let dir = std::env::temp_dir().join(format!("dotc-linear-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let (small, small_misspelt, small_turns) = write_games(&dir, 10_000);
    let (large, large_misspelt, large_turns) = write_games(&dir, 100_000);
    let grew = large_turns as f64 / small_turns as f64;
    for command in [
        ["dotc", "check", "--format", "human"],
        ["dotc", "check", "--format", "json"],
        ["dotc", "audit", "--format", "text"],
        ["dotc", "audit", "--format", "json"],
        ["dotc", "replay", "--format", "text"],
        ["dotc", "replay", "--format", "json"],
        ["dotc", "luck", "--format", "text"],
        ["dotc", "export", "--to", "json"],
        ["dotc", "fmt", "--check", ""],
    ] {
        let run = |path: &Path| {
            let path = path.to_str().expect("a UTF-8 temporary path");
            let args = [command[0], command[1], path, command[2], command[3]];
            measure(&args[..if command[3].is_empty() { 4 } else { 5 }])
        };
        let (a, b) = match command[1] {
            "check" => (run(&small_misspelt), run(&large_misspelt)),
            _ => (run(&small), run(&large)),
        };
        eprintln!("{command:?}: 10k lines {a:?}; 100k lines {b:?}");
        eprintln!("{command:?}: bytes allocated grew {:.1}x", b.allocated as f64 / a.allocated.max(1) as f64);
        // Bytes allocated are printed, not judged: the test harness captures what the commands
        // print into one buffer on this thread, whose doublings (counted here by their new size)
        // depend on everything printed before. Their number stays logarithmic.
        for (what, a, b) in
            [("placing work", a.lines, b.lines), ("allocations", a.allocations, b.allocations)]
        {
            if a == 0 {
                // A command that finds no line or column (fmt --check) must not start to.
                assert_eq!(b, 0, "{command:?}: {what} from nothing");
                assert_ne!(what, "allocations", "{command:?}: no allocations measured");
                continue;
            }
            let ratio = b as f64 / a as f64;
            // Linear is about `grew` (10); anything quadratic is about 100.
            assert!(
                ratio < 1.5 * grew,
                "{command:?}: {what} grew {ratio:.1}x for {grew:.1}x the turns ({a} -> {b})"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
