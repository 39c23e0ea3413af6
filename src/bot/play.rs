//! Playing: entering moves with every safety check before each move and each key.

use std::collections::HashMap;

use super::cells::order_for_arrows;
use super::learn::Arrows;
use super::pace::{Trial, TRIAL_MOVES};
use super::*;

/// What a look at the grid in the middle of play saw.
enum Look {
    /// Every typed cell shows its digit (or nothing yet).
    AsTyped,
    /// These cells show another digit than the one typed.
    Retype(Vec<usize>),
    /// A digit of the puzzle no longer reads the same.
    Changed(String),
}

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// Enters `moves`, row by row. Before each move the window must be unchanged, on
    /// the screen and unlocked, with every point the move clicks uncovered; before each
    /// key the game must have the focus; and the user must not have touched mouse or
    /// keyboard (a handful of X11 round trips a move, well under a millisecond).
    ///
    /// The loop is closed: after the first move, the fourth, then every eighth, the
    /// grid is captured and read. A digit the game shows in a cell other than the one
    /// typed there (the game changed it, or it went to another cell) is entered again at
    /// once, and more than one such digit slows the pace; a digit of `puzzle` that no
    /// longer reads the same means something covers or changed the grid, and typing
    /// stops. Cells around the last move are left to the next look (a popover may
    /// hide them).
    pub(super) fn play(
        &mut self,
        moves: &[Move],
        puzzle: &Grid,
        start: &WindowView,
        map: &CellMap,
    ) -> Result<Played, BotError> {
        self.wait_for_keys_released()?;
        let t = Instant::now();
        // A screen whose captures lag says nothing about the game's timing: the
        // default model is played (a click, then a key; arrow keys once their trial
        // passed), and the closed loop corrects it.
        let lagging = self.config.input.method.is_none() && self.screen.captures_lag();
        if lagging && !self.model.palette_checked {
            self.model.palette_checked = true;
            info!("not learning the game: captures in this session come a frame or more late; a click selects a cell, a key enters its digit ([input] method changes it)");
        }
        let mut expect = *puzzle.cells();
        let mut last_key: Option<Instant> = None;
        // From here on the pointer is the bot's: where it is now, then where each click
        // leaves it.
        let mut left_pointer_at: Option<ScreenPoint> = Some(self.input.pointer()?);
        let mut selected: Option<usize> = None;
        let mut queue: Vec<Move> = moves.to_vec();
        let mut typed: Vec<Move> = Vec::new();
        let mut typed_at: HashMap<usize, Instant> = HashMap::new();
        let mut retyped: HashSet<usize> = HashSet::new();
        let mut last_look: Option<Instant> = None;
        let mut next_look = 1;
        let mut index = 0;
        // A trial of shorter pauses cut short by a pause in play starts again.
        if let Trial::Trying { good, .. } = &self.model.trial {
            self.pace = good.clone();
            self.model.trial = Trial::NotYet;
        }
        let mut ordered = false;
        while index < queue.len() {
            let pinned = self
                .config
                .input
                .method
                .or_else(|| lagging.then(|| self.model.method.unwrap_or(InputMethod::Click)));
            // Arrow keys from here on (learnt or pinned): the rest in the order that
            // needs the fewest of them.
            let by_arrows = pinned.or(self.model.method) == Some(InputMethod::Keys)
                && (pinned.is_some() || !self.model.learning());
            if let (false, true, Some(from)) = (ordered, by_arrows, selected) {
                order_for_arrows(from, &mut queue[index..]);
                ordered = true;
            }
            let m = queue[index];
            index += 1;
            if self.stopped() {
                return Ok(Played::Stopped);
            }
            if pinned.is_none() && !self.model.learning() && self.model.trial == Trial::NotYet {
                self.try_shorter_pauses(Vec::new());
            }
            let trial_due = matches!(&self.model.trial, Trial::Trying { cells, .. } if cells.len() >= TRIAL_MOVES);
            if (typed.len() == next_look || trial_due) && index <= queue.len() {
                if typed.len() == next_look {
                    next_look = if next_look < 8 {
                        next_look * 4
                    } else {
                        next_look + 8
                    };
                }
                let trying: Vec<Move> = match &self.model.trial {
                    Trial::Trying { cells, .. } => typed
                        .iter()
                        .filter(|t| cells.contains(&t.cell))
                        .copied()
                        .collect(),
                    _ => Vec::new(),
                };
                let look = self.look_at_moves(puzzle, &typed, &typed_at, last_look, &trying)?;
                last_look = Some(Instant::now());
                if !trying.is_empty() {
                    self.judge_trial(&look, &trying);
                }
                match look {
                    Look::AsTyped => {}
                    Look::Retype(mut cells) => {
                        // Each cell once in the middle of play: what still does not
                        // take is verification's to see.
                        cells.retain(|c| retyped.insert(*c));
                        // Re-enter them next, before the grid is full and the game
                        // judges it.
                        let again: Vec<Move> = typed
                            .iter()
                            .filter(|t| cells.contains(&t.cell))
                            .copied()
                            .collect();
                        typed.retain(|t| !cells.contains(&t.cell));
                        let at = index - 1;
                        queue.splice(at..at, again);
                        index = at;
                        continue;
                    }
                    Look::Changed(why) => return Ok(Played::Paused(why)),
                }
            }
            let lagging_trial =
                lagging && self.model.arrows == Arrows::Untried && self.model.method.is_none();
            if let (true, Some(from)) = (lagging_trial, selected.filter(|&s| s != m.cell)) {
                match self.arrows_despite_lag(m, from, &expect, start, map)? {
                    None => selected = None,
                    Some(Observed::Stop(played)) => return Ok(played),
                    Some(Observed::Entered) => {
                        selected = Some(m.cell);
                        typed.push(m);
                        expect[m.cell] = m.digit;
                        typed_at.insert(m.cell, Instant::now());
                        last_key = Some(Instant::now());
                        self.pause(self.pace.after_key);
                        continue;
                    }
                }
            }
            if pinned.is_none() && self.model.learning() {
                let observed = self.observed_move(
                    m,
                    puzzle.cells(),
                    &expect,
                    &mut selected,
                    &mut left_pointer_at,
                    last_key,
                    start,
                    map,
                )?;
                match observed {
                    Observed::Entered => {
                        typed.push(m);
                        expect[m.cell] = m.digit;
                        typed_at.insert(m.cell, Instant::now());
                        last_key = Some(Instant::now());
                        if !self.model.learning() {
                            self.pause(self.pace.after_key);
                        }
                        continue;
                    }
                    Observed::Stop(played) => return Ok(played),
                }
            }
            let method = pinned.or(self.model.method).unwrap_or_default();
            let delays = self.pace.clone();
            let clicks_cell = !(method == InputMethod::Keys && selected.is_some());
            let pad = match method {
                InputMethod::Pad => {
                    pad_point(&self.config, &start.window.rect, m.digit).or_else(|| {
                        self.pad_button(m.digit, (start.window.rect.x, start.window.rect.y))
                    })
                }
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
            self.focus_box = map.cell_box(m.cell);
            if clicks_cell {
                self.input.click(m.at)?;
                left_pointer_at = Some(m.at);
                self.pause(delays.after_click);
            } else if let Some(from) = selected {
                if let Some(stop) = self.send_arrows(from, m.cell, start, map)? {
                    return Ok(stop);
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
            if let Trial::Trying { cells, .. } = &mut self.model.trial {
                cells.push(m.cell);
            }
            typed.push(m);
            expect[m.cell] = m.digit;
            last_key = Some(Instant::now());
            typed_at.insert(m.cell, Instant::now());
            self.last_input = Some(Instant::now());
            self.pause(delays.after_key);
        }
        // The last move's own effect on the user checks (its key is not the user's).
        self.check_user(queue.last().map_or(0, |m| m.cell))?;
        info!(
            "entered {} digits in {} ms",
            queue.len(),
            t.elapsed().as_millis()
        );
        Ok(Played::All)
    }

    /// The digits the window shows now, read with the reader's cache (fast), doubtful
    /// ones included; `None` when no grid is seen.
    pub(super) fn read_grid_now(&mut self) -> Result<Option<[u8; 81]>, BotError> {
        let capture = self.screen.capture()?;
        let picture = DynamicImage::ImageRgba8(self.past_caret(capture).0);
        match self.reader.read(&picture, None) {
            Ok(r) => Ok(Some(*r.grid.cells())),
            Err(ReadError::Doubtful { reading, .. }) => Ok(Some(*reading.grid.cells())),
            Err(ReadError::NoGrid) => Ok(None),
            Err(ReadError::Engine(e)) => Err(BotError::Reader(e)),
        }
    }

    /// Begins a trial of the next shorter pauses (`pace::Pace::shorter`), or ends the
    /// search when there are none; `cells` are moves already typed at the new pace.
    fn try_shorter_pauses(&mut self, cells: Vec<usize>) {
        let next = self
            .config
            .delays
            .shorten
            .then(|| self.pace.shorter(&self.config.delays))
            .flatten();
        self.model.trial = match next {
            Some(next) => {
                debug!(
                    "trying {} ms after a click, {} ms after a key",
                    next.after_click, next.after_key
                );
                let good = std::mem::replace(&mut self.pace, next);
                Trial::Trying { good, cells }
            }
            None => Trial::Done,
        };
    }

    /// Keeps the pauses on trial when every move typed at them shows its digit in its
    /// cell, and tries shorter ones; else goes back to the last pauses that held and
    /// ends the search (the moves that did not show are entered again by the look).
    fn judge_trial(&mut self, look: &Look, trying: &[Move]) {
        let Trial::Trying { good, .. } = &self.model.trial else {
            return;
        };
        let failed: Vec<usize> = match look {
            Look::Retype(cells) => trying
                .iter()
                .map(|m| m.cell)
                .filter(|c| cells.contains(c))
                .collect(),
            // Covered: nothing can be told; the trial starts again after the pause.
            Look::Changed(_) => return,
            Look::AsTyped => Vec::new(),
        };
        if failed.is_empty() {
            if trying.len() < TRIAL_MOVES {
                return;
            }
            info!(
                "the game keeps up with {} ms after a click, {} ms after a key",
                self.pace.after_click, self.pace.after_key
            );
            self.try_shorter_pauses(Vec::new());
            if self.model.trial == Trial::Done {
                self.said_pace();
            }
        } else {
            info!(
                "the game did not keep up with {} ms after a click, {} ms after a key ({} did not show its digit)",
                self.pace.after_click,
                self.pace.after_key,
                cell_names(&failed)
            );
            self.pace = good.clone();
            self.model.trial = Trial::Done;
            self.said_pace();
        }
    }

    fn said_pace(&self) {
        info!(
            "pace: {} ms after a click, {} ms after a key",
            self.pace.after_click, self.pace.after_key
        );
    }

    /// A capture cropped to the configured region, with the text caret the game may
    /// draw in the cell of the last move painted over.
    /// Also gives where the picture lies in the window. When the grid fills less than
    /// two fifths of the picture (a whole monitor, where no window list says where the game
    /// is), the picture is the grid and one cell around it: faster to read, and free of
    /// the desktop's dithered wallpaper, which reads as a photo.
    pub(super) fn past_caret(&self, capture: RgbaImage) -> (RgbaImage, (u32, u32)) {
        let (picture, region) = self.crop_to_region(capture);
        let (mut picture, (dx, dy)) = match self
            .grid_area
            .and_then(|area| grid_with_margin(&picture, area))
        {
            Some((x0, y0, crop)) => (crop, (x0, y0)),
            None => (picture, (0, 0)),
        };
        if let Some(cell) = &self.focus_box {
            let cell = crate::vision::Rect {
                x: cell.x - dx as f32,
                y: cell.y - dy as f32,
                ..*cell
            };
            if caret::erase_caret(&mut picture, &cell) {
                debug!("painted over a caret in the cell of the last move");
            }
        }
        (picture, (region.0 + dx, region.1 + dy))
    }

    /// Captures and reads the grid to see what the moves `typed` did (the closed loop).
    /// A picture that cannot be read says nothing: play goes on, and verification has
    /// the last word. Moves in `strict` (a trial of shorter pauses) must all show their
    /// digit: the look waits for the game to draw them, then calls any that still do
    /// not show lost.
    fn look_at_moves(
        &mut self,
        puzzle: &Grid,
        typed: &[Move],
        typed_at: &HashMap<usize, Instant>,
        since: Option<Instant>,
        strict: &[Move],
    ) -> Result<Look, BotError> {
        // The game may still be drawing (a closing popover, a fade): a look where the
        // puzzle's own digits do not all read is taken again, for at most 300 ms; one
        // where moves on trial do not show yet, for twice the game's latency.
        let start = Instant::now();
        let strict_wait = Duration::from_millis((2 * self.model.latency).max(40));
        let read = loop {
            let Some(read) = self.read_grid_now()? else {
                return Ok(Look::AsTyped);
            };
            let mut changed: Vec<usize> = (0..81)
                .filter(|&i| puzzle.cells()[i] != 0 && read[i] != puzzle.cells()[i])
                .collect();
            // Games that open a popover at a clicked cell (GNOME Sudoku's number
            // chooser) hide the cells around the last move for a moment: a look in
            // the middle of play leaves them to the next look.
            // A screen whose captures lag may still show the popover of a move or
            // three before.
            let recent = if self.screen.captures_lag() { 4 } else { 1 };
            let lately: Vec<usize> = typed.iter().rev().take(recent).map(|m| m.cell).collect();
            changed.retain(|&i| !lately.iter().any(|&l| near(i, l)));
            let unshown = strict
                .iter()
                .filter(|m| read[m.cell] == 0 && !lately.iter().any(|&l| near(m.cell, l)))
                .count();
            if changed.is_empty() && (unshown == 0 || start.elapsed() >= strict_wait) {
                debug!("mid-play look took {} ms", start.elapsed().as_millis());
                break read;
            }
            if start.elapsed() >= Duration::from_millis(300) {
                return Ok(Look::Changed(format!(
                    "the game's digits at {} no longer read as before (something covers or changed the grid); looking again",
                    cell_names(&changed)
                )));
            }
            debug!(
                "mid-play look: {} of the puzzle's digits and {unshown} digits typed do not read yet",
                changed.len()
            );
            self.pause(if changed.is_empty() { 10 } else { 30 });
        };
        // Empty cells may still be fading in or waiting for a slow game: verification
        // sees to them. A different digit is the game's doing or a misplaced key.
        let recent = if self.screen.captures_lag() { 4 } else { 1 };
        let lately: Vec<usize> = typed.iter().rev().take(recent).map(|m| m.cell).collect();
        let near_last = |c: usize| lately.iter().any(|&l| near(c, l));
        let wrong: Vec<usize> = typed
            .iter()
            .filter(|m| !near_last(m.cell) && read[m.cell] != 0 && read[m.cell] != m.digit)
            .map(|m| m.cell)
            .collect();
        // Digits typed a while ago that still do not show were lost: a game that
        // ignores input for a moment after each move. A few are left to verification
        // (a slow redraw); more mean the pace is too fast for this game.
        let lost: Vec<usize> = typed
            .iter()
            .filter(|m| {
                !near_last(m.cell)
                    && read[m.cell] == 0
                    && typed_at
                        .get(&m.cell)
                        .is_some_and(|at| at.elapsed() >= Duration::from_millis(300))
            })
            .map(|m| m.cell)
            .collect();
        // On trial, every move must show: one that does not was lost.
        let lost_on_trial: Vec<usize> = strict
            .iter()
            .filter(|m| !near_last(m.cell) && read[m.cell] == 0)
            .map(|m| m.cell)
            .collect();
        // Only what was typed since the last look tells about the pace now.
        let fresh = |cells: &[usize]| {
            cells
                .iter()
                .filter(|c| typed_at.get(c).is_some_and(|at| Some(*at) > since))
                .count()
        };
        let (wrong_now, lost_now) = (fresh(&wrong), fresh(&lost));
        // Arrow keys were chosen over clicks that work: a digit in the wrong cell says
        // the game's arrows do not go where the bot thinks (they skip givens, say).
        if wrong_now > 0 && self.model.arrows == Arrows::Preferred {
            self.refuse_arrows(&format!(
                "{} digits typed after arrow keys went to the wrong cell",
                wrong_now
            ));
        }
        // A trial that fails goes back to the pauses before it instead.
        if strict.is_empty() && (wrong_now > 1 || lost_now > 2) && self.pace.slower() {
            info!(
                "{wrong_now} digits in the wrong cell and {lost_now} lost since the last look: slowing down to {} ms after a click, {} ms after a key",
                self.pace.after_click, self.pace.after_key
            );
        }
        let mut wrong = wrong;
        if lost.len() > 2 {
            wrong.extend(&lost);
        }
        for c in lost_on_trial {
            if !wrong.contains(&c) {
                wrong.push(c);
            }
        }
        if wrong.is_empty() {
            return Ok(Look::AsTyped);
        }
        info!(
            "{} shows a digit other than the one typed (or none); entering it again",
            cell_names(&wrong)
        );
        Ok(Look::Retype(wrong))
    }

    /// Sends the arrow keys from cell `from` to cell `to`, each after the focus check
    /// and followed by `delays.after_arrow`; `Some` when play must stop instead.
    pub(super) fn send_arrows(
        &mut self,
        from: usize,
        to: usize,
        start: &WindowView,
        map: &CellMap,
    ) -> Result<Option<Played>, BotError> {
        for key in arrow_path(from, to) {
            if let Some(stop) = self.focus_lost(start, map)? {
                return Ok(Some(stop));
            }
            self.input.key(key)?;
            self.last_input = Some(Instant::now());
            self.pause(self.pace.after_arrow);
        }
        Ok(None)
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

    /// `None` when the screen is unlocked and the game has the keyboard focus. Else why
    /// the bot stops typing: the screen locked or the game itself went away
    /// (unmapped, minimised, moved: a pause), or another window took the focus.
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
                if look > 0 {
                    debug!("the game had the focus only at look {}", look + 1);
                }
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

/// Cells within two rows and two columns of each other: where a popover opened at one
/// of them may hide the other.
fn near(a: usize, b: usize) -> bool {
    (a / 9).abs_diff(b / 9) <= 2 && (a % 9).abs_diff(b % 9) <= 2
}
