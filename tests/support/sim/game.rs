//! The simulated game's own behaviour: what it draws, and what clicks and keys do to it
//! (lost keys, a late focus, a palette, a number pad, arrow keys, dialogs and banners).

use super::*;

impl Game {
    /// Whether the focus of a click at `at` has followed it by now: `focus_delay`
    /// after it, or with `focus_frames`, at the end of the frame it came in.
    pub(super) fn focus_due(&self, at: Instant) -> bool {
        let Some(delay) = self.focus_delay else {
            return true;
        };
        let since = self.clock.since(at);
        if !self.focus_frames {
            return since >= delay;
        }
        let frame = delay.as_nanos().max(1);
        let clicked = self.clock.passed().saturating_sub(since).as_nanos();
        self.clock.passed().as_nanos() >= (clicked / frame + 1) * frame
    }

    /// A game showing `fixture`, its window's client area at (x, y).
    pub fn new(fixture: &Fixture, x: i32, y: i32) -> Shared {
        Rc::new(RefCell::new(Game {
            picture: fixture.picture.clone(),
            corners: fixture.corners,
            givens: fixture.grid,
            board: fixture.grid,
            window: ScreenRect {
                x,
                y,
                width: fixture.picture.width(),
                height: fixture.picture.height(),
            },
            app_pid: 4242,
            minimized: false,
            above: Vec::new(),
            read_mode: ReadMode::Truth,
            lose_first_digit: HashSet::new(),
            completion_dialog: false,
            dim_then_dialog_after: None,
            user_moves_mouse_after: None,
            user_presses_key_after: None,
            window_moves_after: None,
            covered_after: None,
            pad: None,
            focus_stolen_after: None,
            focus_elsewhere: None,
            nobody_focused_after: None,
            key_refused_after: None,
            locked_after: None,
            locked_for: 0,
            unmapped_after: None,
            unmapped_for: 0,
            popup_after: None,
            user_clicks_after: None,
            user_input: None,
            unconfirmed: Vec::new(),
            unsure: Vec::new(),
            forgotten: Vec::new(),
            fresh_reads: 0,
            selected: None,
            pointer: ScreenPoint { x: 1, y: 1 },
            keys_held: false,
            events: Vec::new(),
            digits_typed: 0,
            reads: 0,
            captures: 0,
            dialog_words: "Well done! You completed the puzzle in 1 minute.".into(),
            banner: None,
            banner_row: None,
            banner_spares_givens: false,
            victory: None,
            label: String::new(),
            area_captures: 0,
            word_reads: 0,
            verdict_window: false,
            stored: None,
            last_area: None,
            verdicts: 0,
            tamper_at: None,
            doubts_clashing_digit: false,
            focus_delay: None,
            focus_late_from: 0,
            focus_frames: false,
            pending_focus: None,
            misplaced_at: Vec::new(),
            stop_after: None,
            looks_after_stop: 0,
            input_while_covered: 0,
            palette: None,
            caret_read_as: None,
            caret_shown: None,
            failing_captures: 0,
            hide_given: None,
            draws_selection: false,
            selection_cross: false,
            clicks_ignored: false,
            cursor_hollow_until_click: false,
            redraws_after_key: None,
            key_taken_at: None,
            arrows_ignored: false,
            menu_on_arrows: false,
            app_name: "Gnome-sudoku",
            in_menu: false,
            text_fields: false,
            busy_at_clicks: Vec::new(),
            latency: None,
            pending: Vec::new(),
            clock: Arc::new(SimClock::default()),
            arrows_skip_givens: false,
            arrows_scroll: None,
            wheel: false,
            wheel_closes_on_escape_only: false,
            wheel_at: None,
            pad_first: false,
            picked: None,
        }))
    }

    pub(super) fn cell_size(&self) -> (f32, f32) {
        (
            (self.corners[1].x - self.corners[0].x) / 9.0,
            (self.corners[3].y - self.corners[0].y) / 9.0,
        )
    }

