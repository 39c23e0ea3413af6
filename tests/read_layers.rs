//! The library's imports go one way: no module imports from a module that imports it
//! back (however long the circle), and the reader's stages import only from the ones
//! below them (`src/vision/mod.rs` lists them). Checked on the source, over every path a
//! module names (`use` lines and paths in code) that leads to another module of the
//! crate: `crate::`, `super::`, `self::` and a child module's name, re-exports followed to
//! the module that defines the item. Test code (`#[cfg(test)]` items, `tests.rs`) is
//! left out, and so is a module naming its own enclosing module's items (a parent and
//! its children are one room).
//!
//! Run alone: `cargo test --release --test read_layers`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// The reader's floors, lowest first: a module under one prefix may import only from
/// its own floor and the floors before it. A module under none of them (the bot, the
/// modes) is free to import from any; it is still in the circle check.
const FLOORS: &[&[&str]] = &[
    &["grid"],
    &["solver"],
    &["vision::geometry", "vision::reading"],
    &["vision::locate"],
    &["vision::glyphs"],
    &["vision::digits"],
    &["vision::photo"],
    &["vision"],
];

type ModPath = Vec<String>;

/// The library's modules: each one's path in the crate and its source file.
fn library_modules(src: &Path) -> BTreeMap<ModPath, PathBuf> {
    let mut found = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(src).unwrap().with_extension("");
            let mut parts: ModPath = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            // The executables' own files are not the library.
            if parts.len() == 1 && ["main", "front", "cli"].contains(&parts[0].as_str()) {
                continue;
            }
            if parts.last().is_some_and(|p| p == "tests") {
                continue;
            }
            if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
                parts.pop();
            }
            found.insert(parts, path);
        }
    }
    found
}

/// The source without comments and without `#[cfg(test)]` items.
fn code_of(source: &str) -> String {
    let mut out = String::new();
    let mut lines = source.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            // Skip the next item: one line ending in `;`, or a braced block.
            let mut depth = 0i32;
            let mut opened = false;
            for next in lines.by_ref() {
                let code = strip_comment(next);
                depth += code.matches('{').count() as i32 - code.matches('}').count() as i32;
                opened |= code.contains('{');
                if (opened && depth <= 0) || (!opened && code.trim_end().ends_with(';')) {
                    break;
                }
            }
            continue;
        }
        out.push_str(strip_comment(line));
        out.push('\n');
    }
    out
}

fn strip_comment(line: &str) -> &str {
    match line.find("//") {
        Some(i) => &line[..i],
        None => line,
    }
}

