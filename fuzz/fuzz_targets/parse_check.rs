//! Check arbitrary input as `dotc check` does (`dotc_runtime::check::check_file`: the language's
//! analysis, the geometric scenario check, scripts that do not compile, a library's scripts); a
//! game log is checked against an in-memory scenario. Nothing may panic, overflow the stack or
//! hang.
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
    let checked = dotc_runtime::check::check_file(Path::new("fuzz/input.dotc"), source, &Scenario);
    // Rendering must cope with every span the checks produce.
    let _ = dotc_lang::diagnostic::render_plain(&checked.diagnostics(), "input.dotc", source);
});
