//! Held/saved game reader: the guard plus the value builder over a sequence of pickles, and
//! the FreeCell history replay, must never panic on any bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    use fcauto_automation::pysol::savedgame;
    if let Ok(g) = savedgame::parse(data, Path::new("fuzz"), false) {
        let _ = g.freecell_moves();
    }
});
