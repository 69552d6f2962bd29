//! The page's own helpers; the page itself is tested through the binary (tests/replay_html.rs)
//! and in a browser (tests/browser/).

use super::{escape_html, script_safe};

#[test]
fn data_from_the_log_cannot_close_the_script_element() {
    let json = serde_json::to_string(&"</script><script>alert('x & y')</script>\u{2028}").unwrap();
    let safe = script_safe(&json);
    assert!(!safe.contains('<') && !safe.contains('>') && !safe.contains('&'), "{safe}");
    // The JSON still reads back as the very same text.
    let back: String = serde_json::from_str(&safe).unwrap();
    assert_eq!(back, "</script><script>alert('x & y')</script>\u{2028}");
}

#[test]
fn text_for_the_page_is_escaped() {
    assert_eq!(escape_html("<b>O'Neil & \"Co\"</b>"), "&lt;b&gt;O&apos;Neil &amp; &quot;Co&quot;&lt;/b&gt;");
}
