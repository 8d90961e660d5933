//! The game a batch database keeps: read from its `meta` ([`read_variant`]; a database made
//! before the FreeCell family has none and reads as standard FreeCell), and said in words
//! for the messages that refuse a run of another game ([`game_words`], [`game_options`]).

use super::check;
use super::schema::{META_FREECELLS, META_GAME, META_NUMBERING};
use crate::bench::variant::Variant;
use anyhow::Result;
use rusqlite::Connection;
use std::path::Path;

/// The game a database's `meta` names: `game`, `freecells` and `numbering`, each absent in
/// a database made before the FreeCell family (standard FreeCell, Microsoft's deals).
pub fn read_variant(conn: &Connection, path: &Path) -> Result<Variant> {
    let name = path.display();
    let damaged =
        |why: String| anyhow::anyhow!("{name}: {why}: the database was edited or damaged");
    let get = |k: &str| check::meta_text(conn, k).map_err(damaged);
    let game = match get(META_GAME)? {
        None => fcauto_deals::Game::freecell(),
        Some(g) => fcauto_deals::Game::find(&g).map_err(|_| {
            anyhow::anyhow!(
                "{name} holds results of the game `{}`, which this fcauto does not know",
                fcauto_deals::text::short_echoes(&g)
            )
        })?,
    };
    let freecells = match get(META_FREECELLS)? {
        None => None,
        Some(n) => Some(
            n.parse::<u8>()
                .ok()
                .filter(|&n| n as usize <= fcauto_deals::game::MAX_FREECELLS)
                .ok_or_else(|| {
                    damaged(fcauto_deals::text::short_echoes(&format!(
                        "its meta `{META_FREECELLS}` is `{n}`, not 0..=8"
                    )))
                })?,
        ),
    };
    let pysol = match get(META_NUMBERING)?.as_deref() {
        None | Some("microsoft") => false,
        Some("pysolfc") => true,
        Some(other) => {
            return Err(damaged(fcauto_deals::text::short_echoes(&format!(
                "its meta `{META_NUMBERING}` is `{other}`, not microsoft or pysolfc"
            ))))
        }
    };
    Ok(Variant::new(game, freecells, pysol))
}

/// The game of a database in words: `standard FreeCell (Microsoft's deals)`,
/// `seahaven_towers (PySolFC's deals)`, `freecell with 2 freecells (Microsoft's deals)`.
pub fn game_words(v: &Variant) -> String {
    let deals = match v.pysol_numbers {
        true => "PySolFC's deals",
        false => "Microsoft's deals",
    };
    match v.is_standard() {
        true => format!("standard FreeCell ({deals})"),
        false => format!("{} ({deals})", v.title()),
    }
}

/// The options of `batch run` that play `v`: `--game G [--freecells N]`, `--freecells N`,
/// `--game G [--freecells N] with a range msA..msB` for Microsoft's deals of a named game
/// (PySolFC's `msN`), or `no --game and no --freecells` for standard FreeCell.
pub fn game_options(v: &Variant) -> String {
    if v.is_microsoft_freecell() {
        return "no --game and no --freecells".to_string();
    }
    let named = v.pysol_numbers || v.game.name != fcauto_deals::Game::freecell().name;
    let mut words = Vec::new();
    if named {
        words.push(format!("--game {}", v.game.name));
    }
    if v.rules.freecells != v.game.rules.freecells || !named {
        words.push(format!("--freecells {}", v.rules.freecells));
    }
    if named && !v.pysol_numbers {
        words.push("with a range msA..msB".to_string());
    }
    words.join(" ")
}

/// A range (`option`: `--range`, `--expect-range`) that names Microsoft's deals from 32000 on
/// (written `msA..msB`, or mixing `msN` with a plain number from 32000 on) for a database of
/// PySolFC's numbers `v` (`holder` names it: `b.sqlite holds`, `the databases hold`), whose
/// deals from 32000 on are the Mersenne Twister's: the usage problem, in words. Below 32000
/// the two numberings deal the same deals, and a plain range names the database's own.
pub fn ms_range_problem(
    option: &str,
    range: &fcauto_deals::DealRange,
    v: &Variant,
    holder: &str,
) -> Option<String> {
    let microsoft = range.microsoft_with_game().unwrap_or(true);
    (microsoft && v.pysol_numbers && range.last >= 32000).then(|| {
        format!(
            "{option} {range} names Microsoft's deals, and {holder} {}, whose deals from 32000 \
             on are Mersenne Twister deals: write the range without `ms`",
            game_words(v)
        )
    })
}
