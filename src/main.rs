//! The front door: parse the command line, dispatch to one mode, report errors once.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use sudoku_bot::{error, modes};

/// Plays Sudoku games by looking at the screen.
///
/// Without a subcommand it watches the window named by --window and plays every new
/// puzzle that appears in it.
#[derive(Parser, Debug)]
#[command(
    name = "sudoku-bot",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    /// Title (exact, else app name, else substring) of the game window to play.
    #[arg(long, value_name = "TITLE")]
    window: Option<String>,

    /// Play one puzzle, then exit: 0 when the grid was filled and verified.
    #[arg(long)]
    once: bool,

    /// Send no input; print each move as `rRcC=D at (X,Y)`.
    #[arg(long)]
    dry_run: bool,

    /// Desktop to play on (default: the config's `backend`, else the session's kind).
    #[arg(long, value_enum, value_name = "BACKEND")]
    backend: Option<sudoku_bot::backend::Backend>,

    /// Configuration file (default ./config.toml, else the user's config directory).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,

    /// Say more on stderr (-v: decisions, -vv: timings and details).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the grid read from a picture as one 81-character line.
    Read {
        /// Screenshot or photo (PNG, JPEG, BMP).
        image: PathBuf,
        /// Add a JSON document with corners, cell boxes, confidences and methods.
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
    },
    /// Draw the solution into the empty cells of the picture.
    Overlay {
        image: PathBuf,
        /// Where to write the PNG.
        #[arg(short = 'o', long = "output", value_name = "OUT.png")]
        output: PathBuf,
        /// Write stage pictures, and mark doubtful cells, into this folder.
        #[arg(long, value_name = "DIR")]
        debug: Option<PathBuf>,
    },
    /// List the windows that can be captured: title, app name, position, size.
    Windows,
    /// Measure the reader on a labelled set: grids exact, cell accuracy, time an image.
    Eval {
        /// Label files: a Wicht-style .desc list, a folder of IMAGE + IMAGE.txt pairs,
        /// or a fixtures manifest.
        labels: Vec<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    init_logging(cli.verbose);
    error::finish(try_main(cli))
}

fn try_main(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Some(Command::Read { image, json, debug }) => {
            modes::read::run(&image, json, debug.as_deref())
        }
        Some(Command::Solve { puzzles }) => modes::solve::run(&puzzles),
        Some(Command::Overlay {
            image,
            output,
            debug,
        }) => modes::overlay::run(&image, &output, debug.as_deref()),
        Some(Command::Windows) => modes::windows::run(),
        Some(Command::Eval { labels }) => modes::eval::run(&labels),
        None => modes::watch::run(modes::watch::Options {
            window: cli.window,
            once: cli.once,
            dry_run: cli.dry_run,
            config: cli.config,
            backend: cli.backend,
        }),
    }
}

/// Logs go to stderr; -v shows the bot's decisions, -vv timings, each line with the
/// seconds since start (as with RUST_LOG, which overrides the filter).
fn init_logging(verbose: u8) {
    let level = match verbose {
        0 => "warn",
        1 => "info",
        _ => "debug",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(format!("sudoku_bot={level}")));
    let fmt = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false);
    if verbose >= 2 || std::env::var_os("RUST_LOG").is_some() {
        fmt.with_timer(tracing_subscriber::fmt::time::uptime())
            .init();
    } else {
        fmt.without_time().init();
    }
}
