//! Pictures of refused reads for the user to look at: bounded in number, never the
//! same picture twice, in a folder of the user's own (`$XDG_CACHE_HOME/sudoku-bot`,
//! mode 0700, unless `watch.debug_dir` names another).

use super::*;

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// Saves the capture with the doubtful cells framed in red, for the user to look at.
    /// A picture is saved once per fingerprint (a watch over an unreadable grid does
    /// not save the same picture every second), and only the newest `watch.debug_keep`
    /// pictures stay in the folder.
    pub(super) fn save_debug_picture(
        &self,
        picture: &DynamicImage,
        reading: Option<&Reading>,
        cells: &[usize],
        fingerprint: u64,
    ) -> Option<PathBuf> {
        let configured = self.config.watch.debug_dir.clone();
        let Some(dir) = configured.clone().or_else(default_debug_dir) else {
            warn!("no folder for the picture of the refused read: no home folder, and watch.debug_dir is not set");
            return None;
        };
        let path = dir.join(format!("refused-{fingerprint:016x}.png"));
        if path.is_file() {
            return Some(path);
        }
        let keep = self.config.watch.debug_keep;
        if keep == 0 {
            return None;
        }
        let canvas = match reading {
            Some(reading) => crate::vision::debug::doubtful_cells(picture, reading, cells),
            None => picture.to_rgb8(),
        };
        // The user's cache folder is made private (the pictures show the screen); a
        // folder the configuration names is created private, or left as it is.
        let created = match configured {
            None => crate::config::make_private_dir(&dir),
            Some(_) => {
                use std::os::unix::fs::DirBuilderExt;
                std::fs::DirBuilder::new()
                    .recursive(true)
                    .mode(0o700)
                    .create(&dir)
            }
        };
        let saved = created
            .map_err(|e| e.to_string())
            .and_then(|_| canvas.save(&path).map_err(|e| e.to_string()));
        match saved {
            Ok(()) => {
                prune_debug_pictures(&dir, keep);
                Some(path)
            }
            Err(e) => {
                warn!("could not save the debug picture {}: {e}", path.display());
                None
            }
        }
    }
}

/// Deletes the oldest `refused-*.png` pictures in `dir` beyond the newest `keep`.
pub(super) fn prune_debug_pictures(dir: &Path, keep: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut pictures: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with("refused-") && name.ends_with(".png")
        })
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    if pictures.len() <= keep {
        return;
    }
    pictures.sort();
    for (_, path) in &pictures[..pictures.len() - keep] {
        if let Err(e) = std::fs::remove_file(path) {
            warn!(
                "could not delete the old debug picture {}: {e}",
                path.display()
            );
        }
    }
}

/// Where pictures of refused reads go when `watch.debug_dir` is not set: the user's
/// cache folder, as for every picture the command line saves
/// ([`crate::config::cache_dir`]); `None` without a home folder.
pub fn default_debug_dir() -> Option<PathBuf> {
    crate::config::cache_dir()
}
