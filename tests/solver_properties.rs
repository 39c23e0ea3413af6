//! Properties of the solver through its public API, on puzzles drawn by a
//! seeded generator (the same cases on every run; a failure prints its puzzle):
//! every answer is a valid grid that keeps the givens; relabelling digits and
//! permuting rows, columns, bands and stacks commute with solving; `count_solutions`
//! agrees with a plain brute-force counter; `invalid` reasons name the real clashes.

use sudoku_bot::grid::{house_cells, Grid, House};
use sudoku_bot::modes::solve::{answer, Answer};
use sudoku_bot::solver::{count_solutions, solve, Solution};

/// xorshift64*: small, seeded, good enough to draw test cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

fn sample_puzzles() -> Vec<Grid> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/puzzles");
    let mut out = Vec::new();
    for (file, every) in [("17_clue_sample.txt", 10), ("counts.txt", 1)] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        for line in text.lines().filter(|l| !l.starts_with('#')).step_by(every) {
            if let Ok(g) = Grid::parse(line.split(':').next().unwrap()) {
                out.push(g);
            }
        }
    }
    out
}

/// A solved grid: the first sample's solution, shuffled by a random symmetry.
fn random_solution(rng: &mut Rng) -> Grid {
    let base = Grid::parse(
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
    )
    .unwrap();
    Symmetry::random(rng).apply(&base)
}

/// A validity-preserving transformation: digit relabelling, row order (bands, and rows
/// within each band), column order (stacks, and columns within each), transposition.
struct Symmetry {
    digits: [u8; 10],
    rows: [usize; 9],
    cols: [usize; 9],
    transpose: bool,
}

impl Symmetry {
    fn random(rng: &mut Rng) -> Symmetry {
        let mut digits: Vec<u8> = (1..=9).collect();
        rng.shuffle(&mut digits);
        let order = |rng: &mut Rng| {
            let mut bands = [0, 1, 2];
            rng.shuffle(&mut bands);
            let mut out = [0; 9];
            for (k, &b) in bands.iter().enumerate() {
                let mut inner = [0, 1, 2];
                rng.shuffle(&mut inner);
                for (j, &i) in inner.iter().enumerate() {
                    out[k * 3 + j] = b * 3 + i;
                }
            }
            out
        };
        let (rows, cols) = (order(rng), order(rng));
        let mut d = [0u8; 10];
        for (k, &v) in digits.iter().enumerate() {
            d[k + 1] = v;
        }
        Symmetry {
            digits: d,
            rows,
            cols,
            transpose: rng.below(2) == 1,
        }
    }

    fn apply(&self, g: &Grid) -> Grid {
        let mut cells = [0u8; 81];
        for r in 0..9 {
            for c in 0..9 {
                let (sr, sc) = (self.rows[r], self.cols[c]);
                let (sr, sc) = if self.transpose { (sc, sr) } else { (sr, sc) };
                cells[r * 9 + c] = self.digits[g.cells()[sr * 9 + sc] as usize];
            }
        }
        Grid::from_cells(cells)
    }
}

#[test]
fn every_answer_is_a_valid_grid_that_keeps_the_givens() {
    let mut rng = Rng(0x5eed_0001);
    let mut puzzles = sample_puzzles();
    for _ in 0..200 {
        let solution = random_solution(&mut rng);
        let mut cells = *solution.cells();
        let blanks = 30 + rng.below(50);
        for _ in 0..blanks {
            cells[rng.below(81)] = 0;
        }
        puzzles.push(Grid::from_cells(cells));
    }
    for p in &puzzles {
        match solve(p) {
            Solution::Unique(s) | Solution::Multiple(s) => {
                assert!(p.is_solved_by(&s), "{} -> {}", p.to_line(), s.to_line())
            }
            Solution::Unsolvable => assert_eq!(count_solutions(p, 1), 0, "{}", p.to_line()),
            Solution::Invalid(_) => assert!(!p.conflicts().is_empty(), "{}", p.to_line()),
        }
    }
}

#[test]
fn relabelling_and_permuting_commute_with_solving() {
    let mut rng = Rng(0x5eed_0002);
    for p in sample_puzzles() {
        for _ in 0..3 {
            let sym = Symmetry::random(&mut rng);
            let q = sym.apply(&p);
            match (solve(&p), solve(&q)) {
                (Solution::Unique(a), Solution::Unique(b)) => {
                    assert_eq!(sym.apply(&a), b, "{}", p.to_line())
                }
                (Solution::Multiple(_), Solution::Multiple(b)) => {
                    assert!(q.is_solved_by(&b));
                    assert_eq!(
                        count_solutions(&p, 1000),
                        count_solutions(&q, 1000),
                        "{}",
                        p.to_line()
                    );
                }
                (Solution::Unsolvable, Solution::Unsolvable) => {}
                (a, b) => panic!("{}: {a:?} but transformed {b:?}", p.to_line()),
            }
        }
    }
}

