//! `dotc explain ID`: what a diagnostic code, ruling, RULE id or Ch16 section means.

use std::process::ExitCode;

pub fn explain(id: &str) -> Result<ExitCode, String> {
    if let Some(text) = dotc_lang::catalogue::explain(id) {
        println!(
            "{}\n\n{text}",
            if id.starts_with("dotc::") { id.to_string() } else { format!("dotc::{id}") }
        );
        return Ok(ExitCode::SUCCESS);
    }
    let upper = id.to_ascii_uppercase();
    if let Some(r) = dotc_lang::rulings::RULINGS.iter().find(|r| r.id == upper || r.name == id) {
        println!(
            "RULINGS {}: ruling {} = {}\n\n{}\n\nValues: {} (default {}; the as_printed preset uses {}).",
            r.id,
            r.name,
            r.default_value(),
            r.summary,
            r.values.join(", "),
            r.default_value(),
            r.as_printed
        );
        return Ok(ExitCode::SUCCESS);
    }
    Err(format!(
        "no explanation for `{id}`; try a diagnostic code such as dotc::unknown-weapon or a ruling id such as C3"
    ))
}
