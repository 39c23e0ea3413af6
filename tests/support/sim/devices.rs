//! The simulated game seen through the bot's traits: its screen (captures, the window
//! and what covers it), its reader (as the test says it reads) and its input device
//! (which records what the bot sends, and plays the user's hand).

use super::*;

pub struct SimScreen(pub Shared);
pub struct SimReader(pub Shared);
/// The recording device; the flag: whether it sends (false: a dry run's device).
pub struct SimInput(pub Shared, pub bool);

impl Screen for SimScreen {
    fn view(&mut self) -> Result<WindowView, ScreenError> {
        let mut g = self.0.borrow_mut();
        if let Some(left) = g.dim_then_dialog_after {
            if g.is_solved() {
                if left == 0 {
                    g.dim_then_dialog_after = None;
                    g.completion_dialog = true;
                    g.open_completion_dialog();
                } else {
                    g.dim_then_dialog_after = Some(left - 1);
                }
            }
        }
        let viewable = g.unmapped_for == 0;
        g.unmapped_for = g.unmapped_for.saturating_sub(1);
        let view = WindowView {
            viewable,
            window: WindowInfo {
                id: 1,
                title: "Sudoku".into(),
                app_name: g.app_name.into(),
                pid: Some(g.app_pid),
                rect: g.window,
                minimized: g.minimized,
                dialog: false,
            },
            above: g.above.iter().map(|(w, _)| w.clone()).collect(),
        };
        // Windows with a limited life count down one look each.
        for (_, left) in g.above.iter_mut() {
            *left = left.saturating_sub(1);
        }
        g.above.retain(|(_, left)| *left > 0);
        Ok(view)
    }

    fn capture(&mut self) -> Result<RgbaImage, ScreenError> {
        let mut g = self.0.borrow_mut();
        if g.failing_captures > 0 {
            g.failing_captures -= 1;
            return Err(ScreenError::Capture {
                window: "Sudoku".into(),
                reason: "the window is being redrawn".into(),
            });
        }
        g.captures += 1;
        g.take_due();
        // A bot that goes on looking long after its stop flag was set would watch for
        // ever: fail the test instead of hanging it.
        if let Some((_, stop)) = &g.stop_after {
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                g.looks_after_stop += 1;
                assert!(
                    g.looks_after_stop < 50,
                    "the bot went on after its stop flag was set"
                );
            }
        }
        Ok(g.render())
    }

    fn capture_area(&mut self, area: &ScreenRect) -> Result<RgbaImage, ScreenError> {
        let mut g = self.0.borrow_mut();
        g.area_captures += 1;
        g.last_area = Some(*area);
        Ok(RgbaImage::new(area.width.max(1), area.height.max(1)))
    }

    fn focus_elsewhere(&mut self) -> Result<Option<Elsewhere>, ScreenError> {
        Ok(self.0.borrow().focus_elsewhere.clone())
    }

    fn locked(&mut self) -> Result<Option<String>, ScreenError> {
        let mut g = self.0.borrow_mut();
        if g.locked_for == 0 {
            return Ok(None);
        }
        g.locked_for -= 1;
        Ok(Some("the screen is locked".into()))
    }
}

