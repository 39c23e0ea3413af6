//! Solver benchmark: sudoku-bot's solver side by side with tdoku (Tom Dillon's SIMD solver
//! in C++) and the `sudoku` crate 0.8 (a JCZSolve port), on the tdoku benchmark corpora,
//! solving and proving uniqueness.
//!
//! ```text
//! cargo build --release -p sudoku-bot -p bench-baseline
//! cargo run --release -p bench-baseline -- PUZZLE_DIR [--tdoku DIR] [--limit N] [--reps R]
//!                                              [--seed S] [--file-order]
//! ```
//!
//! tdoku is taken from `--tdoku DIR` or the `TDOKU_DIR` environment variable: a folder
//! holding tdoku's solver sources (`include/tdoku.h`, `src/solver_dpll_triad_simd.cc`,
//! `src/util.cc`, as in `../shared/vendor/tdoku/`). The benchmark compiles them with its
//! own small driver (`tdoku_driver.cc`) into `target/release/tdoku/` with
//! `g++ -O3 -march=native`; the project never ships or copies them. With neither given,
//! tdoku is skipped, and the benchmark says so.
//!
//! Each puzzle is first randomly permuted (digits relabelled, rows within bands, bands,
//! columns within stacks, stacks, and a transpose half the time) with a fixed seed, as
//! tdoku's benchmark does: in file order similar puzzles follow each other and flatter a
//! solver (`--file-order` skips the permutation). All solvers get the same permuted
//! puzzles, parse them from the 81-character line, and must give the same answer for
//! every puzzle (the solution, `unsolvable` or `multiple`).
//!
//! Two figures a corpus, each the median of `R` rounds in which the solvers take turns:
//! - **in-process**: parsing and solving in a loop, timed by the thread's CPU time (for
//!   tdoku, its driver times its own solving loop the same way);
//! - **process**: the whole `sudoku-bot solve < corpus` process against tdoku's driver
//!   process (reading, solving, printing), timed by the child's CPU time (user + system).
//!   It needs the `sudoku-bot` binary next to this one and tdoku.
//!
//! Ratios are other solver's time / sudoku-bot's time: above 1, sudoku-bot is faster.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use sudoku_bot::solver::{self, Solution};
use sudoku_bot::Grid;

const CORPORA: [&str; 4] = [
    "17_clue.txt",
    "top1465.txt",
    "forum_hardest_1905_11plus.txt",
    "forum_hardest_1106.txt",
];

const USAGE: &str = "usage: bench-baseline PUZZLE_DIR [--tdoku DIR] [--limit N] [--reps R] \
[--seed S] [--file-order]";

struct Options {
    dir: PathBuf,
    tdoku: Option<PathBuf>,
    limit: usize,
    reps: usize,
    seed: u64,
    file_order: bool,
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(o) => o,
        Err(msg) => {
            eprintln!("bench-baseline: {msg}");
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(msg) => {
            eprintln!("bench-baseline: {msg}");
            ExitCode::from(1)
        }
    }
}

fn parse_args() -> Result<Options, String> {
    let mut dir = None;
    let mut tdoku = std::env::var_os("TDOKU_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    let mut limit = usize::MAX;
    let mut reps = 5;
    let mut seed = 0x5eed_2026;
    let mut file_order = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut text = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        let number = |name: &str, v: String| {
            v.parse::<u64>()
                .map_err(|_| format!("{name} needs a number, got '{v}'"))
        };
        match arg.as_str() {
            "--tdoku" => tdoku = Some(PathBuf::from(text("--tdoku")?)),
            "--limit" => limit = number("--limit", text("--limit")?)? as usize,
            "--reps" => reps = (number("--reps", text("--reps")?)? as usize).max(1),
            "--seed" => seed = number("--seed", text("--seed")?)?,
            "--file-order" => file_order = true,
            _ if arg.starts_with('-') => return Err(format!("unknown option {arg}")),
            _ => dir = Some(PathBuf::from(arg)),
        }
    }
    let dir = dir.ok_or("give the folder holding the corpora (17_clue.txt, ...)")?;
    Ok(Options {
        dir,
        tdoku,
        limit,
        reps,
        seed,
        file_order,
    })
}

