//! A number pad beside the grid, for games that take no digit keys: found as glyphs of
//! one size outside the grid that read 1 to 9, each once.

use super::*;

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// Where the learnt number pad's button for `digit` is on the screen, when the
    /// game is played with its pad.
    pub(in crate::bot) fn pad_button(&self, digit: u8, origin: (i32, i32)) -> Option<ScreenPoint> {
        if self.model.method != Some(InputMethod::Pad) {
            return None;
        }
        let (x, y) = self.model.pad?[usize::from(digit.checked_sub(1)?)];
        Some(ScreenPoint {
            x: origin.0 + x,
            y: origin.1 + y,
        })
    }

    /// A game that selects no cell and takes no key, with a number pad: its button for
    /// the move's digit, then the move's cell, clicked and watched (Number Place picks
    /// the digit first). When the digit shows in its cell, the game is played so from
    /// now on (learning is over: the closed loop's looks watch the rest) and the move
    /// is done; `None` when it did not show.
    pub(super) fn pad_picked_first(
        &mut self,
        mv: &Observing,
        pad: [(i32, i32); 9],
    ) -> Result<Option<Observed>, BotError> {
        let m = mv.m;
        let (x, y) = pad[usize::from(m.digit - 1)];
        let button = ScreenPoint {
            x: mv.origin.0 + x,
            y: mv.origin.1 + y,
        };
        // Twice: a first click on a button already picked may have unpicked it.
        for _ in 0..2 {
            if let Some(why) = self.unsafe_to_act(mv.start, mv.map, &[button, m.at])? {
                return Ok(Some(Observed::Stop(Played::Paused(why))));
            }
            self.input.click(button)?;
            self.pause(self.first_wait());
            self.input.click(m.at)?;
            // No text field here: a thin 1 in the cell is a digit, not a caret.
            self.focus_box = None;
            self.last_input = Some(self.now());
            let at = self.now();
            let wait = Duration::from_millis(self.first_wait().max(600));
            while self.since(at) < wait {
                if self
                    .read_grid_now()?
                    .is_some_and(|read| read[m.cell] == m.digit)
                {
                    info!(
                        "learnt: keys do nothing; the number pad picks a digit (button 1 at {},{} in the window) that a click on a cell then enters",
                        pad[0].0, pad[0].1
                    );
                    self.model.pad = Some(pad);
                    self.model.method = Some(InputMethod::Pad);
                    self.model.pad_first = true;
                    self.model.pad_first_evidence = Some(format!(
                        "keys did nothing, nor the pad's button after a click on {}; its button {} then a click on it put {} there",
                        cell_name(m.cell),
                        m.digit,
                        m.digit
                    ));
                    self.model.confirmed = CONFIRM_MOVES - 1;
                    return self.entered(true).map(Some);
                }
                self.pause(20);
            }
        }
        debug!("the pad's button then the cell showed nothing either");
        Ok(None)
    }

    /// Finds a number pad in the window, outside the grid: glyphs of one size that read
    /// 1 to 9, each once. Their centres, window pixels.
    pub(super) fn find_pad(
        &mut self,
        map: &CellMap,
        origin: (i32, i32),
    ) -> Result<Option<[(i32, i32); 9]>, BotError> {
        let capture = self.screen.capture()?;
        let grid = ScreenRect {
            x: map.grid.x - origin.0,
            y: map.grid.y - origin.1,
            ..map.grid
        };
        let cell = map.grid.width as f32 / 9.0;
        let mut found: Vec<(u32, u8, (i32, i32))> = Vec::new();
        for glyph in pad_glyphs(&capture, &grid, cell) {
            let words = self
                .reader
                .read_words(&DynamicImage::ImageLuma8(glyph.picture))
                .map_err(|e| BotError::Reader(e.to_string()))?;
            let digit = match words.trim().as_bytes() {
                [d @ b'1'..=b'9'] => Some(d - b'0'),
                // A lone 1 is often read as a letter or a bar.
                [b'l' | b'I' | b'|'] => Some(1),
                _ => None,
            };
            if let Some(d) = digit {
                found.push((glyph.height, d, glyph.center));
            }
        }
        // The pad's digits share one size: take the size at which all nine read.
        let mut heights: Vec<u32> = found.iter().map(|f| f.0).collect();
        heights.sort_unstable();
        heights.dedup();
        for h in heights {
            let same: Vec<&(u32, u8, (i32, i32))> =
                found.iter().filter(|f| f.0.abs_diff(h) <= 2).collect();
            let mut pad = [None; 9];
            let mut twice = false;
            for f in &same {
                let slot = &mut pad[usize::from(f.1 - 1)];
                twice |= slot.is_some();
                *slot = Some(f.2);
            }
            if !twice && pad.iter().all(Option::is_some) {
                return Ok(Some(pad.map(|p| p.unwrap_or_default())));
            }
        }
        debug!("no number pad: digits read outside the grid {found:?}");
        Ok(None)
    }
}

