//! Floating-point figures as the JSON outputs (and `bench --plot-data`'s CSV) write them: rounded to 12 significant digits,
//! so that the noise of binary arithmetic (`0.19476000000000002` for 194.76 µs in
//! milliseconds) stays out of the files, while every digit a measurement carries (at most
//! 9: nanoseconds of a second-long time) stays in.

use serde::Serializer;

/// `x` rounded to 12 significant digits; zero, infinities and NaN unchanged.
pub fn tidy(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    format!("{x:.11e}").parse().unwrap_or(x)
}

/// For `#[serde(serialize_with = "tidy::f64")]`: the field written as [`tidy`] rounds it.
///
/// Errors: the serializer's.
pub fn f64<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(tidy(*x))
}

/// For `#[serde(serialize_with = "tidy::opt")]`: as [`fn@f64`], `None` written as null.
///
/// Errors: the serializer's.
pub fn opt<S: Serializer>(x: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match x {
        Some(v) => s.serialize_some(&tidy(*v)),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Noise goes, measured digits stay, and the written JSON is the short form.
    #[test]
    fn rounds_noise_away_and_keeps_digits() {
        assert_eq!(tidy(0.19476000000000002), 0.19476);
        assert_eq!(tidy(0.21640213999999994), 0.21640214);
        assert_eq!(tidy(2426.8067794885906), 2426.80677949);
        assert_eq!(tidy(133.804512345), 133.804512345);
        assert_eq!(tidy(1e-9), 1e-9);
        assert_eq!(tidy(0.0), 0.0);
        assert!(tidy(f64::NAN).is_nan());
        #[derive(serde::Serialize)]
        struct T {
            #[serde(serialize_with = "f64")]
            a: f64,
            #[serde(serialize_with = "opt")]
            b: Option<f64>,
            #[serde(serialize_with = "opt")]
            c: Option<f64>,
        }
        let t = T {
            a: 0.1 + 0.2,
            b: Some(0.13499999999999998),
            c: None,
        };
        assert_eq!(
            serde_json::to_string(&t).unwrap(),
            r#"{"a":0.3,"b":0.135,"c":null}"#
        );
    }
}