    /// Counts input sent while a window of another app lies over the grid.
    pub(super) fn note_cover(&mut self) {
        let grid = ScreenRect {
            x: self.window.x + self.corners[0].x as i32,
            y: self.window.y + self.corners[0].y as i32,
            width: (self.corners[1].x - self.corners[0].x) as u32,
            height: (self.corners[3].y - self.corners[0].y) as u32,
        };
        let app = Some(self.app_pid);
        if self
            .above
            .iter()
            .any(|(w, _)| w.pid != app && w.rect.intersects(&grid))
        {
            self.input_while_covered += 1;
        }
    }

    /// The cell under a screen point, if any.
    pub fn cell_at(&self, p: ScreenPoint) -> Option<usize> {
        let (cw, ch) = self.cell_size();
        let x = (p.x - self.window.x) as f32 - self.corners[0].x;
        let y = (p.y - self.window.y) as f32 - self.corners[0].y;
        if x < 0.0 || y < 0.0 || x >= cw * 9.0 || y >= ch * 9.0 {
            return None;
        }
        Some((y / ch) as usize * 9 + (x / cw) as usize)
    }

    /// The centre of a cell on the screen, computed from the label (what a click on
    /// that cell must hit).
    pub fn screen_center(&self, cell: usize) -> ScreenPoint {
        let (cw, ch) = self.cell_size();
        ScreenPoint {
            x: (self.window.x as f32 + self.corners[0].x + cw * ((cell % 9) as f32 + 0.5)).round()
                as i32,
            y: (self.window.y as f32 + self.corners[0].y + ch * ((cell / 9) as f32 + 0.5)).round()
                as i32,
        }
    }

    pub fn clicks(&self) -> Vec<ScreenPoint> {
        self.events
            .iter()
            .filter_map(|e| {
                if let Event::Click(p) = e {
                    Some(*p)
                } else {
                    None
                }
            })
            .collect()
    }

    /// Clicks that did not land on a cell of the grid (a number pad, a spot beside the
    /// grid), and how many Escape keys went.
    pub fn clicks_off_grid_and_escapes(&self) -> (usize, usize) {
        let off = self
            .clicks()
            .into_iter()
            .filter(|&p| self.cell_at(p).is_none())
            .count();
        let escapes = self
            .events
            .iter()
            .filter(|e| **e == Event::Key(Key::Escape))
            .count();
        (off, escapes)
    }

