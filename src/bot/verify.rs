//! Verification: evidence from the screen that the game's grid holds the solution.
//!
//! Two things count as evidence, and nothing else: the grid, read again without the
//! glyph cache, holds the solution; or the game's own words after the last move (a
//! message window of the game's, or a banner over the grid) say it is solved. A message
//! that says the grid is wrong makes the bot look at the grid and fix the cells it can
//! see; a message it cannot place is reported with its words, never taken for success.

use std::collections::HashMap;

use super::evidence::{classify, new_words_say, quote, GameSays};
use super::*;
use crate::screen::WindowInfo;
use crate::solver::{self, Solution};

/// A message the game showed after the last move.
#[derive(Debug, Clone)]
struct Message {
    /// Where it was: `window "Information" (...)` or `a banner over the grid`.
    from: String,
    words: String,
    verdict: GameSays,
    /// The message hides the grid (a dialog over it, a banner across it).
    over_grid: bool,
    picture: DynamicImage,
}

/// Verification's progress: the cells that do not hold the solution at the last
/// look, the last problem that kept a look from telling, the game's windows read (by
/// id) and its last message, the solutions played, and where the cells are.
struct Verifying {
    wrong: Vec<usize>,
    last_problem: String,
    heard: HashMap<u32, GameSays>,
    message: Option<Message>,
    tried: Vec<Grid>,
    map: CellMap,
    /// The words of the whole window before play (read once, when first needed).
    words_before: Option<String>,
    /// The fingerprint of the last picture whose words were read whole.
    window_seen: Option<u64>,
    /// The window's own words after play, when the grid was gone or covered: what
    /// the error names when nothing proves the puzzle solved.
    window_words: Option<Message>,
    /// The grid holds the solution played of a puzzle that has several as read: only
    /// the game's words can prove it solved (it may play by other rules, a variant).
    holds_one_of_several: bool,
}

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// Looks at the grid and at what the game says until either proves the puzzle
    /// solved, re-entering cells that did not take or that the game changed (at most
    /// `watch.verify_rounds` times). `puzzle` is what was read before playing;
    /// `solution` what was played, which may change when the puzzle has several
    /// solutions (`several`) and the game rejects the one played. `None` when stopped.
    pub(super) fn verify(
        &mut self,
        puzzle: &Grid,
        solution: &mut Grid,
        several: bool,
        start: &WindowView,
        map: CellMap,
        before: &HashSet<u32>,
    ) -> Result<Option<Verification>, BotError> {
        let rounds = self.config.watch.verify_rounds;
        let mut v = Verifying {
            wrong: Vec::new(),
            last_problem: String::from("nothing read yet"),
            heard: HashMap::new(),
            message: None,
            tried: vec![*solution],
            map,
            words_before: None,
            window_seen: None,
            window_words: None,
            holds_one_of_several: false,
        };
        let mut entered_rounds = 0;
        // A game whose answers to the first moves were seen (learning) gets a first look
        // as soon as it drew them then: a grid that reads as the solution needs no
        // further wait. What that look does not see solved is left to the looks
        // `settle` apart, before anything is entered again.
        // A slow game draws the last digits late: no look comes sooner than twice the
        // longest it took to answer an input.
        let settle = self.config.delays.settle.max(1).max(2 * self.model.latency);
        let quick = (self.model.latency > 0 && !self.screen.captures_lag())
            .then(|| (2 * self.model.latency).max(20).min(settle));
        for round in 0..=rounds + 3 {
            let first_look = round == 0 && quick.is_some();
            self.pause(match quick {
                Some(wait) if round == 0 => wait,
                _ => settle * (1 + round as u64 / 2),
            });
            if self.stopped() {
                return Ok(None);
            }
            let view = self.screen.view()?;
            if let Some(said) = self.hear_new_windows(&mut v, &view, start, before, first_look)? {
                return Ok(Some(said));
            }
            let Some((reading, picture, region)) = self.verification_look(&mut v, &view)? else {
                if let Some(said) = self.window_words_say(&mut v)? {
                    return Ok(Some(said));
                }
                continue;
            };
            // Digits that were there before playing must still read: if they do not,
            // something is drawn over the grid (a banner saying it is solved, GNOME
            // Sudoku dimming the grid before its dialog), and typing now would hit it.
            let gone = (0..81)
                .filter(|&i| puzzle.cells()[i] != 0 && reading.grid.cells()[i] != puzzle.cells()[i])
                .count();
            if first_look && (gone > 0 || reading.grid != *solution) {
                debug!("verification's first look does not see the solution yet");
                continue;
            }
            // So may ink no reader names where a digit was typed: a banner over the
            // typed cells of a row whose givens still read (game-sudoku's "Successful!!"
            // across row 5).
            if gone > 0 || !reading.unread_cells().is_empty() {
                let banner = self.banner_message(&picture, &reading, puzzle)?;
                match banner.verdict {
                    GameSays::Success => {
                        info!("verified: {} says {}", banner.from, quote(&banner.words));
                        return Ok(Some(Verification::Message {
                            from: banner.from,
                            words: banner.words,
                        }));
                    }
                    GameSays::Failure => return Err(self.message_error(&banner)),
                    GameSays::Unknown => {}
                }
            }
            if gone > 0 {
                v.last_problem =
                    format!("{gone} digits that were there before playing no longer read");
                if let Some(said) = self.window_words_say(&mut v)? {
                    return Ok(Some(said));
                }
                // A given or two that merely do not read (doubtful, not another digit),
                // with the rest of the grid in view, hide nothing: the typed cells
                // that do not hold the solution are entered again. Only a whole
                // reading, or the game's words, proves the puzzle solved.
                let Some(reading) = givens_unread(&reading, puzzle) else {
                    continue;
                };
                let wrong: Vec<usize> = (0..81)
                    .filter(|&i| reading.grid.cells()[i] != solution.cells()[i])
                    .collect();
                if entered_rounds >= rounds || wrong.is_empty() {
                    continue;
                }
                v.map = CellMap::new(&reading, view.window.rect, region, &self.config);
                v.wrong = wrong;
                entered_rounds += 1;
                if !self.enter_again(&mut v, &reading, puzzle, solution, &view)? {
                    return Ok(None);
                }
                continue;
            }
            v.map = CellMap::new(&reading, view.window.rect, region, &self.config);
            if let Some(verified) =
                self.holds_the_solution(&mut v, (&reading, &picture), puzzle, solution, several)?
            {
                return Ok(Some(verified));
            }
            if v.holds_one_of_several {
                // Nothing to enter again: the game's words are awaited, in its windows,
                // its window's text or its title ("Web Sudoku - Solved 1").
                if new_words_say(&start.window.title, &view.window.title) == GameSays::Success {
                    info!(
                        "verified: the window's title says {}",
                        quote(&view.window.title)
                    );
                    return Ok(Some(Verification::Message {
                        from: "the window's title".into(),
                        words: view.window.title.clone(),
                    }));
                }
                continue;
            }
            if entered_rounds >= rounds {
                break;
            }
            entered_rounds += 1;
            if !self.enter_again(&mut v, &reading, puzzle, solution, &view)? {
                return Ok(None);
            }
        }
        Err(self.not_verified(v, rounds))
    }

    /// Reads what the game's windows that opened since play began say (not at the
    /// first look, which comes before a new window is drawn): the proof when one says
    /// the puzzle is solved. A window that closed may open again with new words; one
    /// whose words said nothing yet is read again (it may still have been drawing them).
    fn hear_new_windows(
        &mut self,
        v: &mut Verifying,
        view: &WindowView,
        start: &WindowView,
        before: &HashSet<u32>,
        first_look: bool,
    ) -> Result<Option<Verification>, BotError> {
        v.heard.retain(|id, verdict| {
            *verdict != GameSays::Unknown && view.above.iter().any(|w| w.id == *id)
        });
        let new: Vec<WindowInfo> = view
            .above
            .iter()
            .filter(|w| {
                !first_look
                    && !before.contains(&w.id)
                    && !v.heard.contains_key(&w.id)
                    && w.same_app(&start.window)
            })
            .cloned()
            .collect();
        for w in new {
            let heard_now = self.window_message(&w, &v.map.grid)?;
            v.heard.insert(w.id, heard_now.verdict);
            info!(
                "the game opened {}: {} ({:?})",
                w.describe(),
                quote(&heard_now.words),
                heard_now.verdict
            );
            if heard_now.verdict == GameSays::Success {
                return Ok(Some(Verification::Message {
                    from: heard_now.from,
                    words: heard_now.words,
                }));
            }
            if v.message
                .as_ref()
                .is_none_or(|m| m.verdict != GameSays::Failure)
            {
                v.message = Some(heard_now);
            }
        }
        Ok(None)
    }

    /// A fresh reading of the grid (without the glyph cache: the check must not agree
    /// with the bot's own reading merely because it reads through the same memory),
    /// with the picture and its place in the window; `None`, with the problem noted,
    /// when the grid is off the screen, covered or not found. A message of the game's
    /// over the grid hides it: its words decide.
    fn verification_look(
        &mut self,
        v: &mut Verifying,
        view: &WindowView,
    ) -> Result<Option<(Reading, DynamicImage, (u32, u32))>, BotError> {
        if !view.viewable {
            v.last_problem = "the game window is not on the screen".into();
            return Ok(None);
        }
        if let Some(cover) = covered(view, &v.map.grid) {
            if let Some(m) = v.message.as_ref().filter(|m| m.over_grid) {
                return Err(self.message_error(m));
            }
            v.last_problem = cover;
            return Ok(None);
        }
        let capture = self.screen.capture()?;
        let (picture, region) = self.past_caret(capture);
        let picture = DynamicImage::ImageRgba8(picture);
        let reading = match self.reader.read_fresh(&picture) {
            Ok(r) => r,
            Err(ReadError::Doubtful { reading, .. }) => *reading,
            Err(ReadError::NoGrid) => {
                v.last_problem = "no grid found in the window".into();
                // The last look is what counts: cells read wrong before are no proof
                // of anything once the grid is gone.
                v.wrong.clear();
                return Ok(None);
            }
            Err(ReadError::Engine(e)) => return Err(BotError::Reader(e)),
        };
        Ok(Some((reading, picture, region)))
    }

    /// Whether the grid read holds the solution played: the proof, unless the game
    /// said the grid is wrong or marks digits as errors by their colour ([`super::marks`]). Then, when the puzzle has `several` solutions, another
    /// one is played instead (the cells to enter again noted); else the game's words
    /// are the error.
    fn holds_the_solution(
        &mut self,
        v: &mut Verifying,
        (reading, picture): (&Reading, &DynamicImage),
        puzzle: &Grid,
        solution: &mut Grid,
        several: bool,
    ) -> Result<Option<Verification>, BotError> {
        v.wrong = (0..81)
            .filter(|&i| reading.grid.cells()[i] != solution.cells()[i])
            .collect();
        v.holds_one_of_several = false;
        if !v.wrong.is_empty() {
            return Ok(None);
        }
        // Digits the game draws in a colour of errors: not solved, whatever the grid.
        let (marked, colour) = super::marks::error_marks(picture, reading, puzzle);
        if !marked.is_empty() {
            return Err(BotError::ErrorMarks {
                cells: marked,
                colour,
            });
        }
        let Some(m) = v
            .message
            .as_ref()
            .filter(|m| m.verdict == GameSays::Failure)
        else {
            if several {
                // The grid shows a solution, not the only one: the game may use other
                // rules (a variant), so only its words can say the puzzle is solved.
                v.holds_one_of_several = true;
                v.last_problem = "the grid reads as the solution played, one of several".into();
                return self.window_words_say(v);
            }
            info!("verified: the grid reads as the solution");
            return Ok(Some(Verification::GridRead));
        };
        // The grid holds what was played, and the game says it is wrong.
        if !several {
            return Err(self.message_error(m));
        }
        let Some(other) = another_solution(puzzle, &v.tried) else {
            return Err(self.message_error(m));
        };
        info!(
            "the game rejects the solution played ({}); switching to another of the puzzle's solutions",
            quote(&m.words)
        );
        *solution = other;
        v.tried.push(other);
        v.message = None;
        v.wrong = (0..81)
            .filter(|&i| reading.grid.cells()[i] != solution.cells()[i])
            .collect();
        Ok(None)
    }

    /// Enters again the cells that do not hold the solution (slower, when the game
    /// lost moves or took digits into the wrong cells). False when the bot was
    /// stopped.
    fn enter_again(
        &mut self,
        v: &mut Verifying,
        reading: &Reading,
        puzzle: &Grid,
        solution: &Grid,
        view: &WindowView,
    ) -> Result<bool, BotError> {
        // Slower only when no look during play slowed the pace already: the cells
        // left wrong were typed before it (each is typed again once mid-play), so they
        // say nothing of the pace now.
        if pace::too_fast(reading.grid.cells(), puzzle.cells(), solution.cells())
            && !self.slowed_in_play
            && self.pace.slower()
        {
            self.suppose(
                super::beliefs::Claim::LosesMoves,
                format!(
                    "after play the grid read {} cells lost or in the wrong place; {} ms after a click, {} ms after a key for now",
                    v.wrong.len(),
                    self.pace.after_click,
                    self.pace.after_key
                ),
            );
        }
        info!(
            "{} cells do not hold the solution ({}); entering them again",
            v.wrong.len(),
            cell_names(&v.wrong)
        );
        // What the game said was about the grid before these moves.
        v.message = None;
        let again = plan_moves(&reading.grid, solution, &v.map);
        match self.play(&again, puzzle, view, &v.map)? {
            Played::All => {}
            Played::Paused(reason) => {
                info!("stopped typing: {reason}");
                v.last_problem = reason;
            }
            Played::FocusLost(thief) => {
                self.focus_thief = Some(thief.clone());
                return Err(BotError::FocusLost(thief));
            }
            Played::Stopped => return Ok(false),
        }
        Ok(true)
    }

    /// Why verification failed after its rounds: the game's last words, else the
    /// cells that read different from the solution ("verification failed"), else what
    /// was seen instead of the grid and the window's words then ("could not be
    /// confirmed").
    fn not_verified(&self, v: Verifying, rounds: u32) -> BotError {
        if let Some(m) = &v.message {
            return self.message_error(m);
        }
        if v.holds_one_of_several {
            return BotError::OneOfSeveral {
                words: v.window_words.map(|m| m.words).unwrap_or_default(),
            };
        }
        if !v.wrong.is_empty() {
            return BotError::NotVerified {
                cells: v.wrong,
                rounds,
            };
        }
        let Some(m) = &v.window_words else {
            return BotError::Unconfirmed {
                response: v.last_problem,
                picture: None,
            };
        };
        let picture = self.save_debug_picture(
            &m.picture,
            None,
            &[],
            fingerprint(&m.picture.to_rgba8(), None),
        );
        let words = if m.words.trim().is_empty() {
            "no words".to_string()
        } else {
            quote(&m.words)
        };
        BotError::Unconfirmed {
            response: format!("{}, and {} says {words}", v.last_problem, m.from),
            picture,
        }
    }

    /// When the grid is gone from the window or covered after the last digit, the
    /// window's own words, read whole, decide: words of success that were not there
    /// before play prove it solved, words of failure are the error; others are kept for
    /// the error that names what was seen. A picture whose words were read is not read
    /// again.
    fn window_words_say(&mut self, v: &mut Verifying) -> Result<Option<Verification>, BotError> {
        let capture = self.screen.capture()?;
        let (capture, _) = self.crop_to_region(capture);
        let seen = fingerprint(&capture, None);
        if v.window_seen == Some(seen) {
            return Ok(None);
        }
        v.window_seen = Some(seen);
        let picture = DynamicImage::ImageRgba8(capture);
        let words = self.words(&picture)?;
        let before = match v.words_before.clone() {
            Some(before) => before,
            None => {
                let before = match self.before_play.clone() {
                    Some(p) => self.words(&p)?,
                    None => String::new(),
                };
                v.words_before = Some(before.clone());
                before
            }
        };
        let verdict = new_words_say(&before, &words);
        let m = Message {
            from: "the window's text".into(),
            words,
            verdict,
            over_grid: true,
            picture,
        };
        info!(
            "{}; the window's text reads {} ({verdict:?})",
            v.last_problem,
            quote(&m.words)
        );
        match verdict {
            GameSays::Success => Ok(Some(Verification::Message {
                from: format!("the window's text; {}", v.last_problem),
                words: m.words,
            })),
            GameSays::Failure => Err(self.message_error(&m)),
            GameSays::Unknown => {
                v.window_words = Some(m);
                Ok(None)
            }
        }
    }

    /// Reads the words of the game's window `w`.
    fn window_message(&mut self, w: &WindowInfo, grid: &ScreenRect) -> Result<Message, BotError> {
        let picture = match self.screen.capture_area(&w.rect) {
            Ok(p) => DynamicImage::ImageRgba8(p),
            Err(e) => {
                debug!("cannot capture {}: {e}", w.describe());
                DynamicImage::new_rgba8(1, 1)
            }
        };
        let words = self.words(&picture)?;
        Ok(Message {
            from: format!("window \"{}\"", w.title),
            verdict: classify(&words),
            words,
            over_grid: w.rect.intersects(grid),
            picture,
        })
    }

    /// Reads the words drawn across the grid (a banner in the page): in each run of
    /// rows where the puzzle's digits no longer read (the banner's, without the digits
    /// and lines of the rest of the grid), first its coloured ink alone (a coloured
    /// word drawn over the digits of its row), then the run whole; then over the whole
    /// grid. The first that says something is the message.
    fn banner_message(
        &mut self,
        picture: &DynamicImage,
        reading: &Reading,
        puzzle: &Grid,
    ) -> Result<Message, BotError> {
        let (x, y, w, h) = picture_area(reading, picture.width(), picture.height());
        let grid = picture.crop_imm(x, y, w.max(1), h.max(1));
        let mut pictures = Vec::new();
        for band in bands_gone(picture, reading, puzzle) {
            pictures.push(coloured_ink(&band));
            pictures.push(band);
        }
        pictures.push(grid);
        let mut message = None;
        for picture in pictures {
            let words = self.words(&picture)?;
            let verdict = classify(&words);
            message = Some(Message {
                from: "a banner over the grid".into(),
                verdict,
                words,
                over_grid: true,
                picture,
            });
            if verdict != GameSays::Unknown {
                break;
            }
        }
        Ok(message.expect("the whole grid is always read"))
    }

    fn words(&mut self, picture: &DynamicImage) -> Result<String, BotError> {
        self.reader.read_words(picture).map_err(|e| match e {
            ReadError::Engine(e) => BotError::Reader(e),
            other => BotError::Reader(other.to_string()),
        })
    }

    /// The error for a message that does not prove the puzzle solved: the game's own
    /// words when they say the grid is wrong, else "could not be confirmed", with a
    /// picture of the message saved for the user.
    fn message_error(&self, m: &Message) -> BotError {
        if m.verdict == GameSays::Failure {
            return BotError::GameSaysWrong {
                words: quote(&m.words),
                from: m.from.clone(),
            };
        }
        let picture = self.save_debug_picture(
            &m.picture,
            None,
            &[],
            fingerprint(&m.picture.to_rgba8(), None),
        );
        BotError::Unconfirmed {
            response: format!("{} says {}", m.from, quote(&m.words)),
            picture,
        }
    }
}

