//! The main job: watch a window and play every new puzzle in it (`sudoku-bot --window`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use tracing::{info, warn};

use crate::backend::{self, Backend};
use crate::bot::{self, Bot, Outcome};
use crate::config::{self, Source};
use crate::input::Input;
use crate::screen;
use crate::vision::Reader;
use crate::{Failure, UsageError};

/// The flags of the watch mode.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub window: Option<String>,
    pub once: bool,
    pub dry_run: bool,
    pub config: Option<PathBuf>,
    /// `--backend`: overrides the configuration and the session.
    pub backend: Option<Backend>,
    /// `--quiet`: no line when the watch starts and stops.
    pub quiet: bool,
}

/// The top-level entry point for watching a window: load the configuration (a bad one
/// stops here, before anything is touched), find the window, then play until Ctrl+C
/// (or one puzzle with --once).
pub fn run(opts: Options) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let (config, source) = config::load(opts.config.as_deref())?;
    match &source {
        Source::File(path) => info!("configuration from {}", path.display()),
        Source::Defaults => info!("no configuration file; using the defaults"),
    }
    let wanted = opts
        .window
        .clone()
        .or_else(|| config.window.title.clone())
        .ok_or_else(|| {
            UsageError(
                "no window to play: give --window TITLE (or window.title in the configuration)"
                    .into(),
            )
        })?;

    let (backend, why) = backend::choose(opts.backend, config.backend, |v| std::env::var(v).ok())?;
    info!("backend {backend} ({why})");
    // Tesseract starts on a thread of its own while the backend finds the window (KWin
    // takes 150-200 ms to vouch for a new client).
    let reader =
        Reader::with_options(config.ocr.reader_options()).context("starting the OCR engine")?;
    let opened = backend::open(backend, &wanted, opts.dry_run, config.delays.x11_event)?;
    let (screen, input, title, backend) =
        (opened.screen, opened.input, opened.title, opened.backend);
    // The game is pinned by its program as well as its title: another program's window
    // with the same title is not the game.
    let game = screen.game_window().map(screen::Program::of);

    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed))
        .context("installing the Ctrl+C handler")?;

    let out: Box<dyn Write> = Box::new(std::io::stdout());
    let interval = Duration::from_millis(config.watch.interval.max(50));
    let watching = stop.clone();
    // The watch outlives the window (X11): when it closes, the next window that the
    // same rule matches, made by the same program, is played.
    let reopen = move || -> anyhow::Result<Option<Box<dyn screen::Screen>>> {
        if backend != Backend::X11 {
            return Ok(None);
        }
        info!("the game window closed; watching for a window matching \"{wanted}\"");
        let mut refused = None;
        while !watching.load(Ordering::Relaxed) {
            let windows = screen::list_windows()?;
            if let Ok((window, kind)) = screen::choose_window(&windows, &wanted) {
                let found = screen::Program::of(window);
                match &game {
                    Some(game) if !game.same(&found) => {
                        if refused.as_ref() != Some(&window.id) {
                            warn!(
                                "window {} matches \"{wanted}\" but is not the game: it belongs \
                                 to another program ({found}; the game was {game}); not playing \
                                 it, waiting",
                                window.describe()
                            );
                            refused = Some(window.id);
                        }
                    }
                    _ => {
                        info!("playing window {} (matched by {kind})", window.describe());
                        return Ok(Some(Box::new(screen::X11Screen::open(window)?)));
                    }
                }
            }
            std::thread::sleep(interval);
        }
        Ok(None)
    };
    let bot = Bot::new(screen, reader, input, config, out, stop);
    // The daemon says when it starts and stops without -v (a user running it from a
    // unit or an autostart entry sees these lines in the journal).
    let speak = !opts.once && !opts.quiet;
    if speak {
        let file = match &source {
            Source::File(path) => format!("configuration {}", path.display()),
            Source::Defaults => "no configuration file".into(),
        };
        eprintln!("sudoku-bot: watching window \"{title}\" on {backend} ({file}); Ctrl+C stops");
    }
    let ended = drive(bot, opts.once, started, reopen);
    if speak && ended.is_ok() {
        eprintln!("sudoku-bot: stopped watching \"{title}\" (Ctrl+C)");
    }
    ended.with_context(|| format!("playing window \"{title}\""))
}

/// A bot error as the command line reports it: a configured click point outside the
/// window is bad configuration (exit 2); everything else is a job not done (exit 1).
fn reported(e: bot::BotError) -> anyhow::Error {
    match e {
        bot::BotError::Config(what) => UsageError(format!("bad configuration: {what}")).into(),
        other => other.into(),
    }
}

/// Runs the bot in the chosen mode and turns how it ended into an exit code. The watch
/// asks `reopen` for the game's window again when it closes (`None`: the watch ends).
fn drive<S: screen::Screen, I: Input>(
    mut bot: Bot<S, Reader, I>,
    once: bool,
    started: Instant,
    mut reopen: impl FnMut() -> anyhow::Result<Option<S>>,
) -> anyhow::Result<ExitCode> {
    if !once {
        loop {
            match bot.watch() {
                Ok(()) => break,
                Err(e @ bot::BotError::Screen(screen::ScreenError::Gone(_))) => match reopen()? {
                    Some(screen) => bot.set_screen(screen),
                    None => return Err(reported(e)),
                },
                Err(e) => return Err(reported(e)),
            }
        }
        info!("stopped by Ctrl+C");
        return Ok(ExitCode::SUCCESS);
    }
    let outcome = bot.run_once();
    if let Some(last) = bot.last_input() {
        info!(
            "last keystroke {} ms after start",
            last.duration_since(started).as_millis()
        );
    }
    match outcome.map_err(reported)? {
        Outcome::Stopped => {
            Err(Failure("stopped by Ctrl+C before the puzzle was solved".into()).into())
        }
        outcome @ Outcome::Planned { .. } => {
            info!("{}", bot::describe(&outcome));
            Ok(ExitCode::SUCCESS)
        }
        outcome => {
            eprintln!("sudoku-bot: {}", bot::describe(&outcome));
            Ok(ExitCode::SUCCESS)
        }
    }
}
