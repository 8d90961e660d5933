//! `fcauto_deals::Board::parse` must never panic on any text.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = fcauto_deals::Board::parse(text);
    }
});