/// A solution of `puzzle` that is none of `tried`, if there is one: each empty cell is
/// given, in turn, each digit the tried solutions do not have there.
fn another_solution(puzzle: &Grid, tried: &[Grid]) -> Option<Grid> {
    for i in (0..81).filter(|&i| puzzle.cells()[i] == 0) {
        for d in 1..=9u8 {
            if tried.iter().any(|t| t.cells()[i] == d) {
                continue;
            }
            let mut g = *puzzle;
            g.set(i / 9, i % 9, d);
            let found = match solver::solve(&g) {
                Solution::Unique(s) | Solution::Multiple(s) => s,
                _ => continue,
            };
            if !tried.contains(&found) {
                return Some(found);
            }
        }
    }
    None
}

/// The reading with the puzzle's own digits put back where at most two of them do not
/// read (empty or doubtful, not read as another digit), or where those that do not are
/// all one digit's, each ink no reader names (a fresh reading doubts a digit's every
/// cell, givens too, when the game put a typed copy of it into a wrong cell: the
/// rules see the clash; sudoku-1440's 7s). `None` when more are gone, or one reads as
/// another digit (something is drawn over the grid: a banner covers givens of several
/// digits).
fn givens_unread(reading: &Reading, puzzle: &Grid) -> Option<Reading> {
    let gone: Vec<usize> = (0..81)
        .filter(|&i| puzzle.cells()[i] != 0 && reading.grid.cells()[i] != puzzle.cells()[i])
        .collect();
    let unread = reading.unread_cells();
    let one_digit_doubted = gone.iter().all(|&i| unread.contains(&i))
        && gone
            .iter()
            .all(|&i| puzzle.cells()[i] == puzzle.cells()[gone[0]]);
    if (gone.len() > 2 && !one_digit_doubted) || gone.iter().any(|&i| reading.grid.cells()[i] != 0)
    {
        return None;
    }
    let mut whole = reading.clone();
    for &i in &gone {
        whole.grid.set(i / 9, i % 9, puzzle.cells()[i]);
    }
    Some(whole)
}

