//! A simulated sudoku app for driving the bot without a display: a recorded screenshot
//! of the app, the puzzle it shows, and an input device that plays into the simulated
//! board the way GNOME Sudoku does (click a cell to select it, type a digit to fill it).
//!
//! The screen, the reader and the input device all share one [`Game`], so what the bot
//! types shows up in the next capture and the next reading, and a test can script
//! trouble: lost key presses, a dialog over the grid, the user moving the mouse.
//!
//! Input goes where it would on a real desktop: a click on a point that another window
//! covers, or while the game is unmapped or the screen locked, reaches that other
//! thing and not the game; so does a key while another window has the focus. Such
//! input is recorded as [`Event::Elsewhere`], which no test may ever see.

use std::cell::RefCell;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use image::{DynamicImage, Rgba, RgbaImage};
use sudoku_bot::bot::{Bot, GridReader};
use sudoku_bot::config::Config;
use sudoku_bot::grid::Verdict;
use sudoku_bot::input::{Input, InputError, Key, ScreenPoint};
use sudoku_bot::screen::{Screen, ScreenError, ScreenRect, WindowInfo, WindowView};
use sudoku_bot::vision::geometry::Homography;
use sudoku_bot::vision::{CellReading, Method, Point, ReadError, Reading, Rect};
use sudoku_bot::Grid;

/// A recorded screenshot with its label.
pub struct Fixture {
    pub picture: RgbaImage,
    pub grid: Grid,
    /// Outer corners of the grid in the picture (top-left, top-right, bottom-right,
    /// bottom-left), axis-aligned in these screenshots.
    pub corners: [Point; 4],
}

/// `fixtures/bot/NAME.png` with its label `fixtures/bot/NAME.toml` (`grid = "..."`,
/// `corners = [[x, y], ...]`).
pub fn fixture(name: &str) -> Fixture {
    let dir = super::repository().join("fixtures/bot");
    let picture = image::open(dir.join(format!("{name}.png")))
        .expect("fixture picture")
        .to_rgba8();
    let label: toml::Table = std::fs::read_to_string(dir.join(format!("{name}.toml")))
        .expect("fixture label")
        .parse()
        .expect("fixture label is TOML");
    let grid = Grid::parse(label["grid"].as_str().expect("grid")).expect("grid line");
    let c: Vec<Point> = label["corners"]
        .as_array()
        .expect("corners")
        .iter()
        .map(|p| {
            let p = p.as_array().expect("[x, y]");
            Point {
                x: p[0]
                    .as_float()
                    .or(p[0].as_integer().map(|v| v as f64))
                    .unwrap() as f32,
                y: p[1]
                    .as_float()
                    .or(p[1].as_integer().map(|v| v as f64))
                    .unwrap() as f32,
            }
        })
        .collect();
    Fixture {
        picture,
        grid,
        corners: [c[0], c[1], c[2], c[3]],
    }
}

/// What the simulated reader answers.
#[derive(Debug, Clone, PartialEq)]
pub enum ReadMode {
    /// The board as it is.
    Truth,
    /// No grid in the picture.
    NoGrid,
    /// This grid instead of the board (a misread).
    Misread(Grid),
    /// Once the bot has typed, this grid instead of the board, through the reader's
    /// glyph cache (the cache echoing the bot's own answer); a fresh reading sees the
    /// board as it is.
    CacheEchoes(Grid),
    /// The reader says these cells are doubtful.
    Doubtful(Vec<usize>),
    /// This grid, whose digits clash, instead of the board: the reader refuses it with
    /// these cells doubtful.
    Clashing(Grid, Vec<usize>),
}

/// Something that happened at the input device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    Click(ScreenPoint),
    Key(Key),
    /// Input that reached something other than the game (what it was, and why).
    Elsewhere(&'static str),
}

