//! What a batch results database holds, as `fcauto batch report` shows it: the figures
//! gathered in one pass over the rows ([`gather`]; memory grows with the distinct values,
//! not the rows) into a [`Report`], and its text ([`text`]).

use super::schema::Settings;
use super::store::Store;
pub use super::verify::Verification;
use crate::bench::distribution::{ms_key, Counted};
use crate::bench::variant::Variant;
pub use crate::bench::Distribution;
use anyhow::Result;
use fcauto_deals::{plural, IMPOSSIBLE_DEALS};
use serde::Serialize;
use std::collections::BTreeSet;

/// Everything `report` prints.
#[derive(Serialize, Debug)]
pub struct Report {
    /// The file.
    pub db: String,
    /// Search mode of every row.
    pub mode: String,
    /// Rules of every row (`freecell`, or the family game's label).
    pub rules: String,
    /// The game (`game`, `pysol_id`, `numbering`) and its rules (`rules` above is the
    /// stored label; the table of rules is `game_rules`).
    pub game: &'static str,
    /// PySolFC's id of the game.
    pub pysol_id: u32,
    /// `microsoft` or `pysolfc`: whose deal numbers the rows are.
    pub numbering: &'static str,
    /// The game's rules: cascades, freecells, build order, what fills an empty cascade, the
    /// sequence move.
    pub game_rules: crate::bench::variant::RulesJson,
    /// How many rows got each verdict.
    pub verdicts: crate::bench::Verdicts,
    /// Positions budget per deal.
    pub max_states: u64,
    /// Rows stored.
    pub rows: u64,
    /// Lowest and highest deal stored (null when empty).
    pub deals: Option<(u64, u64)>,
    /// Deals missing between the lowest and the highest.
    pub gaps: u64,
    /// Rows per verdict.
    pub solved: u64,
    /// Deals proved unsolvable by a complete search.
    pub unsolvable: Vec<u64>,
    /// Deals a limit stopped.
    pub unknown: Vec<u64>,
    /// Freecell Pro's eight impossible deals of 1..1,000,000 that are stored, and whether
    /// every stored deal up to 1,000,000 is unsolvable exactly when it is one of them
    /// (standard FreeCell; for the other games of the family, every list is empty).
    pub known_impossible_check: KnownCheck,
    /// Moves per solution (supermove = 1), solved deals.
    pub moves_total: Option<Distribution>,
    /// Single-card moves per solution, solved deals.
    pub single_card_moves: Option<Distribution>,
    /// Positions expanded per deal, all deals.
    pub positions: Option<Distribution>,
    /// CPU milliseconds per deal, all deals.
    pub cpu_ms: Option<Distribution>,
    /// fcauto versions that wrote rows.
    pub versions: Vec<String>,
    /// Rows per moves_total value: (moves, deals), ascending.
    pub moves_total_histogram: Vec<(u64, u64)>,
    /// Rows per single_card_moves value: (moves, deals), ascending.
    pub single_card_moves_histogram: Vec<(u64, u64)>,
    /// Rows per CPU time rounded to 3 significant digits: (ms, deals), ascending (for the
    /// plot; not in the JSON).
    #[serde(skip)]
    pub cpu_ms_counts: Vec<(f64, u64)>,
    /// With `--verify`: every solved row replayed by the validator; null without.
    pub verification: Option<Verification>,
}

/// The check against Freecell Pro's list of impossible deals.
#[derive(Serialize, Debug, Default)]
pub struct KnownCheck {
    /// Known impossible deals present in the database.
    pub known_stored: Vec<u64>,
    /// Stored deals up to 1,000,000 reported unsolvable but not known impossible.
    pub unexpected_unsolvable: Vec<u64>,
    /// Known impossible deals stored with another verdict.
    pub known_not_unsolvable: Vec<u64>,
}

impl Report {
    /// When a row says "unsolvable" of a Microsoft deal up to 1,000,000 other than the eight
    /// impossible ones: the sentence naming them (`batch report --verify` fails on it, as
    /// `batch run` does).
    pub fn false_unsolvable_note(&self) -> Option<String> {
        let deals = &self.known_impossible_check.unexpected_unsolvable;
        (!deals.is_empty())
            .then(|| format!("deals stored as unsolvable but known solvable: {deals:?}"))
    }
}

