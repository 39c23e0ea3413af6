//! Where KWin's pointer is: no Wayland protocol tells a client, but a KWin script can
//! read `workspace.cursorPos`. The bot loads one (org.kde.kwin.Scripting) that calls
//! the bot back over D-Bus with the pointer's place at once and at every move, the
//! user's moves included; the bot then sees a hand on the mouse as on X11 (the pointer
//! is not where the bot left it). The script is stopped and unloaded when the bot
//! lets go.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tracing::{debug, warn};
use zbus::blocking::Connection;

use crate::input::ScreenPoint;

const PATH: &str = "/org/sudoku_bot/Pointer";
const INTERFACE: &str = "org.sudoku_bot.Pointer";

/// The pointer's last place as KWin's script told it.
type Place = Arc<Mutex<Option<ScreenPoint>>>;

/// What the script calls.
struct Reports(Place);

#[zbus::interface(name = "org.sudoku_bot.Pointer")]
impl Reports {
    /// "X,Y": the pointer's place in screen pixels.
    fn moved(&self, at: &str) {
        let mut it = at.split(',').map(|n| n.trim().parse::<f64>().ok());
        if let (Some(Some(x)), Some(Some(y))) = (it.next(), it.next()) {
            let place = ScreenPoint {
                x: x.round() as i32,
                y: y.round() as i32,
            };
            *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some(place);
        }
    }
}

/// A running pointer script, and where it last said the pointer is.
pub struct PointerWatch {
    bus: Connection,
    place: Place,
    plugin: String,
    /// The script's file, removed on drop.
    file: std::path::PathBuf,
}

impl PointerWatch {
    /// Loads and runs the script in KWin; `None` (said once, as a warning) when KWin
    /// does not run it: then the user's pointer is not watched.
    pub fn start(bus: &Connection) -> Option<PointerWatch> {
        match Self::try_start(bus) {
            Ok(watch) => Some(watch),
            Err(why) => {
                warn!("the user's pointer is not watched on KWin: {why}");
                None
            }
        }
    }

    fn try_start(bus: &Connection) -> Result<PointerWatch, String> {
        let place: Place = Arc::default();
        bus.object_server()
            .at(PATH, Reports(place.clone()))
            .map_err(|e| format!("cannot serve the script's reports: {e}"))?;
        let me = bus
            .unique_name()
            .ok_or("the session bus gave no name")?
            .to_string();
        let plugin = format!("sudoku-bot-pointer-{}", std::process::id());
        let file = std::env::temp_dir().join(format!("{plugin}.js"));
        let script = format!(
            "function report() {{\n  var p = workspace.cursorPos;\n  callDBus(\"{me}\", \"{PATH}\", \"{INTERFACE}\", \"Moved\", p.x + \",\" + p.y);\n}}\nworkspace.cursorPosChanged.connect(report);\nreport();\n"
        );
        std::fs::write(&file, script)
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        let watch = PointerWatch {
            bus: bus.clone(),
            place,
            plugin,
            file,
        };
        let id: i32 = watch
            .scripting(
                "loadScript",
                &(watch.file.to_string_lossy().as_ref(), &watch.plugin),
            )
            .and_then(|r| r.body().deserialize().map_err(|e| e.to_string()))?;
        if id < 0 {
            return Err("KWin's scripting refused the script".into());
        }
        // KWin 5.27 serves a loaded script at /ID, later ones at /Scripting/ScriptID:
        // start() runs every script loaded and not running yet, in either.
        watch.scripting("start", &())?;
        Ok(watch)
    }

    fn scripting<B>(&self, method: &str, body: &B) -> Result<zbus::message::Message, String>
    where
        B: serde::Serialize + zbus::zvariant::DynamicType,
    {
        self.bus
            .call_method(
                Some("org.kde.KWin"),
                "/Scripting",
                Some("org.kde.kwin.Scripting"),
                method,
                body,
            )
            .map_err(|e| format!("KWin's scripting (org.kde.kwin.Scripting.{method}): {e}"))
    }

    /// Where the script last said the pointer is; waits up to `patience` for its first
    /// word.
    pub fn place(&self, patience: Duration) -> Option<ScreenPoint> {
        let start = Instant::now();
        loop {
            let now = *self.place.lock().unwrap_or_else(|p| p.into_inner());
            if now.is_some() || start.elapsed() >= patience {
                return now;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for PointerWatch {
    fn drop(&mut self) {
        if let Err(e) = self.scripting("unloadScript", &(&self.plugin,)) {
            debug!("{e}");
        }
        let _ = self.bus.object_server().remove::<Reports, _>(PATH);
        let _ = std::fs::remove_file(&self.file);
    }
}
