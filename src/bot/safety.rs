//! The checks before each input: the window unchanged, on the screen and unlocked,
//! nothing over the grid or the points to click, the user away from mouse and
//! keyboard, the game holding the keyboard focus, the pointer where the bot left it.

use super::*;
use crate::screen::Elsewhere;

/// The times in a row that no window may have the keyboard focus when a key is due:
/// before this one play pauses (the next move's click gives the game the focus back);
/// at this one it stops, as the click does not.
pub(super) const MAX_UNFOCUSED: u32 = 3;

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// Why no input may go to the game now, else `None`: the window moved, was
    /// minimised, unmapped or closed; the screen is locked; something covers the grid;
    /// or one of `points` (where the next move clicks) is outside the window or covered.
    pub(super) fn unsafe_to_act(
        &mut self,
        start: &WindowView,
        map: &CellMap,
        points: &[ScreenPoint],
    ) -> Result<Option<String>, BotError> {
        let now = self.screen.view()?;
        if now.window.rect != start.window.rect {
            return Ok(Some(
                "the window moved or changed size; looking again".into(),
            ));
        }
        if now.window.minimized {
            return Ok(Some("the window was minimised".into()));
        }
        if !now.viewable {
            return Ok(Some(crate::screen::NOT_ON_SCREEN.into()));
        }
        if let Some(why) = self.screen.locked()? {
            return Ok(Some(why));
        }
        if let Some(cover) = covered(&now, &map.grid) {
            return Ok(Some(cover));
        }
        Ok(points.iter().find_map(|&p| now.blocked_at(p)))
    }

    /// Fails when the user pressed a key, a button or the wheel, or moved a mouse, since
    /// the last look, or holds a key now.
    pub(super) fn check_user(&mut self, next_cell: usize) -> Result<(), BotError> {
        if let Some(what) = self.input.user_activity()? {
            return Err(BotError::Interfered(format!(
                "{what} before {}",
                cell_name(next_cell)
            )));
        }
        if self.input.keys_held()? {
            return Err(BotError::Interfered(format!(
                "a key was pressed before {}",
                cell_name(next_cell)
            )));
        }
        Ok(())
    }

    /// `None` when the screen is unlocked and the game has the keyboard focus. Else why
    /// the bot stops typing: the screen locked or the game itself went away
    /// (unmapped, minimised, moved), or no window has the focus (a pause: the next
    /// move's click gives it back), or another window took it.
    pub(super) fn focus_lost(
        &mut self,
        start: &WindowView,
        map: &CellMap,
    ) -> Result<Option<Played>, BotError> {
        // The screen may have locked since the move's checks (the pause after a click
        // is long in slow games): a key now would go to the lock screen.
        if let Some(why) = self.screen.locked()? {
            return Ok(Some(Played::Paused(why)));
        }
        let Some(holder) = self.focus_check()? else {
            return Ok(None);
        };
        Ok(Some(match (self.unsafe_to_act(start, map, &[])?, holder) {
            (Some(why), _) => Played::Paused(why),
            (None, Elsewhere::Nobody(why)) if self.unfocused + 1 < MAX_UNFOCUSED => {
                self.unfocused += 1;
                Played::Paused(format!(
                    "the keyboard focus is on {why}; a click on the game takes it back"
                ))
            }
            (None, holder) => {
                // The count starts again for the watch's next try.
                self.unfocused = 0;
                Played::FocusLost(holder.to_string())
            }
        }))
    }

    /// `None` when the game has the keyboard focus, else who has it. A click
    /// gives the focus a moment after it lands, so the game gets looks 1, 2, 4 ... 64
    /// ms apart (about 130 ms in all) before the focus is called lost.
    pub(super) fn focus_check(&mut self) -> Result<Option<Elsewhere>, BotError> {
        const LOOKS: u32 = 8;
        let mut elsewhere = None;
        for look in 0..LOOKS {
            elsewhere = self.screen.focus_elsewhere()?;
            if elsewhere.is_none() {
                if look > 0 {
                    debug!("the game had the focus only at look {}", look + 1);
                }
                return Ok(None);
            }
            self.clock.sleep(Duration::from_millis(1 << look));
        }
        Ok(elsewhere)
    }

    /// Fails when the pointer is not where the bot left it. The X server may not have
    /// moved it yet right after a synthetic motion (seen with no delays at all, and on
    /// a loaded machine), so it gets looks 2, 4, 8 ... 64 ms apart (about 130 ms in all)
    /// before it is called the user's doing: a hand on the mouse does not move back.
    pub(super) fn check_pointer(
        &mut self,
        expected: ScreenPoint,
        next_cell: usize,
    ) -> Result<(), BotError> {
        const LOOKS: u32 = 7;
        let close =
            |a: ScreenPoint, b: ScreenPoint| (a.x - b.x).abs() <= 2 && (a.y - b.y).abs() <= 2;
        if self.pointer_trail.back() != Some(&expected) {
            self.pointer_trail.push_back(expected);
            if self.pointer_trail.len() > 4 {
                self.pointer_trail.pop_front();
            }
        }
        for look in 1..=LOOKS {
            let now = self.input.pointer()?;
            if close(now, expected) {
                if look > 1 {
                    debug!("pointer reached {expected} only at look {look}");
                }
                return Ok(());
            }
            // A screen whose pictures come late (a compositor's stream, where the
            // pointer's position comes with the frames) may still show one of the
            // places the bot put it before: that is lag, not a hand on the mouse.
            if self.screen.captures_lag() && self.pointer_trail.iter().any(|&p| close(now, p)) {
                return Ok(());
            }
            if look == LOOKS {
                return Err(BotError::Interfered(format!(
                    "the mouse moved from {expected} to {now} before {}",
                    cell_name(next_cell)
                )));
            }
            self.clock.sleep(Duration::from_millis(1 << look));
        }
        Ok(())
    }

    /// Blocks until no key is held (the Enter that started the bot may still be down).
    pub(super) fn wait_for_keys_released(&mut self) -> Result<(), BotError> {
        let start = self.now();
        while self.input.keys_held()? {
            if self.since(start) > Duration::from_secs(1) {
                return Err(BotError::Interfered("a key is held down".into()));
            }
            self.clock.sleep(Duration::from_millis(10));
        }
        Ok(())
    }
}
