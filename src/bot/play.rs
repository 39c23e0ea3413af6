//! Playing: entering moves with every safety check before each move and each key.

use super::*;

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// Enters `moves`, row by row. Before each move the window must be unchanged, on
    /// the screen and unlocked, with every point the move clicks uncovered; before each
    /// key the game must have the focus; and the user must not have touched mouse or
    /// keyboard (a handful of X11 round trips a move, well under a millisecond).
    pub(super) fn play(
        &mut self,
        moves: &[Move],
        start: &WindowView,
        map: &CellMap,
    ) -> Result<Played, BotError> {
        self.wait_for_keys_released()?;
        let t = Instant::now();
        let delays = self.pace.clone();
        let method = self.config.input.method;
        // From here on the pointer is the bot's: where it is now, then where each click
        // leaves it.
        let mut left_pointer_at: Option<ScreenPoint> = Some(self.input.pointer()?);
        let mut selected: Option<usize> = None;
        for m in moves {
            if self.stopped() {
                return Ok(Played::Stopped);
            }
            let clicks_cell = !(method == InputMethod::Keys && selected.is_some());
            let pad = match method {
                InputMethod::Pad => pad_point(&self.config, &start.window.rect, m.digit),
                _ => None,
            };
            let points: Vec<ScreenPoint> =
                clicks_cell.then_some(m.at).into_iter().chain(pad).collect();
            if let Some(why) = self.unsafe_to_act(start, map, &points)? {
                return Ok(Played::Paused(why));
            }
            if let Some(expected) = left_pointer_at {
                self.check_pointer(expected, m.cell)?;
            }
            self.check_user(m.cell)?;
            // Once the game has taken a key, the focus leaving it means another window
            // took it: stop before even clicking.
            if selected.is_some() {
                if let Some(stop) = self.focus_lost(start, map)? {
                    return Ok(stop);
                }
            }
            if clicks_cell {
                self.input.click(m.at)?;
                left_pointer_at = Some(m.at);
                self.pause(delays.after_click);
            } else if let Some(from) = selected {
                for key in arrow_path(from, m.cell) {
                    if let Some(stop) = self.focus_lost(start, map)? {
                        return Ok(stop);
                    }
                    self.input.key(key)?;
                    self.pause(delays.after_arrow);
                }
            }
            match pad {
                Some(at) => {
                    self.input.click(at)?;
                    left_pointer_at = Some(at);
                }
                None => {
                    if let Some(stop) = self.focus_lost(start, map)? {
                        return Ok(stop);
                    }
                    self.input.key(Key::Digit(m.digit))?;
                }
            }
            selected = Some(m.cell);
            self.last_input = Some(Instant::now());
            self.pause(delays.after_key);
        }
        // The last move's own effect on the user checks (its key is not the user's).
        self.check_user(moves.last().map_or(0, |m| m.cell))?;
        info!(
            "entered {} digits in {} ms",
            moves.len(),
            t.elapsed().as_millis()
        );
        Ok(Played::All)
    }

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
            return Ok(Some(
                "the game window is not on the screen (unmapped or on another workspace)".into(),
            ));
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

    /// `None` when the game has the keyboard focus. Else why the bot stops typing: the
    /// game itself went away (unmapped, minimised, moved: a pause), or another window
    /// took the focus.
    pub(super) fn focus_lost(
        &mut self,
        start: &WindowView,
        map: &CellMap,
    ) -> Result<Option<Played>, BotError> {
        let Some(thief) = self.focus_check()? else {
            return Ok(None);
        };
        Ok(Some(match self.unsafe_to_act(start, map, &[])? {
            Some(why) => Played::Paused(why),
            None => Played::FocusLost(thief),
        }))
    }

    /// `None` when the game has the keyboard focus, else which window has it. A click
    /// gives the focus a moment after it lands, so the game gets looks 1, 2, 4 ... 64
    /// ms apart (about 130 ms in all) before the focus is called lost.
    pub(super) fn focus_check(&mut self) -> Result<Option<String>, BotError> {
        const LOOKS: u32 = 8;
        let mut elsewhere = None;
        for look in 0..LOOKS {
            elsewhere = self.screen.focus_elsewhere()?;
            if elsewhere.is_none() {
                return Ok(None);
            }
            std::thread::sleep(Duration::from_millis(1 << look));
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
        for look in 1..=LOOKS {
            let now = self.input.pointer()?;
            if (now.x - expected.x).abs() <= 2 && (now.y - expected.y).abs() <= 2 {
                if look > 1 {
                    debug!("pointer reached {expected} only at look {look}");
                }
                return Ok(());
            }
            if look == LOOKS {
                return Err(BotError::Interfered(format!(
                    "the mouse moved from {expected} to {now} before {}",
                    cell_name(next_cell)
                )));
            }
            std::thread::sleep(Duration::from_millis(1 << look));
        }
        Ok(())
    }

    /// Blocks until no key is held (the Enter that started the bot may still be down).
    pub(super) fn wait_for_keys_released(&mut self) -> Result<(), BotError> {
        let start = Instant::now();
        while self.input.keys_held()? {
            if start.elapsed() > Duration::from_secs(1) {
                return Err(BotError::Interfered("a key is held down".into()));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(())
    }
}
