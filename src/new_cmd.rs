//! `dotc new scenario NAME`: a new file from the commented skeleton of
//! `lang/templates/new-scenario.dotc`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;

use crate::write_atomically;

#[derive(Subcommand, Debug)]
pub enum NewKind {
    /// A scenario skeleton, written to NAME.dotc (or the path given with --output).
    Scenario {
        /// The scenario's title; also the file name, lower-cased with dashes.
        name: String,
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
}

const SCENARIO_TEMPLATE: &str = include_str!("../lang/templates/new-scenario.dotc");

pub fn new_scenario(name: &str, output: Option<PathBuf>) -> Result<ExitCode, String> {
    let slug: String = name
        .chars()
        .map(|c| if c.is_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let path = output.unwrap_or_else(|| {
        PathBuf::from(format!("{}.dotc", if slug.is_empty() { "scenario" } else { &slug }))
    });
    if path.exists() {
        return Err(format!("{} already exists; choose another name or --output", path.display()));
    }
    let title = name.replace('\\', "\\\\").replace('"', "\\\"");
    let text = SCENARIO_TEMPLATE.replace("{{NAME}}", &title);
    write_atomically(&path, &text, false)?;
    eprintln!("wrote {}; check it with `dotc check {}`", path.display(), path.display());
    Ok(ExitCode::SUCCESS)
}
