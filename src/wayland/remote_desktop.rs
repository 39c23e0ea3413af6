//! Mutter's D-Bus side: a RemoteDesktop session (input) tied to a ScreenCast session
//! (the PipeWire stream of the monitor), the way gnome-remote-desktop drives them.
//!
//! Interfaces: `org.gnome.Mutter.RemoteDesktop` and `org.gnome.Mutter.ScreenCast`
//! (mutter's `data/dbus-interfaces/`). Any unsandboxed process of the user's session may
//! call them. Input goes in the stream's coordinates: `NotifyPointerMotionAbsolute` names
//! the stream, and its x, y are pixels of that stream's picture.

use std::collections::HashMap;
use std::time::Duration;

use zbus::blocking::{Connection, MessageIterator};
use zbus::zvariant::{OwnedObjectPath, Value};

use crate::input::{InputError, Key};
use crate::screen::ScreenError;

const RD_NAME: &str = "org.gnome.Mutter.RemoteDesktop";
const RD_PATH: &str = "/org/gnome/Mutter/RemoteDesktop";
const RD_SESSION: &str = "org.gnome.Mutter.RemoteDesktop.Session";
const SC_NAME: &str = "org.gnome.Mutter.ScreenCast";
const SC_PATH: &str = "/org/gnome/Mutter/ScreenCast";
const SC_SESSION: &str = "org.gnome.Mutter.ScreenCast.Session";
const SC_STREAM: &str = "org.gnome.Mutter.ScreenCast.Stream";

/// linux/input-event-codes.h: the left mouse button.
const BTN_LEFT: i32 = 0x110;

/// ScreenCast `cursor-mode`: the pointer is not drawn into the frames but sent along as
/// metadata (its position), which is how the bot sees the user's hand on the mouse.
const CURSOR_MODE_METADATA: u32 = 2;

fn dbus_error(what: &str, e: impl std::fmt::Display) -> ScreenError {
    ScreenError::Wayland(format!("{what}: {e}"))
}

/// What to record.
#[derive(Debug, Clone)]
pub enum Target {
    /// The primary monitor (`RecordMonitor` with an empty connector).
    PrimaryMonitor,
    /// One window, by the id org.gnome.Shell.Introspect gives it (`RecordWindow`).
    Window(u64),
    /// The primary monitor, plus a second stream of one window (by its Introspect id)
    /// that is used only to place the window on the monitor (see
    /// [`MutterSession::pointer_to_window`]).
    WindowOnMonitor(u64),
}

/// One live session: the ScreenCast stream (and, unless it is a dry run, the
/// RemoteDesktop session that drives input into it). Stopped when dropped.
pub struct MutterSession {
    bus: Connection,
    /// The RemoteDesktop session, when input is wanted.
    remote: Option<OwnedObjectPath>,
    screencast: OwnedObjectPath,
    /// The ScreenCast stream object: input coordinates are this stream's.
    pub stream: OwnedObjectPath,
    /// The PipeWire node that carries the frames.
    pub node_id: u32,
    /// The window's own stream, for [`Target::WindowOnMonitor`].
    window_stream: Option<OwnedObjectPath>,
    /// Its PipeWire node.
    pub window_node: Option<u32>,
    /// True once Mutter has answered an input event.
    confirmed: std::cell::Cell<bool>,
}

impl MutterSession {
    /// Creates the sessions, starts them, and waits for the PipeWire node. With `input`
    /// false (a dry run) only a ScreenCast session is made: nothing could type.
    pub fn start(bus: &Connection, target: &Target, input: bool) -> Result<Self, ScreenError> {
        let (remote, screencast) = create_sessions(bus, input)?;
        let (stream, window_stream) = record(bus, &screencast, target)?;

        // The node id comes in a signal once the session starts: listen first.
        let signals = node_signals(bus, &stream)?;
        let window_signals = window_stream
            .as_ref()
            .map(|path| node_signals(bus, path))
            .transpose()?;

        let mut session = MutterSession {
            bus: bus.clone(),
            remote,
            screencast,
            stream,
            node_id: 0,
            window_stream,
            window_node: None,
            confirmed: std::cell::Cell::new(false),
        };
        let (name, start_on, interface) = match &session.remote {
            Some(path) => (RD_NAME, path.as_str(), RD_SESSION),
            None => (SC_NAME, session.screencast.as_str(), SC_SESSION),
        };
        bus.call_method(Some(name), start_on, Some(interface), "Start", &())
            .map_err(|e| dbus_error("starting the Mutter session failed", e))?;
        session.node_id = wait_for_node(signals)?;
        if let Some(signals) = window_signals {
            session.window_node = Some(wait_for_node(signals)?);
        }
        Ok(session)
    }

