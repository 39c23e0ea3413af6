//! The game's own cursor, for keyboard-only games: found by the two cells whose looks
//! one arrow key swaps.

use super::*;

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// Finds the game's own cursor: one arrow key moves it, and the two cells whose
    /// look that swaps are where it was and where it is now. Right is tried, then Left.
    pub(super) fn find_cursor(
        &mut self,
        map: &CellMap,
        origin: (i32, i32),
        start: &WindowView,
    ) -> Result<Option<usize>, BotError> {
        for key in [Key::Right, Key::Left] {
            if let Some(cursor) = self.cursor_after(
                key,
                CURSOR_LOOK_MS.max(self.first_wait()),
                map,
                origin,
                start,
            )? {
                return Ok(Some(cursor));
            }
        }
        Ok(None)
    }

    /// Sends the arrow `key` and watches the grid for `wait` ms: two cells of a row
    /// that take on new looks are where the game's cursor was and where it is now
    /// (returned). `None` when nothing like that showed, or when the game lost the
    /// keyboard focus (then nothing is sent). A look with many cells changed may be
    /// caught mid-redraw (a curses game clears its whole screen after each key and
    /// draws it again), so the watch goes on to its end.
    pub(super) fn cursor_after(
        &mut self,
        key: Key,
        wait: u64,
        map: &CellMap,
        origin: (i32, i32),
        start: &WindowView,
    ) -> Result<Option<usize>, BotError> {
        let before = &self.cell_looks(map, origin)?;
        if self.focus_lost(start, map)?.is_some() {
            return Ok(None);
        }
        self.input.key(key)?;
        self.last_input = Some(self.now());
        let at = self.now();
        let mut many = false;
        while self.since(at) < Duration::from_millis(wait) {
            let changed = self.changed_cells(before, map, origin)?;
            if let [a, b] = changed[..] {
                if a / 9 == b / 9 {
                    self.model.answered = true;
                    // Right moves to the right-hand cell, unless it wrapped round.
                    let wrapped = b - a > 1;
                    return Ok(Some(match (key, wrapped) {
                        (Key::Right, false) | (Key::Left, true) => b,
                        _ => a,
                    }));
                }
            }
            if changed.len() > 2 && !many {
                many = true;
                debug!(
                    "an arrow key changed {} cells (a redraw, or a look of its own)",
                    changed.len()
                );
            }
            self.pause(10);
        }
        Ok(None)
    }

    /// Looks for a keyboard-only game's cursor after a click that showed nothing: one
    /// Right, watched for the first look's wait. When it showed nothing, a Left undoes
    /// it (a game may move a selection it does not draw), unwatched.
    pub(in crate::bot) fn cursor_probe(
        &mut self,
        map: &CellMap,
        origin: (i32, i32),
        start: &WindowView,
    ) -> Result<Option<usize>, BotError> {
        let wait = self.first_wait();
        let found = self.cursor_after(Key::Right, wait, map, origin, start)?;
        if found.is_none() && self.focus_lost(start, map)?.is_none() {
            self.input.key(Key::Left)?;
            self.last_input = Some(self.now());
        }
        Ok(found)
    }
}
