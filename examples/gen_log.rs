//! Writes a generated game log and the scenario it plays, for `tools/size_table.py` and for
//! trying the replay on a long game by hand.
//!
//! `cargo run --release --example gen_log -- legal 100000 DIR` writes `DIR/game.dotc` (a
//! rules-legal game, `tools/legal_log.rs`) and `DIR/fence-line.dotc` (the tutorial scenario with
//! its turns raised to match); `random` instead of `legal` writes the benchmarks' other log, whose
//! dice and claims are drawn at random (`lang/benches/support/log.rs`).

use std::path::PathBuf;
use std::process::ExitCode;

#[path = "../tools/legal_log.rs"]
mod legal;
#[allow(dead_code)] // its line count is for the benchmarks
#[path = "../lang/benches/support/log.rs"]
mod log;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(kind), Some(lines), Some(dir)) =
        (args.first(), args.get(1).and_then(|n| n.parse::<usize>().ok()), args.get(2))
    else {
        eprintln!("usage: gen_log legal|random LINES DIR");
        return ExitCode::from(2);
    };
    let (text, scenario) = match kind.as_str() {
        "legal" => {
            let (text, turns) = legal::generate_legal_log(lines);
            (text, legal::scenario_with_turns(turns))
        }
        "random" => {
            let (text, turns) = log::generate_log(lines);
            (text, log::scenario_with_turns(turns))
        }
        other => {
            eprintln!("gen_log: unknown kind {other:?}: legal or random");
            return ExitCode::from(2);
        }
    };
    let dir = PathBuf::from(dir);
    let written = std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::write(dir.join("game.dotc"), &text))
        .and_then(|()| std::fs::write(dir.join(legal::SCENARIO_FILE), scenario));
    match written {
        Ok(()) => {
            eprintln!(
                "wrote {} ({} lines, {} bytes)",
                dir.join("game.dotc").display(),
                text.lines().count(),
                text.len()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("gen_log: {}: {e}", dir.display());
            ExitCode::FAILURE
        }
    }
}