    fn remote(&self) -> Result<&OwnedObjectPath, InputError> {
        self.remote
            .as_ref()
            .ok_or_else(|| InputError::Send("a dry run has no input session".into()))
    }

    /// Sends one input event to Mutter. Events go out without waiting for Mutter's
    /// answer (the bus keeps them in order): a round trip costs tens of milliseconds
    /// while Mutter renders. `confirm` waits for the answer, which reports a session
    /// Mutter has closed (a closed session also ends the stream: the next capture fails).
    fn notify<B>(&self, method: &str, body: &B, confirm: bool) -> Result<(), InputError>
    where
        B: serde::Serialize + zbus::zvariant::DynamicType,
    {
        let failed = |e: zbus::Error| InputError::Send(format!("Mutter's {method} failed: {e}"));
        let path = self.remote()?.as_str();
        if confirm {
            return self
                .bus
                .call_method(Some(RD_NAME), path, Some(RD_SESSION), method, body)
                .map(|_| ())
                .map_err(failed);
        }
        let message = zbus::Message::method_call(path, method)
            .and_then(|m| m.destination(RD_NAME))
            .and_then(|m| m.interface(RD_SESSION))
            .and_then(|m| m.with_flags(zbus::message::Flags::NoReplyExpected))
            .and_then(|m| m.build(body))
            .map_err(failed)?;
        self.bus.send(&message).map_err(failed)
    }

    /// Moves the pointer to `(x, y)`, pixels of the stream's picture.
    /// The first one waits for Mutter's answer, so that a session that cannot take
    /// input fails at once.
    pub fn pointer_to(&self, x: f64, y: f64) -> Result<(), InputError> {
        let first = !self.confirmed.replace(true);
        self.notify(
            "NotifyPointerMotionAbsolute",
            &(self.stream.as_str(), x, y),
            first,
        )
    }

    /// Moves the pointer to `(x, y)`, pixels of the window's own stream
    /// ([`Target::WindowOnMonitor`]), waiting for Mutter's answer. Mutter places it
    /// where that window is, so the monitor stream's cursor report then tells where the
    /// window is on the monitor: GNOME Shell's window list gives no positions.
    pub fn pointer_to_window(&self, x: f64, y: f64) -> Result<(), InputError> {
        let stream = self
            .window_stream
            .as_ref()
            .ok_or_else(|| InputError::Send("no window stream in this session".into()))?;
        self.notify(
            "NotifyPointerMotionAbsolute",
            &(stream.as_str(), x, y),
            true,
        )
    }

    /// Presses and releases the left button where the pointer is.
    pub fn left_click(&self) -> Result<(), InputError> {
        self.notify("NotifyPointerButton", &(BTN_LEFT, true), false)?;
        self.notify("NotifyPointerButton", &(BTN_LEFT, false), false)
    }

    /// Presses and releases Shift, waiting for Mutter's answer: a key that changes
    /// nothing in any game. Seen under headless Mutter 43: without it, digits of the
    /// first rows were lost (8 and 12 of 52 in two runs, as if the new virtual keyboard
    /// were still being set up); with it, none in 8 runs.
    pub fn warm_up_keyboard(&self) -> Result<(), InputError> {
        const SHIFT_L: u32 = 0xffe1;
        self.notify("NotifyKeyboardKeysym", &(SHIFT_L, true), false)?;
        self.notify("NotifyKeyboardKeysym", &(SHIFT_L, false), true)
    }

    /// Presses and releases one key, by its X keysym.
    pub fn key(&self, key: Key) -> Result<(), InputError> {
        let keysym = key.keysym()?;
        self.notify("NotifyKeyboardKeysym", &(keysym, true), false)?;
        self.notify("NotifyKeyboardKeysym", &(keysym, false), false)
    }
}

