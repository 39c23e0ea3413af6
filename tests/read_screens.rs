//! Every labelled screenshot in fixtures/screens/MANIFEST is read exactly: GNOME Sudoku
//! at every size, with pencil marks, highlights and games in progress, and the web game
//! in every theme, font and size, alone and on a busy screen, also with colour fringes and
//! JPEG compression, down to 12 px cells; scaled down further, they are read or refused,
//! never misread.

use std::path::{Path, PathBuf};

use sudoku_bot::vision::Reader;

fn manifest() -> Vec<(PathBuf, String, String)> {
    labelled("MANIFEST")
}

fn is_jpeg(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "jpg")
}

/// The lines of a label file in fixtures/screens: (picture, grid, what it shows).
fn labelled(name: &str) -> Vec<(PathBuf, String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/screens");
    let text = std::fs::read_to_string(dir.join(name)).expect("a label file in fixtures/screens");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split_whitespace();
            let file = parts.next().unwrap();
            let grid = parts.next().unwrap();
            let what = l.split_once('#').map(|x| x.1.trim()).unwrap_or("");
            (dir.join(file), grid.to_string(), what.to_string())
        })
        .collect()
}

#[test]
fn every_screenshot_fixture_reads_exactly() {
    let fixtures = manifest();
    assert!(
        fixtures.len() >= 40,
        "the manifest should list at least 40 fixtures, every app and style the README names"
    );
    let mut wrong = Vec::new();
    for (path, want, what) in &fixtures {
        // A fresh reader each time, as `sudoku-bot read` has: no glyphs known beforehand.
        let mut reader = Reader::new().expect("Tesseract starts");
        let picture = image::open(path).expect("fixture opens");
        match reader.read(&picture, None) {
            Ok(r) if r.grid.to_line() == *want => {}
            Ok(r) => wrong.push(format!(
                "{}: read {} want {} ({what})",
                path.display(),
                r.grid.to_line(),
                want
            )),
            Err(e) => wrong.push(format!("{}: {e} ({what})", path.display())),
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} misread:\n{}",
        wrong.len(),
        fixtures.len(),
        wrong.join("\n")
    );
}

/// The cell size a fixture's name gives (the first number between dashes:
/// `web-flat-36-pencil.png` has 36 px cells).
fn cell_size(path: &Path) -> Option<f32> {
    let stem = path.file_stem()?.to_str()?;
    stem.split('-').find_map(|part| part.parse::<f32>().ok())
}

#[test]
fn screenshots_scaled_down_to_13_and_15_px_cells_are_read_or_refused_never_misread() {
    // Every PNG fixture scaled down (Lanczos) until its cells are 13 or 15 px: a
    // zoomed-out page, a screen shared at a lower resolution. Blur takes pixels from
    // every stroke; some pictures cannot be read, but none may come out wrong. Before
    // 2026-11-25, 7 of these came out as a confident, wrong grid: pencil marks run
    // together read as a given, a blurred 8 taken for a pencil mark (an empty cell),
    // the photo path overruling what the screenshot showed.
    let mut misread = Vec::new();
    let (mut exact, mut tried) = (0, 0);
    for (path, want, what) in manifest().iter().filter(|f| !is_jpeg(&f.0)) {
        let Some(cell) = cell_size(path) else {
            continue;
        };
        let picture = image::open(path).expect("fixture opens");
        for target in [13.0, 15.0] {
            let k = target / cell;
            if k >= 1.0 {
                continue;
            }
            let (w, h) = (picture.width() as f32 * k, picture.height() as f32 * k);
            let small =
                picture.resize_exact(w as u32, h as u32, image::imageops::FilterType::Lanczos3);
            let mut reader = Reader::new().expect("Tesseract starts");
            tried += 1;
            match reader.read(&small, None) {
                Ok(r) if r.grid.to_line() == *want => exact += 1,
                Ok(r) => misread.push(format!(
                    "{} at {target} px cells: read {} ({what})",
                    path.display(),
                    r.grid.to_line()
                )),
                Err(_) => {}
            }
        }
    }
    eprintln!("{exact} of {tried} scaled-down screenshots read exactly, the others refused");
    assert!(misread.is_empty(), "misread:\n{}", misread.join("\n"));
    assert!(
        tried >= 100 && exact * 3 >= tried,
        "{exact} of {tried} read exactly: the reader should read a third at least"
    );
}

