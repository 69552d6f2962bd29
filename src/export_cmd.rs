//! `dotc export FILE`: the typed model of a file, as JSON or YAML, for other tools.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::ValueEnum;
use dotc_lang::analyze;

use crate::output::{self, Format, schema};
use crate::{read, render};

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The file whose model to print; `-` is standard input.
    pub file: PathBuf,
    /// Output format: json or yaml, the document of docs/schemas/export.schema.json.
    // `--to` is the hidden old spelling (issue 21).
    #[arg(long = "format", alias = "to", value_enum, value_name = "FORMAT", default_value_t = ExportFormat::Json)]
    pub format: ExportFormat,
}

/// `dotc export` has no text form: the model is for tools.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ExportFormat {
    Json,
    Yaml,
}

pub fn export(args: &ExportArgs) -> Result<ExitCode, String> {
    let source = read(&args.file)?;
    let path = crate::files::named(&args.file);
    let analysis = analyze(path, &source, &crate::files::InputLoader);
    if analysis.has_errors() {
        let name = path.display().to_string();
        eprint!("{}", render(&analysis.diagnostics, &name, &source));
        return Ok(ExitCode::from(1));
    }
    let model = dotc_lang::model::export(&analysis, &source);
    let format = match args.format {
        ExportFormat::Json => Format::Json,
        ExportFormat::Yaml => Format::Yaml,
    };
    output::print_document(format, schema::EXPORT, &model)?;
    Ok(ExitCode::SUCCESS)
}
