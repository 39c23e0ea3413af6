//! What each fuzz target feeds the bot, and what must hold whatever the input. Shared by
//! the libFuzzer targets (fuzz/fuzz_targets/, nightly) and by tests/fuzz_replay.rs,
//! which replays the saved corpus and every crash input on stable.
//!
//! Every target must return without panicking, in bounded time and memory; libFuzzer
//! reports a panic as a crash, a run over `-timeout` as a hang and an allocation over
//! `-rss_limit_mb` as running out of memory.

#![allow(dead_code)]

use std::cell::RefCell;

use sudoku_bot::grid::Grid;
use sudoku_bot::modes::read::decode_picture;
use sudoku_bot::vision::geometry::Homography;
use sudoku_bot::vision::{CellReading, Method, Point, ReadError, Reader, Reading, Rect};

thread_local! {
    /// One reader for the whole run, as the daemon keeps one: glyphs learnt from one
    /// input are used on the next.
    static READER: RefCell<Reader> = RefCell::new(if std::env::var_os("SUDOKU_FUZZ_OCR").is_some() {
        Reader::new().expect("Tesseract starts")
    } else {
        Reader::without_ocr()
    });
}

/// `read` from raw bytes: decode (with the pixel budget), then the reader: photo check,
/// flat-colour regions, the lattice of cells, the glyphs in them, the photo path with
/// its classifier. Tesseract is left out unless SUDOKU_FUZZ_OCR is set (it costs
/// 50-100 ms a picture, a thousand times a fuzz run's budget); without it a screenshot
/// grid with givens ends in `ReadError::Engine` once its glyphs are found.
pub fn read(data: &[u8]) {
    let Ok((picture, _format)) = decode_picture(data, "fuzz input") else {
        return;
    };
    let result = READER.with(|r| r.borrow_mut().read(&picture, None));
    match result {
        Ok(reading) => check_reading(&reading, picture.width(), picture.height()),
        Err(ReadError::Doubtful { reading, .. }) => {
            check_reading(&reading, picture.width(), picture.height())
        }
        Err(ReadError::NoGrid) | Err(ReadError::Engine(_)) => {}
    }
}

fn check_reading(reading: &Reading, w: u32, h: u32) {
    assert_eq!(reading.cells.len(), 81);
    for (cell, &digit) in reading.cells.iter().zip(reading.grid.cells()) {
        assert!(digit <= 9);
        assert_eq!(cell.digit.unwrap_or(0), digit);
        assert!(cell.cell_box.w.is_finite() && cell.cell_box.h.is_finite());
    }
    // Corners may lie a little outside a cropped picture, never far out.
    let slack = (w.max(h) as f32) * 2.0;
    for c in reading.corners {
        assert!(c.x.abs() <= slack + w as f32 && c.y.abs() <= slack + h as f32);
    }
}

/// The puzzle-line parser and `solve`: the bytes as `solve`'s standard input, then
/// each line alone. Every answer line is a solution that keeps the givens, or
/// `unsolvable`, `multiple`, `invalid: REASON`.
pub fn solve(data: &[u8]) {
    use sudoku_bot::modes::solve::{answer, answer_lines, Answer};
    let mut out = Vec::new();
    let tally = answer_lines(data, &mut out).expect("reading from memory cannot fail");
    let text = String::from_utf8(out).expect("answers are UTF-8");
    let answers = text.lines().count();
    assert_eq!(
        answers,
        tally.solved + tally.unsolvable + tally.multiple + tally.invalid
    );
    for line in text.lines() {
        let ok = (line.len() == 81 && line.bytes().all(|b| (b'1'..=b'9').contains(&b)))
            || line == "unsolvable"
            || line == "multiple"
            || (line.starts_with("invalid: ") && line.len() > 9);
        assert!(ok, "unexpected answer line {line:?}");
    }
    for line in String::from_utf8_lossy(data).lines().take(64) {
        let line = line.trim();
        if let (Answer::Solved(solution), Ok(puzzle)) = (answer(line), Grid::parse(line)) {
            assert!(solution.is_complete());
            assert!(solution.conflicts().is_empty());
            assert!(puzzle.is_solved_by(&solution));
        }
    }
}

