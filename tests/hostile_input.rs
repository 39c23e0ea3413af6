//! Hostile input as a user could feed it: pictures that are not sudokus but
//! look like lattices, pictures too big to read, puzzle input without line breaks.
//! Each gets one clear line and the right exit code; real grids, even empty ones,
//! still read.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use image::{GrayImage, Luma, Rgb, RgbImage};

fn bot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudoku-bot"))
        .args(args)
        .output()
        .expect("runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// One line on stderr naming the file and saying `words`, exit `code`, no stdout.
fn assert_clear_error(o: &Output, code: i32, file: &str, words: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(code), "stderr: {err}");
    assert!(
        o.stdout.is_empty(),
        "stdout: {}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.contains(file), "names the file: {err}");
    assert!(err.contains(words), "says '{words}': {err}");
    assert!(!err.contains("panicked"), "{err}");
}

fn save(dir: &Path, name: &str, img: impl Into<image::DynamicImage>) -> String {
    let path = dir.join(name);
    img.into().save(&path).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn graph_paper_and_checkerboards_are_no_sudoku_grid() {
    let dir = tempfile::tempdir().unwrap();
    // Graph paper: a plain line lattice of 25 px squares, as a user tried it (it once
    // read as an empty sudoku).
    let paper = GrayImage::from_fn(1920, 1080, |x, y| {
        Luma([if x % 25 == 0 || y % 25 == 0 { 120 } else { 255 }])
    });
    let paper = save(dir.path(), "graph-paper.png", paper);
    let o = bot(&["read", &paper]);
    println!("{}", String::from_utf8_lossy(&o.stdout));
    assert_clear_error(&o, 1, "graph-paper.png", "no sudoku grid");

    for (name, square) in [("checkerboard-240.png", 240), ("checkerboard-48.png", 48)] {
        let board = GrayImage::from_fn(3840, 2160, |x, y| {
            Luma([if (x / square + y / square) % 2 == 0 {
                0
            } else {
                255
            }])
        });
        let path = save(dir.path(), name, board);
        assert_clear_error(&bot(&["read", &path]), 1, name, "no sudoku grid");
    }
}

#[test]
fn a_calendar_and_a_spreadsheet_are_no_sudoku_grid() {
    // A month of seven columns and six rows of day numbers, and a sheet of ten columns
    // and thirty rows of digits (drawn with ImageMagick, DejaVu Sans): lattices with
    // numbers in their cells, but not nine by nine. The calendar's outline used to be
    // taken for a grid and read as a sudoku with clashing digits.
    for name in ["calendar-month.png", "spreadsheet.png"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/bad")
            .join(name);
        let o = bot(&["read", path.to_str().unwrap()]);
        assert_clear_error(&o, 1, name, "no sudoku grid");
    }
}

/// A sudoku grid with no digits at all (a "create your own puzzle" screen): 40 px
/// cells, 1 px lines, 3 px box lines, on a page with a toolbar of squares above it.
fn empty_game_grid() -> RgbImage {
    let mut img = RgbImage::from_pixel(640, 560, Rgb([236, 236, 240]));
    let (ox, oy, cell) = (100u32, 90u32, 40u32);
    let mut at = Vec::new();
    let mut p = 0;
    for k in 0..=9 {
        let lw = if k % 3 == 0 { 3 } else { 1 };
        at.push((p, lw));
        p += lw + cell;
    }
    let total = p - cell;
    for y in 0..total {
        for x in 0..total {
            img.put_pixel(ox + x, oy + y, Rgb([255, 255, 255]));
        }
    }
    for &(q, lw) in &at {
        for t in 0..lw {
            for u in 0..total {
                img.put_pixel(ox + q + t, oy + u, Rgb([40, 40, 60]));
                img.put_pixel(ox + u, oy + q + t, Rgb([40, 40, 60]));
            }
        }
    }
    // A toolbar of five square buttons.
    for b in 0..5 {
        for y in 20..56 {
            for x in 0..36 {
                img.put_pixel(100 + b * 46 + x, y, Rgb([200, 210, 230]));
            }
        }
    }
    img
}

#[test]
fn an_empty_game_grid_is_found_and_refused_as_no_puzzle() {
    // The grid is found (the refusal is about its digits, not "no sudoku grid"), and
    // nothing is printed as the puzzle: a reading with no digits is no puzzle to solve,
    // and the same words come when a typeface no reader names reads as empty cells.
    let dir = tempfile::tempdir().unwrap();
    let path = save(dir.path(), "empty-grid.png", empty_game_grid());
    let o = bot(&["read", &path]);
    assert_clear_error(&o, 1, "empty-grid.png", "only 0 digits were read");
    let json = bot(&["read", "--json", &path]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON on stdout");
    assert_eq!(v["grid"], ".".repeat(81), "the grid it found, all empty");
    assert!(v["error"].as_str().unwrap().contains("at least 17"), "{v}");
}

/// A PNG header saying 23000x23000 pixels at 1 bit each: tens of KB as a real file,
/// over 500 MP decoded. Only the header is written: it must be refused from the
/// header, before any pixel is decoded.
fn huge_png_header() -> Vec<u8> {
    fn crc(data: &[u8]) -> u32 {
        let mut c = 0xffff_ffffu32;
        for &b in data {
            c ^= b as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    0xedb8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
        }
        !c
    }
    fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
        out.extend((data.len() as u32).to_be_bytes());
        let mut body = kind.to_vec();
        body.extend(data);
        out.extend(&body);
        out.extend(crc(&body).to_be_bytes());
    }
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend(23000u32.to_be_bytes());
    ihdr.extend(23000u32.to_be_bytes());
    ihdr.extend([1, 0, 0, 0, 0]); // 1 bit, grey, deflate, adaptive filter, no interlace
    chunk(&mut png, b"IHDR", &ihdr);
    // The start of a deflate stream; the pixels never come.
    chunk(&mut png, b"IDAT", &[0x78, 0x9c, 0xed, 0xc1, 0x01, 0x01]);
    chunk(&mut png, b"IEND", &[]);
    png
}

#[test]
fn a_picture_over_the_pixel_budget_is_refused_from_its_header() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.png");
    std::fs::write(&path, huge_png_header()).unwrap();
    let o = bot(&["read", path.to_str().unwrap()]);
    assert_clear_error(&o, 2, "huge.png", "23000x23000 pixels");
    assert!(stderr(&o).contains("up to 50 megapixels"), "{}", stderr(&o));
    let out = dir.path().join("out.png");
    let o = bot(&[
        "overlay",
        path.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_clear_error(&o, 2, "huge.png", "23000x23000 pixels");
    assert!(!out.exists());
}

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

fn solve_stdin(input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-bot"))
        .arg("solve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sudoku-bot");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from a thread: the answers may fill the pipe before the input ends.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait for sudoku-bot");
    writer.join().unwrap();
    out
}

#[test]
fn a_line_too_long_is_invalid_and_the_lines_after_it_are_answered() {
    let mut input = Vec::new();
    input.extend(format!("{PUZZLE}\n").as_bytes());
    input.extend(std::iter::repeat_n(b'5', 5000));
    input.extend(format!("\n{PUZZLE}\n").as_bytes());
    let o = solve_stdin(&input);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        format!("{SOLUTION}\ninvalid: line too long\n{SOLUTION}\n")
    );
}

#[test]
fn input_without_line_breaks_is_one_invalid_line_not_a_growing_buffer() {
    // 64 MB of digits and no newline: answered after reading, with 4 KB kept.
    let input = vec![b'1'; 64 << 20];
    let o = solve_stdin(&input);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        "invalid: line too long\n"
    );
}

#[test]
fn a_line_of_exactly_the_limit_is_read_as_a_line() {
    // 4096 characters: too long for a puzzle, not for a line.
    let o = solve_stdin(format!("{}\n", "7".repeat(4096)).as_bytes());
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        "invalid: line has 4096 characters, need 81\n"
    );
}

#[test]
fn captures_of_no_size_or_one_pixel_across_are_no_grid() {
    // What a 0x0 window, or one squeezed to a line, captures as.
    use sudoku_bot::vision::{ReadError, Reader};
    let mut reader = Reader::without_ocr();
    for (w, h) in [(0, 0), (0, 40), (40, 0), (1, 1), (1, 900), (900, 1), (2, 2)] {
        let picture = image::DynamicImage::new_rgb8(w, h);
        assert!(
            matches!(reader.read(&picture, None), Err(ReadError::NoGrid)),
            "{w}x{h}"
        );
    }
}