impl GridReader for SimReader {
    fn read(
        &mut self,
        _picture: &DynamicImage,
        _debug: Option<&Path>,
    ) -> Result<Reading, ReadError> {
        let mut g = self.0.borrow_mut();
        g.take_due();
        g.reads += 1;
        if g.shows_victory() || g.in_menu {
            return Err(ReadError::NoGrid);
        }
        if g.dim_then_dialog_after.is_some() && g.is_solved() {
            return Ok(g.reading_of(Grid::EMPTY));
        }
        if g.banner.is_some() && g.is_solved() {
            // The banner hides rows 4 to 6, or its own row.
            let rows = g.banner_row.map_or(3..6, |r| r..r + 1);
            let covered: Vec<usize> = (rows.start * 9..rows.end * 9)
                .filter(|&i| !g.banner_spares_givens || g.givens.cells()[i] == 0)
                .collect();
            let mut seen = g.board;
            for &i in &covered {
                seen.set(i / 9, i % 9, 0);
            }
            let mut reading = g.reading_of(seen);
            if g.banner_spares_givens {
                for &i in &covered {
                    reading.cells[i].digit_box = Some(reading.cells[i].cell_box);
                    reading.cells[i].confidence = 0.0;
                }
            }
            return Ok(reading);
        }
        if let Some((after, cell, reads)) = g.hide_given {
            if g.digits_typed >= after && reads > 0 {
                g.hide_given = Some((after, cell, reads - 1));
                let mut seen = g.board;
                seen.set(cell / 9, cell % 9, 0);
                return Ok(g.reading_of(seen));
            }
        }
        if let Some((c, d, reads)) = g.caret_shown.filter(|s| s.2 > 0) {
            g.caret_shown = Some((c, d, reads - 1));
            if g.board.cells()[c] == 0 {
                let mut seen = g.board;
                seen.set(c / 9, c % 9, d);
                return Ok(g.reading_of(seen));
            }
        }
        match g.read_mode.clone() {
            ReadMode::Truth => Ok(g.reading_of(g.seen_under_wheel(g.board))),
            ReadMode::CacheEchoes(grid) if g.digits_typed > 0 => Ok(g.reading_of(grid)),
            ReadMode::CacheEchoes(_) => Ok(g.reading_of(g.board)),
            ReadMode::NoGrid => Err(ReadError::NoGrid),
            ReadMode::Misread(grid) => Ok(g.reading_of(grid)),
            ReadMode::Doubtful(cells) => Err(ReadError::Doubtful {
                reason: format!("{} cells could not be read", cells.len()),
                cells,
                reading: Box::new(g.reading_of(g.board)),
            }),
            ReadMode::Clashing(grid, cells) => Err(ReadError::Doubtful {
                reason: "the digits read clash".into(),
                cells,
                reading: Box::new(g.reading_of(grid)),
            }),
        }
    }

    fn read_fresh(&mut self, picture: &DynamicImage) -> Result<Reading, ReadError> {
        {
            let g = self.0.borrow();
            if g.doubts_clashing_digit {
                if let Some(d) = g.board.conflicts().first().map(|c| c.digit) {
                    let cells: Vec<usize> = (0..81).filter(|&i| g.board.cells()[i] == d).collect();
                    let mut seen = g.board;
                    for &i in &cells {
                        seen.set(i / 9, i % 9, 0);
                    }
                    let mut reading = g.reading_of(seen);
                    for &i in &cells {
                        reading.cells[i].digit_box = Some(reading.cells[i].cell_box);
                        reading.cells[i].confidence = 0.0;
                        reading.cells[i].method = Method::Ocr;
                    }
                    return Err(ReadError::Doubtful {
                        reason: "the digits read clash".into(),
                        cells,
                        reading: Box::new(reading),
                    });
                }
            }
        }
        let cached = {
            let mut g = self.0.borrow_mut();
            g.fresh_reads += 1;
            matches!(g.read_mode, ReadMode::CacheEchoes(_))
        };
        if cached {
            let g = self.0.borrow();
            return Ok(g.reading_of(g.board));
        }
        self.read(picture, None)
    }

    fn confirm(
        &mut self,
        _picture: &DynamicImage,
        reading: &Reading,
    ) -> Result<Vec<usize>, ReadError> {
        let g = self.0.borrow();
        Ok(g.unconfirmed
            .iter()
            .copied()
            .filter(|&i| reading.grid.cells()[i] != 0)
            .collect())
    }

    fn forget(&mut self, _reading: &Reading, cells: &[usize]) {
        self.0.borrow_mut().forgotten.extend_from_slice(cells);
    }

    /// The dialog's words when a dialog of the game's is up, else the banner's; in a
    /// picture of the victory screen, its words; else the window's label.
    fn read_words(&mut self, picture: &DynamicImage) -> Result<String, ReadError> {
        let mut g = self.0.borrow_mut();
        g.word_reads += 1;
        if picture.width() > 1 && picture.to_rgba8().get_pixel(0, 0) == &VICTORY {
            return Ok(g.victory.clone().unwrap_or_default());
        }
        let area = g.last_area.take();
        if let Some((w, _)) = g.above.iter().find(|(w, _)| Some(w.rect) == area) {
            return Ok(match w.title.as_str() {
                "Information" if g.is_solved() => "Congratulations! You solved the puzzle.".into(),
                "Information" => "Sorry, your solution contains mistakes.".into(),
                _ => g.dialog_words.clone(),
            });
        }
        if g.pad_first && picture.height() < 100 {
            if let Some(d) = game::pad_bar_digit(picture) {
                return Ok(d.to_string());
            }
        }
        let grid_height = g.corners[3].y - g.corners[0].y;
        if g.banner_row.is_some() && picture.height() as f32 > grid_height / 3.0 {
            return Ok(g.label.clone());
        }
        Ok(g.banner.clone().unwrap_or_else(|| g.label.clone()))
    }
}

