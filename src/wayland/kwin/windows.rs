//! KWin's window list through Plasma's window-management protocol
//! (org_kde_plasma_window_management, which KWin offers only to programs whose
//! `.desktop` file lists it in `X-KDE-Wayland-Interfaces`): each window's title, app id,
//! process, frame on the screen, whether it is active or minimised, and the stacking
//! order.

use std::cell::RefCell;
use std::rc::Rc;

use wayland_client::{Connection, Dispatch, QueueHandle};
use wayland_protocols_plasma::plasma_window_management::client::{
    org_kde_plasma_window::{self, OrgKdePlasmaWindow},
    org_kde_plasma_window_management::{self, OrgKdePlasmaWindowManagement, State as Flags},
};

use super::plasma::PlasmaWindow;
use crate::wayland::client::{Client, State};
use crate::window::ScreenRect;

/// The window list, kept up to date on one connection (shared with the fake input:
/// KWin takes over a second to vouch for each new connection).
pub struct Windows {
    pub client: Rc<RefCell<Client>>,
    _manager: OrgKdePlasmaWindowManagement,
}

impl Windows {
    pub fn open() -> Result<Windows, String> {
        let mut client = Client::connect()?;
        let manager: OrgKdePlasmaWindowManagement = client.bind(16).map_err(|e| {
            format!("{e}: KWin offers it only to a program whose .desktop file lists it in X-KDE-Wayland-Interfaces (install assets/kde/sudoku-bot.desktop)")
        })?;
        // The windows, then each window's state.
        client.roundtrip()?;
        client.roundtrip()?;
        Ok(Windows {
            client: Rc::new(RefCell::new(client)),
            _manager: manager,
        })
    }

    /// Every window now, topmost first (those KWin has not stacked yet last).
    pub fn list(&mut self) -> Result<Vec<PlasmaWindow>, String> {
        let mut client = self.client.borrow_mut();
        client.roundtrip()?;
        let plasma = &client.state.plasma;
        let mut out: Vec<PlasmaWindow> = plasma
            .stacking
            .iter()
            .rev()
            .filter_map(|uuid| plasma.windows.get(uuid))
            .map(|(_, w)| w.clone())
            .filter(|w| !w.unmapped)
            .collect();
        for (_, w) in plasma.windows.values() {
            if !w.unmapped && !plasma.stacking.contains(&w.uuid) {
                out.push(w.clone());
            }
        }
        Ok(out)
    }
}

impl Dispatch<OrgKdePlasmaWindowManagement, ()> for State {
    fn event(
        state: &mut Self,
        manager: &OrgKdePlasmaWindowManagement,
        event: org_kde_plasma_window_management::Event,
        _: &(),
        _: &Connection,
        qh: &QueueHandle<Self>,
    ) {
        use org_kde_plasma_window_management::Event as E;
        match event {
            E::WindowWithUuid { uuid, .. } => {
                let window = manager.get_window_by_uuid(uuid.clone(), qh, uuid.clone());
                state.plasma.windows.insert(
                    uuid.clone(),
                    (
                        window,
                        PlasmaWindow {
                            uuid,
                            ..PlasmaWindow::default()
                        },
                    ),
                );
            }
            E::StackingOrderUuidChanged { uuids } => {
                state.plasma.stacking = uuids.split(';').map(str::to_string).collect();
            }
            _ => {}
        }
    }
}

impl Dispatch<OrgKdePlasmaWindow, String> for State {
    fn event(
        state: &mut Self,
        _: &OrgKdePlasmaWindow,
        event: org_kde_plasma_window::Event,
        uuid: &String,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        use org_kde_plasma_window::Event as E;
        let Some((_, w)) = state.plasma.windows.get_mut(uuid) else {
            return;
        };
        match event {
            E::TitleChanged { title } => w.title = title,
            E::AppIdChanged { app_id } => w.app_id = app_id,
            E::PidChanged { pid } => w.pid = Some(pid),
            E::Geometry {
                x,
                y,
                width,
                height,
            } => {
                w.rect = ScreenRect {
                    x,
                    y,
                    width,
                    height,
                }
            }
            E::StateChanged { flags } => {
                w.active = flags & Flags::Active as u32 != 0;
                w.minimized = flags & Flags::Minimized as u32 != 0;
            }
            E::ParentWindow { parent } => w.child = parent.is_some(),
            E::Unmapped => w.unmapped = true,
            _ => {}
        }
    }
}
