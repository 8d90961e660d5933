//! options.cfg parser: never panics; what parses survives a write/re-parse round trip.
#![no_main]
use fcauto_automation::pysol::options::OptionsFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(o) = OptionsFile::parse(text) {
            let _ = o.summary();
            let _ = o.replay_problems();
            let again = OptionsFile::parse(&o.to_text()).expect("re-parse of our own output");
            assert_eq!(again.summary(), o.summary());
        }
    }
});