impl Input for SimInput {
    fn sends(&self) -> bool {
        self.1
    }
    fn click(&mut self, at: ScreenPoint) -> Result<(), InputError> {
        if !self.1 {
            return Err(InputError::Send(format!("dry run: not clicking at {at}")));
        }
        let mut g = self.0.borrow_mut();
        g.note_cover();
        g.pointer = at;
        if let Some(why) = g.click_goes_elsewhere(at) {
            g.events.push(Event::Elsewhere(why));
            return Ok(());
        }
        g.events.push(Event::Click(at));
        // A click in the game takes the focus the window manager held.
        if matches!(g.focus_elsewhere, Some(Elsewhere::Nobody(_)))
            && g.nobody_focused_after
                .is_some_and(|(_, clicks_focus)| clicks_focus)
        {
            g.focus_elsewhere = None;
        }
        let clicks = g.clicks().len();
        if g.user_moves_mouse_after == Some(clicks) {
            g.pointer = ScreenPoint {
                x: at.x + 40,
                y: at.y - 25,
            };
        }
        if g.user_clicks_after == Some(clicks) {
            g.user_input = Some("a mouse button (1) was pressed".into());
        }
        if g.busy_at_clicks.contains(&clicks) {
            return Ok(());
        }
        if g.latency.is_some() {
            let now = g.clock.now();
            g.pending.push((now, Event::Click(at)));
            return Ok(());
        }
        take_click(&mut g, at);
        Ok(())
    }

    fn key(&mut self, key: Key) -> Result<(), InputError> {
        if !self.1 {
            return Err(InputError::Send(format!("dry run: not pressing {key:?}")));
        }
        let mut g = self.0.borrow_mut();
        if let Some((after, unreachable)) = g.key_refused_after {
            if g.digits().len() == after {
                g.key_refused_after = None;
                return Err(if unreachable {
                    InputError::Unreachable("the game window is not on the screen".into())
                } else {
                    InputError::Unsafe("the keyboard focus is on \"Editor\", not the game".into())
                });
            }
        }
        g.note_cover();
        if let Some(why) = g.key_goes_elsewhere() {
            g.events.push(Event::Elsewhere(why));
            return Ok(());
        }
        g.events.push(Event::Key(key));
        if g.latency.is_some() {
            let now = g.clock.now();
            g.pending.push((now, Event::Key(key)));
            return Ok(());
        }
        take_key(&mut g, key);
        Ok(())
    }

    fn pointer(&mut self) -> Result<ScreenPoint, InputError> {
        Ok(self.0.borrow().pointer)
    }

    fn keys_held(&mut self) -> Result<bool, InputError> {
        Ok(self.0.borrow().keys_held)
    }

    fn user_activity(&mut self) -> Result<Option<String>, InputError> {
        Ok(self.0.borrow_mut().user_input.take())
    }
}

pub(super) fn type_digit(g: &mut Game, d: u8) {
    if let Some(cell) = g.selected {
        if g.lose_first_digit.remove(&cell) {
            // The app missed this one.
        } else if g.text_fields && g.board.cells()[cell] != 0 {
            // A full text field takes no more characters.
        } else if g.givens.cells()[cell] == 0 {
            let (r, c) = (cell / 9, cell % 9);
            let d = if g.tamper_at == Some(g.digits_typed + 1) {
                d % 9 + 1
            } else {
                d
            };
            g.board.set(r, c, d);
        }
    }
    g.after_digit();
}

