//! `dotc lsp` with a real client: neovim, headless, runs `tests/nvim/e2e.lua` on a broken
//! scenario (diagnostic line and code, hover, definition). Skipped when `nvim` is not on PATH,
//! unless `DOTC_REQUIRE_NVIM=1` (CI sets it), in which case a missing neovim is a failure.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn nvim_available() -> bool {
    Command::new("nvim")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn neovim_gets_diagnostics_hover_and_definition() {
    if !nvim_available() {
        assert!(
            std::env::var("DOTC_REQUIRE_NVIM").as_deref() != Ok("1"),
            "DOTC_REQUIRE_NVIM=1 but `nvim` is not on PATH: install neovim (Debian: apt-get install neovim)"
        );
        eprintln!("skipped: `nvim` is not on PATH (set DOTC_REQUIRE_NVIM=1 to make this a failure)");
        return;
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let script = root.join("tests/nvim/e2e.lua");
    let fixture = root.join("tests/nvim/broken-scenario.dotc");
    let home = tempfile::tempdir().expect("a temporary home");
    let mut child = Command::new("nvim")
        .args(["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("DOTC_BIN", env!("CARGO_BIN_EXE_dotc"))
        .env("DOTC_FIXTURE", &fixture)
        // No user state or logs from the machine running the test.
        .env("XDG_STATE_HOME", home.path())
        .env("XDG_DATA_HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path())
        .env("XDG_CACHE_HOME", home.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nvim starts");
    let deadline = Instant::now() + Duration::from_secs(90);
    let status = loop {
        if let Some(status) = child.try_wait().expect("nvim runs") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("nvim did not finish within 90 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let output = child.wait_with_output().expect("nvim output");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(status.success(), "the neovim script failed ({status}):\nstdout: {stdout}\nstderr: {stderr}");
}
