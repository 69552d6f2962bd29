//! The files class of the hostile corpus (see main.rs); its inputs are in `tests/hostile/files/`.
//!
//! What dotc reads (sizes, devices, FIFOs, invalid UTF-8, long tokens and lines, many
//! diagnostics), what it writes (symlinks, hard links, read-only files, permissions, its own
//! inputs, interrupted writes) and a closed standard output.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{Run, corpus, dotc, dotc_with};

fn files() -> PathBuf {
    corpus().join("files")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn no_panic(run: &Run) {
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(!run.timed_out, "timed out: {}", run.stderr);
}

/// A scenario and a game log that names it, copied into a fresh folder.
fn game_in(dir: &Path) -> (PathBuf, PathBuf) {
    let scenario = dir.join("fence-line.dotc");
    std::fs::copy(root().join("scenarios/tutorial/fence-line.dotc"), &scenario).unwrap();
    let log = std::fs::read_to_string(root().join("tests/fixtures/replay/missing-dice.dotc")).unwrap();
    let log = log.replace("../../../scenarios/tutorial/fence-line.dotc", "fence-line.dotc");
    let game = dir.join("game.dotc");
    std::fs::write(&game, log).unwrap();
    (scenario, game)
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

// ---------------------------------------------------------------------------------------------
// Reading

#[test]
fn invalid_utf8_is_a_located_diagnostic_in_text_and_json() {
    // Line 3, column 10 holds the byte 0xFF (see the corpus file's first lines).
    let human = dotc(&["check", "invalid-utf8.dotc"], &files());
    no_panic(&human);
    assert_eq!(human.code, Some(1), "{}", human.stderr);
    assert!(human.stderr.contains("dotc::invalid-utf8"), "{}", human.stderr);
    assert!(
        human.stderr.contains("the file is not UTF-8 text: byte 0xFF at line 3, column 10 (byte offset"),
        "{}",
        human.stderr
    );
    assert!(human.stderr.contains("[invalid-utf8.dotc:3:10]"), "{}", human.stderr);

    let json = dotc(&["check", "--format", "json", "invalid-utf8.dotc"], &files());
    no_panic(&json);
    assert_eq!(json.code, Some(1), "{}", json.stderr);
    let value: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON on stdout");
    let d = &value[0];
    assert_eq!(d["code"], "dotc::invalid-utf8");
    assert_eq!(d["severity"], "error");
    assert_eq!(d["primary"]["start"]["line"], 3);
    assert_eq!(d["primary"]["start"]["column"], 10);

    // Other commands show the same diagnostic and stop.
    let fmt = dotc(&["fmt", "invalid-utf8.dotc"], &files());
    assert_eq!(fmt.code, Some(2));
    assert!(fmt.stderr.contains("[invalid-utf8.dotc:3:10]"), "{}", fmt.stderr);
    assert!(fmt.stderr.contains("error: invalid-utf8.dotc is not UTF-8 text; not read"), "{}", fmt.stderr);
}

#[test]
fn a_fifo_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.dotc");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let start = Instant::now();
    let run = dotc_with(&["check", "pipe.dotc"], dir.path(), b"", Duration::from_secs(20));
    no_panic(&run);
    assert!(start.elapsed() < Duration::from_secs(10));
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: cannot read pipe.dotc: it is a named pipe (FIFO), not a regular file; dotc reads only regular files\n"
    );
}

#[test]
fn dev_zero_is_refused_as_a_file_and_as_a_logs_scenario() {
    let run = dotc(&["check", "/dev/zero"], &files());
    no_panic(&run);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: cannot read /dev/zero: it is a character device, not a regular file; dotc reads only regular files\n"
    );
    assert!(run.peak_mb() < 200, "{} MB", run.peak_mb());

    let run = dotc(&["replay", "zero-scenario.dotc"], &files());
    no_panic(&run);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    // A long message wraps: read it as one line.
    assert!(
        run.stderr.replace("\n  │ ", " ").contains(
            "cannot read scenario \"/dev/zero\": it is a character device, not a regular file; dotc reads only regular files"
        ),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("[zero-scenario.dotc:2:14]"), "{}", run.stderr);
    assert!(run.peak_mb() < 200, "{} MB", run.peak_mb());
}