/// The folder of this executable (`target/release`), where the tdoku driver is built and
/// the `sudoku-bot` binary is looked for.
fn target_dir() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("where am I? {e}"))?;
    Ok(exe.parent().map(Path::to_path_buf).unwrap_or_default())
}

/// Builds tdoku's sources in `src_dir` with our driver into `target/release/tdoku/`.
fn build_tdoku(src_dir: &Path, target: &Path) -> Result<PathBuf, String> {
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
fn run(options: &Options) -> Result<bool, String> {
    let target = target_dir()?;
    let tdoku = match &options.tdoku {
        Some(dir) => {
            let driver = build_tdoku(dir, &target)?;
            println!(
                "tdoku: built from {} into {} (g++ -O3 -march=native, TdokuEnumerate, limit 2)",
                dir.display(),
                driver.display()
            );
            Some(driver)
        }
        None => {
            println!("tdoku: SKIPPED (no --tdoku DIR and no TDOKU_DIR given)");
            None
        }
    };
    let ours_bin = target.join("sudoku-bot");
    let ours_bin = if ours_bin.is_file() {
        Some(ours_bin)
    } else {
        println!(
            "process level: SKIPPED ({} not built; cargo build --release --bin sudoku-bot)",
            ours_bin.display()
        );
        None
    };
    let process = match (&tdoku, ours_bin) {
        (Some(_), Some(bin)) => Some(bin),
        (None, Some(_)) => {
            println!("process level: SKIPPED (needs tdoku)");
            None
        }
        _ => None,
    };

    let mut rng = Rng(options.seed);
    let mut all_agree = true;
    let mut rows = Vec::new();
    let mut single = None;
    for name in CORPORA {
        let puzzles = load(&options.dir.join(name), options.limit)?;
        let puzzles: Vec<String> = if options.file_order {
            puzzles
        } else {
            puzzles.iter().map(|p| permute(p, &mut rng)).collect()
        };
        let input = target.join(format!("bench-{name}"));
        std::fs::write(&input, puzzles.join("\n") + "\n")
            .map_err(|e| format!("could not write {}: {e}", input.display()))?;

        // The answers, in `sudoku-bot solve`'s words, from each solver.
        let expected = answers_ours(&puzzles);
        let mut check = |who: &str, answers: &[String]| {
            let wrong = expected.iter().zip(answers).filter(|(a, b)| a != b).count()
                + expected.len().abs_diff(answers.len());
            if wrong > 0 {
                eprintln!("{name}: {who} disagrees with sudoku-bot on {wrong} puzzles");
                all_agree = false;
            }
        };
        check("the sudoku crate", &answers_sudoku_crate(&puzzles));

        let mut ours = Vec::new();
        let mut theirs = Vec::new();
        let mut tdoku_in = Vec::new();
        let mut tdoku_proc = Vec::new();
        let mut ours_proc = Vec::new();
        for round in 0..options.reps {
            // Take turns, and change who goes first each round.
            let mut turns: Vec<u8> = vec![0, 1, 2];
            turns.rotate_left(round % 3);
            for turn in turns {
                match turn {
                    0 => ours.push(time(|| solve_ours(&puzzles))),
                    1 => theirs.push(time(|| solve_sudoku_crate(&puzzles))),
                    _ => {
                        if let Some(driver) = &tdoku {
                            let run = run_process(Command::new(driver), &input)?;
                            if round == 0 {
                                check("tdoku", &run.lines);
                            }
                            tdoku_proc.push(run.cpu_seconds);
                            tdoku_in.push(run.solve_seconds.ok_or(
                                "tdoku's driver did not report solve-seconds".to_string(),
                            )?);
                        }
                        if let Some(bin) = &process {
                            let mut cmd = Command::new(bin);
                            cmd.arg("solve").env("RUST_LOG", "off");
                            let run = run_process(cmd, &input)?;
                            if round == 0 {
                                check("`sudoku-bot solve`", &run.lines);
                            }
                            ours_proc.push(run.cpu_seconds);
                        }
                    }
                }
            }
        }
        let n = puzzles.len() as f64;
        let rate = |xs: &mut Vec<f64>| (!xs.is_empty()).then(|| n / median(xs));
        rows.push(Row {
            name: name.trim_end_matches(".txt"),
            puzzles: puzzles.len(),
            ours: rate(&mut ours).unwrap_or(0.0),
            tdoku: rate(&mut tdoku_in),
            sudoku: rate(&mut theirs).unwrap_or(0.0),
            ours_proc: rate(&mut ours_proc),
            tdoku_proc: rate(&mut tdoku_proc),
        });
        let _ = std::fs::remove_file(&input);
        if name == "forum_hardest_1106.txt" {
            single = Some(single_solve_micros(&puzzles));
        }
    }
    print_table(&rows, options.reps);
    if let Some((median, slowest)) = single {
        println!(
            "single solve (as the bot does once a read), forum_hardest_1106, each puzzle timed \
alone, best of 5: median puzzle {median:.1} µs, slowest {slowest:.1} µs (goal: median under 100 µs)"
        );
    }
    if all_agree {
        let who = if tdoku.is_some() {
            "sudoku-bot, tdoku and the sudoku crate"
        } else {
            "sudoku-bot and the sudoku crate"
        };
        println!("answers: {who} agree on every puzzle");
    }
    Ok(all_agree)
}

/// Each puzzle's own solve (parse, solve, prove unique), in µs of wall time, best of 5:
/// the median and the slowest puzzle.
fn single_solve_micros(puzzles: &[String]) -> (f64, f64) {
    let mut times: Vec<f64> = puzzles
        .iter()
        .map(|p| {
            (0..5)
                .map(|_| {
                    let start = Instant::now();
                    let g = Grid::parse(p).ok();
                    std::hint::black_box(g.map(|g| solver::solve(&g)));
                    start.elapsed().as_secs_f64() * 1e6
                })
                .fold(f64::INFINITY, f64::min)
        })
        .collect();
    let slowest = times.iter().copied().fold(0.0, f64::max);
    (median(&mut times), slowest)
}

/// One corpus's figures, puzzles a second.
struct Row {
    name: &'static str,
    puzzles: usize,
    ours: f64,
    tdoku: Option<f64>,
    sudoku: f64,
    ours_proc: Option<f64>,
    tdoku_proc: Option<f64>,
}

fn print_table(rows: &[Row], reps: usize) {
    let clock = if thread_cpu_seconds().is_some() {
        "thread CPU time"
    } else {
        "wall time"
    };
    let opt = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.0}"));
    let ratio = |a: f64, b: Option<f64>| b.map_or("-".to_string(), |b| format!("{:.2}", a / b));
    println!();
    println!(
        "in-process: puzzles a second, solving and proving unique, median of {reps} rounds ({clock})"
    );
    println!(
        "{:<26} {:>7} {:>11} {:>11} {:>11} {:>9} {:>9}",
        "corpus", "puzzles", "sudoku-bot", "tdoku", "sudoku 0.8", "vs tdoku", "vs sudoku"
    );
    for r in rows {
        println!(
            "{:<26} {:>7} {:>11.0} {:>11} {:>11.0} {:>9} {:>9.2}",
            r.name,
            r.puzzles,
            r.ours,
            opt(r.tdoku),
            r.sudoku,
            ratio(r.ours, r.tdoku),
            r.ours / r.sudoku
        );
    }
    if rows.iter().any(|r| r.ours_proc.is_some()) {
        println!();
        println!(
            "process level: `sudoku-bot solve < corpus` against tdoku's driver, puzzles a \
second of the child's CPU time (user + system), median of {reps} rounds"
        );
        println!(
            "{:<26} {:>7} {:>11} {:>11} {:>9}",
            "corpus", "puzzles", "sudoku-bot", "tdoku", "vs tdoku"
        );
        for r in rows {
            println!(
                "{:<26} {:>7} {:>11} {:>11} {:>9}",
                r.name,
                r.puzzles,
                opt(r.ours_proc),
                opt(r.tdoku_proc),
                r.ours_proc
                    .map_or("-".to_string(), |o| ratio(o, r.tdoku_proc))
            );
        }
    }
}

