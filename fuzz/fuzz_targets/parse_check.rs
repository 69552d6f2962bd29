//! Check arbitrary input as `dotc check` does (`dotc_runtime::check::check_file`: the language's
//! analysis, the geometric scenario check, scripts that do not compile, a library's scripts); a
//! game log is checked against an in-memory scenario. Nothing may panic, overflow the stack or
//! hang. A file read in stretches (`parse_in_stretches`, which `parse` uses on long files; cut
//! small here) must read exactly as the whole-file parse does, and a log checked in stretches
//! (`check_diagnostics_in`, as `dotc check` does a long log) must give `check_file`'s diagnostics.
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
    if let Some(stretched) = dotc_lang::incremental::parse_in_stretches(source, 64) {
        let whole = dotc_lang::parse_whole(source);
        let seen = |p: &dotc_lang::Parsed| format!("{:?}{:?}{:?}", p.document, p.diagnostics, p.items);
        assert_eq!(seen(&stretched), seen(&whole), "read in stretches, the file reads differently");
    }
    let path = Path::new("fuzz/input.dotc");
    let checked = dotc_runtime::check::check_file(path, source, &Scenario);
    // `dotc check`'s way (a game log checked a stretch of turns at a time, issue 16) must give
    // exactly the same diagnostics.
    let streamed = dotc_runtime::check::check_diagnostics_in(path, source, &Scenario, 64);
    assert_eq!(streamed, checked.diagnostics(), "checked in stretches, the file checks differently");
    // Rendering must cope with every span the checks produce.
    let _ = dotc_lang::diagnostic::render_plain(&checked.diagnostics(), "input.dotc", source);
});