/// Collect the figures in one pass over the rows. Memory is bounded by the number of
/// distinct values, not of rows: lengths and positions are counted per value, CPU times per
/// value rounded to 3 significant digits (so CPU percentiles are exact to that precision).
pub fn gather(store: &Store) -> Result<Report> {
    let c = store.conn();
    let Settings {
        mode,
        rules,
        max_states,
        variant,
    } = store.settings().clone();
    let game = variant.json();
    let mut t = Tallies::default();
    let mut st = c.prepare(
        "SELECT deal, verdict, moves_total, single_card_moves, positions, cpu_ms, version FROM results ORDER BY deal",
    )?;
    let mut rows = st.query([])?;
    while let Some(r) = rows.next()? {
        t.add(
            r.get::<_, i64>(0)? as u64,
            &r.get::<_, String>(1)?,
            r.get::<_, Option<i64>>(2)?,
            r.get::<_, Option<i64>>(3)?,
            r.get::<_, i64>(4)? as u64,
            r.get::<_, f64>(5)?,
            r.get::<_, String>(6)?,
        );
    }
    let deals = t.first.zip(t.last);
    Ok(Report {
        db: store.path().display().to_string(),
        mode,
        rules,
        game: game.game,
        pysol_id: game.pysol_id,
        numbering: game.numbering,
        game_rules: game.rules,
        verdicts: crate::bench::Verdicts {
            solved: t.solved as usize,
            impossible: t.unsolvable.len(),
            unknown: t.unknown.len(),
        },
        max_states,
        rows: t.rows,
        deals,
        gaps: deals.map_or(0, |(l, h)| (h - l + 1).saturating_sub(t.rows)),
        solved: t.solved,
        known_impossible_check: match variant.is_standard() {
            true => known_check(&variant, &t.unsolvable, &t.known_verdicts),
            false => KnownCheck::default(),
        },
        unsolvable: t.unsolvable,
        unknown: t.unknown,
        moves_total: t.moves_total.distribution(1.0),
        single_card_moves: t.single_card_moves.distribution(1.0),
        positions: t.positions.distribution(1.0),
        cpu_ms: t.cpu_ns.distribution(1e-6),
        versions: t.versions.into_iter().collect(),
        moves_total_histogram: t.moves_total.counts().collect(),
        single_card_moves_histogram: t.single_card_moves.counts().collect(),
        cpu_ms_counts: t
            .cpu_ns
            .counts()
            .map(|(k, n)| (k as f64 * 1e-6, n))
            .collect(),
        verification: None,
    })
}

/// Running totals of one pass over the rows.
#[derive(Default)]
struct Tallies {
    rows: u64,
    first: Option<u64>,
    last: Option<u64>,
    solved: u64,
    unsolvable: Vec<u64>,
    unknown: Vec<u64>,
    known_verdicts: Vec<(u64, String)>,
    moves_total: Counted,
    single_card_moves: Counted,
    positions: Counted,
    cpu_ns: Counted,
    versions: BTreeSet<String>,
}

impl Tallies {
    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        deal: u64,
        verdict: &str,
        moves_total: Option<i64>,
        single: Option<i64>,
        positions: u64,
        cpu_ms: f64,
        version: String,
    ) {
        self.rows += 1;
        self.first.get_or_insert(deal);
        self.last = Some(deal);
        match verdict {
            "solved" => self.solved += 1,
            "unsolvable" => self.unsolvable.push(deal),
            _ => self.unknown.push(deal),
        }
        if IMPOSSIBLE_DEALS.contains(&deal) {
            self.known_verdicts.push((deal, verdict.to_string()));
        }
        if let Some(m) = moves_total {
            self.moves_total.add(m as u64, m as f64);
        }
        if let Some(m) = single {
            self.single_card_moves.add(m as u64, m as f64);
        }
        self.positions.add(positions, positions as f64);
        self.cpu_ns.add(ms_key(cpu_ms), cpu_ms);
        if !self.versions.contains(&version) {
            self.versions.insert(version);
        }
    }
}

/// Compare the stored deals up to 1,000,000 that are Microsoft's deals
/// ([`Variant::is_microsoft_deal`]) with Freecell Pro's list of impossible deals.
fn known_check(
    variant: &Variant,
    unsolvable: &[u64],
    known_verdicts: &[(u64, String)],
) -> KnownCheck {
    let microsoft = |d: &u64| variant.is_microsoft_deal(*d);
    let known: Vec<&(u64, String)> = known_verdicts
        .iter()
        .filter(|(d, _)| microsoft(d))
        .collect();
    KnownCheck {
        known_stored: known.iter().map(|(d, _)| *d).collect(),
        unexpected_unsolvable: variant.false_unsolvable(unsolvable),
        known_not_unsolvable: known
            .iter()
            .filter(|(_, v)| v != "unsolvable")
            .map(|(d, _)| *d)
            .collect(),
    }
}

/// A list of deals, the first 20 written out, each after `prefix` (`ms` for Microsoft's
/// deals of a game other than FreeCell: [`crate::bench::variant::deal_prefix`]): `0`, or
/// `N [a, b, ... and k more]`.
pub fn deal_list(v: &[u64], prefix: &str) -> String {
    let shown: Vec<String> = v.iter().take(20).map(|n| format!("{prefix}{n}")).collect();
    let more = if v.len() > 20 {
        format!(" and {} more", v.len() - 20)
    } else {
        String::new()
    };
    if v.is_empty() {
        "0".into()
    } else {
        format!("{} [{}{more}]", v.len(), shown.join(", "))
    }
}

