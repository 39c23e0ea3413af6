//! `sudoku-bot read`: print the grid read from a picture.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use serde::Serialize;

use crate::vision::{
    CellReading, Point, Reader, ReaderOptions, Reading, MAX_PICTURE_PIXELS, MEGAPIXEL,
};
use crate::UsageError;

/// The `--json` document printed after the grid line.
#[derive(Serialize)]
struct ReadingJson<'a> {
    grid: String,
    /// top-left, top-right, bottom-right, bottom-left, in picture pixels
    corners: &'a [Point; 4],
    cells: Vec<CellJson<'a>>,
}

#[derive(Serialize)]
struct CellJson<'a> {
    row: usize,
    col: usize,
    #[serde(flatten)]
    cell: &'a CellReading,
}

/// Reads the grid in `image` and prints it as one 81-character line; with `json`, a JSON
/// document follows; with `debug`, stage pictures go into that folder.
pub fn run(image: &Path, json: bool, debug: Option<&Path>) -> anyhow::Result<ExitCode> {
    let (picture, format) = open_picture(image)?;
    let mut reader = reader_for(format)?;
    let reading = reader
        .read(&picture, debug)
        .with_context(|| format!("{}", image.display()))?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", reading.grid.to_line())?;
    if json {
        serde_json::to_writer_pretty(&mut out, &to_json(&reading))?;
        writeln!(out)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn to_json(reading: &Reading) -> ReadingJson<'_> {
    ReadingJson {
        grid: reading.grid.to_line(),
        corners: &reading.corners,
        cells: reading
            .cells
            .iter()
            .enumerate()
            .map(|(i, cell)| CellJson {
                row: i / 9 + 1,
                col: i % 9 + 1,
                cell,
            })
            .collect(),
    }
}

/// A reader suited to the file: camera pictures (JPEG) are read by the classifier and
/// seldom need Tesseract, so it starts only if needed; for screenshots it starts at
/// once, in the background.
pub fn reader_for(format: Option<image::ImageFormat>) -> anyhow::Result<Reader> {
    let eager_ocr = format != Some(image::ImageFormat::Jpeg);
    Ok(Reader::with_options(ReaderOptions {
        eager_ocr,
        ..ReaderOptions::default()
    })?)
}

/// Opens a picture file, and says its format; a missing, empty, truncated or non-image
/// file, or one over the pixel budget, is a usage error that names the file.
pub fn open_picture(
    path: &Path,
) -> anyhow::Result<(image::DynamicImage, Option<image::ImageFormat>)> {
    let bytes = std::fs::read(path)
        .map_err(|e| UsageError(format!("cannot open {}: {}", path.display(), io_reason(&e))))?;
    Ok(decode_picture(&bytes, &path.display().to_string())?)
}

/// Decodes a picture held in memory; `name` is what error messages call it. The size
/// is read from the header first: a picture over [`MAX_PICTURE_PIXELS`] is refused
/// before any pixel is decoded (a 23k x 23k 1-bit PNG is tens of KB on disk and would
/// need gigabytes once converted and labelled).
pub fn decode_picture(
    bytes: &[u8],
    name: &str,
) -> Result<(image::DynamicImage, Option<image::ImageFormat>), UsageError> {
    if bytes.is_empty() {
        return Err(UsageError(format!("{name} is empty, not a picture")));
    }
    let not_a_picture = |e: &dyn std::fmt::Display| {
        UsageError(format!(
            "{name} is not a picture that can be read (PNG, JPEG or BMP): {e}"
        ))
    };
    let format = image::guess_format(bytes).map_err(|e| not_a_picture(&e))?;
    let decoder = || image::ImageReader::with_format(std::io::Cursor::new(bytes), format);
    let (w, h) = decoder().into_dimensions().map_err(|e| not_a_picture(&e))?;
    let pixels = w as u64 * h as u64;
    if pixels > MAX_PICTURE_PIXELS {
        return Err(UsageError(format!(
            "{name} is {w}x{h} pixels ({:.0} megapixels); pictures up to {} megapixels are read: scale it down first",
            pixels as f64 / MEGAPIXEL as f64,
            MAX_PICTURE_PIXELS / MEGAPIXEL
        )));
    }
    let mut reader = decoder();
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(w);
    limits.max_image_height = Some(h);
    reader.limits(limits);
    let picture = reader.decode().map_err(|e| not_a_picture(&e))?;
    Ok((picture, Some(format)))
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}
