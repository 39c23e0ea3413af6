//! Pictures of refused reads for the user to look at: bounded in number, never the
//! same picture twice.

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
        let dir = self
            .config
            .watch
            .debug_dir
            .clone()
            .unwrap_or_else(default_debug_dir);
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
        let saved = std::fs::create_dir_all(&dir)
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

/// Where pictures of refused reads go when `watch.debug_dir` is not set.
pub fn default_debug_dir() -> PathBuf {
    std::env::temp_dir().join("sudoku-bot")
}