/// What a click the game takes does.
fn take_click(g: &mut Game, at: ScreenPoint) {
    g.cursor_hollow_until_click = false;
    if g.clicks_ignored {
        return;
    }
    if let Some(w) = g.wheel_at {
        // The open wheel takes the click: a wedge enters its digit into the wheel's
        // cell; anywhere else closes the wheel, and the click does nothing more.
        match g.cell_at(at).filter(|n| game::wheel_cells(w).contains(n)) {
            Some(n) => {
                if let Some(d) = game::wedge_digit(w, n) {
                    type_digit(g, d);
                }
            }
            None if g.wheel_closes_on_escape_only => {}
            None => g.wheel_at = None,
        }
        return;
    }
    if let Some(pad) = g.pad.clone() {
        let (wx, wy) = (g.window.x as f32, g.window.y as f32);
        if let Some(d) = pad.iter().position(|[px, py]| {
            (wx + px - at.x as f32).abs() < 3.0 && (wy + py - at.y as f32).abs() < 3.0
        }) {
            if g.pad_first {
                g.picked = Some(d as u8 + 1);
            } else {
                type_digit(g, d as u8 + 1);
            }
            return;
        }
    }
    if g.pad_first {
        // The picked digit goes into the clicked cell, or leaves it if it held it.
        if let (Some(d), Some(c)) = (g.picked, g.cell_at(at)) {
            if g.givens.cells()[c] == 0 {
                let now = if g.board.cells()[c] == d { 0 } else { d };
                g.board.set(c / 9, c % 9, now);
                g.after_digit();
            }
        }
        return;
    }
    let cell = g.cell_at(at);
    if let (Some((d, reads)), Some(c)) = (g.caret_read_as, cell) {
        if g.board.cells()[c] == 0 {
            g.caret_shown = Some((c, d, reads));
            g.caret_read_as = None;
        }
    }
    if let (Some(d), Some(c)) = (g.palette, cell) {
        if g.board.cells()[c] == 0 {
            g.board.set(c / 9, c % 9, d);
        }
    }
    if g.focus_delay.is_some() && g.digits_typed >= g.focus_late_from {
        // A click before took the focus by now (its frame ended).
        if let Some((before, at)) = g.pending_focus {
            if g.focus_frames && g.focus_due(at) {
                g.selected = before;
            }
        }
        g.pending_focus = Some((cell, g.clock.now()));
    } else {
        g.selected = cell;
    }
    if g.wheel {
        g.wheel_at = cell;
    }
}

/// What a key the game takes does.
fn take_key(g: &mut Game, key: Key) {
    g.key_taken_at = Some(g.clock.now());
    if g.pad_first {
        return;
    }
    if g.menu_on_arrows && matches!(key, Key::Up | Key::Down | Key::Left | Key::Right) {
        g.in_menu = true;
        return;
    }
    if let Some((cell, at)) = g.pending_focus {
        if g.focus_due(at) {
            g.selected = cell;
            g.pending_focus = None;
        } else if matches!(key, Key::Digit(_)) {
            let typed = g.digits_typed;
            g.misplaced_at.push(typed);
        }
    }
    let sel = g.selected;
    let arrow = |g: &Game, step: fn(usize) -> Option<usize>| {
        if g.arrows_ignored {
            return sel;
        }
        let mut at = step(sel?)?;
        while g.arrows_skip_givens && g.givens.cells()[at] != 0 {
            at = step(at)?;
        }
        Some(at)
    };
    let moved = match key {
        Key::Up => Some(arrow(&g, |s| s.checked_sub(9))),
        Key::Down => Some(arrow(&g, |s| (s < 72).then_some(s + 9))),
        Key::Left => Some(arrow(&g, |s| (s % 9 > 0).then(|| s - 1))),
        Key::Right => Some(arrow(&g, |s| (s % 9 < 8).then_some(s + 1))),
        _ => None,
    };
    if let (Some(_), Some(dy)) = (moved, g.arrows_scroll) {
        let (w, h) = g.picture.dimensions();
        let old = g.picture.clone();
        g.picture = RgbaImage::from_fn(w, h, |x, y| {
            *old.get_pixel_checked(x, y + dy)
                .unwrap_or(&Rgba([255, 255, 255, 255]))
        });
        for c in g.corners.iter_mut() {
            c.y -= dy as f32;
        }
    } else if let Some(to) = moved {
        // An arrow off the edge (or past the last free cell) stays put.
        g.selected = to.or(sel);
    }
    match key {
        Key::Digit(d) => type_digit(g, d),
        Key::Up | Key::Down | Key::Left | Key::Right => {}
        Key::Delete | Key::Backspace => {
            if let Some(cell) = sel.filter(|&c| g.givens.cells()[c] == 0) {
                g.board.set(cell / 9, cell % 9, 0);
            }
        }
        Key::Escape => g.wheel_at = None,
    }
}

impl Game {
    /// A slow game takes the clicks and keys whose latency has passed.
    pub(super) fn take_due(&mut self) {
        let Some(latency) = self.latency else {
            return;
        };
        while self
            .pending
            .first()
            .is_some_and(|(at, _)| self.clock.since(*at) >= latency)
        {
            match self.pending.remove(0).1 {
                Event::Click(at) => take_click(self, at),
                Event::Key(key) => take_key(self, key),
                Event::Elsewhere(_) => {}
            }
        }
    }
}
