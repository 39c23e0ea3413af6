//! `sudoku-bot solve` as a user runs it: puzzles as arguments or on standard input, one
//! answer line each, exit code 0 only when every puzzle had a unique solution.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
/// A 17-clue puzzle (the first of fixtures/puzzles/17_clue_sample.txt).
const HARD: &str =
    ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
/// `PUZZLE` plus r1c4=2, r1c7=1 and r7c3=4: nothing clashes, but r1c3 has no digit left.
const UNSOLVABLE: &str =
    "53.27.1..6..195....98....6.8...6...34..8.3..17...2...6.64...28....419..5....8..79";

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-bot"))
}

fn run_args(args: &[&str]) -> Output {
    bin()
        .arg("solve")
        .args(args)
        .output()
        .expect("run sudoku-bot")
}

fn run_stdin(input: &str) -> Output {
    let mut child = bin()
        .arg("solve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sudoku-bot");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().expect("wait for sudoku-bot")
}

fn lines(out: &Output) -> Vec<String> {
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

fn solution_of(puzzle: &str) -> String {
    let out = run_args(&[puzzle]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    lines(&out).remove(0)
}

#[test]
fn a_puzzle_as_argument_prints_its_solution_and_exits_0() {
    let out = run_args(&[PUZZLE]);
    assert_eq!(lines(&out), vec![SOLUTION]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn zeros_mean_empty_cells() {
    let out = run_args(&[&PUZZLE.replace('.', "0")]);
    assert_eq!(lines(&out), vec![SOLUTION]);
    assert_eq!(out.status.code(), Some(0));
}

/// Asserts that `solution` solves `puzzle`: 81 digits, every given kept, and every
/// row, column and box holding each digit once.
fn assert_solves(puzzle: &str, solution: &str) {
    let s = solution.as_bytes();
    assert_eq!(s.len(), 81, "{puzzle} -> {solution}");
    for (p, d) in puzzle.bytes().zip(s) {
        assert!(
            p == b'.' || p == *d,
            "{puzzle} -> {solution}: given {p} became {d}"
        );
    }
    let units = (0..9).flat_map(|k| {
        let row: Vec<usize> = (0..9).map(|i| k * 9 + i).collect();
        let col: Vec<usize> = (0..9).map(|i| i * 9 + k).collect();
        let (r0, c0) = (k / 3 * 3, k % 3 * 3);
        let bx: Vec<usize> = (0..9).map(|i| (r0 + i / 3) * 9 + c0 + i % 3).collect();
        [("row", row), ("column", col), ("box", bx)]
    });
    for (kind, cells) in units {
        let mut digits: Vec<u8> = cells.iter().map(|&i| s[i]).collect();
        digits.sort();
        assert_eq!(
            digits, b"123456789",
            "{puzzle} -> {solution}: a {kind} of {cells:?}"
        );
    }
}

#[test]
fn a_hard_puzzle_solution_keeps_its_givens() {
    assert_solves(HARD, &solution_of(HARD));
}

#[test]
fn every_argument_gets_one_line_and_bad_ones_do_not_stop_the_rest() {
    let short = &PUZZLE[..80];
    let clash = format!("{}9{}", &PUZZLE[..26], &PUZZLE[27..]); // r3c9 = 9: row 3 has a 9 at r3c3, column 9 at r9c9
    let empty = ".".repeat(81);
    let out = run_args(&[short, PUZZLE, &clash, &empty, UNSOLVABLE, PUZZLE]);
    assert_eq!(
        lines(&out),
        vec![
            "invalid: line has 80 characters, need 81".to_string(),
            SOLUTION.to_string(),
            "invalid: duplicate 9 in row 3, duplicate 9 in column 9".to_string(),
            "multiple".to_string(),
            "unsolvable".to_string(),
            SOLUTION.to_string(),
        ]
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn standard_input_skips_comments_and_blank_lines() {
    let input = format!(
        "# a comment\n\n{PUZZLE}\r\n   \n# {PUZZLE}\n{}\n",
        PUZZLE.replace('.', "0")
    );
    let out = run_stdin(&input);
    assert_eq!(lines(&out), vec![SOLUTION, SOLUTION]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn bad_lines_on_standard_input_are_answered_in_place_and_exit_1() {
    let bad_char = format!("x{}", &PUZZLE[1..]);
    let input = format!(
        "{PUZZLE}\n{bad_char}\n{}\n{UNSOLVABLE}\n{PUZZLE}",
        ".".repeat(81)
    );
    let out = run_stdin(&input);
    assert_eq!(
        lines(&out),
        vec![
            SOLUTION.to_string(),
            "invalid: character 'x' at position 1 is not a digit 1-9, '.' or '0'".to_string(),
            "multiple".to_string(),
            "unsolvable".to_string(),
            SOLUTION.to_string(),
        ]
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn empty_input_prints_nothing_and_exits_0() {
    let out = run_stdin("# nothing here\n");
    assert!(out.stdout.is_empty());
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn many_puzzles_on_standard_input_come_back_in_order() {
    let sample = include_str!("../fixtures/puzzles/17_clue_sample.txt");
    let puzzles: Vec<&str> = sample.lines().filter(|l| !l.is_empty()).collect();
    let out = run_stdin(sample);
    let answers = lines(&out);
    assert_eq!(answers.len(), puzzles.len());
    for (p, s) in puzzles.iter().zip(&answers) {
        assert_solves(p, s);
    }
    assert_eq!(out.status.code(), Some(0));
}

// `sudoku-bot` answers a plain `solve` itself and passes anything else to the full
// program (`sudoku-bot-full`); both paths must give the same answers.

#[test]
fn verbose_and_logged_solves_give_the_same_answers_and_say_more() {
    let args = [PUZZLE, UNSOLVABLE, &".".repeat(81)];
    let plain = run_args(&args);
    let verbose = bin()
        .arg("solve")
        .arg("-v")
        .args(args)
        .output()
        .expect("run sudoku-bot");
    let logged = bin()
        .arg("solve")
        .args(args)
        .env("RUST_LOG", "sudoku_bot=debug")
        .output()
        .expect("run sudoku-bot");
    for out in [&verbose, &logged] {
        assert_eq!(lines(out), lines(&plain));
        assert_eq!(out.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("done"), "{stderr}");
    }
    assert!(plain.stderr.is_empty());
}

#[test]
fn other_commands_still_answer_through_sudoku_bot() {
    let run = |args: &[&str]| bin().args(args).output().expect("run sudoku-bot");
    let version = run(&["--version"]);
    assert_eq!(version.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&version.stdout).starts_with("sudoku-bot "));
    let help = run(&["solve", "--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&help.stdout).contains("Usage: sudoku-bot solve"));
    let missing = run(&["read", "no-such-picture.png"]);
    assert_eq!(missing.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(stderr.contains("no-such-picture.png"), "{stderr}");
    assert_eq!(run(&["--no-such-flag"]).status.code(), Some(2));
}
