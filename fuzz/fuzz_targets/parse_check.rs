//! Check arbitrary input as `dotc check` does (`dotc_runtime::check::check_file`: the language's
//! analysis, the geometric scenario check, scripts that do not compile, a library's scripts); a
//! game log is checked against an in-memory scenario. Nothing may panic, overflow the stack or
//! hang. A file read in stretches (`parse_in_stretches`, which `parse` uses on long files; cut
//! small here) must read exactly as the whole-file parse does.
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
    let checked = dotc_runtime::check::check_file(Path::new("fuzz/input.dotc"), source, &Scenario);
    // Rendering must cope with every span the checks produce.
    let _ = dotc_lang::diagnostic::render_plain(&checked.diagnostics(), "input.dotc", source);
});