    /// Input that reached anything but the game.
    pub fn strays(&self) -> Vec<&'static str> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::Elsewhere(why) => Some(*why),
                _ => None,
            })
            .collect()
    }

    /// Where a click at `at` goes instead of the game, if anywhere else.
    pub(super) fn click_goes_elsewhere(&self, at: ScreenPoint) -> Option<&'static str> {
        if self.locked_for > 0 {
            Some("a click on the lock screen")
        } else if self.unmapped_for > 0 || self.minimized {
            Some("a click on the desktop behind the unmapped game")
        } else if !self.window.contains(at.x, at.y) {
            Some("a click outside the game window")
        } else if self.above.iter().any(|(w, _)| w.rect.contains(at.x, at.y)) {
            Some("a click on a window over the game")
        } else {
            None
        }
    }

    /// Where a key goes instead of the game, if anywhere else.
    pub(super) fn key_goes_elsewhere(&self) -> Option<&'static str> {
        if self.locked_for > 0 {
            Some("a key typed into the lock screen")
        } else if self.focus_elsewhere.is_some() {
            Some("a key typed into the window that has the focus")
        } else {
            None
        }
    }

    pub fn digits(&self) -> Vec<u8> {
        self.events
            .iter()
            .filter_map(|e| {
                if let Event::Key(Key::Digit(d)) = e {
                    Some(*d)
                } else {
                    None
                }
            })
            .collect()
    }

    /// The picture of the window now: the screenshot with a dark mark in every cell the
    /// player filled, so captures change as the bot plays.
    pub(super) fn render(&self) -> RgbaImage {
        if self.in_menu {
            let (w, h) = self.picture.dimensions();
            return RgbaImage::from_pixel(w, h, Rgba([90, 90, 120, 255]));
        }
        if self.shows_victory() {
            let (w, h) = self.picture.dimensions();
            return RgbaImage::from_pixel(w, h, VICTORY);
        }
        let mut pic = self.picture.clone();
        let (cw, ch) = self.cell_size();
        if let (Some(len), Some(at)) = (self.redraws_after_key, self.key_taken_at) {
            if self.clock.since(at) < len {
                // The screen cleared and not yet drawn again: each cell's inside blank.
                for i in 0..81 {
                    let x0 = self.corners[0].x + cw * (i % 9) as f32;
                    let y0 = self.corners[0].y + ch * (i / 9) as f32;
                    for y in (y0 + ch * 0.15) as u32..(y0 + ch * 0.85) as u32 {
                        for x in (x0 + cw * 0.15) as u32..(x0 + cw * 0.85) as u32 {
                            if x < pic.width() && y < pic.height() {
                                pic.put_pixel(x, y, Rgba([255, 255, 255, 255]));
                            }
                        }
                    }
                }
                return pic;
            }
        }
        // A click's cell is drawn selected once the focus went there.
        let selected = match self.pending_focus {
            Some((cell, at)) if self.focus_due(at) => cell,
            _ => self.selected,
        };
        if let (true, Some(s)) = (self.selection_cross, selected) {
            // The light pixels of every cell in its row and column turn grey.
            let (x0, y0) = (self.corners[0].x, self.corners[0].y);
            for i in (0..81).filter(|&i| i / 9 == s / 9 || i % 9 == s % 9) {
                let (l, t) = (x0 + cw * (i % 9) as f32, y0 + ch * (i / 9) as f32);
                for y in (t as u32 + 2)..((t + ch) as u32).saturating_sub(1) {
                    for x in (l as u32 + 2)..((l + cw) as u32).saturating_sub(1) {
                        if x < pic.width() && y < pic.height() {
                            let p = pic.get_pixel_mut(x, y);
                            if p.0[..3].iter().all(|&v| v > 200) {
                                *p = Rgba([200, 200, 200, 255]);
                            }
                        }
                    }
                }
            }
        }
        if let (true, Some(s)) = (self.draws_selection, selected) {
            // A frame a fifth of the cell in from its sides, 3 px wide.
            let x0 = self.corners[0].x + cw * (s % 9) as f32;
            let y0 = self.corners[0].y + ch * (s / 9) as f32;
            let (l, t) = ((x0 + cw * 0.2) as u32, (y0 + ch * 0.2) as u32);
            let (r, b) = ((x0 + cw * 0.8) as u32, (y0 + ch * 0.8) as u32);
            for y in t..=b {
                for x in l..=r {
                    let edge = x < l + 3 || x + 3 > r || y < t + 3 || y + 3 > b;
                    let colour = if self.cursor_hollow_until_click {
                        Rgba([150, 150, 150, 255])
                    } else {
                        Rgba([40, 90, 220, 255])
                    };
                    if edge && x < pic.width() && y < pic.height() {
                        pic.put_pixel(x, y, colour);
                    }
                }
            }
        }
        for i in 0..81 {
            if self.board.cells()[i] != 0 && self.givens.cells()[i] == 0 {
                let x0 = (self.corners[0].x + cw * (i % 9) as f32) as u32 + 4;
                let y0 = (self.corners[0].y + ch * (i / 9) as f32) as u32 + 4;
                for y in y0..y0 + 8 + self.board.cells()[i] as u32 {
                    for x in x0..x0 + 8 {
                        if x < pic.width() && y < pic.height() {
                            pic.put_pixel(x, y, Rgba([20, 20, 20, 255]));
                        }
                    }
                }
            }
        }
        if let Some(w) = self.wheel_at {
            self.draw_wheel(&mut pic, w);
        }
        if let (true, Some(pad)) = (self.pad_first, &self.pad) {
            for (k, [px, py]) in pad.iter().enumerate() {
                let w = pad_bar_width(k as u8 + 1);
                let (x0, y0) = (*px as u32 - w / 2, *py as u32 - 15);
                for y in y0..y0 + 30 {
                    for x in x0..x0 + w {
                        pic.put_pixel(x, y, Rgba([30, 30, 30, 255]));
                    }
                }
            }
        }
        pic
    }

    /// The wheel over cell `w` and its neighbours: a light disc (the block of nine
    /// cells), each wedge marked by its digit's bar, the centre by the cell's digit.
    fn draw_wheel(&self, pic: &mut RgbaImage, w: usize) {
        let (cw, ch) = self.cell_size();
        for n in wheel_cells(w) {
            let x0 = (self.corners[0].x + cw * (n % 9) as f32) as u32;
            let y0 = (self.corners[0].y + ch * (n / 9) as f32) as u32;
            let mark = match wedge_digit(w, n) {
                Some(d) => d as u32,
                None => self.board.cells()[w] as u32,
            };
            for y in y0..y0 + ch as u32 {
                for x in x0..x0 + cw as u32 {
                    let bar = x >= x0 + 8 && x < x0 + 16 && y >= y0 + 8 && y < y0 + 12 + 2 * mark;
                    let colour = if bar && mark > 0 {
                        Rgba([60, 60, 140, 255])
                    } else {
                        Rgba([215, 215, 240, 255])
                    };
                    if x < pic.width() && y < pic.height() {
                        pic.put_pixel(x, y, colour);
                    }
                }
            }
        }
    }

    /// What the reader sees under an open wheel: the wedges' digits in the neighbours'
    /// places, the cell's own digit in the centre.
    pub(super) fn seen_under_wheel(&self, mut grid: Grid) -> Grid {
        if let Some(w) = self.wheel_at {
            for n in wheel_cells(w) {
                if let Some(d) = wedge_digit(w, n) {
                    grid.set(n / 9, n % 9, d);
                }
            }
        }
        grid
    }

    pub(super) fn reading_of(&self, grid: Grid) -> Reading {
        let (cw, ch) = self.cell_size();
        let cells = (0..81)
            .map(|i| CellReading {
                digit: Some(grid.cells()[i]).filter(|&d| d != 0),
                confidence: if self.unsure.contains(&i) { 0.7 } else { 1.0 },
                method: if grid.cells()[i] == 0 {
                    Method::Empty
                } else {
                    Method::Ocr
                },
                cell_box: Rect {
                    x: self.corners[0].x + cw * (i % 9) as f32,
                    y: self.corners[0].y + ch * (i / 9) as f32,
                    w: cw,
                    h: ch,
                },
                digit_box: None,
                alternatives: Vec::new(),
            })
            .collect();
        Reading {
            grid,
            corners: self.corners,
            cells,
            to_picture: Homography::grid_to_quad(self.corners).expect("corners make a quad"),
            verdict: Verdict::of(&grid, &[]),
            enlarged: None,
        }
    }

    pub(super) fn after_digit(&mut self) {
        self.digits_typed += 1;
        let n = self.digits_typed;
        if let Some((after, stop)) = &self.stop_after {
            if *after == n {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
        if self.user_presses_key_after == Some(n) {
            self.keys_held = true;
        }
        if let Some((after, dx, dy)) = self.window_moves_after {
            if after == n {
                self.window.x += dx;
                self.window.y += dy;
            }
        }
        if let Some((after, views)) = self.covered_after {
            if after == n {
                self.above
                    .push((other_window(900, "Notification", self.window), views));
            }
        }
        if self.focus_stolen_after == Some(n) {
            self.focus_elsewhere = Some(Elsewhere::Window(
                "\"Untitled - Editor\" (Editor, 400x300 at 0,0)".into(),
            ));
        }
        if self
            .nobody_focused_after
            .is_some_and(|(after, _)| after == n)
        {
            self.focus_elsewhere = Some(Elsewhere::Nobody(
                "no window (the window manager holds it)".into(),
            ));
        }
        if let Some((after, looks)) = self.locked_after {
            if after == n {
                self.locked_for = looks;
            }
        }
        if let Some((after, looks)) = self.unmapped_after {
            if after == n {
                self.unmapped_for = looks;
            }
        }
        if let Some((after, cell, looks)) = self.popup_after {
            if after == n {
                let c = self.screen_center(cell);
                let mut bubble = other_window(902, "", self.window);
                bubble.rect = ScreenRect {
                    x: c.x - 10,
                    y: c.y - 10,
                    width: 20,
                    height: 20,
                };
                self.above.push((bubble, looks));
            }
        }
        self.open_completion_dialog();
        self.update_verdict_window();
    }

    /// Whether the victory screen is up in place of the grid.
    pub fn shows_victory(&self) -> bool {
        self.victory.is_some() && self.is_solved()
    }

    /// Solved by the game's rules: full, no clash, the givens kept, and the game's
    /// own solution when it has one.
    pub fn is_solved(&self) -> bool {
        self.givens.is_solved_by(&self.board)
            && self.board.conflicts().is_empty()
            && self.stored.is_none_or(|s| s == self.board)
    }

    /// Opens (or closes) the verdict window beside the game.
    pub(super) fn update_verdict_window(&mut self) {
        self.above.retain(|(w, _)| w.title != "Information");
        if self.verdict_window && self.board.filled() == 81 {
            self.verdicts += 1;
            let mut w = other_window(9000 + self.verdicts, "Information", self.window);
            w.rect.x = self.window.x + self.window.width as i32 + 10;
            w.pid = Some(self.app_pid);
            w.app_name = self.app_name.into();
            self.above.push((w, usize::MAX));
        }
    }

    pub(super) fn open_completion_dialog(&mut self) {
        if self.completion_dialog
            && self.is_solved()
            && !self.above.iter().any(|(w, _)| w.id == 901)
        {
            let mut dialog = other_window(901, "", self.window);
            dialog.pid = Some(self.app_pid);
            dialog.app_name = self.app_name.into();
            dialog.dialog = true;
            self.above.push((dialog, usize::MAX));
        }
    }
}

/// The cells a wheel around `w` covers: `w` and its neighbours inside the grid.
pub(super) fn wheel_cells(w: usize) -> Vec<usize> {
    let (r, c) = ((w / 9) as i32, (w % 9) as i32);
    let mut out = Vec::new();
    for dr in -1..=1 {
        for dc in -1..=1 {
            let (nr, nc) = (r + dr, c + dc);
            if (0..9).contains(&nr) && (0..9).contains(&nc) {
                out.push((nr * 9 + nc) as usize);
            }
        }
    }
    out
}

/// The digit of the wedge of a wheel around `w` that lies over cell `n`: 1 to 8 for
/// the neighbours, clockwise from the top left; none for the centre.
pub(super) fn wedge_digit(w: usize, n: usize) -> Option<u8> {
    let (dr, dc) = (
        (n / 9) as i32 - (w / 9) as i32,
        (n % 9) as i32 - (w % 9) as i32,
    );
    let order = [
        (-1, -1),
        (-1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
    ];
    order
        .iter()
        .position(|&o| o == (dr, dc))
        .map(|k| k as u8 + 1)
}

/// The width of the bar a palette pad's button for `digit` is drawn as.
pub(super) fn pad_bar_width(digit: u8) -> u32 {
    4 + 2 * digit as u32
}

/// The digit of a palette pad's bar in a picture of it (dark on light): a solid dark
/// box whose width says the digit.
pub(super) fn pad_bar_digit(picture: &DynamicImage) -> Option<u8> {
    let grey = picture.to_luma8();
    let dark: Vec<(u32, u32)> = grey
        .enumerate_pixels()
        .filter(|p| p.2 .0[0] < 100)
        .map(|p| (p.0, p.1))
        .collect();
    let (x0, x1) = (
        dark.iter().map(|p| p.0).min()?,
        dark.iter().map(|p| p.0).max()?,
    );
    let (y0, y1) = (
        dark.iter().map(|p| p.1).min()?,
        dark.iter().map(|p| p.1).max()?,
    );
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    let solid = dark.len() as u32 == w * h && h == 30;
    (1..=9u8).find(|&d| solid && pad_bar_width(d) == w)
}