/// Reads each of `names` (in the MANIFEST) with a fresh reader; the misreads and
/// refusals, one a line.
fn misread(names: &[&str]) -> Vec<String> {
    let fixtures = manifest();
    let mut wrong = Vec::new();
    for name in names {
        let (path, want, what) = fixtures
            .iter()
            .find(|(p, _, _)| p.file_name().is_some_and(|f| f == *name))
            .unwrap_or_else(|| panic!("{name} in the MANIFEST"));
        let mut reader = Reader::new().expect("Tesseract starts");
        let picture = image::open(path).expect("fixture opens");
        match reader.read(&picture, None) {
            Ok(r) if r.grid.to_line() == *want => {}
            Ok(r) => wrong.push(format!("{name}: read {} ({what})", r.grid.to_line())),
            Err(e) => wrong.push(format!("{name}: {e} ({what})")),
        }
    }
    wrong
}

#[test]
fn terminal_grids_drawn_with_characters_read_exactly() {
    // Real curses games in xterm: an ASCII grid with no lines between cells (Debian's
    // `sudoku`), and a box-drawing grid whose heavy lines the font draws as dashes
    // (play-sudoku). Before the dashed lines were joined, neither had a grid.
    // In a game in progress, digits' upright strokes that line up down a column are
    // joined like a dashed line too; the cells are cut where the picture's own ink
    // stands. The block cursor on a given 4 (a flat block, the 4 in inverse video, its
    // bar touching the block's edge) used to be a glyph no reader named. A row with no
    // digit (only dots on the baseline) used to leave the grid unfound.
    let wrong = misread(&[
        "sudoku-console-xterm-24.png",
        "sudoku-console-xterm-24-progress.png",
        "sudoku-console-screen-24-progress.png",
        "sudoku-console-xterm-24-cursor4.png",
        "sudoku-console-screen-24-empty-row.png",
        "play-sudoku-xterm-48.png",
    ]);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_grid_of_box_borders_labels_and_entry_widgets_reads_exactly() {
    // Kaidoku (Tk): 1 px box borders only, clues as labels on grey, empty cells as
    // entry widgets whose sunken outline is no digit.
    let wrong = misread(&["kaidoku-window-30.png"]);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn red_ones_the_classifier_takes_for_fours_are_read_as_ones() {
    // sudoku_1440 (Kivy): Tesseract reads its red Roboto 1s as 1, the classifier as 4,
    // and with no 4 among the givens both puzzles have one solution. The rules could not
    // settle it, and the photo path (the same classifier) read 4s: a confident, wrong
    // grid. A disputed cell is no longer the photo path's to decide, and a glyph far
    // narrower than every sure glyph of another digit is a 1.
    let wrong = misread(&["sudoku1440-window-83-red1s.png"]);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn one_reader_reads_a_sequence_of_pictures_of_one_app_reusing_known_glyphs() {
    // The bot keeps one reader: glyphs recognised in one capture are reused in the next.
    let mut reader = Reader::new().unwrap();
    for (path, want, _) in manifest().iter().filter(|f| {
        f.0.file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with("gnome-")
    }) {
        let r = reader.read(&image::open(path).unwrap(), None).unwrap();
        assert_eq!(r.grid.to_line(), *want, "{}", path.display());
    }
}

#[test]
fn cell_centres_lie_inside_their_cells_and_rows_go_down() {
    let (path, _, _) = &manifest()[0];
    let r = Reader::new()
        .unwrap()
        .read(&image::open(path).unwrap(), None)
        .unwrap();
    for i in 0..81 {
        let c = r.cell_center(i);
        let b = r.cells[i].cell_box;
        assert!(c.x > b.x && c.x < b.x + b.w && c.y > b.y && c.y < b.y + b.h);
    }
    assert!(r.cell_center(9).y > r.cell_center(0).y + 10.0);
    assert!(r.cell_center(1).x > r.cell_center(0).x + 10.0);
}

#[test]
fn screenshots_are_told_from_photos() {
    use sudoku_bot::vision::reader::looks_like_photo;
    // Lossless screenshots; a JPEG of one may pass for a photo (the photo path reads
    // it first, the rules judge it, and the screenshot path follows).
    for (path, _, _) in manifest().into_iter().filter(|f| !is_jpeg(&f.0)) {
        assert!(
            !looks_like_photo(&image::open(&path).unwrap().to_rgb8()),
            "{} is a screenshot",
            path.display()
        );
    }
    let photos = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/photos");
    for name in ["image1.jpg", "image10.jpg", "image1031.jpg"] {
        assert!(
            looks_like_photo(&image::open(photos.join(name)).unwrap().to_rgb8()),
            "{name} is a photo"
        );
    }
}

/// The fixtures `read` reads exactly whose digits the second reading does not all
/// confirm, so the bot would refuse to play them: none. (DSEG14's 1 at 48 px and a serif
/// 1 in a colour-fringed q50 JPEG were listed until stop 45, confirmed since earlier
/// stops; a fixture listed here that the second reading confirms fails the test.) Every
/// fixture is confirmed: JPEGs, 14 px cells, and the pictures the photo path reads
/// first (the pixel face; fringed JPEGs), whose grid the screenshot path finds within a
/// quarter of a cell of the photo path's outline.
const UNCONFIRMED: &[&str] = &[];

#[test]
fn the_second_reading_confirms_every_fixture_and_catches_a_misread() {
    // The bot types only what a second path, sharing no cache with the first, agrees
    // on: on every fixture it must agree (else the bot would refuse good games), and a
    // given changed after reading must be caught.
    let mut refused = Vec::new();
    for (path, want, what) in &manifest() {
        let mut reader = Reader::new().expect("Tesseract starts");
        let picture = image::open(path).expect("fixture opens");
        let Ok(reading) = reader.read(&picture, None) else {
            continue; // the exactness test reports it
        };
        let unconfirmed = reader.confirm(&picture, &reading).expect("confirm runs");
        let name = path.file_name().unwrap().to_string_lossy();
        if !unconfirmed.is_empty() && !UNCONFIRMED.contains(&name.as_ref()) {
            refused.push(format!(
                "{}: {} ({what})",
                path.display(),
                sudoku_bot::grid::cell_names(&unconfirmed)
            ));
        }
        if unconfirmed.is_empty() && UNCONFIRMED.contains(&name.as_ref()) {
            refused.push(format!(
                "{}: confirmed, yet listed as unconfirmed",
                path.display()
            ));
        }
        assert_eq!(reading.grid.to_line(), *want);
        // A whole digit read wrong, as a poisoned glyph cache would: every cell of the
        // first given's digit turned into another digit.
        let mut misread = reading.clone();
        let first = (0..81).find(|&i| want.as_bytes()[i] != b'.').unwrap();
        let d = reading.grid.cells()[first];
        let other = d % 9 + 1;
        let mut cells = *misread.grid.cells();
        for c in cells.iter_mut().filter(|c| **c == d) {
            *c = other;
        }
        misread.grid = sudoku_bot::Grid::from_cells(cells);
        let caught = reader.confirm(&picture, &misread).expect("confirm runs");
        assert!(
            caught.contains(&first),
            "{}: {d} misread as {other} in {} was confirmed",
            path.display(),
            sudoku_bot::grid::cell_name(first)
        );
    }
    assert!(refused.is_empty(), "not confirmed:\n{}", refused.join("\n"));
}
