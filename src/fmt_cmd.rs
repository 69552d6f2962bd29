//! `dotc fmt FILE...`: print files in canonical layout, or check or rewrite them in place.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::files::{self, WriteOptions};
use crate::{read, render};

#[derive(clap::Args, Debug)]
pub struct FmtArgs {
    /// The files to format; `-` is standard input (printed or checked, not rewritten).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Exit 1 if any file is not already formatted; print nothing else.
    #[arg(long, conflicts_with = "write")]
    pub check: bool,
    /// Rewrite the files in place (atomically: a crash never leaves half a file).
    #[arg(long)]
    pub write: bool,
    /// With --write, also rewrite read-only files (they stay read-only).
    #[arg(long, requires = "write")]
    pub force: bool,
}

pub fn fmt(args: &FmtArgs) -> Result<ExitCode, String> {
    if args.write && args.files.iter().any(|f| files::is_stdin(f)) {
        return Err("`dotc fmt --write` rewrites files in place, and standard input (`-`) is no file: \
                    leave out --write to print the formatted text"
            .to_string());
    }
    let mut status = ExitCode::SUCCESS;
    for path in &args.files {
        let source = read(path)?;
        let name = files::named(path).display().to_string();
        let formatted = match dotc_lang::format::format(&source) {
            Ok(text) => text,
            Err(diagnostics) => {
                eprint!("{}", render(&diagnostics, &name, &source));
                eprintln!("error: {name} has syntax errors; not formatted");
                status = ExitCode::from(1);
                continue;
            }
        };
        if args.check {
            if formatted != source && files::is_stdin(path) {
                eprintln!("{name} is not formatted (`dotc fmt -` prints it formatted)");
                status = ExitCode::from(1);
            } else if formatted != source {
                eprintln!("{name} is not formatted (run `dotc fmt --write {name}`)");
                status = ExitCode::from(1);
            }
        } else if args.write {
            if formatted != source {
                files::write(path, formatted.as_bytes(), WriteOptions { force: args.force, in_place: true })?;
            }
        } else {
            print!("{formatted}");
        }
    }
    Ok(status)
}