/// The bands of `picture` across the runs of rows of the grid where digits of
/// `puzzle` no longer read, or ink no reader names is, with half a cell above and
/// below, the run with the most such cells first: where a banner over the grid is (a
/// digit misread elsewhere makes a run of its own, not a band as tall as the grid).
fn bands_gone(picture: &DynamicImage, reading: &Reading, puzzle: &Grid) -> Vec<DynamicImage> {
    let unread = reading.unread_cells();
    let gone_in = |r: usize| {
        (0..9)
            .filter(|&c| {
                let i = r * 9 + c;
                (puzzle.cells()[i] != 0 && reading.grid.cells()[i] != puzzle.cells()[i])
                    || unread.contains(&i)
            })
            .count()
    };
    let mut runs: Vec<(usize, usize, usize)> = Vec::new();
    for r in (0..9).filter(|&r| gone_in(r) > 0) {
        match runs.last_mut() {
            Some((_, last, gone)) if *last + 1 == r => {
                *last = r;
                *gone += gone_in(r);
            }
            _ => runs.push((r, r, gone_in(r))),
        }
    }
    runs.sort_by_key(|run| std::cmp::Reverse(run.2));
    runs.into_iter()
        .filter_map(|(first, last, _)| band(picture, reading, first, last))
        .collect()
}

