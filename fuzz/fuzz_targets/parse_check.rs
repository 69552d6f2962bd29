//! Parse, lower and check arbitrary input; for a game log, against an in-memory scenario.
//! Nothing may panic, overflow the stack or hang.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

struct Scenario;

impl dotc_lang::Loader for Scenario {
    fn load(&self, _path: &Path) -> Result<String, String> {
        Ok(include_str!("../../scenarios/tutorial/fence-line.dotc").to_string())
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else { return };
    let analysis = dotc_lang::analyze(Path::new("fuzz/input.dotc"), source, &Scenario);
    if let (Some(scenario), Some(names)) = (&analysis.document.scenario, analysis.names.as_ref()) {
        let _ = dotc_runtime::check::check_scenario(scenario, names, &analysis.rule_data);
    }
    // Rendering must cope with every span the checks produce.
    let _ = dotc_lang::diagnostic::render_plain(&analysis.diagnostics, "input.dotc", source);
});
