//! A popover or number wheel that a click on a cell opens over the grid (it stays open
//! after the digit, covers the neighbours, and shows the digit in its own centre).
//!
//! Seen at the first click: digits outside the clicked cell no longer read as before.
//! After the first digit went in, the bot looks how it closes, and keeps what worked:
//! by itself (it closes with the digit), a click on a plain spot of the window beside
//! the grid, or Escape (last: some games take it for "back to the menu"). Each time, the cells around the move must read as expected
//! afterwards, the move's digit in its cell. From then on every digit is followed by
//! what closed it.

use super::*;

/// Grey levels a plain spot of the window may vary by (a flat background, antialiasing
/// of nothing near).
const PLAIN: u8 = 6;
/// The shortest look for a popover to close (its closing animation).
const CLOSING_MS: u64 = 300;

/// What a click on a cell opens over the grid, as seen, and what closes it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(in crate::bot) enum Popover {
    /// Nothing was seen over the grid after a click.
    #[default]
    Unseen,
    /// A click opened something over the grid; how it closes is not known yet.
    Opens,
    /// It closes by itself once the digit is in.
    ClosesItself,
    /// Escape closes it.
    Escape,
    /// A click on this plain spot of the window (window pixels) beside the grid.
    ClickBeside(i32, i32),
}

impl Popover {
    /// Whether something must be done after each digit to close it.
    pub(in crate::bot) fn needs_closing(self) -> bool {
        matches!(self, Popover::Escape | Popover::ClickBeside(..))
    }

