//! `sudoku-bot eval LABELS...`: measure the reader on labelled sets (the label files:
//! [`crate::dataset`]). Each picture goes
//! through the real entry point, [`crate::vision::Reader`]; with the environment
//! variable `SUDOKU_BOT_EVAL=photo` it goes straight to the photo reader instead, and
//! `SUDOKU_BOT_MODEL=FILE` swaps in a digit model from `tools/train-digits`.
//!
//! One summary line per set: grids exact, grids misread (given as a confident answer
//! and wrong: the count that must stay 0), grids refused, cell accuracy, cells wrong,
//! locator hits, median and mean time an image (`--json`: one object a set). A progress
//! bar on a terminal; with `-v`, a line per picture, and one per picture read wrongly.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use std::io::Write;

use crate::dataset::{corners_match, load_set, Sample};
use crate::grid::Grid;
use crate::vision::digits::classifier::DigitClassifier;
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

/// Runs every set and prints one summary line each (`json`: one JSON object each). With
/// `progress`, a bar on stderr shows the pictures done when stderr is a terminal.
pub fn run(labels: &[PathBuf], json: bool, progress: bool) -> anyhow::Result<ExitCode> {
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
    let mut out = std::io::stdout().lock();
    for set in labels {
        // A label file that is missing or not a label file is bad usage, as a missing
        // picture is for `read`.
        let samples = load_set(set).map_err(|e| UsageError(format!("{e:#}")))?;
        let bar = progress_bar(progress, samples.len(), set);
        let mut outcomes = Vec::with_capacity(samples.len());
        for s in &samples {
            let picture = image::open(&s.image).map_err(|e| {
                UsageError(format!(
                    "cannot open {} (listed in {}): {e}",
                    s.image.display(),
                    set.display()
                ))
            })?;
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
            tracing::info!(
                "{}: {}, {millis:.0} ms",
                s.image.display(),
                match (&reading, confident) {
                    (None, _) => "no grid",
                    (Some(_), false) => "refused",
                    (Some(_), true) => "read",
                }
            );
            outcomes.push(Outcome {
                read: reading.as_ref().map(|r| r.grid),
                confident,
                corners: reading.as_ref().map(|r| r.corners),
                millis,
            });
            bar.inc(1);
        }
        bar.finish_and_clear();
        let summary = summarise(&samples, &outcomes);
        if json {
            writeln!(out, "{}", summary.to_json(set, photo_only))?;
        } else {
            writeln!(out, "{}", summary.line(set, photo_only))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A bar on stderr for one set's pictures, hidden unless `shown` and stderr is a
/// terminal (indicatif draws nothing on a pipe or a file).
fn progress_bar(shown: bool, len: usize, set: &Path) -> indicatif::ProgressBar {
    if !shown {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{prefix} {wide_bar} {pos}/{len} pictures, {eta} left",
    ) {
        bar.set_style(style);
    }
    bar.set_prefix(set.display().to_string());
    bar
}

/// One set's figures.
struct Summary {
    images: usize,
    exact: usize,
    misread: usize,
    refused: usize,
    cells: usize,
    wrong_cells: usize,
    /// Locator hits, and pictures with a true outline to compare with.
    hits: usize,
    with_outline: usize,
    median_ms: f64,
    mean_ms: f64,
}

impl Summary {
    fn line(&self, set: &Path, photo_only: bool) -> String {
        let n = self.images.max(1);
        let locator = if self.with_outline > 0 {
            format!(", locator hits {}/{}", self.hits, self.with_outline)
        } else {
            String::new()
        };
        format!(
            "{}: {}/{} grids exact ({:.1}%), {} misread, {} refused, cells {:.2}% right ({} of {} wrong){}, {:.0} ms median, {:.0} ms mean an image{}",
            set.display(),
            self.exact,
            self.images,
            100.0 * self.exact as f64 / n as f64,
            self.misread,
            self.refused,
            100.0 * (self.cells - self.wrong_cells) as f64 / self.cells.max(1) as f64,
            self.wrong_cells,
            self.cells,
            locator,
            self.median_ms,
            self.mean_ms,
            if photo_only { " [photo reader]" } else { "" },
        )
    }

    fn to_json(&self, set: &Path, photo_only: bool) -> serde_json::Value {
        serde_json::json!({
            "set": set.display().to_string(),
            "reader": if photo_only { "photo" } else { "full" },
            "images": self.images,
            "exact": self.exact,
            "misread": self.misread,
            "refused": self.refused,
            "cells": self.cells,
            "cells_wrong": self.wrong_cells,
            "locator_hits": self.hits,
            "locator_outlines": self.with_outline,
            "median_ms": self.median_ms,
            "mean_ms": self.mean_ms,
        })
    }
}

fn summarise(samples: &[Sample], outcomes: &[Outcome]) -> Summary {
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
    Summary {
        images: samples.len(),
        exact,
        misread,
        refused,
        cells: 81 * samples.len(),
        wrong_cells,
        hits,
        with_outline,
        median_ms: median,
        mean_ms: mean,
    }
}
