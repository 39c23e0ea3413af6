//! Solver benchmark: sudoku-bot's solver side by side with the `sudoku` crate 0.8 (a
//! JCZSolve port), on the tdoku benchmark corpora, solving and proving uniqueness.
//!
//! ```text
//! cargo run --release -p bench-baseline -- PUZZLE_DIR [--limit N] [--reps R] [--seed S]
//!                                              [--file-order]
//! ```
//!
//! Each puzzle is first randomly permuted (digits relabelled, rows within bands, bands,
//! columns within stacks, stacks, and a transpose half the time) with a fixed seed, as
//! tdoku's benchmark does: in file order similar puzzles follow each other and flatter a
//! solver (`--file-order` skips the permutation, to compare with timing the
//! `sudoku-bot solve` process on a corpus file). Both solvers get the same permuted puzzles, parse them from the 81-character
//! line, and must agree on every answer. Each corpus is timed `R` times for each solver,
//! alternating, and the median is reported. Single thread; timed by the thread's CPU time
//! where Linux reports it, so a busy machine skews the figures less.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use sudoku_bot::solver::{self, Solution};
use sudoku_bot::Grid;

const CORPORA: [&str; 4] = [
    "17_clue.txt",
    "top1465.txt",
    "forum_hardest_1905_11plus.txt",
    "forum_hardest_1106.txt",
];

struct Options {
    dir: PathBuf,
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
            eprintln!(
                "usage: bench-baseline PUZZLE_DIR [--limit N] [--reps R] [--seed S] [--file-order]"
            );
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
    let mut limit = usize::MAX;
    let mut reps = 5;
    let mut seed = 0x5eed_2026;
    let mut file_order = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .ok_or_else(|| format!("{name} needs a value"))
                .and_then(|v| {
                    v.parse::<u64>()
                        .map_err(|_| format!("{name} needs a number, got '{v}'"))
                })
        };
        match arg.as_str() {
            "--limit" => limit = value("--limit")? as usize,
            "--reps" => reps = (value("--reps")? as usize).max(1),
            "--seed" => seed = value("--seed")?,
            "--file-order" => file_order = true,
            _ if arg.starts_with('-') => return Err(format!("unknown option {arg}")),
            _ => dir = Some(PathBuf::from(arg)),
        }
    }
    let dir = dir.ok_or("give the folder holding the corpora (17_clue.txt, ...)")?;
    Ok(Options {
        dir,
        limit,
        reps,
        seed,
        file_order,
    })
}

/// Benchmarks every corpus; false when the solvers disagreed somewhere.
fn run(options: &Options) -> Result<bool, String> {
    let mut rng = Rng(options.seed);
    let mut all_agree = true;
    let clock = if thread_cpu_seconds().is_some() {
        "thread CPU time"
    } else {
        "wall time"
    };
    println!(
        "puzzles a second, solving and proving unique, median of {} runs ({clock})",
        options.reps
    );
    println!(
        "{:<32} {:>8} {:>14} {:>14} {:>7}",
        "corpus", "puzzles", "sudoku-bot/s", "sudoku 0.8/s", "ratio"
    );
    for name in CORPORA {
        let puzzles = load(&options.dir.join(name), options.limit)?;
        let puzzles: Vec<String> = if options.file_order {
            puzzles
        } else {
            puzzles.iter().map(|p| permute(p, &mut rng)).collect()
        };
        let disagreements = compare(&puzzles);
        if disagreements > 0 {
            eprintln!("{name}: the solvers disagree on {disagreements} puzzles");
            all_agree = false;
        }
        let mut ours = Vec::new();
        let mut theirs = Vec::new();
        for _ in 0..options.reps {
            ours.push(time(|| solve_ours(&puzzles)));
            theirs.push(time(|| solve_theirs(&puzzles)));
        }
        let n = puzzles.len() as f64;
        let ours = n / median(&mut ours);
        let theirs = n / median(&mut theirs);
        println!(
            "{:<32} {:>8} {:>14.0} {:>14.0} {:>7.2}",
            name.trim_end_matches(".txt"),
            puzzles.len(),
            ours,
            theirs,
            ours / theirs
        );
    }
    Ok(all_agree)
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

/// Number of puzzles where the two solvers give different answers.
fn compare(puzzles: &[String]) -> usize {
    puzzles
        .iter()
        .filter(|p| {
            let ours = Grid::parse(p).ok().and_then(|g| match solver::solve(&g) {
                Solution::Unique(s) => Some(s.to_line()),
                _ => None,
            });
            let theirs = sudoku::Sudoku::from_str_line(p)
                .ok()
                .and_then(|s| s.solution())
                .map(|s| s.to_str_line().to_string());
            ours != theirs
        })
        .count()
}

fn solve_ours(puzzles: &[String]) -> usize {
    puzzles
        .iter()
        .filter(|p| Grid::parse(p).is_ok_and(|g| matches!(solver::solve(&g), Solution::Unique(_))))
        .count()
}

fn solve_theirs(puzzles: &[String]) -> usize {
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
