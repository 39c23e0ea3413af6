//! The main job: watch a window and play every new puzzle in it (`sudoku-bot --window`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use tracing::info;

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
    let opened = backend::open(backend, &wanted, opts.dry_run, config.delays.x11_event)?;
    let (screen, input, title) = (opened.screen, opened.input, opened.title);
    let reader =
        Reader::with_options(config.ocr.reader_options()).context("starting the OCR engine")?;

    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed))
        .context("installing the Ctrl+C handler")?;

    let out: Box<dyn Write> = Box::new(std::io::stdout());
    let bot = Bot::new(screen, reader, input, config, opts.dry_run, out, stop);
    drive(bot, opts.once, started).with_context(|| format!("playing window \"{title}\""))
}

/// A bot error as the command line reports it: a configured click point outside the
/// window is bad configuration (exit 2); everything else is a job not done (exit 1).
fn reported(e: bot::BotError) -> anyhow::Error {
    match e {
        bot::BotError::Config(what) => UsageError(format!("bad configuration: {what}")).into(),
        other => other.into(),
    }
}

/// Runs the bot in the chosen mode and turns how it ended into an exit code.
fn drive<S: screen::Screen, I: Input>(
    mut bot: Bot<S, Reader, I>,
    once: bool,
    started: Instant,
) -> anyhow::Result<ExitCode> {
    if !once {
        bot.watch().map_err(reported)?;
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
