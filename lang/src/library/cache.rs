//! The stdlib's rule data ready-made: `stdlib.cache` beside this file holds it as JSON, written
//! from the stdlib's own parse, so a CLI call that needs the rulebook's tables reads them back
//! in a fraction of the time parsing the eight `stdlib/*.dotc` files takes (issue 16: `dotc odds`
//! spent most of its time parsing the stdlib).
//!
//! The file's first line is a fingerprint of the stdlib sources it was made from
//! ([`fingerprint`] of [`STDLIB_FILES`]). When the sources change and the file is not made again,
//! the fingerprints differ and [`load`] gives None, so the stdlib is parsed as before: a stale
//! file is slow, never wrong. The test `the_stdlib_cache_is_up_to_date` fails until it is made
//! again (`DOTC_BLESS_STDLIB=1 cargo test -p dotc-lang the_stdlib_cache`).

use super::{RuleData, STDLIB_FILES};

/// The cache as built into the binary.
const CACHE: &str = include_str!("stdlib.cache");

/// FNV-1a over every stdlib file's name and text, with a separator byte after each part, in
/// [`STDLIB_FILES`] order: enough to tell that the sources changed. Worked out when the crate is
/// compiled, so reading the cache costs nothing for it.
const FINGERPRINT: u64 = {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut file = 0;
    while file < STDLIB_FILES.len() {
        let parts = [STDLIB_FILES[file].0.as_bytes(), STDLIB_FILES[file].1.as_bytes()];
        let mut part = 0;
        while part < parts.len() {
            let bytes = parts[part];
            let mut i = 0;
            while i <= bytes.len() {
                let byte = if i < bytes.len() { bytes[i] } else { 0xff };
                hash ^= byte as u64;
                hash = hash.wrapping_mul(0x0100_0000_01b3);
                i += 1;
            }
            part += 1;
        }
        file += 1;
    }
    hash
};

/// The first line of a cache made from the stdlib built in.
pub fn fingerprint() -> String {
    format!("stdlib {FINGERPRINT:016x}")
}

/// The cache's text for `data`: the fingerprint line, then the rule data as JSON.
pub fn render(data: &RuleData) -> String {
    let json = serde_json::to_string(data).unwrap_or_default();
    format!("{}\n{json}\n", fingerprint())
}

/// The rule data from the cache, when it was made from the stdlib built into this binary.
pub fn load() -> Option<RuleData> {
    load_from(CACHE)
}

/// The rule data from a cache's text, when its fingerprint is the built-in stdlib's and its JSON
/// reads back whole.
pub fn load_from(cache: &str) -> Option<RuleData> {
    let (first, json) = cache.split_once('\n')?;
    let hex = first.strip_prefix("stdlib ")?;
    if u64::from_str_radix(hex, 16).ok()? != FINGERPRINT || hex.len() != 16 {
        return None;
    }
    serde_json::from_str(json).ok()
}
