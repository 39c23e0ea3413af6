//! `sudoku-bot read`: print the grid read from a picture.

use std::io::{Read, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use serde::Serialize;

use crate::vision::{
    CellReading, Point, ReadError, Reader, ReaderOptions, Reading, MAX_PICTURE_PIXELS, MEGAPIXEL,
};
use crate::UsageError;

/// The `--json` document: the reading, and for a refused one, why and which cells.
#[derive(Serialize)]
struct ReadingJson<'a> {
    grid: String,
    /// top-left, top-right, bottom-right, bottom-left, in picture pixels
    corners: &'a [Point; 4],
    cells: Vec<CellJson<'a>>,
    /// Whether the reading was accepted ([`crate::vision::acceptance`]): false for a
    /// reading reported as seen and refused, by the first reading or the second.
    confirmed: bool,
    /// Why the reading was refused (absent for a reading given as an answer).
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    /// The cells that made it doubtful, as `r1c2` (absent for an answer).
    #[serde(skip_serializing_if = "Option::is_none")]
    doubtful: Option<Vec<String>>,
}

#[derive(Serialize)]
struct CellJson<'a> {
    row: usize,
    col: usize,
    #[serde(flatten)]
    cell: &'a CellReading,
}

/// Reads the grid in `image` (`-`: standard input) and prints it as one 81-character
/// line, or with `json` only a JSON document; with `debug`, stage pictures go into that
/// folder. A refused reading is an error (exit 1); with `json` its document, with the
/// grid as read, `error` and `doubtful`, is printed all the same.
pub fn run(image: &Path, json: bool, debug: Option<&Path>) -> anyhow::Result<ExitCode> {
    let (picture, format) = open_picture(image)?;
    let mut reader = reader_for(format)?;
    let name = picture_name(image);
    let reading = match reader.read(&picture, debug) {
        Ok(reading) => reading,
        Err(ReadError::Doubtful {
            reason,
            cells,
            reading,
        }) if json => {
            let mut doc = to_json(&reading);
            doc.confirmed = false;
            doc.error = Some(reason.clone());
            doc.doubtful = Some(cells.iter().map(|&i| crate::grid::cell_name(i)).collect());
            print_json(&doc)?;
            let err = ReadError::Doubtful {
                reason,
                cells,
                reading,
            };
            return Ok(crate::error::report(
                &anyhow::Error::from(err).context(name),
            ));
        }
        Err(e) => return Err(e).with_context(|| name),
    };
    if json {
        print_json(&to_json(&reading))?;
    } else {
        writeln!(std::io::stdout().lock(), "{}", reading.grid.to_line())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn print_json(doc: &ReadingJson) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, doc)?;
    writeln!(out)?;
    Ok(())
}

/// How messages name a picture: its path, or "standard input" for `-`.
pub fn picture_name(path: &Path) -> String {
    if is_stdio(path) {
        "standard input".into()
    } else {
        path.display().to_string()
    }
}

/// Whether a path argument is `-`, standard input or output.
pub fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

fn to_json(reading: &Reading) -> ReadingJson<'_> {
    ReadingJson {
        grid: reading.grid.to_line(),
        corners: &reading.corners,
        confirmed: true,
        error: None,
        doubtful: None,
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

/// Opens a picture file (`-`: standard input), and says its format; a missing, empty,
/// truncated or non-image file, or one over the pixel budget, is a usage error that
/// names the file.
pub fn open_picture(
    path: &Path,
) -> anyhow::Result<(image::DynamicImage, Option<image::ImageFormat>)> {
    let bytes = if is_stdio(path) {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .map_err(|e| UsageError(format!("cannot read standard input: {e}")))?;
        bytes
    } else {
        std::fs::read(path)
            .map_err(|e| UsageError(format!("cannot open {}: {}", path.display(), io_reason(&e))))?
    };
    Ok(decode_picture(&bytes, &picture_name(path))?)
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
