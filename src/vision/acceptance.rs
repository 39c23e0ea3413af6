//! The one rule that accepts a reading, on every path: `read`, `overlay`, `eval`, the
//! watch, and [`Reader`] used as a library across pictures.
//!
//! A reading is given as an answer (printed, drawn, played) only when the first
//! reading judged it a puzzle to act on and the second reading ([`Reader::confirm`],
//! which shares no glyph cache or remembered look with the first) confirms every digit
//! of it. Nothing else decides a digit alone: not a look remembered from an earlier
//! picture, not the photo path's classifier. A reading that fails is a
//! [`ReadError::Doubtful`] naming the unconfirmed cells, with the reading as seen
//! (what `read --json` reports, marked unconfirmed).

use std::path::Path;

use image::DynamicImage;

use super::digits::readers::Reader;
use super::reading::{ReadError, Reading};

impl Reader {
    /// Reads the grid in `picture` and accepts it by the one rule ([`accepted`]): the
    /// answer for `read`, `overlay`, `eval` and a library caller. With `debug`, stage
    /// pictures go into that folder.
    pub fn read(
        &mut self,
        picture: &DynamicImage,
        debug_dir: Option<&Path>,
    ) -> Result<Reading, ReadError> {
        let reading = self.read_unconfirmed(picture, debug_dir)?;
        self.accept(picture, reading)
    }

    /// The one rule, on a reading the first reading judged a puzzle to act on: the
    /// second reading must confirm every digit ([`accepted`]).
    pub fn accept(
        &mut self,
        picture: &DynamicImage,
        reading: Reading,
    ) -> Result<Reading, ReadError> {
        let unconfirmed = self.confirm(picture, &reading)?;
        accepted(reading, unconfirmed)
    }
}

/// The decision: a reading whose digits the second reading confirmed, every one
/// (`unconfirmed` empty), is accepted; otherwise it is doubtful, naming those cells.
/// The bot, which runs the second reading itself, decides by this function too.
pub fn accepted(reading: Reading, unconfirmed: Vec<usize>) -> Result<Reading, ReadError> {
    if unconfirmed.is_empty() {
        return Ok(reading);
    }
    Err(ReadError::Doubtful {
        reason: format!(
            "a second reading does not confirm {} of the digits read",
            unconfirmed.len()
        ),
        cells: unconfirmed,
        reading: Box::new(reading),
    })
}

/// The reason [`accepted`] gives a reading it refuses starts so.
pub const UNCONFIRMED: &str = "a second reading does not confirm";