/// The simulated app and everything around it.
pub struct Game {
    pub picture: RgbaImage,
    pub corners: [Point; 4],
    pub givens: Grid,
    pub board: Grid,
    pub window: ScreenRect,
    pub app_pid: u32,
    pub minimized: bool,
    /// Windows stacked above the game, each with how many more looks it stays.
    pub above: Vec<(WindowInfo, usize)>,
    pub read_mode: ReadMode,
    /// Cells whose first digit is lost (the app was too slow).
    pub lose_first_digit: HashSet<usize>,
    /// Open a window of the app over the grid when the board is solved (GNOME Sudoku's
    /// "Well done" dialog).
    pub completion_dialog: bool,
    /// Once solved, the grid reads blank (GNOME Sudoku dims it) and the completion
    /// dialog opens only after this many more looks at the window.
    pub dim_then_dialog_after: Option<usize>,
    /// After this many clicks the user grabs the mouse (pointer jumps away).
    pub user_moves_mouse_after: Option<usize>,
    /// After this many digits the user holds a key.
    pub user_presses_key_after: Option<usize>,
    /// After this many digits the window moves by (dx, dy).
    pub window_moves_after: Option<(usize, i32, i32)>,
    /// After this many digits another app's window covers the grid, for this many views.
    pub covered_after: Option<(usize, usize)>,
    /// Pad button centres, window pixels (digit 1 first), for the "pad" input method.
    pub pad: Option<Vec<[f32; 2]>>,
    /// After this many digits another window takes the keyboard focus (for good).
    pub focus_stolen_after: Option<usize>,
    /// Which window has the focus when it is not the game.
    pub focus_elsewhere: Option<String>,
    /// After this many digits the screen locks, for this many looks.
    pub locked_after: Option<(usize, usize)>,
    pub locked_for: usize,
    /// After this many digits the game window is unmapped, for this many looks.
    pub unmapped_after: Option<(usize, usize)>,
    pub unmapped_for: usize,
    /// After this many digits a small override-redirect window (a notification bubble)
    /// pops up over this cell, for this many looks.
    pub popup_after: Option<(usize, usize, usize)>,
    /// After this many clicks the user clicks too, without moving the mouse.
    pub user_clicks_after: Option<usize>,
    /// The user's input the device has seen and not yet reported.
    pub user_input: Option<String>,
    /// Cells the second reading does not confirm.
    pub unconfirmed: Vec<usize>,
    /// Cells whose glyphs the reader was told to forget.
    pub forgotten: Vec<usize>,
    pub fresh_reads: usize,
    pub selected: Option<usize>,
    pub pointer: ScreenPoint,
    pub keys_held: bool,
    pub events: Vec<Event>,
    pub digits_typed: usize,
    pub reads: usize,
    pub captures: usize,
    /// The words of the game's dialog (what its completion window says).
    pub dialog_words: String,
    /// The words of a banner the game draws over the grid once solved.
    pub banner: Option<String>,
    /// Pictures of screen areas taken (for a message's words).
    pub area_captures: usize,
    /// Word readings done.
    pub word_reads: usize,
    /// When the board is full, the game opens a window of its own beside the grid
    /// ("Information") saying whether the grid is right.
    pub verdict_window: bool,
    /// The game's own solution: only this one counts as solved (a puzzle with several).
    pub stored: Option<Grid>,
    /// The last screen area captured.
    pub last_area: Option<ScreenRect>,
    /// Verdict windows opened so far (each a new window).
    pub verdicts: u32,
    /// The game changes the Nth digit typed into another digit.
    pub tamper_at: Option<usize>,
    /// A clicked cell takes the focus only this long after the click: a key before
    /// then goes to the cell selected before.
    pub focus_delay: Option<std::time::Duration>,
    pending_focus: Option<(Option<usize>, std::time::Instant)>,
    /// For each digit key that went to the cell selected before (the focus had not
    /// followed the click yet): how many digit keys came before it.
    pub misplaced_at: Vec<usize>,
    /// Sets this stop flag once this many digits were typed (Ctrl+C mid-play).
    pub stop_after: Option<(usize, Arc<AtomicBool>)>,
    /// Clicks and keys sent while a window of another app was over the grid.
    pub input_while_covered: usize,
    /// A number palette keeps this digit chosen: a click on an empty cell enters it.
    pub palette: Option<u8>,
    /// The next this many captures fail (the window being redrawn).
    pub failing_captures: u32,
    /// Once this many digits were typed, the next N readings miss the given in this
    /// cell (a popover over it): (digits, cell, readings).
    pub hide_given: Option<(usize, usize, usize)>,
    /// The selected cell is drawn framed (most games; the bare sim shows nothing).
    pub draws_selection: bool,
    /// Arrow keys do nothing.
    pub arrows_ignored: bool,
    /// Clicks do nothing (a keyboard-only game: arrow keys move its cursor).
    pub clicks_ignored: bool,
    /// Arrow keys jump over the givens (to the next cell a digit can go in).
    pub arrows_skip_givens: bool,
    /// Arrow keys scroll the page up by this many pixels (a page that leaves them to
    /// the browser); the selection stays.
    pub arrows_scroll: Option<u32>,
}

pub type Shared = Rc<RefCell<Game>>;