/// Counts the completions of `g` by plain backtracking over its empty cells in order,
/// trying 1-9 in each, up to `limit`.
fn brute_force_count(g: &Grid, limit: usize) -> usize {
    fn fits(cells: &[u8; 81], i: usize, d: u8) -> bool {
        let (r, c) = (i / 9, i % 9);
        let houses = [
            House::Row(r),
            House::Column(c),
            House::Box(r / 3 * 3 + c / 3),
        ];
        houses
            .iter()
            .all(|&h| house_cells(h).iter().all(|&j| j == i || cells[j] != d))
    }
    fn go(cells: &mut [u8; 81], empty: &[usize], limit: usize) -> usize {
        let Some((&i, rest)) = empty.split_first() else {
            return 1;
        };
        let mut n = 0;
        for d in 1..=9 {
            if fits(cells, i, d) {
                cells[i] = d;
                n += go(cells, rest, limit - n);
                cells[i] = 0;
                if n >= limit {
                    break;
                }
            }
        }
        n
    }
    if !g.conflicts().is_empty() {
        return 0;
    }
    let mut cells = *g.cells();
    let empty: Vec<usize> = (0..81).filter(|&i| cells[i] == 0).collect();
    go(&mut cells, &empty, limit)
}

#[test]
fn count_solutions_agrees_with_brute_force_on_small_random_grids() {
    let mut rng = Rng(0x5eed_0003);
    let (mut zero, mut one, mut many) = (0, 0, 0);
    for _ in 0..300 {
        let solution = random_solution(&mut rng);
        let mut cells = *solution.cells();
        // 8-47 cells emptied (fewer distinct), and sometimes a given changed (often no
        // solution then).
        for _ in 0..8 + rng.below(40) {
            cells[rng.below(81)] = 0;
        }
        if rng.below(3) == 0 {
            let i = rng.below(81);
            if cells[i] != 0 {
                cells[i] = 1 + rng.below(9) as u8;
            }
        }
        let g = Grid::from_cells(cells);
        let expected = brute_force_count(&g, 50);
        assert_eq!(count_solutions(&g, 50), expected, "{}", g.to_line());
        match expected {
            0 => zero += 1,
            1 => one += 1,
            _ => many += 1,
        }
    }
    // The draw covers all three outcomes.
    assert!(zero > 10 && one > 10 && many > 10, "{zero} {one} {many}");
}

#[test]
fn invalid_reasons_name_the_real_clashes() {
    let mut rng = Rng(0x5eed_0004);
    let mut invalid = 0;
    for _ in 0..500 {
        let mut cells = [0u8; 81];
        for _ in 0..4 + rng.below(20) {
            cells[rng.below(81)] = 1 + rng.below(9) as u8;
        }
        let g = Grid::from_cells(cells);
        // Every pair of equal digits sharing a house, by brute force.
        let mut clashes = Vec::new();
        for h in (0..9).flat_map(|k| [House::Row(k), House::Column(k), House::Box(k)]) {
            let members = house_cells(h);
            for (a, &i) in members.iter().enumerate() {
                for &j in &members[a + 1..] {
                    if cells[i] != 0 && cells[i] == cells[j] {
                        clashes.push((h, cells[i], i, j));
                    }
                }
            }
        }
        let line = answer(&g.to_line());
        if clashes.is_empty() {
            assert!(!matches!(line, Answer::Invalid(_)), "{}", g.to_line());
            continue;
        }
        invalid += 1;
        let Solution::Invalid(conflicts) = solve(&g) else {
            panic!("{} clashes but is not invalid", g.to_line());
        };
        let Answer::Invalid(reason) = line else {
            panic!("{} clashes but the answer is {line}", g.to_line());
        };
        // Each reported clash is real, and is named in the reason...
        for c in &conflicts {
            let [i, j] = c.cells;
            assert!(clashes.iter().any(|&(h, d, a, b)| h == c.house
                && d == c.digit
                && (a, b) == (i.min(j), i.max(j))));
            assert!(reason.contains(&c.to_string()), "{reason}");
        }
        // ...and every clashing cell, in every house it clashes in, is reported.
        for &(h, d, a, b) in &clashes {
            assert!(
                conflicts.iter().any(|c| c.house == h
                    && c.digit == d
                    && (c.cells.contains(&a) || c.cells.contains(&b))),
                "{}: {h:?} {d} not named in {reason}",
                g.to_line()
            );
        }
    }
    assert!(invalid > 50);
}
