//! The front door: parse the command line, dispatch to one mode, report errors once.

mod cli;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser};
use cli::{Cli, Command, Generate};
use sudoku_bot::{error, modes, UsageError};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    init_logging(&cli);
    let json = matches!(
        cli.command,
        Some(Command::Read { json: true, .. })
            | Some(Command::Solve { json: true, .. })
            | Some(Command::Eval { json: true, .. })
            | Some(Command::Windows { json: true })
    );
    let result = try_main(cli);
    if json {
        error::finish_json(result)
    } else {
        error::finish(result)
    }
}

fn try_main(cli: Cli) -> anyhow::Result<ExitCode> {
    if let Some(kind) = cli.generate {
        return generate(kind);
    }
    if let Some(flag) = cli.misplaced_watch_flag() {
        return Err(UsageError(format!(
            "{flag} is a flag of the watch (sudoku-bot {flag} ... without a subcommand), not of a subcommand"
        ))
        .into());
    }
    let progress = !cli.quiet && cli.verbose == 0;
    match cli.command {
        Some(Command::Read { image, json, debug }) => {
            modes::read::run(&image, json, debug.as_deref())
        }
        Some(Command::Solve { puzzles, json }) => modes::solve::run_with(
            &puzzles,
            modes::solve::Options {
                json,
                quiet: cli.quiet,
            },
        ),
        Some(Command::Overlay {
            image,
            output,
            debug,
        }) => modes::overlay::run(&image, &output, debug.as_deref()),
        Some(Command::Windows { json }) => {
            modes::windows::run(cli.backend, cli.config.as_deref(), json)
        }
        Some(Command::Eval { labels, json }) => modes::eval::run(&labels, json, progress),
        Some(Command::Config { default }) => modes::config::run(cli.config.as_deref(), default),
        None => modes::watch::run(modes::watch::Options {
            window: cli.window,
            once: cli.once,
            dry_run: cli.dry_run,
            config: cli.config,
            backend: cli.backend,
            quiet: cli.quiet,
        }),
    }
}

/// `--generate`: the man page or a completion script, from the flags defined above.
fn generate(kind: Generate) -> anyhow::Result<ExitCode> {
    let mut cmd = Cli::command();
    // Into memory first: clap_complete panics when its writer fails (a closed pipe).
    let mut text = Vec::new();
    let shell = match kind {
        Generate::Man => None,
        Generate::Bash => Some(clap_complete::Shell::Bash),
        Generate::Zsh => Some(clap_complete::Shell::Zsh),
        Generate::Fish => Some(clap_complete::Shell::Fish),
        Generate::Elvish => Some(clap_complete::Shell::Elvish),
        Generate::Powershell => Some(clap_complete::Shell::PowerShell),
    };
    match shell {
        Some(shell) => clap_complete::generate(shell, &mut cmd, "sudoku-bot", &mut text),
        None => clap_mangen::Man::new(cmd).render(&mut text)?,
    }
    std::io::stdout().lock().write_all(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// Logs go to stderr: warnings only by default, none with --quiet; -v shows the bot's
/// decisions, -vv timings, each line with the seconds since start (as with RUST_LOG,
/// which overrides the filter). Colour only on a terminal (see [`cli::Color`]).
fn init_logging(cli: &Cli) {
    let level = match (cli.quiet, cli.verbose) {
        (true, _) => "error",
        (_, 0) => "warn",
        (_, 1) => "info",
        _ => "debug",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(format!("sudoku_bot={level}")));
    let fmt = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(cli.color.enabled(std::io::stderr().is_terminal()))
        .with_target(false);
    if cli.verbose >= 2 || std::env::var_os("RUST_LOG").is_some() {
        fmt.with_timer(tracing_subscriber::fmt::time::uptime())
            .init();
    } else {
        fmt.without_time().init();
    }
}
