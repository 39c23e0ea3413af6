//! `sudoku-bot windows`: list the windows that can be captured.

use std::io::Write;
use std::process::ExitCode;

use crate::screen;

/// The top-level entry point for listing windows: one a line, topmost first, as
/// `TITLE<TAB>APP<TAB>X,Y<TAB>WxH`, with `<TAB>dialog` for dialogs and helper windows.
pub fn run() -> anyhow::Result<ExitCode> {
    let windows = screen::list_windows()?;
    let mut out = std::io::stdout().lock();
    for w in windows
        .iter()
        .filter(|w| w.rect.width > 1 && w.rect.height > 1)
    {
        writeln!(
            out,
            "{}\t{}\t{},{}\t{}x{}{}",
            w.title,
            w.app_name,
            w.rect.x,
            w.rect.y,
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