/// A glyph outside the grid, cut out for reading.
struct Glyph {
    picture: image::GrayImage,
    height: u32,
    center: (i32, i32),
}

/// Glyphs of digit size (a quarter to nine tenths of a cell tall) outside `grid` in
/// `picture`: connected ink that stands out from the window's most common grey by more
/// than 100 levels, each cut out with a margin, dark on light.
fn pad_glyphs(picture: &RgbaImage, grid: &ScreenRect, cell: f32) -> Vec<Glyph> {
    use imageproc::region_labelling::{connected_components, Connectivity};
    let gray = image::imageops::grayscale(picture);
    let mut histogram = [0u32; 256];
    for p in gray.pixels() {
        histogram[p.0[0] as usize] += 1;
    }
    let background = (0..256).max_by_key(|&v| histogram[v]).unwrap_or(255) as i32;
    let in_grid = |x: u32, y: u32| grid.contains(x as i32, y as i32);
    let ink = image::GrayImage::from_fn(gray.width(), gray.height(), |x, y| {
        let v = gray.get_pixel(x, y).0[0] as i32;
        image::Luma([if !in_grid(x, y) && (v - background).abs() > 100 {
            255
        } else {
            0
        }])
    });
    let labels = connected_components(&ink, Connectivity::Eight, image::Luma([0u8]));
    let mut boxes: HashMap<u32, (u32, u32, u32, u32)> = HashMap::new();
    for (x, y, l) in labels.enumerate_pixels() {
        if l.0[0] == 0 {
            continue;
        }
        let b = boxes.entry(l.0[0]).or_insert((x, y, x, y));
        *b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
    }
    let (low, high) = ((cell * 0.25) as u32, (cell * 0.9) as u32);
    let mut glyphs: Vec<Glyph> = boxes
        .values()
        .filter_map(|&(x0, y0, x1, y1)| {
            let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
            if h < low.max(6) || h > high || w > h * 6 / 5 {
                return None;
            }
            let margin = h / 2;
            let (cx0, cy0) = (x0.saturating_sub(margin), y0.saturating_sub(margin));
            let (cx1, cy1) = (
                (x1 + margin).min(gray.width() - 1),
                (y1 + margin).min(gray.height() - 1),
            );
            let mut cut =
                image::imageops::crop_imm(&gray, cx0, cy0, cx1 - cx0 + 1, cy1 - cy0 + 1).to_image();
            if background < 128 {
                image::imageops::invert(&mut cut);
            }
            Some(Glyph {
                picture: cut,
                height: h,
                center: (((x0 + x1) / 2) as i32, ((y0 + y1) / 2) as i32),
            })
        })
        .collect();
    // A pad's digits are usually the biggest glyphs outside the grid; text elsewhere
    // in the window can be long.
    glyphs.sort_by_key(|g| std::cmp::Reverse(g.height));
    glyphs.truncate(40);
    glyphs
}
