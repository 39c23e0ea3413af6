//! `sudoku-bot eval LABELS...`: measure the reader on labelled sets.
//!
//! A label file is either a Wicht-style `.desc` list (image paths relative to the
//! file's folder, truth in the `.dat` beside each image, outlines in
//! `outlines_sorted.csv` beside the `.desc` when present) or a manifest of lines
//! `FILE GRID  # comment` (paths relative to the manifest's folder). Each picture goes
//! through the real entry point, [`crate::vision::Reader`]; with the environment
//! variable `SUDOKU_BOT_EVAL=photo` it goes straight to the photo reader instead, and
//! `SUDOKU_BOT_MODEL=FILE` swaps in a digit model from `tools/train-digits`.
//!
//! One summary line per set: grids exact, grids misread (given as a confident answer
//! and wrong: the count that must stay 0), grids refused, cell accuracy, cells wrong,
//! locator hits, median and mean time an image. With `-v`, a line per picture read wrongly.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;

use crate::grid::Grid;
use crate::vision::classifier::DigitClassifier;
use crate::vision::{photo, Point, ReadError, Reader, Reading};
use crate::UsageError;

/// A located corner counts as a hit when it lies within this fraction of the grid's
/// side from the labelled corner (2% of a 400 px grid is 8 px, under a fifth of a cell).
pub const CORNER_TOLERANCE: f32 = 0.02;

/// One labelled picture.
#[derive(Debug, Clone)]
pub struct Sample {
    pub image: PathBuf,
    pub truth: Grid,
    /// The grid's corners (top-left, top-right, bottom-right, bottom-left) when known.
    pub outline: Option<[Point; 4]>,
}

/// Reads a labelled set: a `.desc` list or a manifest.
pub fn load_set(labels: &Path) -> anyhow::Result<Vec<Sample>> {
    if labels.extension().is_some_and(|e| e == "desc") {
        load_desc(labels)
    } else {
        load_manifest(labels)
    }
}

/// A Wicht `.desc` list with its `.dat` truths and, when beside it, the outlines.
pub fn load_desc(desc: &Path) -> anyhow::Result<Vec<Sample>> {
    let dir = desc.parent().unwrap_or(Path::new("."));
    let text =
        std::fs::read_to_string(desc).with_context(|| format!("cannot read {}", desc.display()))?;
    let outlines = match std::fs::read_to_string(dir.join("outlines_sorted.csv")) {
        Ok(csv) => parse_outlines(&csv),
        Err(_) => HashMap::new(),
    };
    let mut out = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let image = dir.join(line);
        let dat = image.with_extension("dat");
        let truth = read_dat(&dat)?;
        let key = line.trim_start_matches("./").to_string();
        let outline = outlines
            .get(&key)
            .map(|&o| outline_in_stored_frame(&image, o));
        out.push(Sample {
            image,
            truth,
            outline,
        });
    }
    Ok(out)
}

/// The grid of a Wicht `.dat` file: two header lines, then 9 rows of 9 digits
/// separated by spaces (0 for empty). Lenient about spacing and trailing blanks.
pub fn read_dat(path: &Path) -> anyhow::Result<Grid> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let digits: Vec<u8> = text
        .lines()
        .skip(2)
        .flat_map(|l| l.split_whitespace())
        .filter_map(|t| t.parse::<u8>().ok())
        .collect();
    if digits.len() != 81 || digits.iter().any(|&d| d > 9) {
        return Err(UsageError(format!(
            "{}: expected 81 digits 0-9 after two header lines",
            path.display()
        ))
        .into());
    }
    let mut cells = [0u8; 81];
    cells.copy_from_slice(&digits);
    Ok(Grid::from_cells(cells))
}

/// `outlines_sorted.csv`: image path (as "./images/x.jpg") and four corners clockwise
/// from the top-left. Keys are the paths without the leading "./".
pub fn parse_outlines(csv: &str) -> HashMap<String, [Point; 4]> {
    let mut out = HashMap::new();
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line
            .split(',')
            .map(|s| s.trim().trim_matches('"'))
            .collect();
        if f.len() < 9 {
            continue;
        }
        let v: Vec<f32> = f[1..9].iter().filter_map(|s| s.parse().ok()).collect();
        if v.len() != 8 {
            continue;
        }
        let p = |i: usize| Point {
            x: v[2 * i],
            y: v[2 * i + 1],
        };
        out.insert(
            f[0].trim_start_matches("./").to_string(),
            [p(0), p(1), p(2), p(3)],
        );
    }
    out
}