/// Every path written in `code`, `use` trees expanded (`a::{b, c::d}` gives `a::b` and
/// `a::c::d`), each with whether it is a `pub` re-export and its local name.
fn paths_in(code: &str) -> Vec<(Vec<String>, bool, Option<String>)> {
    let mut out = Vec::new();
    let mut rest = code;
    // `use` statements first, removed from the text so their trees are read whole.
    let mut plain = String::new();
    while let Some(i) = find_use(rest) {
        plain.push_str(&rest[..i.start]);
        let end = i.body_start + rest[i.body_start..].find(';').unwrap();
        let tree = tidy(&rest[i.body_start..end]);
        for (path, alias) in expand(&tree) {
            out.push((path, i.public, alias));
        }
        rest = &rest[end + 1..];
    }
    plain.push_str(rest);
    // Then paths in code: identifiers joined by `::`.
    let bytes = plain.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while i < bytes.len() {
        if ident(bytes[i]) && (i == 0 || !(ident(bytes[i - 1]) || bytes[i - 1] == b':')) {
            let mut segs = Vec::new();
            let mut j = i;
            loop {
                let s = j;
                while j < bytes.len() && ident(bytes[j]) {
                    j += 1;
                }
                segs.push(plain[s..j].to_string());
                if plain[j..].starts_with("::") && bytes.get(j + 2).is_some_and(|&b| ident(b)) {
                    j += 2;
                } else {
                    break;
                }
            }
            if segs.len() > 1 {
                out.push((segs, false, None));
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

struct UseAt {
    start: usize,
    body_start: usize,
    public: bool,
}

/// The next `use` statement: where it starts, where its tree starts, whether it is
/// `pub` (any visibility: a re-export).
fn find_use(code: &str) -> Option<UseAt> {
    let mut from = 0;
    while let Some(k) = code[from..].find("use ") {
        let at = from + k;
        let before = code[..at].trim_end();
        let line_start = before.rfind(['\n', ';', '{', '}']).map_or(0, |p| p + 1);
        let head = before[line_start..].trim();
        let public = head.starts_with("pub");
        let word_start = at == 0 || !code.as_bytes()[at - 1].is_ascii_alphanumeric();
        if word_start && (head.is_empty() || public) {
            return Some(UseAt {
                start: line_start,
                body_start: at + 4,
                public,
            });
        }
        from = at + 4;
    }
    None
}

/// A `use` tree with single spaces, and none beside `::`, braces and commas.
fn tidy(tree: &str) -> String {
    let mut t = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    for token in ["::", "{", "}", ","] {
        t = t
            .replace(&format!(" {token}"), token)
            .replace(&format!("{token} "), token);
    }
    t
}

/// A tidy `use` tree expanded into paths, with `as` names.
fn expand(tree: &str) -> Vec<(Vec<String>, Option<String>)> {
    let Some(open) = tree.find('{') else {
        let (path, alias) = match tree.split_once(" as ") {
            Some((p, a)) => (p, Some(a.to_string())),
            None => (tree, None),
        };
        return vec![(path.split("::").map(String::from).collect(), alias)];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap()];
    let mut out = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    let mut parts = Vec::new();
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    for part in parts.into_iter().filter(|p| !p.is_empty()) {
        for (mut path, alias) in expand(part) {
            let mut full: Vec<String> = prefix
                .trim_end_matches("::")
                .split("::")
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
            if path == ["self"] {
                path.clear();
            }
            full.extend(path);
            out.push((full, alias));
        }
    }
    out
}

/// The module a path leads to from module `at`, following re-exports; `None` when it
/// leaves the crate.
fn resolve(
    path: &[String],
    at: &ModPath,
    modules: &BTreeMap<ModPath, PathBuf>,
    reexports: &HashMap<(ModPath, String), ModPath>,
) -> Option<ModPath> {
    let (mut current, rest): (ModPath, &[String]) = match path.first().map(String::as_str) {
        Some("crate") => (Vec::new(), &path[1..]),
        Some("self") => (at.clone(), &path[1..]),
        Some("super") => {
            let mut m = at.clone();
            let mut k = 0;
            while path.get(k).is_some_and(|s| s == "super") {
                m.pop();
                k += 1;
            }
            (m, &path[k..])
        }
        Some(first) => {
            let mut child = at.clone();
            child.push(first.to_string());
            if !modules.contains_key(&child) {
                return None;
            }
            (child, &path[1..])
        }
        None => return None,
    };
    for seg in rest {
        let mut next = current.clone();
        next.push(seg.clone());
        if modules.contains_key(&next) {
            current = next;
        } else if let Some(target) = reexports.get(&(current.clone(), seg.clone())) {
            current = target.clone();
        } else {
            break;
        }
    }
    Some(current)
}

struct Crate {
    modules: BTreeMap<ModPath, PathBuf>,
    /// Each module's paths (in code, not tests), with whether each is a re-export.
    paths: BTreeMap<ModPath, Vec<(Vec<String>, bool, Option<String>)>>,
    reexports: HashMap<(ModPath, String), ModPath>,
}

impl Crate {
    fn read() -> Crate {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let modules = library_modules(&src);
        let paths: BTreeMap<_, _> = modules
            .iter()
            .map(|(m, file)| {
                let code = code_of(&std::fs::read_to_string(file).unwrap());
                (m.clone(), paths_in(&code))
            })
            .collect();
        let mut krate = Crate {
            modules,
            paths,
            reexports: HashMap::new(),
        };
        // Re-exports, resolved until nothing changes (a re-export of a re-export).
        for _ in 0..8 {
            let mut found = HashMap::new();
            for (m, paths) in &krate.paths {
                for (path, _, alias) in paths.iter().filter(|p| p.1) {
                    let Some(name) = alias.clone().or_else(|| path.last().cloned()) else {
                        continue;
                    };
                    let parent = &path[..path.len() - 1];
                    if let Some(target) = resolve(parent, m, &krate.modules, &krate.reexports) {
                        let mut as_module = target.clone();
                        as_module.push(name.clone());
                        let target = if krate.modules.contains_key(&as_module) {
                            as_module
                        } else {
                            krate
                                .reexports
                                .get(&(target.clone(), path.last().unwrap().clone()))
                                .cloned()
                                .unwrap_or(target)
                        };
                        found.insert((m.clone(), name), target);
                    }
                }
            }
            krate.reexports = found;
        }
        krate
    }

    /// Each module's imports of other modules, a module's own ancestors left out.
    fn imports(&self) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
        self.paths
            .iter()
            .map(|(m, paths)| {
                let targets = paths
                    .iter()
                    .filter_map(|(p, _, _)| resolve(p, m, &self.modules, &self.reexports))
                    .filter(|t| !m.starts_with(t))
                    .collect();
                (m.clone(), targets)
            })
            .collect()
    }
}

fn name(m: &ModPath) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

fn floor_of(m: &ModPath) -> Option<usize> {
    let n = name(m);
    // The longest prefix names the floor: vision::locate before vision.
    FLOORS
        .iter()
        .enumerate()
        .flat_map(|(i, prefixes)| prefixes.iter().map(move |p| (i, *p)))
        .filter(|(_, p)| n == *p || n.starts_with(&format!("{p}::")))
        .max_by_key(|(_, p)| p.len())
        .map(|(i, _)| i)
}

/// The circles among `imports`: each strongly connected group of two or more modules
/// (Tarjan's algorithm), as names.
fn circles(imports: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        imports: &'a BTreeMap<ModPath, BTreeSet<ModPath>>,
        index: HashMap<&'a ModPath, usize>,
        low: HashMap<&'a ModPath, usize>,
        stack: Vec<&'a ModPath>,
        on_stack: BTreeSet<&'a ModPath>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, m: &'a ModPath) {
            let n = self.index.len();
            self.index.insert(m, n);
            self.low.insert(m, n);
            self.stack.push(m);
            self.on_stack.insert(m);
            for t in self.imports.get(m).into_iter().flatten() {
                let Some((t, _)) = self.imports.get_key_value(t) else {
                    continue;
                };
                if !self.index.contains_key(t) {
                    self.visit(t);
                    let low = self.low[m].min(self.low[t]);
                    self.low.insert(m, low);
                } else if self.on_stack.contains(t) {
                    let low = self.low[m].min(self.index[t]);
                    self.low.insert(m, low);
                }
            }
            if self.low[m] == self.index[m] {
                let mut group = Vec::new();
                while let Some(top) = self.stack.pop() {
                    self.on_stack.remove(top);
                    group.push(name(top));
                    if top == m {
                        break;
                    }
                }
                if group.len() > 1 {
                    group.sort();
                    self.found.push(group);
                }
            }
        }
    }
    let mut walk = Walk {
        imports,
        index: HashMap::new(),
        low: HashMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for m in imports.keys() {
        if !walk.index.contains_key(m) {
            walk.visit(m);
        }
    }
    walk.found
}

#[test]
fn no_module_imports_in_a_circle() {
    let imports = Crate::read().imports();
    let found = circles(&imports);
    assert!(
        found.is_empty(),
        "modules that import each other, directly or round a circle: {}",
        found
            .iter()
            .map(|g| g.join(" <-> "))
            .collect::<Vec<_>>()
            .join("; ")
    );
}

#[test]
fn the_reader_stages_import_only_from_below() {
    let imports = Crate::read().imports();
    let mut upward = Vec::new();
    for (m, targets) in &imports {
        let Some(own) = floor_of(m) else { continue };
        for t in targets {
            if floor_of(t).is_some_and(|f| f > own) {
                upward.push(format!("{} imports {}", name(m), name(t)));
            }
        }
    }
    assert!(upward.is_empty(), "imports from a floor above: {upward:?}");
}

#[test]
fn the_check_sees_the_imports_it_judges() {
    // A check that finds nothing proves nothing: it must see the reader's known
    // downward imports, through a re-export (`crate::vision::Reading`) and a child
    // module's name alike.
    let imports = Crate::read().imports();
    let has = |from: &str, to: &str| {
        imports
            .iter()
            .any(|(m, t)| name(m) == from && t.iter().any(|t| name(t) == to))
    };
    assert!(has("vision::reader", "vision::reading"));
    assert!(has("vision::digits::givens", "vision::glyphs::signature"));
    assert!(has("vision::glyphs", "vision::glyphs::dots"));
    assert!(has("vision::digits::agreement", "vision::reading"));
    assert!(
        has("bot", "vision::reading"),
        "{:?}",
        imports.get(&vec!["bot".to_string()])
    );
    assert!(has("solver::verdict", "grid::verdict"));
}
