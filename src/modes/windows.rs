//! `sudoku-bot windows`: list the windows that can be captured, on whichever desktop
//! the bot would play (X11, GNOME Shell's list, sway's tree, KWin's).

use std::io::Write;
use std::process::ExitCode;

use tracing::info;

use crate::backend::{self, Backend};

/// Lists the windows of the desktop the bot would play on (the configuration's backend,
/// else the session's): one a line, topmost first, as `TITLE<TAB>APP<TAB>X,Y<TAB>WxH`,
/// with `<TAB>dialog` for dialogs and helper windows. GNOME Shell's list has no places:
/// `X,Y` is `-,-` there.
pub fn run() -> anyhow::Result<ExitCode> {
    let config = crate::config::load(None).ok().and_then(|(c, _)| c.backend);
    run_on(None, config)
}

/// [`run`] with the `--backend` flag's choice.
pub fn run_on(flag: Option<Backend>, config: Option<Backend>) -> anyhow::Result<ExitCode> {
    let (backend, why) = backend::choose(flag, config, |v| std::env::var(v).ok())?;
    info!("backend {backend} ({why})");
    let (windows, placed) = backend::list_windows(backend)?;
    let mut out = std::io::stdout().lock();
    for w in windows
        .iter()
        .filter(|w| w.rect.width > 1 && w.rect.height > 1)
    {
        let place = if placed {
            format!("{},{}", w.rect.x, w.rect.y)
        } else {
            "-,-".to_string()
        };
        writeln!(
            out,
            "{}\t{}\t{place}\t{}x{}{}",
            w.title,
            w.app_name,
            w.rect.width,
            w.rect.height,
            if w.dialog {
                "\tdialog"
            } else if w.minimized {
                "\tminimised"
            } else {
                ""
            }
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