/// config.toml parsing: any text gives a configuration or one line naming the problem.
pub fn config(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(e) = sudoku_bot::config::parse(text, "config.toml") {
        let msg = e.to_string();
        assert!(!msg.contains('\n'), "one line: {msg:?}");
        assert!(msg.contains("config.toml"), "names the file: {msg:?}");
    }
}

/// A fixed solution, and puzzles made of it by blanking cells.
const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// `overlay`'s drawing: a picture of any size up to 256x256 and a reading with any
/// corners (huge, reversed, degenerate, NaN), cell boxes and blank cells, as a hostile
/// picture could make the reader report; the solution is drawn without panicking.
pub fn overlay(data: &[u8]) {
    let mut bytes = Bytes(data);
    let (w, h) = (1 + bytes.u8() as u32, 1 + bytes.u8() as u32);
    let fill = [bytes.u8(), bytes.u8(), bytes.u8()];
    let mut canvas = image::RgbImage::from_pixel(w, h, image::Rgb(fill));
    // Sprinkle some pixels so the background differs between cells.
    for _ in 0..bytes.u8() {
        let (x, y) = (bytes.u8() as u32 % w, bytes.u8() as u32 % h);
        canvas.put_pixel(x, y, image::Rgb([bytes.u8(), bytes.u8(), bytes.u8()]));
    }
    let mut corner = || Point {
        x: bytes.coordinate(w),
        y: bytes.coordinate(h),
    };
    let corners = [corner(), corner(), corner(), corner()];
    let to_picture = Homography::grid_to_quad(corners).unwrap_or(Homography::IDENTITY);
    let solution = Grid::parse(SOLUTION).unwrap();
    let blank = bytes.bits81();
    let cells: Vec<CellReading> = (0..81)
        .map(|i| {
            let (r, c) = ((i / 9) as f32, (i % 9) as f32);
            let a = to_picture.apply(c, r);
            let b = to_picture.apply(c + 1.0, r + 1.0);
            let digit = (!blank[i]).then(|| solution.cells()[i]);
            CellReading {
                digit,
                confidence: 1.0,
                method: if digit.is_some() {
                    Method::Ocr
                } else {
                    Method::Empty
                },
                cell_box: Rect {
                    x: a.x.min(b.x),
                    y: a.y.min(b.y),
                    w: (b.x - a.x).abs(),
                    h: (b.y - a.y).abs(),
                },
                digit_box: digit.map(|_| Rect {
                    x: a.x,
                    y: a.y,
                    w: bytes.coordinate(w),
                    h: bytes.coordinate(h),
                }),
                alternatives: Vec::new(),
            }
        })
        .collect();
    let mut givens = [0u8; 81];
    for i in 0..81 {
        givens[i] = cells[i].digit.unwrap_or(0);
    }
    let reading = Reading {
        grid: Grid::from_cells(givens),
        corners,
        cells,
        to_picture,
        verdict: sudoku_bot::grid::Verdict::unjudged(),
        enlarged: None,
    };
    sudoku_bot::overlay::draw_solution(&mut canvas, &reading, &solution);
    assert_eq!(canvas.dimensions(), (w, h));
}

/// Reads fuzz bytes as values; past the end, zeros.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    /// 81 bits, one a cell, from 11 bytes.
    fn bits81(&mut self) -> [bool; 81] {
        let bytes: Vec<u8> = (0..11).map(|_| self.u8()).collect();
        std::array::from_fn(|i| bytes[i / 8] >> (i % 8) & 1 == 1)
    }

    /// A coordinate: mostly inside or near the picture, sometimes any f32 at all.
    fn coordinate(&mut self, side: u32) -> f32 {
        let kind = self.u8();
        let raw = u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()]);
        if kind < 16 {
            f32::from_bits(raw)
        } else {
            let span = 3.0 * side as f32;
            (raw as f32 / u32::MAX as f32) * span - side as f32
        }
    }
}