#[test]
fn an_oversize_file_is_refused_before_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    // Sparse: 64 GiB that take no disk. Reading them would take minutes and all the memory.
    let big = std::fs::File::create(dir.path().join("big.dotc")).unwrap();
    big.set_len(64 << 30).unwrap();
    let start = Instant::now();
    let run = dotc(&["check", "big.dotc"], dir.path());
    assert!(start.elapsed() < Duration::from_secs(10), "{:?}", start.elapsed());
    no_panic(&run);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: cannot read big.dotc: it is larger than the 64 MiB dotc reads; split it into several files\n"
    );
    // The peak includes the test process's own memory at the spawn (Linux counts it until exec).
    assert!(run.peak_mb() < 200, "{} MB", run.peak_mb());
}

#[test]
fn a_50_mb_token_is_quoted_short() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("scenario \"Long\" {\n    turns ");
    text.push_str(&"9".repeat(50 << 20));
    text.push_str("x\n}\n");
    std::fs::write(dir.path().join("token.dotc"), &text).unwrap();
    drop(text);
    let run = dotc_with(&["check", "token.dotc"], dir.path(), b"", Duration::from_secs(120));
    no_panic(&run);
    assert_eq!(run.code, Some(1), "{}", &run.stderr[..run.stderr.len().min(2000)]);
    assert!(run.stderr.len() < 4096, "{} bytes of stderr", run.stderr.len());
    assert!(run.stderr.contains('\u{2026}'), "{}", run.stderr);
    eprintln!("50 MB token: peak RSS {} MB", run.peak_mb());
    // The file itself is 50 MB: a few copies of it, never hundreds of megabytes of message.
    assert!(run.peak_mb() < 600, "{} MB", run.peak_mb());
    let json =
        dotc_with(&["check", "--format", "json", "token.dotc"], dir.path(), b"", Duration::from_secs(120));
    no_panic(&json);
    assert!(json.stdout.len() < 8192, "{} bytes of JSON", json.stdout.len());
    assert!(json.stdout.contains("characters)"), "{}", json.stdout);
}

/// `n` times the same bad statement in a scenario, each one a diagnostic.
fn repeated(n: usize) -> String {
    let mut text = String::from("scenario \"Many\" {\n");
    for _ in 0..n {
        text.push_str("    turns 6\n");
    }
    text.push_str("}\n");
    text
}

fn timed_check(dir: &Path, name: &str, text: &str) -> (Duration, Run) {
    std::fs::write(dir.join(name), text).unwrap();
    let start = Instant::now();
    let run = dotc_with(&["check", name], dir, b"", Duration::from_secs(120));
    (start.elapsed(), run)
}

#[test]
fn many_diagnostics_render_in_linear_time() {
    let dir = tempfile::tempdir().unwrap();
    let (small, run5) = timed_check(dir.path(), "5k.dotc", &repeated(5_000));
    let (large, run20) = timed_check(dir.path(), "20k.dotc", &repeated(20_000));
    no_panic(&run5);
    no_panic(&run20);
    assert_eq!(run20.code, Some(1));
    let count = run20.stderr.matches("dotc::repeated-statement").count();
    assert!(count >= 19_999, "{count} diagnostics");
    eprintln!("5,000 diagnostics: {small:?}; 20,000: {large:?}");
    // Four times the diagnostics: about four times the time if linear, sixteen if quadratic.
    // The slack is for a busy machine; the start-up time only makes the ratio smaller.
    assert!(large < small * 9 + Duration::from_secs(1), "5k: {small:?}, 20k: {large:?}");
    assert!(large < Duration::from_secs(20), "{large:?}");
}

#[test]
fn a_diagnostic_past_column_65536_is_rendered_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!("scenario \"Wide\" {{\n    turns 6{}@\n}}\n", " ".repeat(70_000));
    std::fs::write(dir.path().join("wide.dotc"), &text).unwrap();
    let run = dotc(&["check", "wide.dotc"], dir.path());
    no_panic(&run);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    // `@` is at byte 11 + 70,000 of line 2: column 70,012.
    assert!(run.stderr.contains("[wide.dotc:2:70012]"), "{}", run.stderr);
    assert!(run.stderr.len() < 4096, "{} bytes", run.stderr.len());
    let json = dotc(&["check", "--format", "json", "wide.dotc"], dir.path());
    let value: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON");
    let syntax =
        value.as_array().unwrap().iter().find(|d| d["code"] == "dotc::syntax").expect("a syntax error");
    assert_eq!(syntax["primary"]["start"]["line"], 2);
    assert_eq!(syntax["primary"]["start"]["column"], 70_012);
}

// ---------------------------------------------------------------------------------------------
// Closed pipes and bounds