/// The Wicht outlines of photos with an EXIF orientation were drawn on the picture as
/// displayed (rotated), while the `.dat` grids and this reader use the stored pixels,
/// as `image::open` gives them. This maps an outline back to the stored pixels and
/// restores the corner order (top-left first, clockwise).
fn outline_in_stored_frame(image: &Path, outline: [Point; 4]) -> [Point; 4] {
    use image::metadata::Orientation;
    use image::ImageDecoder;
    let decoder = image::ImageReader::open(image)
        .ok()
        .and_then(|r| r.with_guessed_format().ok())
        .and_then(|r| r.into_decoder().ok());
    let Some(mut decoder) = decoder else {
        return outline;
    };
    let (w, h) = decoder.dimensions();
    let (w, h) = (w as f32, h as f32);
    let map: fn(Point, f32, f32) -> Point = match decoder.orientation() {
        Ok(Orientation::Rotate90) => |p, _w, h| Point {
            x: p.y,
            y: h - 1.0 - p.x,
        },
        Ok(Orientation::Rotate180) => |p, w, h| Point {
            x: w - 1.0 - p.x,
            y: h - 1.0 - p.y,
        },
        Ok(Orientation::Rotate270) => |p, w, _h| Point {
            x: w - 1.0 - p.y,
            y: p.x,
        },
        _ => return outline,
    };
    let mapped = outline.map(|p| map(p, w, h));
    // Clockwise order is kept by a rotation; start again from the top-left one.
    let first = (0..4)
        .min_by(|&a, &b| (mapped[a].x + mapped[a].y).total_cmp(&(mapped[b].x + mapped[b].y)))
        .unwrap_or(0);
    [0, 1, 2, 3].map(|k| mapped[(first + k) % 4])
}

/// A manifest: lines `FILE GRID  # comment`, blank and '#' lines skipped.
pub fn load_manifest(path: &Path) -> anyhow::Result<Vec<Sample>> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut parts = line.split_whitespace();
        let (Some(file), Some(grid)) = (parts.next(), parts.next()) else {
            return Err(UsageError(format!(
                "{} line {}: expected FILE GRID",
                path.display(),
                n + 1
            ))
            .into());
        };
        let truth = Grid::parse(grid)
            .map_err(|e| UsageError(format!("{} line {}: {e}", path.display(), n + 1)))?;
        out.push(Sample {
            image: dir.join(file),
            truth,
            outline: None,
        });
    }
    Ok(out)
}

/// What one picture's read came to.
struct Outcome {
    read: Option<Grid>,
    /// The reader gave its grid as an answer (not doubtful, not "no grid").
    confident: bool,
    corners: Option<[Point; 4]>,
    millis: f64,
}

/// Runs every set and prints one summary line each.
pub fn run(labels: &[PathBuf]) -> anyhow::Result<ExitCode> {
    if labels.is_empty() {
        return Err(
            UsageError("eval needs at least one label file (.desc or manifest)".into()).into(),
        );
    }
    let photo_only = std::env::var("SUDOKU_BOT_EVAL").is_ok_and(|v| v == "photo");
    // SUDOKU_BOT_MODEL: try a model file from the trainer instead of the shipped one.
    let classifier = match std::env::var_os("SUDOKU_BOT_MODEL") {
        Some(path) => DigitClassifier::load_file(Path::new(&path))?,
        None => DigitClassifier::load()?,
    };
    let mut reader = if photo_only {
        None
    } else {
        Some(Reader::new()?)
    };
    for set in labels {
        let samples = load_set(set)?;
        let mut outcomes = Vec::with_capacity(samples.len());
        for s in &samples {
            let picture = image::open(&s.image)
                .with_context(|| format!("cannot open {}", s.image.display()))?;
            let start = Instant::now();
            let result = match reader.as_mut() {
                Some(r) => r.read(&picture, None),
                None => photo::read_photo(&picture.to_luma8(), &classifier),
            };
            let millis = start.elapsed().as_secs_f64() * 1000.0;
            let confident = result.is_ok();
            let reading: Option<Reading> = match result {
                Ok(r) => Some(r),
                Err(ReadError::Doubtful { reading, .. }) => Some(*reading),
                Err(_) => None,
            };
            outcomes.push(Outcome {
                read: reading.as_ref().map(|r| r.grid),
                confident,
                corners: reading.as_ref().map(|r| r.corners),
                millis,
            });
        }
        report(set, &samples, &outcomes, photo_only);
    }
    Ok(ExitCode::SUCCESS)
}

