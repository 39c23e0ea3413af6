//! The first click of a game played from its stored model, watched: what it opens over
//! the grid must be what was stored. A popover stored as needing closing that does not
//! show, or one that shows where none was stored, drops the stored model (its file too)
//! and the game is learnt again; a popover that shows is then learnt to close after
//! the move's digit. A model stored before popovers were (it says nothing of them) is
//! kept when the click shows none, and stored again with that.

use super::popover::describe_closing;
use super::*;

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// Whether the next click on a cell is the first of a game played from its stored
    /// model, to be watched with [`Self::recalled_click`].
    pub(in crate::bot) fn first_recalled_click(&self) -> bool {
        self.model.recalled && !self.model.recall_checked && !self.model.pad_first
    }

    /// Clicks the cell of `m` (the grid read `expect` before) and looks, for as long as
    /// the game takes to answer, whether the click hides digits around it: something
    /// opened over the grid. Drops the stored model when that is not what it says.
    pub(in crate::bot) fn recalled_click(
        &mut self,
        m: Move,
        expect: &[u8; 81],
        map: &CellMap,
        origin: (i32, i32),
    ) -> Result<(), BotError> {
        self.model.recall_checked = true;
        let before = self.cell_looks(map, origin)?;
        self.input.click(m.at)?;
        let at = self.now();
        self.last_input = Some(at);
        // One look once the game has had its time to answer; a popover stored as
        // needing closing that has not shown then gets a second, longer one.
        let mut wait = self.first_wait();
        let mut hidden = Vec::new();
        for _ in 0..2 {
            self.pause(wait.saturating_sub(self.since(at).as_millis() as u64));
            hidden = self.hidden_by_click(m.cell, &before, expect, map, origin)?;
            if hidden.len() >= 2 || !self.model.popover.needs_closing() {
                break;
            }
            wait = Self::longer(wait) + wait;
        }
        let cell = cell_name(m.cell);
        let stored = self.model.popover;
        if hidden.len() < 2 {
            if stored.needs_closing() {
                self.forget_recalled(&format!(
                    "a click on {cell} opened nothing over the grid, where {} was stored to close what it opens",
                    describe_closing(stored)
                ));
            } else if self.model.popover_unknown {
                info!("the first click ({cell}) opened nothing over the grid: the stored model stands, and is stored again with that");
                self.model.popover_unknown = false;
                self.model.store_outdated = true;
                self.model.popover_evidence = Some(format!("a click on {cell} hid no digit"));
            }
            return Ok(());
        }
        let seen = format!("a click on {cell} hid {}", cell_names(&hidden));
        if stored == Popover::Unseen || self.model.popover_unknown {
            let said = if self.model.popover_unknown {
                "the stored model says nothing of popovers"
            } else {
                "none was stored"
            };
            self.forget_recalled(&format!(
                "{seen}: something opened over the grid, where {said}"
            ));
            self.model.popover = Popover::Opens;
            self.model.popover_evidence = Some(seen);
        } else {
            debug!("{seen}: the popover stored of this game");
        }
        Ok(())
    }

    /// The cells other than `cell` whose look changed since `before` and whose digit no
    /// longer reads as `expect` says (the grid is read only when looks changed).
    fn hidden_by_click(
        &mut self,
        cell: usize,
        before: &[Look; 81],
        expect: &[u8; 81],
        map: &CellMap,
        origin: (i32, i32),
    ) -> Result<Vec<usize>, BotError> {
        let changed = self.changed_cells(before, map, origin)?;
        if changed.iter().filter(|&&i| i != cell).count() < 2 {
            return Ok(Vec::new());
        }
        let Some(read) = self.read_grid_now()? else {
            return Ok(Vec::new());
        };
        Ok(changed
            .into_iter()
            .filter(|&i| i != cell && read[i] != expect[i])
            .collect())
    }

    /// After the digit of `m` (the grid read `expect` before it), in a game whose first
    /// click from a dropped stored model opened a popover: learns how it closes, and
    /// closes it. `Some` when play must stop first.
    pub(in crate::bot) fn close_unstored_popover(
        &mut self,
        m: Move,
        expect: &[u8; 81],
        start: &WindowView,
        map: &CellMap,
        left_pointer_at: &mut Option<ScreenPoint>,
    ) -> Result<Option<Played>, BotError> {
        let mv = Observing {
            m,
            givens: expect,
            expect,
            start,
            map,
            origin: (start.window.rect.x, start.window.rect.y),
            last_key: None,
        };
        self.after_popover_digit(&mv, left_pointer_at)
    }
}