impl Game {
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
            locked_after: None,
            locked_for: 0,
            unmapped_after: None,
            unmapped_for: 0,
            popup_after: None,
            user_clicks_after: None,
            user_input: None,
            unconfirmed: Vec::new(),
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
            area_captures: 0,
            word_reads: 0,
            verdict_window: false,
            stored: None,
            last_area: None,
            verdicts: 0,
            tamper_at: None,
            focus_delay: None,
            pending_focus: None,
            misplaced_at: Vec::new(),
            stop_after: None,
            input_while_covered: 0,
            palette: None,
            failing_captures: 0,
            hide_given: None,
            draws_selection: false,
            clicks_ignored: false,
            arrows_ignored: false,
            arrows_skip_givens: false,
            arrows_scroll: None,
        }))
    }

    fn cell_size(&self) -> (f32, f32) {
        (
            (self.corners[1].x - self.corners[0].x) / 9.0,
            (self.corners[3].y - self.corners[0].y) / 9.0,
        )
    }

    /// Counts input sent while a window of another app lies over the grid.
    fn note_cover(&mut self) {
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
    fn click_goes_elsewhere(&self, at: ScreenPoint) -> Option<&'static str> {
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
    fn key_goes_elsewhere(&self) -> Option<&'static str> {
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
    fn render(&self) -> RgbaImage {
        let mut pic = self.picture.clone();
        let (cw, ch) = self.cell_size();
        // A click's cell is drawn selected once the focus went there.
        let selected = match (self.focus_delay, self.pending_focus) {
            (Some(delay), Some((cell, at))) if at.elapsed() >= delay => cell,
            _ => self.selected,
        };
        if let (true, Some(s)) = (self.draws_selection, selected) {
            // A frame a fifth of the cell in from its sides, 3 px wide.
            let x0 = self.corners[0].x + cw * (s % 9) as f32;
            let y0 = self.corners[0].y + ch * (s / 9) as f32;
            let (l, t) = ((x0 + cw * 0.2) as u32, (y0 + ch * 0.2) as u32);
            let (r, b) = ((x0 + cw * 0.8) as u32, (y0 + ch * 0.8) as u32);
            for y in t..=b {
                for x in l..=r {
                    let edge = x < l + 3 || x + 3 > r || y < t + 3 || y + 3 > b;
                    if edge && x < pic.width() && y < pic.height() {
                        pic.put_pixel(x, y, Rgba([40, 90, 220, 255]));
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
        pic
    }

    fn reading_of(&self, grid: Grid) -> Reading {
        let (cw, ch) = self.cell_size();
        let cells = (0..81)
            .map(|i| CellReading {
                digit: Some(grid.cells()[i]).filter(|&d| d != 0),
                confidence: 1.0,
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
        }
    }

    fn after_digit(&mut self) {
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
            self.focus_elsewhere = Some("\"Untitled - Editor\" (Editor, 400x300 at 0,0)".into());
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

    /// Solved by the game's rules: full, no clash, the givens kept, and the game's
    /// own solution when it has one.
    pub fn is_solved(&self) -> bool {
        self.givens.is_solved_by(&self.board)
            && self.board.conflicts().is_empty()
            && self.stored.is_none_or(|s| s == self.board)
    }

    /// Opens (or closes) the verdict window beside the game.
    fn update_verdict_window(&mut self) {
        self.above.retain(|(w, _)| w.title != "Information");
        if self.verdict_window && self.board.filled() == 81 {
            self.verdicts += 1;
            let mut w = other_window(9000 + self.verdicts, "Information", self.window);
            w.rect.x = self.window.x + self.window.width as i32 + 10;
            w.pid = Some(self.app_pid);
            w.app_name = "Gnome-sudoku".into();
            self.above.push((w, usize::MAX));
        }
    }

    fn open_completion_dialog(&mut self) {
        if self.completion_dialog
            && self.is_solved()
            && !self.above.iter().any(|(w, _)| w.id == 901)
        {
            let mut dialog = other_window(901, "", self.window);
            dialog.pid = Some(self.app_pid);
            dialog.app_name = "Gnome-sudoku".into();
            dialog.dialog = true;
            self.above.push((dialog, usize::MAX));
        }
    }
}

/// A window of another app over the middle of `over`.
pub fn other_window(id: u32, title: &str, over: ScreenRect) -> WindowInfo {
    WindowInfo {
        id,
        title: title.into(),
        app_name: "Other".into(),
        pid: Some(7),
        rect: ScreenRect {
            x: over.x + 100,
            y: over.y + 200,
            width: 300,
            height: 100,
        },
        minimized: false,
        dialog: false,
    }
}

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
                app_name: "Gnome-sudoku".into(),
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
        Ok(g.render())
    }

    fn capture_area(&mut self, area: &ScreenRect) -> Result<RgbaImage, ScreenError> {
        let mut g = self.0.borrow_mut();
        g.area_captures += 1;
        g.last_area = Some(*area);
        Ok(RgbaImage::new(area.width.max(1), area.height.max(1)))
    }

    fn focus_elsewhere(&mut self) -> Result<Option<String>, ScreenError> {
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
        g.reads += 1;
        if g.dim_then_dialog_after.is_some() && g.is_solved() {
            return Ok(g.reading_of(Grid::EMPTY));
        }
        if g.banner.is_some() && g.is_solved() {
            // The banner hides rows 4 to 6.
            let mut seen = g.board;
            for i in 27..54 {
                seen.set(i / 9, i % 9, 0);
            }
            return Ok(g.reading_of(seen));
        }
        if let Some((after, cell, reads)) = g.hide_given {
            if g.digits_typed >= after && reads > 0 {
                g.hide_given = Some((after, cell, reads - 1));
                let mut seen = g.board;
                seen.set(cell / 9, cell % 9, 0);
                return Ok(g.reading_of(seen));
            }
        }
        match g.read_mode.clone() {
            ReadMode::Truth => Ok(g.reading_of(g.board)),
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

    /// The dialog's words when a dialog of the game's is up, else the banner's.
    fn read_words(&mut self, _picture: &DynamicImage) -> Result<String, ReadError> {
        let mut g = self.0.borrow_mut();
        g.word_reads += 1;
        let area = g.last_area.take();
        if let Some((w, _)) = g.above.iter().find(|(w, _)| Some(w.rect) == area) {
            return Ok(match w.title.as_str() {
                "Information" if g.is_solved() => "Congratulations! You solved the puzzle.".into(),
                "Information" => "Sorry, your solution contains mistakes.".into(),
                _ => g.dialog_words.clone(),
            });
        }
        Ok(g.banner.clone().unwrap_or_default())
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
        if g.clicks_ignored {
            return Ok(());
        }
        if let Some(pad) = g.pad.clone() {
            let (wx, wy) = (g.window.x as f32, g.window.y as f32);
            if let Some(d) = pad.iter().position(|[px, py]| {
                (wx + px - at.x as f32).abs() < 3.0 && (wy + py - at.y as f32).abs() < 3.0
            }) {
                type_digit(&mut g, d as u8 + 1);
                return Ok(());
            }
        }
        let cell = g.cell_at(at);
        if let (Some(d), Some(c)) = (g.palette, cell) {
            if g.board.cells()[c] == 0 {
                g.board.set(c / 9, c % 9, d);
            }
        }
        if g.focus_delay.is_some() {
            g.pending_focus = Some((cell, std::time::Instant::now()));
        } else {
            g.selected = cell;
        }
        Ok(())
    }

    fn key(&mut self, key: Key) -> Result<(), InputError> {
        if !self.1 {
            return Err(InputError::Send(format!("dry run: not pressing {key:?}")));
        }
        let mut g = self.0.borrow_mut();
        g.note_cover();
        if let Some(why) = g.key_goes_elsewhere() {
            g.events.push(Event::Elsewhere(why));
            return Ok(());
        }
        g.events.push(Event::Key(key));
        if let (Some(delay), Some((cell, at))) = (g.focus_delay, g.pending_focus) {
            if at.elapsed() >= delay {
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
            Key::Digit(d) => type_digit(&mut g, d),
            Key::Up | Key::Down | Key::Left | Key::Right => {}
            Key::Delete | Key::Backspace => {
                if let Some(cell) = sel.filter(|&c| g.givens.cells()[c] == 0) {
                    g.board.set(cell / 9, cell % 9, 0);
                }
            }
            Key::Escape => {}
        }
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

fn type_digit(g: &mut Game, d: u8) {
    if let Some(cell) = g.selected {
        if g.lose_first_digit.remove(&cell) {
            // The app missed this one.
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

/// Captured standard output of a dry run.
#[derive(Clone, Default)]
pub struct Output(pub Rc<RefCell<Vec<u8>>>);

impl Output {
    pub fn text(&self) -> String {
        String::from_utf8(self.0.borrow().clone()).expect("utf-8 output")
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A configuration for tests: no pauses, a short --once timeout, debug pictures in `dir`.
pub fn quick_config(debug_dir: &Path) -> Config {
    let mut c = Config::default();
    c.delays.after_click = 0;
    c.delays.after_key = 0;
    c.delays.after_arrow = 0;
    c.delays.settle = 1;
    c.watch.interval = 1;
    c.watch.once_timeout = 300;
    c.watch.debug_dir = Some(PathBuf::from(debug_dir));
    c
}

pub type SimBot = Bot<SimScreen, SimReader, SimInput>;

/// A bot over the simulated game; `dry_run`: through a device that sends nothing, so
/// that the moves go to the returned output.
pub fn bot(game: &Shared, config: Config, dry_run: bool) -> (SimBot, Output, Arc<AtomicBool>) {
    let out = Output::default();
    let stop = Arc::new(AtomicBool::new(false));
    let bot = Bot::new(
        SimScreen(game.clone()),
        SimReader(game.clone()),
        SimInput(game.clone(), !dry_run),
        config,
        Box::new(out.clone()),
        stop.clone(),
    );
    (bot, out, stop)
}
