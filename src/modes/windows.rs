//! `sudoku-bot windows`: list the windows that can be captured, on whichever desktop
//! the bot would play (X11, GNOME Shell's list, sway's tree, KWin's).

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use tracing::info;

use crate::backend::{self, Backend};

/// Lists the windows of the desktop the bot would play on (`--backend`, else the
/// configuration's backend, else the session's): one a line, topmost first, as
/// `TITLE<TAB>APP<TAB>X,Y<TAB>WxH`, with `<TAB>dialog` for dialogs and helper windows
/// and `<TAB>minimised`. GNOME Shell's list has no places: `X,Y` is `-,-` there. With
/// `json`, one JSON array of objects instead (`x` and `y` null where there are no places).
pub fn run(flag: Option<Backend>, config: Option<&Path>, json: bool) -> anyhow::Result<ExitCode> {
    let (config, _) = crate::config::load(config)?;
    let (backend, why) = backend::choose(flag, config.backend, |v| std::env::var(v).ok())?;
    info!("backend {backend} ({why})");
    let (windows, placed) = backend::list_windows(backend)?;
    let windows = windows
        .iter()
        .filter(|w| w.rect.width > 1 && w.rect.height > 1);
    let mut out = std::io::stdout().lock();
    if json {
        let list: Vec<_> = windows
            .map(|w| {
                serde_json::json!({
                    "title": w.title,
                    "app": w.app_name,
                    "x": placed.then_some(w.rect.x),
                    "y": placed.then_some(w.rect.y),
                    "width": w.rect.width,
                    "height": w.rect.height,
                    "dialog": w.dialog,
                    "minimised": w.minimized,
                })
            })
            .collect();
        serde_json::to_writer(&mut out, &list)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    for w in windows {
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
