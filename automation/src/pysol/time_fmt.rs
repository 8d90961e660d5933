//! Epoch seconds to a UTC date string, without a date crate.

/// Format `secs` (seconds since 1970-01-01 UTC, as PySolFC's `time.time()`) as
/// `YYYY-MM-DD HH:MM:SS` UTC; `None` for NaN, infinities or years outside 1..=9999.
pub(crate) fn utc_string(secs: f64) -> Option<String> {
    if !secs.is_finite() || !(-62_135_596_800.0..253_402_300_800.0).contains(&secs) {
        return None;
    }
    let s = secs.floor() as i64;
    let days = s.div_euclid(86_400);
    let rem = s.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    Some(format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    ))
}

#[cfg(test)]
mod tests {
    use super::utc_string;

    #[test]
    fn known_dates() {
        assert_eq!(utc_string(0.0).unwrap(), "1970-01-01 00:00:00");
        assert_eq!(utc_string(951_782_400.0).unwrap(), "2000-02-29 00:00:00");
        assert_eq!(utc_string(1_795_990_386.7).unwrap(), "2026-11-29 22:13:06");
        assert_eq!(utc_string(-1.0).unwrap(), "1969-12-31 23:59:59");
        assert!(utc_string(f64::NAN).is_none());
        assert!(utc_string(1e300).is_none());
    }
}
