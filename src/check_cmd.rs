//! `dotc check FILE...`: every diagnostic of each file; exit 1 if any has an error.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::ValueEnum;
use dotc_lang::diagnostic::{Diagnostic, shorten_quotes};
use dotc_lang::lines::LineIndex;
use dotc_runtime::check::check_diagnostics;

use crate::{files, render};

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The .dotc files to check (scenarios, game logs, libraries).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Output format: human-readable text, or JSON for tools.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum OutputFormat {
    Human,
    Json,
}

/// Check each file and print its diagnostics (JSON for tools); exit 1 if any has an error.
pub fn check(args: &CheckArgs) -> Result<ExitCode, String> {
    let mut failed = false;
    let mut json = Vec::new();
    for path in &args.files {
        // Text that is not UTF-8 is one located diagnostic over what could be decoded.
        let (source, diagnostics) = match files::read(path) {
            Ok(source) => {
                // The language's checks, the rules-aware ones and a library's scripts compiled:
                // `check_file`'s diagnostics (shared with the language server and the tests),
                // a long game log's worked out a stretch of turns at a time (issue 16).
                let diagnostics = check_diagnostics(path, &source, &files::InputLoader);
                (source, diagnostics)
            }
            Err(files::ReadFailure::Message(message)) => return Err(message),
            Err(files::ReadFailure::NotUtf8 { diagnostic, lossy }) => (lossy, vec![*diagnostic]),
        };
        failed |= diagnostics.iter().any(Diagnostic::is_error);
        let name = path.display().to_string();
        match args.format {
            OutputFormat::Human => {
                if !diagnostics.is_empty() {
                    eprint!("{}", render(&diagnostics, &name, &source));
                }
            }
            OutputFormat::Json => {
                let lines = LineIndex::new(&source);
                for d in &diagnostics {
                    json.push(diagnostic_json(d, &name, &source, &lines));
                }
            }
        }
    }
    if args.format == OutputFormat::Json {
        let text = serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?;
        println!("{text}");
    }
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// A diagnostic for tools: positions as 1-based lines and columns as well as byte offsets.
fn diagnostic_json(d: &Diagnostic, file: &str, source: &str, lines: &LineIndex) -> serde_json::Value {
    let position = |offset: usize| {
        let (line, column) = lines.line_col(source, offset);
        serde_json::json!({ "offset": offset, "line": line, "column": column })
    };
    let label = |l: &dotc_lang::diagnostic::Label| serde_json::json!({ "start": position(l.span.start), "end": position(l.span.end), "text": shorten_quotes(&l.text) });
    serde_json::json!({
        "file": file,
        "code": d.code,
        "severity": d.severity,
        // A huge token is quoted short, as in the text output.
        "message": shorten_quotes(&d.message),
        "primary": label(&d.primary),
        "secondary": d.secondary.iter().map(label).collect::<Vec<_>>(),
        "help": d.help,
        "rule": d.rule,
        "fix": d.fix.as_ref().map(|f| serde_json::json!({
            "start": position(f.span.start), "end": position(f.span.end), "replacement": f.replacement
        })),
    })
}