/// Mutter's sessions: a RemoteDesktop one when `input` (a ScreenCast session tied to
/// it), else a ScreenCast session alone.
fn create_sessions(
    bus: &Connection,
    input: bool,
) -> Result<(Option<OwnedObjectPath>, OwnedObjectPath), ScreenError> {
    let remote: Option<OwnedObjectPath> = if input {
        Some(
            bus.call_method(Some(RD_NAME), RD_PATH, Some(RD_NAME), "CreateSession", &())
                .and_then(|r| r.body().deserialize())
                .map_err(|e| dbus_error("Mutter's RemoteDesktop CreateSession failed", e))?,
        )
    } else {
        None
    };
    let mut options: HashMap<&str, Value> = HashMap::new();
    if let Some(path) = &remote {
        let id: String = bus
            .call_method(
                Some(RD_NAME),
                path.as_str(),
                Some("org.freedesktop.DBus.Properties"),
                "Get",
                &(RD_SESSION, "SessionId"),
            )
            .and_then(|r| r.body().deserialize::<zbus::zvariant::OwnedValue>())
            .map_err(|e| dbus_error("reading the RemoteDesktop SessionId failed", e))
            .and_then(|v| {
                String::try_from(v).map_err(|e| dbus_error("SessionId is not a string", e))
            })?;
        options.insert("remote-desktop-session-id", Value::from(id));
    }
    let screencast: OwnedObjectPath = bus
        .call_method(
            Some(SC_NAME),
            SC_PATH,
            Some(SC_NAME),
            "CreateSession",
            &(options,),
        )
        .and_then(|r| r.body().deserialize())
        .map_err(|e| dbus_error("Mutter's ScreenCast CreateSession failed", e))?;
    Ok((remote, screencast))
}

/// Asks the ScreenCast session to record `target`: the stream to read, and, for a
/// window placed on the monitor, the window's own stream too.
fn record(
    bus: &Connection,
    screencast: &OwnedObjectPath,
    target: &Target,
) -> Result<(OwnedObjectPath, Option<OwnedObjectPath>), ScreenError> {
    let props = || HashMap::from([("cursor-mode", Value::U32(CURSOR_MODE_METADATA))]);
    let record_window = |id: u64| {
        let mut props = props();
        props.insert("window-id", Value::U64(id));
        bus.call_method(
            Some(SC_NAME),
            screencast.as_str(),
            Some(SC_SESSION),
            "RecordWindow",
            &(props,),
        )
    };
    let record_monitor = || {
        bus.call_method(
            Some(SC_NAME),
            screencast.as_str(),
            Some(SC_SESSION),
            "RecordMonitor",
            &("", props()),
        )
    };
    let path = |reply: zbus::Result<zbus::Message>| -> Result<OwnedObjectPath, ScreenError> {
        reply
            .and_then(|r| r.body().deserialize())
            .map_err(|e| dbus_error("Mutter refused to record", e))
    };
    let (stream, window_stream) = match target {
        Target::PrimaryMonitor => (path(record_monitor())?, None),
        Target::Window(id) => (path(record_window(*id))?, None),
        Target::WindowOnMonitor(id) => (path(record_monitor())?, Some(path(record_window(*id))?)),
    };
    Ok((stream, window_stream))
}

impl Drop for MutterSession {
    fn drop(&mut self) {
        // Stopping the RemoteDesktop session stops the ScreenCast tied to it.
        let _ = match &self.remote {
            Some(path) => {
                self.bus
                    .call_method(Some(RD_NAME), path.as_str(), Some(RD_SESSION), "Stop", &())
            }
            None => self.bus.call_method(
                Some(SC_NAME),
                self.screencast.as_str(),
                Some(SC_SESSION),
                "Stop",
                &(),
            ),
        };
    }
}

/// Subscribes to the `PipeWireStreamAdded` signal of one stream.
fn node_signals(
    bus: &Connection,
    stream: &OwnedObjectPath,
) -> Result<MessageIterator, ScreenError> {
    let rule = zbus::MatchRule::builder()
        .msg_type(zbus::message::Type::Signal)
        .interface(SC_STREAM)
        .and_then(|b| b.member("PipeWireStreamAdded"))
        .and_then(|b| b.path(stream.as_str()))
        .map(|b| b.build())
        .map_err(|e| dbus_error("building a D-Bus match rule", e))?;
    MessageIterator::for_match_rule(rule, bus, Some(8))
        .map_err(|e| dbus_error("subscribing to PipeWireStreamAdded", e))
}

/// The PipeWire node a stream announces once its session starts.
fn wait_for_node(signals: MessageIterator) -> Result<u32, ScreenError> {
    // The signal comes right after Start; a blocking iterator has no timeout, so it
    // is read on a helper thread.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for message in signals.flatten() {
            if let Ok(node) = message.body().deserialize::<u32>() {
                let _ = tx.send(node);
                return;
            }
        }
    });
    rx.recv_timeout(Duration::from_secs(5)).map_err(|_| {
        dbus_error(
            "no PipeWire stream",
            "Mutter announced no stream within 5 s (is PipeWire running in this session?)",
        )
    })
}
