//! `dotc check FILE...`: every diagnostic of each file; exit 1 if any has an error.

use std::path::PathBuf;
use std::process::ExitCode;

use dotc_lang::diagnostic::{Diagnostic, shorten_quotes};
use dotc_lang::lines::LineIndex;
use dotc_runtime::check::check_diagnostics;

use crate::output::{Format, FormatArgs};
use crate::{files, render};

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The .dotc files to check (scenarios, game logs, libraries); `-` is standard input.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub format: FormatArgs,
}

/// Check each file and print its diagnostics (JSON or YAML for tools: one list of every file's,
/// `docs/schemas/check.schema.json`); exit 1 if any has an error.
pub fn check(args: &CheckArgs) -> Result<ExitCode, String> {
    let format = args.format.get();
    let mut failed = false;
    let mut json = Vec::new();
    for given in &args.files {
        let path = files::named(given);
        // Text that is not UTF-8 is one located diagnostic over what could be decoded.
        let (source, diagnostics) = match files::read(given) {
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
        match format {
            Format::Text => {
                if !diagnostics.is_empty() {
                    eprint!("{}", render(&diagnostics, &name, &source));
                }
            }
            Format::Json | Format::Yaml => {
                let lines = LineIndex::new(&source);
                for d in &diagnostics {
                    json.push(diagnostic_json(d, &name, &source, &lines));
                }
            }
        }
    }
    // A bare list, as it always was: version 1 of `dotc.check` has no room for its name (see
    // docs/cli.md, "Schemas and versions").
    if format != Format::Text {
        print!("{}", crate::output::data(format, &json)?);
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
