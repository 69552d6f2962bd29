//! Every file dotc reads and writes goes through here.
//!
//! Reading: regular files only, no larger than the parser's cap (both checked before a byte is
//! read, by `dotc_lang::analysis::read_source_bytes`), and text that is not UTF-8 becomes a
//! located diagnostic. Each file read is remembered, so that no command writes over its own
//! input. The path `-` is standard input (issue 21), read once, to the same cap, and named
//! `<stdin>` ([`named`]).
//!
//! Writing ([`write`]): into a temporary file `.NAME.dotc-tmp.PID` beside the target, synced,
//! given the target's permissions, then renamed over it; a symlink is followed and its target
//! replaced; a read-only target is refused unless forced. The temporary file is removed on every
//! error and, through [`install_signal_handlers`], when SIGINT, SIGTERM, SIGHUP or SIGPIPE ends
//! the process.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use dotc_lang::ast::Span;
use dotc_lang::diagnostic::Diagnostic;

/// The diagnostic codes of the CLI itself, for `dotc explain`.
pub const CODES: &[(&str, &str)] = &[(
    "dotc::invalid-utf8",
    "The file is not UTF-8 text: the label points at the first byte that cannot begin or continue a UTF-8 character. Save the file as UTF-8 (the encoding every editor offers); dotc reads nothing else.",
)];

/// A file that could not be read: a plain reason, or text that is not UTF-8 (with a located
/// diagnostic over the text as far as it could be decoded).
pub enum ReadFailure {
    Message(String),
    NotUtf8 { diagnostic: Box<Diagnostic>, lossy: String },
}

/// The files this process has read: (device, inode) where known, and the canonical path.
static INPUTS: Mutex<Vec<Input>> = Mutex::new(Vec::new());

#[derive(Clone, Debug)]
struct Input {
    path: PathBuf,
    canonical: Option<PathBuf>,
    id: Option<(u64, u64)>,
}

fn file_id(meta: &std::fs::Metadata) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        None
    }
}

fn remember_input(path: &Path) {
    let input = Input {
        path: path.to_path_buf(),
        canonical: std::fs::canonicalize(path).ok(),
        id: std::fs::metadata(path).ok().as_ref().and_then(file_id),
    };
    if let Ok(mut inputs) = INPUTS.lock() {
        inputs.push(input);
    }
}

/// The name standard input goes by in diagnostics and reports.
pub const STDIN_NAME: &str = "<stdin>";

/// Whether a path given on the command line is `-`, standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// The path a file read from `path` is named and analysed by: `<stdin>` for `-`, whose parent is
/// the empty path, so a game log read from standard input finds a scenario named by a relative
/// path in the current directory; any other path as it is.
pub fn named(path: &Path) -> &Path {
    if is_stdin(path) { Path::new(STDIN_NAME) } else { path }
}

/// Whether standard input has been read already: it can be read once.
static STDIN_TAKEN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Standard input, to the parser's cap and one byte, once.
fn read_stdin() -> Result<Vec<u8>, String> {
    use std::io::Read;
    if STDIN_TAKEN.swap(true, std::sync::atomic::Ordering::SeqCst) {
        return Err("cannot read standard input twice: give `-` once".to_string());
    }
    let cap = dotc_lang::parser::MAX_SOURCE_BYTES as u64;
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read standard input: {e}"))?;
    if bytes.len() as u64 > cap {
        return Err(format!(
            "cannot read standard input: it is larger than the {} MiB dotc reads; split it into several files",
            cap >> 20
        ));
    }
    Ok(bytes)
}

/// Read a file as text: see the module's comment.
pub fn read(path: &Path) -> Result<String, ReadFailure> {
    let bytes = if is_stdin(path) {
        read_stdin().map_err(ReadFailure::Message)?
    } else {
        let bytes = dotc_lang::analysis::read_source_bytes(path)
            .map_err(|reason| ReadFailure::Message(format!("cannot read {}: {reason}", path.display())))?;
        remember_input(path);
        bytes
    };
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bad = e.as_bytes()[at];
        let (line, column) = dotc_lang::analysis::utf8_position(e.as_bytes(), at);
        let lossy = String::from_utf8_lossy(e.as_bytes()).into_owned();
        // The text before the bad byte is the same in the lossy copy, where it became U+FFFD.
        let end = lossy[at..].chars().next().map_or(at, |c| at + c.len_utf8());
        let diagnostic = Diagnostic::error(
            "dotc::invalid-utf8",
            format!("the file is not UTF-8 text: byte 0x{bad:02X} at line {line}, column {column} (byte offset {at})"),
            Span::new(at, end),
            "not UTF-8",
        )
        .with_help("save the file as UTF-8");
        ReadFailure::NotUtf8 { diagnostic: Box::new(diagnostic), lossy }
    })
}

