//! The command line's definition: flags, subcommands and the help text (the man page and
//! shell completions are generated from it with `--generate`).

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

/// What `--help` ends with: the exit codes, which scripts rely on.
const EXIT_CODES: &str = "\
Exit codes:
  0  done (for solve: every puzzle solved uniquely)
  1  the job could not be done: no grid found, a reading refused, a puzzle unsolvable,
     the window not found, verification failed
  2  bad usage or bad configuration (a missing or unreadable file, an unknown key)

Files:
  configuration  --config FILE, else $SUDOKU_BOT_CONFIG, else
                 $XDG_CONFIG_HOME/sudoku-bot/config.toml (~/.config/sudoku-bot/config.toml)
  pictures       refused reads go to $XDG_CACHE_HOME/sudoku-bot (~/.cache/sudoku-bot)";

/// Plays Sudoku games by looking at the screen.
///
/// Without a subcommand it watches the window named by --window and plays every new
/// puzzle that appears in it.
#[derive(Parser, Debug)]
#[command(name = "sudoku-bot", version, about, after_help = EXIT_CODES)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Title (exact, else app name, else substring) of the game window to play.
    #[arg(long, value_name = "TITLE", value_parser = clap::builder::NonEmptyStringValueParser::new())]
    pub window: Option<String>,

    /// Play one puzzle, then exit: 0 when the grid was filled and verified.
    #[arg(long)]
    pub once: bool,

    /// Send no input; print each move as `rRcC=D at (X,Y)`.
    #[arg(long)]
    pub dry_run: bool,

    /// Desktop to play on, or to list the windows of (default: the config's `backend`,
    /// else what the session has).
    #[arg(long, value_enum, value_name = "BACKEND", global = true)]
    pub backend: Option<sudoku_bot::backend::Backend>,

    /// Configuration file (default: $SUDOKU_BOT_CONFIG, else the user's config folder).
    #[arg(long, value_name = "FILE", global = true)]
    pub config: Option<PathBuf>,

    /// Say more on stderr (-v: decisions and a line per item, -vv: timings and details).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,

    /// Say nothing on stderr but errors (no warnings, no progress bar).
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,

    /// Colour in logs: auto (on a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = Color::Auto, global = true)]
    pub color: Color,

    /// Print a man page or a shell completion script, then exit.
    #[arg(long, value_enum, value_name = "KIND", exclusive = true)]
    pub generate: Option<Generate>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print the grid read from a picture as one 81-character line.
    Read {
        /// Screenshot or photo (PNG, JPEG, BMP); `-` reads it from standard input.
        image: PathBuf,
        /// Print only a JSON document (grid, corners, cells with confidences and
        /// methods; for a refused reading also `error` and `doubtful`).
        #[arg(long)]
        json: bool,
        /// Write pictures of each stage into this folder.
        #[arg(long, value_name = "DIR")]
        debug: Option<PathBuf>,
    },
    /// Solve puzzles given as arguments, or one a line on standard input.
    Solve {
        /// 81-character puzzles ('.' or '0' for empty cells).
        puzzles: Vec<String>,
        /// Print one JSON object a puzzle (JSON Lines) instead of the answer line.
        #[arg(long)]
        json: bool,
    },
    /// Draw the solution into the empty cells of the picture.
    Overlay {
        /// Screenshot or photo; `-` reads it from standard input.
        image: PathBuf,
        /// Where to write the PNG (`-`: standard output).
        #[arg(short = 'o', long = "output", value_name = "OUT.png")]
        output: PathBuf,
        /// Write stage pictures, and mark doubtful cells, into this folder.
        #[arg(long, value_name = "DIR")]
        debug: Option<PathBuf>,
    },
    /// List the windows that can be captured: title, app name, position, size.
    Windows {
        /// Print one JSON array of windows (title, app, x, y, width, height, dialog,
        /// minimised; x and y are null where the desktop gives no places).
        #[arg(long)]
        json: bool,
    },
    /// Measure the reader on a labelled set: grids exact, cell accuracy, time an image.
    Eval {
        /// Label files: a Wicht-style .desc list, or a manifest of `IMAGE GRID` lines
        /// (as fixtures/screens/MANIFEST).
        #[arg(required = true)]
        labels: Vec<PathBuf>,
        /// Print one JSON object a set instead of the summary line.
        #[arg(long)]
        json: bool,
    },
    /// Print the configuration in effect, each value with where it came from.
    Config {
        /// Print the default configuration, every key commented, instead.
        #[arg(long)]
        default: bool,
    },
}

/// When logs are coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

impl Color {
    /// Whether to colour a stream that is (or is not) a terminal: `auto` colours a
    /// terminal unless `NO_COLOR` is set to anything but the empty string
    /// (<https://no-color.org>).
    pub fn enabled(self, terminal: bool) -> bool {
        match self {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        }
    }
}

/// What `--generate` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Generate {
    /// The man page (roff), for `man -l -` or /usr/share/man/man1/sudoku-bot.1.
    Man,
    Bash,
    Zsh,
    Fish,
    Elvish,
    Powershell,
}

impl Cli {
    /// The watch-only flags given along with a subcommand, which would be ignored:
    /// named so the user learns they do nothing there.
    pub fn misplaced_watch_flag(&self) -> Option<&'static str> {
        self.command.as_ref()?;
        [
            (self.window.is_some(), "--window"),
            (self.once, "--once"),
            (self.dry_run, "--dry-run"),
            (
                self.backend.is_some() && !matches!(self.command, Some(Command::Windows { .. })),
                "--backend",
            ),
        ]
        .into_iter()
        .find_map(|(given, name)| given.then_some(name))
    }
}
