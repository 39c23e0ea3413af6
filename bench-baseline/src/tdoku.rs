//! tdoku, built from its sources with our driver, and any solver run as a child
//! process with a corpus on its standard input, timed by its CPU time.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Builds tdoku's sources in `src_dir` with our driver into `target/release/tdoku/`.
pub(crate) fn build_tdoku(src_dir: &Path, target: &Path) -> Result<PathBuf, String> {
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tdoku_driver.cc");
    let sources = [
        src_dir.join("src/solver_dpll_triad_simd.cc"),
        src_dir.join("src/util.cc"),
    ];
    for needed in sources.iter().chain([&src_dir.join("include/tdoku.h")]) {
        if !needed.is_file() {
            return Err(format!(
                "tdoku folder {}: no {}",
                src_dir.display(),
                needed.display()
            ));
        }
    }
    let out_dir = target.join("tdoku");
    std::fs::create_dir_all(&out_dir)
        .map_err(|e| format!("could not create {}: {e}", out_dir.display()))?;
    let out = out_dir.join("tdoku-driver");
    let status = Command::new("g++")
        .args(["-O3", "-march=native", "-std=c++17", "-o"])
        .arg(&out)
        .arg("-I")
        .arg(src_dir)
        .arg(&driver)
        .args(&sources)
        .status()
        .map_err(|e| format!("could not run g++ to build tdoku: {e}"))?;
    if !status.success() {
        return Err(format!("g++ failed building tdoku ({status})"));
    }
    Ok(out)
}

/// Benchmarks every corpus; false when the solvers disagreed somewhere.

/// What one child process printed and took.
pub(crate) struct ProcessRun {
    pub(crate) lines: Vec<String>,
    /// User + system CPU time of the child.
    pub(crate) cpu_seconds: f64,
    /// The `solve-seconds S` line on its stderr, if any.
    pub(crate) solve_seconds: Option<f64>,
}

/// Runs `cmd` with `input` on stdin and collects its output and CPU time.
pub(crate) fn run_process(mut cmd: Command, input: &Path) -> Result<ProcessRun, String> {
    let stdin = std::fs::File::open(input)
        .map_err(|e| format!("could not open {}: {e}", input.display()))?;
    let before = children_cpu_seconds();
    let out = cmd
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("could not run {cmd:?}: {e}"))?;
    let cpu_seconds = children_cpu_seconds() - before;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let solve_seconds = stderr
        .lines()
        .find_map(|l| l.strip_prefix("solve-seconds "))
        .and_then(|v| v.trim().parse().ok());
    if out.stdout.is_empty() {
        let _ = std::io::stderr().write_all(&out.stderr);
        return Err(format!("{cmd:?} printed nothing ({})", out.status));
    }
    Ok(ProcessRun {
        lines: stdout.lines().map(str::to_string).collect(),
        cpu_seconds,
        solve_seconds,
    })
}

/// User + system CPU time of all waited-for children so far.
pub(crate) fn children_cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the `rusage` struct we pass, which is a plain C struct
    // for which all-zero bytes are a valid value.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}