/// What one child process printed and took.
struct ProcessRun {
    lines: Vec<String>,
    /// User + system CPU time of the child.
    cpu_seconds: f64,
    /// The `solve-seconds S` line on its stderr, if any.
    solve_seconds: Option<f64>,
}

/// Runs `cmd` with `input` on stdin and collects its output and CPU time.
fn run_process(mut cmd: Command, input: &Path) -> Result<ProcessRun, String> {
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
fn children_cpu_seconds() -> f64 {
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

/// The puzzles of a corpus file: 81-character lines, '#' lines skipped.
fn load(path: &Path, limit: usize) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("could not read {}: {e}", path.display()))?;
    let puzzles: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.chars().take(81).collect())
        .take(limit)
        .collect();
    if puzzles.is_empty() {
        return Err(format!("{} holds no puzzles", path.display()));
    }
    Ok(puzzles)
}

/// sudoku-bot's answers, as `sudoku-bot solve` prints them.
fn answers_ours(puzzles: &[String]) -> Vec<String> {
    puzzles
        .iter()
        .map(|p| sudoku_bot::modes::solve::answer(p).to_string())
        .collect()
}

/// The `sudoku` crate's answers, in the same words.
fn answers_sudoku_crate(puzzles: &[String]) -> Vec<String> {
    puzzles
        .iter()
        .map(|p| match sudoku::Sudoku::from_str_line(p) {
            Err(_) => "invalid".to_string(),
            Ok(s) => match s.solutions_up_to(2).as_slice() {
                [] => "unsolvable".to_string(),
                [one] => one.to_str_line().to_string(),
                _ => "multiple".to_string(),
            },
        })
        .collect()
}

