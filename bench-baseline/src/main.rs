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

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

mod corpus;
mod tdoku;

use corpus::{load, permute, Rng};
use sudoku_bot::solver::{self, Solution};
use sudoku_bot::Grid;
use tdoku::{build_tdoku, run_process};

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

/// The whole benchmark: every corpus, each solver in turn each round; the table, the
/// single-solve figure, and whether every solver gave the same answers.
fn run(options: &Options) -> Result<bool, String> {
    let target = target_dir()?;
    let (tdoku, process) = contenders(options, &target)?;
    let contenders = Contenders {
        tdoku: tdoku.as_deref(),
        process: process.as_deref(),
        target: &target,
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
        rows.push(bench_corpus(
            name,
            &puzzles,
            options.reps,
            &contenders,
            &mut all_agree,
        )?);
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

/// tdoku's driver, built from `--tdoku DIR` (else skipped, and said so), and the
/// `sudoku-bot` executable for the process-level figures (which need tdoku too).
fn contenders(
    options: &Options,
    target: &Path,
) -> Result<(Option<PathBuf>, Option<PathBuf>), String> {
    let tdoku = match &options.tdoku {
        Some(dir) => {
            let driver = build_tdoku(dir, target)?;
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
    Ok((tdoku, process))
}

/// Who runs beside sudoku-bot's solver in process: tdoku's driver and `sudoku-bot`
/// itself as processes (when built), and the folder for their input files.
struct Contenders<'a> {
    tdoku: Option<&'a Path>,
    process: Option<&'a Path>,
    target: &'a Path,
}

/// One corpus: the three solvers' answers checked against sudoku-bot's (a
/// disagreement clears `all_agree`), then `reps` rounds in which they take turns.
fn bench_corpus(
    name: &'static str,
    puzzles: &[String],
    reps: usize,
    contenders: &Contenders,
    all_agree: &mut bool,
) -> Result<Row, String> {
    let input = contenders.target.join(format!("bench-{name}"));
    std::fs::write(&input, puzzles.join("\n") + "\n")
        .map_err(|e| format!("could not write {}: {e}", input.display()))?;
    // The answers, in `sudoku-bot solve`'s words, from each solver.
    let expected = answers_ours(puzzles);
    let mut check = |who: &str, answers: &[String]| {
        let wrong = expected.iter().zip(answers).filter(|(a, b)| a != b).count()
            + expected.len().abs_diff(answers.len());
        if wrong > 0 {
            eprintln!("{name}: {who} disagrees with sudoku-bot on {wrong} puzzles");
            *all_agree = false;
        }
    };
    check("the sudoku crate", &answers_sudoku_crate(puzzles));
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let (mut tdoku_in, mut tdoku_proc, mut ours_proc) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..reps {
        // Take turns, and change who goes first each round.
        let mut turns: Vec<u8> = vec![0, 1, 2];
        turns.rotate_left(round % 3);
        for turn in turns {
            match turn {
                0 => ours.push(time(|| solve_ours(puzzles))),
                1 => theirs.push(time(|| solve_sudoku_crate(puzzles))),
                _ => {
                    if let Some(driver) = contenders.tdoku {
                        let run = run_process(Command::new(driver), &input)?;
                        if round == 0 {
                            check("tdoku", &run.lines);
                        }
                        tdoku_proc.push(run.cpu_seconds);
                        tdoku_in
                            .push(run.solve_seconds.ok_or(
                                "tdoku's driver did not report solve-seconds".to_string(),
                            )?);
                    }
                    if let Some(bin) = contenders.process {
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
    let _ = std::fs::remove_file(&input);
    let n = puzzles.len() as f64;
    let rate = |xs: &mut Vec<f64>| (!xs.is_empty()).then(|| n / median(xs));
    Ok(Row {
        name: name.trim_end_matches(".txt"),
        puzzles: puzzles.len(),
        ours: rate(&mut ours).unwrap_or(0.0),
        tdoku: rate(&mut tdoku_in),
        sudoku: rate(&mut theirs).unwrap_or(0.0),
        ours_proc: rate(&mut ours_proc),
        tdoku_proc: rate(&mut tdoku_proc),
    })
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