fn report(set: &Path, samples: &[Sample], outcomes: &[Outcome], photo_only: bool) {
    let n = samples.len().max(1);
    let mut exact = 0;
    let (mut misread, mut refused) = (0, 0);
    let mut wrong_cells = 0;
    let (mut hits, mut with_outline) = (0, 0);
    for (s, o) in samples.iter().zip(outcomes) {
        let wrong: Vec<usize> = match o.read {
            Some(g) => (0..81)
                .filter(|&i| g.cells()[i] != s.truth.cells()[i])
                .collect(),
            None => (0..81).collect(),
        };
        if wrong.is_empty() && o.confident {
            exact += 1;
        }
        match (o.confident, wrong.is_empty()) {
            (false, _) => refused += 1,
            (true, false) => misread += 1,
            (true, true) => {}
        }
        wrong_cells += wrong.len();
        let hit = match (s.outline, o.corners) {
            (Some(truth), Some(found)) => {
                with_outline += 1;
                let h = corners_match(&truth, &found);
                hits += h as usize;
                Some(h)
            }
            _ => None,
        };
        if !wrong.is_empty() {
            tracing::info!(
                "{}: {} cells wrong{}{}{}",
                s.image.display(),
                wrong.len(),
                if o.confident { " (MISREAD)" } else { "" },
                if o.read.is_none() { " (no grid)" } else { "" },
                match hit {
                    Some(false) => ", corners off",
                    _ => "",
                },
            );
            if let Some(g) = o.read {
                tracing::debug!("  read  {}\n  truth {}", g.to_line(), s.truth.to_line());
            }
        }
    }
    let mut times: Vec<f64> = outcomes.iter().map(|o| o.millis).collect();
    times.sort_by(f64::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
    let mean = times.iter().sum::<f64>() / n as f64;
    let cells = 81 * samples.len();
    let locator = if with_outline > 0 {
        format!(", locator hits {hits}/{with_outline}")
    } else {
        String::new()
    };
    println!(
        "{}: {}/{} grids exact ({:.1}%), {} misread, {} refused, cells {:.2}% right ({} of {} wrong){}, {:.0} ms median, {:.0} ms mean an image{}",
        set.display(),
        exact,
        samples.len(),
        100.0 * exact as f64 / n as f64,
        misread,
        refused,
        100.0 * (cells - wrong_cells) as f64 / cells.max(1) as f64,
        wrong_cells,
        cells,
        locator,
        median,
        mean,
        if photo_only { " [photo reader]" } else { "" },
    );
}

/// True when each corner lies within [`CORNER_TOLERANCE`] of the grid's side from its
/// labelled position.
pub fn corners_match(truth: &[Point; 4], found: &[Point; 4]) -> bool {
    let side = ((truth[1].x - truth[0].x).hypot(truth[1].y - truth[0].y)
        + (truth[2].x - truth[3].x).hypot(truth[2].y - truth[3].y))
        / 2.0;
    truth
        .iter()
        .zip(found)
        .all(|(t, f)| (t.x - f.x).hypot(t.y - f.y) <= CORNER_TOLERANCE * side)
}

/// The largest corner distance, in pixels.
pub fn corner_error(truth: &[Point; 4], found: &[Point; 4]) -> f32 {
    truth
        .iter()
        .zip(found)
        .map(|(t, f)| (t.x - f.x).hypot(t.y - f.y))
        .fold(0.0, f32::max)
}
