//! statistics.dat decoder: the guard plus the value builder must never panic, and anything
//! the guard accepts must decode within its limits.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = fcauto_automation::pysol::stats::parse(data);
});