/// Run dotc with its standard output a pipe whose reading end is already closed.
fn closed_pipe(args: &[&str], dir: &Path) -> std::process::ExitStatus {
    use std::os::fd::FromRawFd;
    let mut fds = [0; 2];
    // SAFETY: fds has room for the two descriptors.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: the reading end is ours and closed once; the writing end is handed to the child.
    unsafe { libc::close(fds[0]) };
    let write_end = unsafe { std::os::fd::OwnedFd::from_raw_fd(fds[1]) };
    let output = Command::new(env!("CARGO_BIN_EXE_dotc"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::from(write_end))
        .stderr(Stdio::piped())
        .output()
        .expect("dotc runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.is_empty(), "{stderr}");
    output.status
}

#[test]
fn a_closed_pipe_ends_dotc_quietly_by_sigpipe() {
    use std::os::unix::process::ExitStatusExt;
    let odds = closed_pipe(
        &["odds", "fire", "--weapon", "rifled_musket", "--stands", "5", "--range", "10"],
        &root(),
    );
    assert_eq!(odds.signal(), Some(libc::SIGPIPE), "{odds:?}");
    let replay = closed_pipe(&["replay", "scenarios/tutorial/fence-line-game.dotc"], &root());
    assert_eq!(replay.signal(), Some(libc::SIGPIPE), "{replay:?}");
}

#[test]
fn monte_carlo_is_bounded() {
    let args =
        ["odds", "fire", "--weapon", "rifled_musket", "--stands", "5", "--range", "10", "--monte-carlo"];
    let over = dotc(&[&args[..], &["1000001"]].concat(), &root());
    no_panic(&over);
    assert_eq!(over.code, Some(2));
    assert!(over.stderr.contains("1000001 is not in 0..=1000000"), "{}", over.stderr);
    let zero = dotc(&[&args[..], &["0"]].concat(), &root());
    assert_eq!(zero.code, Some(2));
    assert_eq!(zero.stderr, "error: --monte-carlo needs at least 1 volley\n");
    let fine = dotc(&[&args[..], &["1000"]].concat(), &root());
    assert_eq!(fine.code, Some(0), "{}", fine.stderr);
}

// ---------------------------------------------------------------------------------------------
// Writing

/// An unformatted copy of a scenario, and its formatted text.
fn unformatted(dir: &Path, name: &str) -> (PathBuf, String) {
    let original = std::fs::read_to_string(root().join("scenarios/tutorial/fence-line.dotc")).unwrap();
    let messy = original.replace("\n    turns 8", "\n  turns    8");
    let path = dir.join(name);
    std::fs::write(&path, &messy).unwrap();
    // What `dotc fmt` prints for it, without --write.
    let printed = dotc(&["fmt", name], dir);
    assert_eq!(printed.code, Some(0), "{}", printed.stderr);
    assert_ne!(printed.stdout, messy);
    (path, printed.stdout)
}

#[test]
fn fmt_write_goes_through_a_symlink_to_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let (target, formatted) = unformatted(dir.path(), "real.dotc");
    std::os::unix::fs::symlink("real.dotc", dir.path().join("link.dotc")).unwrap();
    let run = dotc(&["fmt", "--write", "link.dotc"], dir.path());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let link = std::fs::symlink_metadata(dir.path().join("link.dotc")).unwrap();
    assert!(link.file_type().is_symlink(), "the link was replaced by a file");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), formatted);
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
}

#[test]
fn fmt_write_replaces_one_name_of_a_hard_linked_file_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let (path, formatted) = unformatted(dir.path(), "a.dotc");
    let old = std::fs::read_to_string(&path).unwrap();
    std::fs::hard_link(&path, dir.path().join("b.dotc")).unwrap();
    let run = dotc(&["fmt", "--write", "a.dotc"], dir.path());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), formatted);
    // The other name keeps the old file (documented in docs/cli.md).
    assert_eq!(std::fs::read_to_string(dir.path().join("b.dotc")).unwrap(), old);
    assert!(
        run.stderr.contains("note: a.dotc had 1 other hard link(s); they keep the old contents"),
        "{}",
        run.stderr
    );
}

#[test]
fn fmt_write_refuses_a_read_only_file_unless_forced_and_keeps_permissions() {
    let dir = tempfile::tempdir().unwrap();
    let (path, formatted) = unformatted(dir.path(), "ro.dotc");
    let old = std::fs::read_to_string(&path).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let run = dotc(&["fmt", "--write", "ro.dotc"], dir.path());
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: refusing to write ro.dotc: the file is read-only (give --force to replace it)\n"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), old);

    let run = dotc(&["fmt", "--write", "--force", "ro.dotc"], dir.path());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), formatted);
    assert_eq!(mode(&path), 0o444);

    let (other, _) = unformatted(dir.path(), "group.dotc");
    std::fs::set_permissions(&other, std::fs::Permissions::from_mode(0o640)).unwrap();
    let run = dotc(&["fmt", "--write", "group.dotc"], dir.path());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(mode(&other), 0o640);
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
}