    /// How the bot says it in `-v`.
    pub(in crate::bot) fn describe(self) -> String {
        match self {
            Popover::Unseen => "a click opens nothing over the grid".into(),
            Popover::Opens => "a click opens something over the grid".into(),
            Popover::ClosesItself => {
                "what a click opens over the grid closes by itself after the digit".into()
            }
            how => format!(
                "{} closes what a click opens over the grid",
                describe_closing(how)
            ),
        }
    }
}

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// The first click's look (`read`, the grid read after it; `changed`, the cells
    /// whose look the click changed): cells other than the clicked one that the click
    /// changed and whose digits no longer read as expected mean it opened something
    /// over the grid (a highlight of the row changes looks, not digits). Two at least:
    /// one digit misread is no popover.
    pub(super) fn popover_seen(&mut self, mv: &Observing, read: &[u8; 81], changed: &[usize]) {
        let hidden: Vec<usize> = changed
            .iter()
            .copied()
            .filter(|&i| i != mv.m.cell && read[i] != mv.expect[i])
            .collect();
        if hidden.len() >= 2 {
            info!(
                "learnt: a click on {} opens something over the grid ({} no longer read as before); it is closed after each digit",
                cell_name(mv.m.cell),
                cell_names(&hidden)
            );
            self.model.popover = Popover::Opens;
            self.model.popover_evidence = Some(format!(
                "a click on {} hid {}",
                cell_name(mv.m.cell),
                cell_names(&hidden)
            ));
        }
    }

    /// After a move's digit went in, in a game whose click opens a popover: closes it
    /// as learnt, or learns how (by itself, a click beside the grid, Escape: the first
    /// after which the cells around the move read as expected). `Some` when play must
    /// stop first.
    pub(super) fn after_popover_digit(
        &mut self,
        mv: &Observing,
        left_pointer_at: &mut Option<ScreenPoint>,
    ) -> Result<Option<Played>, BotError> {
        if self.model.popover != Popover::Opens {
            return self.close_popover(mv.start, mv.map, left_pointer_at);
        }
        let mut expect = *mv.expect;
        expect[mv.m.cell] = mv.m.digit;
        let wait = self.first_wait().max(CLOSING_MS);
        if self.around_reads_as(&expect, mv.m.cell, wait)? {
            info!("learnt: what a click opens over the grid closes by itself after the digit");
            self.model.popover = Popover::ClosesItself;
            self.closing_seen(mv, "the digit alone");
            return Ok(None);
        }
        // A click on a plain spot first: Escape may mean "back to the menu" in a game
        // whose click only seemed to open something.
        let mut tries = Vec::new();
        if let Some((x, y)) = self.plain_spot_beside(mv.map, mv.origin)? {
            tries.push(Popover::ClickBeside(x, y));
        }
        tries.push(Popover::Escape);
        for how in tries {
            self.model.popover = how;
            if let Some(stop) = self.close_popover(mv.start, mv.map, left_pointer_at)? {
                self.model.popover = Popover::Opens;
                return Ok(Some(stop));
            }
            if self.around_reads_as(&expect, mv.m.cell, wait)? {
                info!(
                    "learnt: {} closes what a click opens over the grid, and the digit stays",
                    describe_closing(how)
                );
                self.closing_seen(mv, &describe_closing(how));
                return Ok(None);
            }
        }
        // What was seen may have been no popover at all (a misread around the cell):
        // play goes on without closing anything, and the looks of play judge it.
        warn!(
            "what a click on {} seemed to open over the grid closes neither by itself, nor with a click beside the grid, nor with Escape; going on without closing it",
            cell_name(mv.m.cell)
        );
        self.model.popover = Popover::Unseen;
        Ok(None)
    }

    /// Adds to the popover's evidence what closed it after the move's digit.
    fn closing_seen(&mut self, mv: &Observing, what: &str) {
        let seen = self.model.popover_evidence.take().unwrap_or_default();
        self.model.popover_evidence = Some(format!(
            "{seen}; after {} went into {}, {what} closed it",
            mv.m.digit,
            cell_name(mv.m.cell)
        ));
    }

    /// Closes the popover a click opened, as learnt: Escape, or a click on the plain
    /// spot beside the grid, after the safety checks. `Some` when play must stop.
    pub(in crate::bot) fn close_popover(
        &mut self,
        start: &WindowView,
        map: &CellMap,
        left_pointer_at: &mut Option<ScreenPoint>,
    ) -> Result<Option<Played>, BotError> {
        match self.model.popover {
            Popover::Escape => self.send_keys([Key::Escape], start, map),
            Popover::ClickBeside(x, y) => {
                let at = ScreenPoint {
                    x: start.window.rect.x + x,
                    y: start.window.rect.y + y,
                };
                if let Some(why) = self.unsafe_to_act(start, map, &[at])? {
                    return Ok(Some(Played::Paused(why)));
                }
                self.input.click(at)?;
                *left_pointer_at = Some(at);
                self.last_input = Some(self.now());
                self.pause(self.pace.after_click);
                Ok(None)
            }
            _ => Ok(None),
        }
    }

    /// Whether the cells within two rows and columns of `cell` read as `expect`
    /// within `wait` ms (looked at again and again until they do).
    fn around_reads_as(
        &mut self,
        expect: &[u8; 81],
        cell: usize,
        wait: u64,
    ) -> Result<bool, BotError> {
        let near = |i: usize| (i / 9).abs_diff(cell / 9) <= 2 && (i % 9).abs_diff(cell % 9) <= 2;
        let start = self.now();
        loop {
            if let Some(read) = self.read_grid_now()? {
                if (0..81).filter(|&i| near(i)).all(|i| read[i] == expect[i]) {
                    return Ok(true);
                }
            }
            if self.since(start) >= Duration::from_millis(wait) {
                return Ok(false);
            }
            self.pause(20);
        }
    }

    /// A plain spot of the window beside the grid (window pixels), where a click
    /// closes a popover and does nothing else: the middle of a square half a cell
    /// wide, all of one grey, a cell or so from one of the grid's sides.
    fn plain_spot_beside(
        &mut self,
        map: &CellMap,
        origin: (i32, i32),
    ) -> Result<Option<(i32, i32)>, BotError> {
        let capture = self.screen.capture()?;
        let gray = image::imageops::grayscale(&capture);
        let g = map.grid;
        let (gx, gy) = (g.x - origin.0, g.y - origin.1);
        let cell = (g.width.min(g.height) as f32 / 9.0).max(4.0);
        let half = (cell / 4.0) as i32;
        let (w, h) = (g.width as f32, g.height as f32);
        let mut spots = Vec::new();
        for away in [0.9, 1.5] {
            let d = cell * away;
            for along in [0.5, 0.25, 0.75] {
                spots.push((gx as f32 - d, gy as f32 + h * along));
                spots.push((gx as f32 + w + d, gy as f32 + h * along));
                spots.push((gx as f32 + w * along, gy as f32 + h + d));
                spots.push((gx as f32 + w * along, gy as f32 - d));
            }
        }
        let plain = |cx: i32, cy: i32| {
            let (x0, y0, x1, y1) = (cx - half, cy - half, cx + half, cy + half);
            if x0 < 0 || y0 < 0 || x1 >= gray.width() as i32 || y1 >= gray.height() as i32 {
                return false;
            }
            let (mut lo, mut hi) = (u8::MAX, u8::MIN);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    let v = gray.get_pixel(x as u32, y as u32).0[0];
                    lo = lo.min(v);
                    hi = hi.max(v);
                }
            }
            hi - lo <= PLAIN
        };
        Ok(spots
            .into_iter()
            .map(|(x, y)| (x.round() as i32, y.round() as i32))
            .find(|&(x, y)| plain(x, y)))
    }
}

/// How the bot says a way of closing a popover in `-v`.
pub(super) fn describe_closing(how: Popover) -> String {
    match how {
        Popover::ClickBeside(x, y) => format!("a click beside the grid (at {x},{y} in the window)"),
        _ => "Escape".into(),
    }
}