/// The band of `picture` across rows `first` to `last` of the grid read, with half a
/// cell above and below.
fn band(
    picture: &DynamicImage,
    reading: &Reading,
    first: usize,
    last: usize,
) -> Option<DynamicImage> {
    let boxes: Vec<crate::vision::Rect> = (first * 9..last * 9 + 9)
        .map(|i| reading.cells.get(i).map(|c| c.cell_box))
        .collect::<Option<Vec<_>>>()?;
    let top = boxes.iter().map(|b| b.y).fold(f32::MAX, f32::min);
    let bottom = boxes.iter().map(|b| b.y + b.h).fold(f32::MIN, f32::max);
    let left = boxes.iter().map(|b| b.x).fold(f32::MAX, f32::min);
    let right = boxes.iter().map(|b| b.x + b.w).fold(f32::MIN, f32::max);
    let half = boxes[0].h / 2.0;
    let y0 = (top - half).max(0.0) as u32;
    let y1 = ((bottom + half).max(0.0) as u32).min(picture.height());
    let x0 = left.max(0.0) as u32;
    let x1 = (right.max(0.0) as u32).min(picture.width());
    (y1 > y0 + 4 && x1 > x0 + 4).then(|| picture.crop_imm(x0, y0, x1 - x0, y1 - y0))
}

