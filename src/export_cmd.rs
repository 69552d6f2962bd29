//! `dotc export FILE`: the typed model of a file, as JSON or YAML, for other tools.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::ValueEnum;
use dotc_lang::analyze;

use crate::{read, render};

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    pub file: PathBuf,
    #[arg(long = "to", value_enum, default_value_t = ExportFormat::Json)]
    pub to: ExportFormat,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ExportFormat {
    Json,
    Yaml,
}

pub fn export(args: &ExportArgs) -> Result<ExitCode, String> {
    let path = &args.file;
    let source = read(path)?;
    let analysis = analyze(path, &source, &crate::files::InputLoader);
    if analysis.has_errors() {
        let name = path.display().to_string();
        eprint!("{}", render(&analysis.diagnostics, &name, &source));
        return Ok(ExitCode::from(1));
    }
    let model = dotc_lang::model::export(&analysis, &source);
    let text = match args.to {
        ExportFormat::Json => serde_json::to_string_pretty(&model).map_err(|e| e.to_string())? + "\n",
        ExportFormat::Yaml => serde_norway::to_string(&model).map_err(|e| e.to_string())?,
    };
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}
