//! sway's IPC (the i3 protocol on the socket `SWAYSOCK` names): the window tree, with
//! each window's place, focus, visibility and stacking, and the outputs' places. Read
//! as JSON values, so that fields sway versions add or drop do not matter.

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;

use serde_json::Value;

use crate::screen::{ScreenRect, WindowInfo};

const MAGIC: &[u8; 6] = b"i3-ipc";
const GET_OUTPUTS: u32 = 3;
const GET_TREE: u32 = 4;

/// A connection to sway's IPC socket.
pub struct Sway {
    stream: UnixStream,
}

/// One window of sway's tree.
#[derive(Debug, Clone)]
pub struct SwayWindow {
    /// Its content (client area) in layout pixels; `info.id` is sway's container id.
    pub info: WindowInfo,
    /// The whole container, title bar and borders included.
    pub frame: ScreenRect,
    pub focused: bool,
    /// False when it is on a workspace not shown, or in the scratchpad.
    pub visible: bool,
    pub floating: bool,
    /// The workspace it is on.
    pub workspace: String,
    /// "xdg_shell" or "xwayland".
    pub shell: String,
}

/// The socket sway names in `SWAYSOCK`, when it is set and there.
pub fn socket() -> Option<PathBuf> {
    let path = PathBuf::from(std::env::var_os("SWAYSOCK").filter(|s| !s.is_empty())?);
    path.exists().then_some(path)
}

impl Sway {
    pub fn connect() -> Result<Sway, String> {
        let path = socket().ok_or("SWAYSOCK is not set or names no socket")?;
        let stream = UnixStream::connect(&path).map_err(|e| {
            format!(
                "cannot connect to sway's IPC socket {}: {e}",
                path.display()
            )
        })?;
        Ok(Sway { stream })
    }

    fn ask(&mut self, kind: u32) -> Result<Value, String> {
        let fail = |e: std::io::Error| format!("sway's IPC failed: {e}");
        let mut message = Vec::with_capacity(14);
        message.extend_from_slice(MAGIC);
        message.extend_from_slice(&0u32.to_ne_bytes());
        message.extend_from_slice(&kind.to_ne_bytes());
        self.stream.write_all(&message).map_err(fail)?;
        let mut head = [0u8; 14];
        self.stream.read_exact(&mut head).map_err(fail)?;
        if &head[..6] != MAGIC {
            return Err("sway's IPC answered something else than i3-ipc".into());
        }
        let length = u32::from_ne_bytes(head[6..10].try_into().unwrap_or_default()) as usize;
        let mut body = vec![0u8; length];
        self.stream.read_exact(&mut body).map_err(fail)?;
        serde_json::from_slice(&body).map_err(|e| format!("sway's IPC sent bad JSON: {e}"))
    }

    /// The active outputs: name and place in the layout.
    pub fn outputs(&mut self) -> Result<Vec<(String, ScreenRect)>, String> {
        let outputs = self.ask(GET_OUTPUTS)?;
        Ok(outputs
            .as_array()
            .into_iter()
            .flatten()
            .filter(|o| o["active"].as_bool().unwrap_or(true))
            .map(|o| (text(&o["name"]), rect(&o["rect"])))
            .collect())
    }

    /// Every window, topmost first: each workspace's floating windows (the last drawn
    /// first), then its tiled ones.
    pub fn windows(&mut self) -> Result<Vec<SwayWindow>, String> {
        let tree = self.ask(GET_TREE)?;
        let mut out = Vec::new();
        collect(&tree, "", false, &mut out);
        Ok(out)
    }
}

fn text(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

fn rect(v: &Value) -> ScreenRect {
    let n = |k: &str| v[k].as_i64().unwrap_or(0);
    ScreenRect {
        x: n("x") as i32,
        y: n("y") as i32,
        width: n("width").max(0) as u32,
        height: n("height").max(0) as u32,
    }
}

/// Walks a node: its floating children first, topmost (last) first, then its tiled ones.
fn collect(node: &Value, workspace: &str, floating: bool, out: &mut Vec<SwayWindow>) {
    let workspace = if node["type"] == "workspace" {
        node["name"].as_str().unwrap_or(workspace)
    } else {
        workspace
    };
    if let Some(floats) = node["floating_nodes"].as_array() {
        for child in floats.iter().rev() {
            collect(child, workspace, true, out);
        }
    }
    if let Some(children) = node["nodes"].as_array() {
        for child in children {
            collect(child, workspace, floating, out);
        }
    }
    let is_view =
        node["pid"].is_number() || node["app_id"].is_string() || node["window"].is_number();
    if !is_view || !matches!(node["type"].as_str(), Some("con" | "floating_con")) {
        return;
    }
    let frame = rect(&node["rect"]);
    let inner = rect(&node["window_rect"]);
    let props = &node["window_properties"];
    let app_name = node["app_id"]
        .as_str()
        .filter(|a| !a.is_empty())
        .map(str::to_string)
        .unwrap_or_else(|| text(&props["class"]));
    out.push(SwayWindow {
        info: WindowInfo {
            id: node["id"].as_i64().unwrap_or(0) as u32,
            title: text(&node["name"]),
            app_name,
            pid: node["pid"].as_u64().map(|p| p as u32),
            rect: ScreenRect {
                x: frame.x + inner.x,
                y: frame.y + inner.y,
                width: inner.width,
                height: inner.height,
            },
            minimized: node["scratchpad_state"]
                .as_str()
                .is_some_and(|s| s != "none")
                && node["visible"] == false,
            // sway floats dialogs; a main window the user floated is taken for one.
            dialog: floating || props["transient_for"].is_number(),
        },
        frame,
        focused: node["focused"].as_bool().unwrap_or(false),
        visible: node["visible"].as_bool().unwrap_or(true),
        floating,
        workspace: workspace.to_string(),
        shell: text(&node["shell"]),
    });
}

/// The windows stacked above `game` in `list` (topmost first): on its workspace, the
/// floating windows drawn after it (all of them, when the game is tiled).
pub fn above(list: &[SwayWindow], game: &SwayWindow) -> Vec<WindowInfo> {
    list.iter()
        .take_while(|w| w.info.id != game.info.id)
        .filter(|w| w.floating && w.visible && w.workspace == game.workspace)
        .map(|w| WindowInfo {
            rect: w.frame,
            ..w.info.clone()
        })
        .collect()
}