fn solve_ours(puzzles: &[String]) -> usize {
    puzzles
        .iter()
        .filter(|p| Grid::parse(p).is_ok_and(|g| matches!(solver::solve(&g), Solution::Unique(_))))
        .count()
}

fn solve_sudoku_crate(puzzles: &[String]) -> usize {
    puzzles
        .iter()
        .filter(|p| sudoku::Sudoku::from_str_line(p).is_ok_and(|s| s.solution().is_some()))
        .count()
}

/// Seconds taken by `f`, as CPU time of this thread where Linux reports it (the machine
/// may be shared: time spent waiting for a core is not the solver's), else wall time.
/// The result of `f` is kept alive so the work is not optimized away.
fn time(f: impl FnOnce() -> usize) -> f64 {
    let cpu_start = thread_cpu_seconds();
    let start = Instant::now();
    std::hint::black_box(f());
    let wall = start.elapsed().as_secs_f64();
    match (cpu_start, thread_cpu_seconds()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => wall,
    }
}

/// CPU time this thread has run, in seconds, from /proc/thread-self/schedstat
/// (nanoseconds, first field); None where that file does not exist.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// A random symmetry of the grid: the solution-count-preserving permutations.
fn permute(puzzle: &str, rng: &mut Rng) -> String {
    let cells: Vec<char> = puzzle.chars().collect();
    let rows = line_order(rng);
    let cols = line_order(rng);
    let mut digits: Vec<char> = "123456789".chars().collect();
    rng.shuffle(&mut digits);
    let transpose = rng.below(2) == 1;
    let mut out = String::with_capacity(81);
    for r in 0..9 {
        for c in 0..9 {
            let (r, c) = if transpose { (c, r) } else { (r, c) };
            let ch = cells[rows[r] * 9 + cols[c]];
            out.push(match ch.to_digit(10) {
                Some(d @ 1..=9) => digits[d as usize - 1],
                _ => '.',
            });
        }
    }
    out
}

/// A random order of the nine rows (or columns) that keeps bands (stacks) together:
/// the bands shuffled, and the rows within each band.
fn line_order(rng: &mut Rng) -> [usize; 9] {
    let mut bands = [0, 1, 2];
    rng.shuffle(&mut bands);
    let mut order = [0; 9];
    for (slot, band) in bands.iter().enumerate() {
        let mut within = [0, 1, 2];
        rng.shuffle(&mut within);
        for k in 0..3 {
            order[slot * 3 + k] = band * 3 + within[k];
        }
    }
    order
}

/// SplitMix64: tiny, seedable, good enough to shuffle puzzles.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn shuffle<T>(&mut self, xs: &mut [T]) {
        for i in (1..xs.len()).rev() {
            xs.swap(i, self.below(i + 1));
        }
    }
}
