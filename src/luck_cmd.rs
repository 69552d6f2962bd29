//! `dotc luck GAME.dotc`: how each side's dice compared with the exact odds.

use std::process::ExitCode;

use dotc_lang::diagnostic::Diagnostic;

#[derive(clap::Args, Debug)]
pub struct LuckArgs {
    /// The game log whose dice to weigh.
    pub file: std::path::PathBuf,
}

pub fn luck(
    args: &LuckArgs,
    _render: impl Fn(&[Diagnostic], &str, &str) -> String,
) -> Result<ExitCode, String> {
    Err(format!("{}: `dotc luck` is being built", args.file.display()))
}