/// The loader of a game log's scenario: the same checks as [`read`], and the scenario is
/// remembered as an input.
#[derive(Clone, Copy, Debug, Default)]
pub struct InputLoader;

impl dotc_lang::Loader for InputLoader {
    fn load(&self, path: &Path) -> Result<String, String> {
        let text = dotc_lang::FsLoader.load(path)?;
        remember_input(path);
        Ok(text)
    }
}

/// How [`write`] may treat an existing file.
#[derive(Clone, Copy, Debug, Default)]
pub struct WriteOptions {
    /// Replace a read-only file.
    pub force: bool,
    /// The file is this command's input rewritten in place (`fmt --write`).
    pub in_place: bool,
}

/// The file a path names once symlinks are followed (the link's target, even if it does not
/// exist yet).
fn resolve(path: &Path) -> Result<PathBuf, String> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::read_link(&current)
                    .map_err(|e| format!("cannot follow the link {}: {e}", current.display()))?;
                current = match current.parent() {
                    Some(parent) if target.is_relative() => parent.join(target),
                    _ => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(format!("cannot follow the links of {}: too many levels", path.display()))
}

/// The input of this command that `target` is, if any.
fn same_as_input(target: &Path, meta: Option<&std::fs::Metadata>) -> Option<PathBuf> {
    let canonical = std::fs::canonicalize(target).ok();
    let id = meta.and_then(file_id);
    let inputs = INPUTS.lock().ok()?;
    inputs
        .iter()
        .find(|input| {
            (id.is_some() && input.id == id) || (canonical.is_some() && input.canonical == canonical)
        })
        .map(|input| input.path.clone())
}

/// Write `bytes` to `path` atomically (see the module's comment).
pub fn write(path: &Path, bytes: &[u8], options: WriteOptions) -> Result<(), String> {
    let shown = path.display();
    let target = resolve(path)?;
    let existing = match std::fs::metadata(&target) {
        Ok(meta) => Some(meta),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(format!("cannot write {shown}: {e}")),
    };
    if let Some(meta) = &existing {
        if !meta.file_type().is_file() {
            return Err(format!("cannot write {shown}: it exists and is not a regular file"));
        }
        if !options.in_place
            && let Some(input) = same_as_input(&target, Some(meta))
        {
            return Err(format!(
                "refusing to write {shown}: it is {}, which this command reads; write somewhere else",
                input.display()
            ));
        }
        if meta.permissions().readonly() && !options.force {
            return Err(format!(
                "refusing to write {shown}: the file is read-only (give --force to replace it)"
            ));
        }
    }
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target.file_name().ok_or(format!("cannot write {shown}: it names no file"))?;
    let temp = dir.join(format!(".{}.dotc-tmp.{}", name.to_string_lossy(), std::process::id()));
    let guard = TempGuard::register(&temp);
    let result = write_temp(&temp, bytes, existing.as_ref())
        .and_then(|()| std::fs::rename(&temp, &target))
        .map_err(|e| format!("cannot write {shown}: {e}"));
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    drop(guard);
    result?;
    // The rename is durable once the folder is synced (not every system allows it; it is only
    // a better guarantee, never a condition).
    if let Ok(folder) = std::fs::File::open(&dir) {
        let _ = folder.sync_all();
    }
    if let Some(meta) = existing
        && hard_links(&meta) > 1
    {
        crate::term::note!(
            "note: {shown} had {} other hard link(s); they keep the old contents (dotc writes a new file and renames it into place)",
            hard_links(&meta) - 1
        );
    }
    Ok(())
}

fn hard_links(meta: &std::fs::Metadata) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        meta.nlink()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        1
    }
}

fn write_temp(temp: &Path, bytes: &[u8], existing: Option<&std::fs::Metadata>) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // A new file gets what the umask leaves of rw-rw-rw-, like any other program's.
        options.mode(0o666);
    }
    let mut file = match options.open(temp) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            // A stale one of a process with the same id that was killed outright (SIGKILL).
            std::fs::remove_file(temp)?;
            options.open(temp)?
        }
        Err(e) => return Err(e),
    };
    if let Some(meta) = existing {
        let mut permissions = meta.permissions();
        // A read-only file replaced with --force stays read-only; the temporary file must be
        // writable until it is written.
        let readonly = permissions.readonly();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            permissions = std::fs::Permissions::from_mode(meta.permissions().mode() | 0o200);
        }
        file.set_permissions(permissions.clone())?;
        write_body(&mut file, bytes)?;
        file.sync_all()?;
        if readonly {
            permissions.set_readonly(true);
            file.set_permissions(permissions)?;
        }
        return Ok(());
    }
    write_body(&mut file, bytes)?;
    file.sync_all()
}