/// Chroma (the largest channel less the smallest) above which a pixel is coloured ink.
const COLOURED: u8 = 80;

/// `picture` with only its coloured ink, black on white: a coloured word drawn over
/// black digits and grey lines stands alone. Coloured grid lines are left out (rows and
/// columns of pixels inked over four fifths of their length): pygame's Game Sudoku
/// draws its box borders blue, and a band with two of them across its green
/// "Successful!!" read as "Suedesstul".
fn coloured_ink(picture: &DynamicImage) -> DynamicImage {
    let rgb = picture.to_rgb8();
    let (w, h) = rgb.dimensions();
    let ink = |x: u32, y: u32| {
        let [r, g, b] = rgb.get_pixel(x, y).0;
        r.max(g).max(b) - r.min(g).min(b) > COLOURED
    };
    let line_rows: Vec<bool> = (0..h)
        .map(|y| (0..w).filter(|&x| ink(x, y)).count() * 5 > w as usize * 4)
        .collect();
    let line_cols: Vec<bool> = (0..w)
        .map(|x| (0..h).filter(|&y| ink(x, y)).count() * 5 > h as usize * 4)
        .collect();
    DynamicImage::ImageLuma8(image::GrayImage::from_fn(w, h, |x, y| {
        let word = ink(x, y) && !line_rows[y as usize] && !line_cols[x as usize];
        image::Luma([if word { 0 } else { 255 }])
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coloured_ink_keeps_a_coloured_word_and_leaves_out_coloured_grid_lines() {
        // A green blob (a word) on white, black digits, blue lines across and down.
        let picture = image::RgbImage::from_fn(200, 80, |x, y| {
            image::Rgb(if y == 10 || y == 11 || x == 150 {
                [65, 105, 225]
            } else if (40..100).contains(&x) && (30..50).contains(&y) {
                [0, 128, 0]
            } else if (110..120).contains(&x) && (30..60).contains(&y) {
                [0, 0, 0]
            } else {
                [255, 255, 255]
            })
        });
        let ink = coloured_ink(&DynamicImage::ImageRgb8(picture)).to_luma8();
        let black = |x, y| ink.get_pixel(x, y).0[0] == 0;
        assert!(black(50, 40), "the word is kept");
        assert!(!black(115, 40), "black digits are left out");
        assert!(
            !black(20, 10) && !black(20, 11),
            "a line across is left out"
        );
        assert!(!black(150, 70), "a line down is left out");
    }
}
