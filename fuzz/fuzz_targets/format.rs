//! Formatting arbitrary input never panics; when it succeeds it is idempotent and keeps every
//! comment.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else { return };
    if let Ok(once) = dotc_lang::format::format(source) {
        let twice = dotc_lang::format::format(&once).expect("formatted output parses");
        assert_eq!(once, twice, "not idempotent");
        assert_eq!(dotc_lang::format::comments(source), dotc_lang::format::comments(&once), "lost a comment");
    }
});