/// The report's first lines: the database, its mode and rules, its game when not standard
/// FreeCell, its rows.
fn header_lines(r: &Report) -> Vec<String> {
    let mut lines = Vec::new();
    lines.push(format!("fcauto batch report: {}", r.db));
    // Standard FreeCell's rules, in either numbering (the known impossible deals are checked
    // on Microsoft's deals only: `known_check`).
    let standard = r.game == fcauto_deals::Game::freecell().name && r.game_rules.freecells == 4;
    let rules = match standard {
        true => r.rules.clone(),
        false => format!("`{}`", r.rules),
    };
    lines.push(format!(
        "  mode {}, rules {rules}, max_states {}",
        r.mode, r.max_states
    ));
    if !standard {
        let g = &r.game_rules;
        lines.push(format!(
            "  game {} (PySolFC id {}, {} numbers): {} cascades, {}, build by {}, empty cascades take {}, {} sequence moves",
            r.game,
            r.pysol_id,
            r.numbering,
            g.cascades,
            plural(g.freecells, "freecell"),
            g.build.replace('_', " "),
            g.empty_cascade,
            g.sequence_move
        ));
    }
    let ms = prefix(r);
    match r.deals {
        Some((l, h)) => lines.push(format!(
            "  rows: {} (deals {ms}{l}..{ms}{h}, {} missing in between)",
            r.rows,
            plural(r.gaps, "deal")
        )),
        None => lines.push("  rows: 0".into()),
    }
    lines
}

/// How the report's deal numbers are written ([`crate::bench::variant::deal_prefix`]).
fn prefix(r: &Report) -> &'static str {
    crate::bench::variant::deal_prefix(r.game, r.numbering == "pysolfc")
}

/// The text report.
pub fn text(r: &Report) -> String {
    let mut out = String::new();
    let mut say = |s: String| {
        out.push_str(&s);
        out.push('\n');
    };
    for line in header_lines(r) {
        say(line);
    }
    // Standard FreeCell's rules, in either numbering (the known impossible deals are checked
    // on Microsoft's deals only: `known_check`).
    let standard = r.game == fcauto_deals::Game::freecell().name && r.game_rules.freecells == 4;
    // Validated when stored; with --verify's replay finding some invalid now, said so here.
    say(match &r.verification {
        Some(v) if v.invalid > 0 => format!(
            "  solved:               {} ({} INVALID when replayed now: below)",
            r.solved, v.invalid
        ),
        Some(_) => format!("  solved and validated: {}", r.solved),
        None => format!(
            "  solved:               {} (validated when stored; --verify replays them)",
            r.solved
        ),
    });
    say(format!(
        "  proved unsolvable:    {}",
        deal_list(&r.unsolvable, prefix(r))
    ));
    say(format!(
        "  unknown (limit):      {}",
        deal_list(&r.unknown, prefix(r))
    ));
    let k = &r.known_impossible_check;
    if standard {
        say(format!(
        "  known impossible (Freecell Pro, 1..1000000): {} stored, {} of them not proved here (a limit stopped the search), {} <= 1000000 unsolvable",
        k.known_stored.len(),
        k.known_not_unsolvable.len(),
        plural(k.unexpected_unsolvable.len(), "other deal")
    ));
    }
    // The mean of milliseconds to as many decimals as their percentiles (`num`), counts to 2.
    let d = |name: &str, x: &Option<Distribution>, unit: &str| match x {
        None => format!("  {name:<21} n/a"),
        Some(x) => format!(
            "  {name:<21} mean {:.*}, p50 {}, p90 {}, p99 {}, max {}{unit}",
            if unit.is_empty() { 2 } else { 3 },
            x.mean,
            num(x.p50),
            num(x.p90),
            num(x.p99),
            num(x.max)
        ),
    };
    say(d("moves_total:", &r.moves_total, ""));
    // Every game with single-card moves (the unlimited-sequence games have none).
    if standard || r.single_card_moves.is_some() {
        say(d("single_card_moves:", &r.single_card_moves, ""));
    }
    say(d("positions:", &r.positions, ""));
    say(d("CPU per deal:", &r.cpu_ms, " ms"));
    if let Some(c) = &r.cpu_ms {
        let hours = c.sum / 3.6e6;
        let hours = match hours >= 0.001 {
            true => format!(" ({hours:.3} CPU hours)"),
            false => String::new(),
        };
        say(format!(
            "  CPU in all:           {}{hours}",
            crate::bench::seconds_text(c.sum / 1000.0)
        ));
    }
    if !r.versions.is_empty() {
        say(format!("  written by fcauto {}", r.versions.join(", ")));
    }
    if let Some(v) = &r.verification {
        say(verification_text(v));
    }
    out
}

/// The `--verify` line: the solutions replayed, and the invalid ones (the first named).
fn verification_text(v: &Verification) -> String {
    let replayed = format!("  re-validated:         {}", plural(v.checked, "solution"));
    if v.invalid == 0 {
        return format!("{replayed}, every one valid");
    }
    let named: Vec<String> = v
        .first_invalid
        .iter()
        .map(|(d, why)| format!("    deal {d}: {why}"))
        .collect();
    let more = if v.invalid as usize > named.len() {
        format!("\n    ... and {} more", v.invalid as usize - named.len())
    } else {
        String::new()
    };
    format!(
        "{replayed}, {} INVALID:\n{}{more}",
        v.invalid,
        named.join("\n")
    )
}

/// A number without needless decimals.
fn num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else {
        format!("{x:.3}")
    }
}