/// Write the bytes. A test of interrupted writes (tests/hostile/files.rs) sets
/// `DOTC_TEST_WRITE_PAUSE_MS` to stop halfway for that long, so that a signal arrives while the
/// temporary file is half written.
fn write_body(file: &mut std::fs::File, bytes: &[u8]) -> std::io::Result<()> {
    let pause = std::env::var("DOTC_TEST_WRITE_PAUSE_MS").ok().and_then(|ms| ms.parse::<u64>().ok());
    match pause {
        Some(ms) => {
            let (first, second) = bytes.split_at(bytes.len() / 2);
            file.write_all(first)?;
            file.flush()?;
            std::thread::sleep(std::time::Duration::from_millis(ms));
            file.write_all(second)
        }
        None => file.write_all(bytes),
    }
}

/// Temporary files to remove if a signal ends the process: leaked C strings, so that the
/// handler reads them without taking a lock or freeing memory.
#[cfg(unix)]
static TEMPS: [std::sync::atomic::AtomicPtr<libc::c_char>; 8] =
    [const { std::sync::atomic::AtomicPtr::new(std::ptr::null_mut()) }; 8];

/// A temporary file registered for removal on a signal while it lives.
struct TempGuard {
    #[cfg(unix)]
    slot: Option<usize>,
}

impl TempGuard {
    fn register(path: &Path) -> TempGuard {
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            use std::sync::atomic::Ordering;
            let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
                return TempGuard { slot: None };
            };
            let ptr = c.into_raw();
            for (i, slot) in TEMPS.iter().enumerate() {
                if slot
                    .compare_exchange(std::ptr::null_mut(), ptr, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok()
                {
                    return TempGuard { slot: Some(i) };
                }
            }
            // SAFETY: `ptr` came from `into_raw` just above and was not stored anywhere.
            drop(unsafe { std::ffi::CString::from_raw(ptr) });
            TempGuard { slot: None }
        }
        #[cfg(not(unix))]
        {
            let _ = path;
            TempGuard {}
        }
    }
}

impl Drop for TempGuard {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Some(i) = self.slot {
            // Not freed: a handler on another thread may be reading it (a few bytes a write).
            TEMPS[i].store(std::ptr::null_mut(), std::sync::atomic::Ordering::SeqCst);
        }
    }
}

/// Remove every registered temporary file (async-signal-safe: loads and `unlink` only).
#[cfg(unix)]
fn remove_temps() {
    for slot in &TEMPS {
        let ptr = slot.load(std::sync::atomic::Ordering::SeqCst);
        if !ptr.is_null() {
            // SAFETY: a registered pointer is a NUL-terminated string that is never freed.
            unsafe { libc::unlink(ptr) };
        }
    }
}

#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    remove_temps();
    // SAFETY: signal and raise are async-signal-safe; the default action ends the process
    // with this signal, as if no handler had been installed.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

/// Remove temporary files when SIGINT, SIGTERM or SIGHUP ends the process, and with
/// `closed_pipe_ends` also SIGPIPE: a closed standard output then ends dotc quietly, killed by
/// SIGPIPE like other Unix tools (Rust ignores SIGPIPE by default, and a write then fails).
pub fn install_signal_handlers(closed_pipe_ends: bool) {
    #[cfg(unix)]
    {
        let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        let mut signals = vec![libc::SIGINT, libc::SIGTERM, libc::SIGHUP];
        if closed_pipe_ends {
            signals.push(libc::SIGPIPE);
        }
        for signal in signals {
            // SAFETY: installing a handler that only does async-signal-safe work.
            unsafe { libc::signal(signal, handler) };
        }
    }
    #[cfg(not(unix))]
    let _ = closed_pipe_ends;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_registered_temporary_file_is_removed_and_an_unregistered_one_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let kept = dir.path().join(".kept.dotc-tmp.1");
        let removed = dir.path().join(".removed.dotc-tmp.1");
        std::fs::write(&kept, "x").unwrap();
        std::fs::write(&removed, "x").unwrap();
        let done = TempGuard::register(&kept);
        drop(done);
        let _live = TempGuard::register(&removed);
        #[cfg(unix)]
        remove_temps();
        assert!(kept.exists());
        #[cfg(unix)]
        assert!(!removed.exists());
    }
}