#[test]
fn render_onto_a_symlink_writes_its_target_with_its_permissions() {
    let dir = tempfile::tempdir().unwrap();
    let (scenario, _) = game_in(dir.path());
    let map = dir.path().join("map.svg");
    std::fs::write(&map, "old").unwrap();
    std::fs::set_permissions(&map, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::os::unix::fs::symlink("map.svg", dir.path().join("link.svg")).unwrap();
    let run = dotc(&["render", scenario.to_str().unwrap(), "-o", "link.svg"], dir.path());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(std::fs::symlink_metadata(dir.path().join("link.svg")).unwrap().file_type().is_symlink());
    assert!(std::fs::read_to_string(&map).unwrap().starts_with("<?xml"));
    assert_eq!(mode(&map), 0o600);
}

#[test]
fn render_refuses_to_write_over_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let (scenario, _) = game_in(dir.path());
    let svg = dir.path().join("scenario.svg");
    std::fs::copy(&scenario, &svg).unwrap();
    let before = std::fs::read_to_string(&svg).unwrap();
    let run = dotc(&["render", "scenario.svg", "-o", "scenario.svg"], dir.path());
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "error: refusing to write scenario.svg: it is scenario.svg, which this command reads; write somewhere else\n"
    );
    assert_eq!(std::fs::read_to_string(&svg).unwrap(), before);
}

#[test]
fn write_completed_refuses_the_scenario_and_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let (scenario, game) = game_in(dir.path());
    let scenario_text = std::fs::read_to_string(&scenario).unwrap();
    let game_text = std::fs::read_to_string(&game).unwrap();
    let run =
        dotc(&["replay", "game.dotc", "--seed", "7", "--write-completed", "fence-line.dotc"], dir.path());
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "error: refusing to write fence-line.dotc: it is fence-line.dotc, which this command reads; write somewhere else"
        ),
        "{}",
        run.stderr
    );
    let run = dotc(&["replay", "game.dotc", "--seed", "7", "--write-completed", "game.dotc"], dir.path());
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.contains("error: refusing to write game.dotc: it is game.dotc, which this command reads"),
        "{}",
        run.stderr
    );
    // Through another spelling of the same file, too.
    std::os::unix::fs::symlink("game.dotc", dir.path().join("alias.dotc")).unwrap();
    let run = dotc(&["replay", "game.dotc", "--seed", "7", "--write-completed", "./alias.dotc"], dir.path());
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&scenario).unwrap(), scenario_text);
    assert_eq!(std::fs::read_to_string(&game).unwrap(), game_text);
    // Elsewhere it writes.
    let run = dotc(&["replay", "game.dotc", "--seed", "7", "--write-completed", "done.dotc"], dir.path());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(dir.path().join("done.dotc").exists());
}

/// The temporary files dotc left in a folder.
fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".dotc-tmp."))
        .collect()
}

/// Start `dotc render` paused halfway through writing its map, wait for its half-written
/// temporary file, send `signal`, and check that the file is gone and the old map untouched.
fn interrupted(signal: libc::c_int) {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    let (scenario, _) = game_in(dir.path());
    std::fs::write(dir.path().join("map.svg"), "old").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_dotc"))
        .args(["render", scenario.to_str().unwrap(), "-o", "map.svg"])
        .current_dir(dir.path())
        .env("DOTC_TEST_WRITE_PAUSE_MS", "20000")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let temp = loop {
        let found = leftovers(dir.path());
        if let Some(name) = found.first() {
            let path = dir.path().join(name);
            if std::fs::metadata(&path).map(|m| m.len() > 0).unwrap_or(false) {
                break path;
            }
        }
        assert!(start.elapsed() < Duration::from_secs(60), "no temporary file appeared");
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(temp.file_name().unwrap().to_str().unwrap().starts_with(".map.svg.dotc-tmp."));
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(signal));
    assert!(start.elapsed() < Duration::from_secs(15), "the pause was not cut short");
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
    assert_eq!(std::fs::read_to_string(dir.path().join("map.svg")).unwrap(), "old");
}

#[test]
fn an_interrupted_write_leaves_no_temporary_file_sigterm() {
    interrupted(libc::SIGTERM);
}

#[test]
fn an_interrupted_write_leaves_no_temporary_file_sigint() {
    interrupted(libc::SIGINT);
}
