//! `sudoku-bot eval LABELS...`: measure the reader on labelled sets (the label files:
//! [`crate::dataset`]). Each picture goes
//! through the real entry point, [`crate::vision::Reader`]; with the environment
//! variable `SUDOKU_BOT_EVAL=photo` it goes straight to the photo reader instead, and
//! `SUDOKU_BOT_MODEL=FILE` swaps in a digit model from `tools/train-digits`.
//!
//! One summary line per set: grids exact, grids misread (given as a confident answer
//! and wrong: the count that must stay 0), grids refused, cell accuracy, cells wrong,
//! locator hits, median and mean time an image. With `-v`, a line per picture read wrongly.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;

use crate::dataset::{corners_match, load_set, Sample};
use crate::grid::Grid;
use crate::vision::classifier::DigitClassifier;
use crate::vision::{photo, Point, ReadError, Reader, Reading};
use crate::UsageError;

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
