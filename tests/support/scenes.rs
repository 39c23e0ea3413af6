//! The scenes the bot's loop tests share: GNOME Sudoku's recorded easy game in the
//! simulator, its solution, a bot that has played it, and a puzzle cut down to several
//! solutions.

use sudoku_bot::bot::{BotError, Outcome, Step, Verification};
use sudoku_bot::solver;
use sudoku_bot::Grid;

use crate::sim::{self, Game, ReadMode};

pub const SOLUTION: &str =
    "917563428486921753523478619658239147392147865174685392849756231765312984231894576";

pub fn setup() -> (crate::sim::Shared, tempfile::TempDir) {
    let fixture = sim::fixture("gnome-sudoku-easy");
    (Game::new(&fixture, 270, 169), tempfile::tempdir().unwrap())
}

pub fn empty_cells(grid: &Grid) -> Vec<usize> {
    (0..81).filter(|&i| grid.cells()[i] == 0).collect()
}

/// The game announced completion with a window of its own over the grid.
pub fn assert_verified_by_completion_window(outcome: Outcome) {
    assert!(
        matches!(
            outcome,
            Outcome::Solved {
                verified: Verification::Message { .. },
                ..
            }
        ),
        "{outcome:?}"
    );
}

/// Plays the sim game changed by `change` with the quick configuration, checks it ends
/// solved, and gives the game back.
pub fn solved_sim_game(change: impl FnOnce(&mut Game)) -> crate::sim::Shared {
    let (game, dir) = setup();
    change(&mut game.borrow_mut());
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    assert!(matches!(bot.run_once().unwrap(), Outcome::Solved { .. }));
    assert_eq!(game.borrow().board, Grid::parse(SOLUTION).unwrap());
    game
}

/// A bot that has played the game's puzzle in one pass of the loop.
pub fn bot_that_solved_one(game: &sim::Shared, dir: &std::path::Path) -> sim::SimBot {
    let (mut bot, _, _) = sim::bot(game, sim::quick_config(dir), false);
    assert!(matches!(
        bot.step().unwrap(),
        Step::Done(Outcome::Solved { .. })
    ));
    bot
}

/// Plays the puzzle of a game whose dialog over the grid, once full, says `words`; the
/// bot's error, and the folder of its debug pictures.
pub fn error_after_a_dialog_saying(words: &str) -> (BotError, tempfile::TempDir) {
    let (game, dir) = setup();
    {
        let mut g = game.borrow_mut();
        g.completion_dialog = true;
        g.dialog_words = words.into();
    }
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    (bot.run_once().unwrap_err(), dir)
}

/// Once the reader reads the window as `mode` says (a banner over the solved grid),
/// the bot's next look waits, calling the grid covered, and types nothing.
pub fn waits_as_covered(game: &sim::Shared, bot: &mut sim::SimBot, mode: ReadMode) {
    let typed = game.borrow().events.len();
    game.borrow_mut().read_mode = mode;
    game.borrow_mut()
        .picture
        .put_pixel(0, 0, image::Rgba([1, 2, 3, 255]));
    let step = bot.step().unwrap();
    assert!(
        matches!(&step, Step::Wait(why) if why.contains("partly covered")),
        "{step:?}"
    );
    assert_eq!(game.borrow().events.len(), typed, "typed over the banner");
}

/// The fixture's puzzle with givens taken away (in reading order) until it has between
/// `min` and `max` solutions.
pub fn with_several_solutions(givens: &Grid, min: usize, max: usize) -> Grid {
    let mut g = *givens;
    for i in 0..81 {
        if g.cells()[i] == 0 {
            continue;
        }
        let mut fewer = g;
        fewer.set(i / 9, i % 9, 0);
        let n = solver::count_solutions(&fewer, max + 1);
        if n <= max {
            g = fewer;
        }
        if n >= min && n <= max {
            return g;
        }
    }
    panic!("no puzzle with {min}..={max} solutions");
}
