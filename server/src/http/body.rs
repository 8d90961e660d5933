//! Request bodies: the cap on a body's size and the time to send it (checked before any
//! handler runs), and a body read as a JSON object with errors in the field's own words.

use super::{err, HttpError, MAX_BODY, READ_TIMEOUT};
use axum::extract::rejection::JsonRejection;
use axum::http::header;
use axum::response::Response;
use axum::Json;
use serde::Deserialize;

/// Read `body` to its end and drop it, for at most [`READ_TIMEOUT`].
async fn drain(body: axum::body::Body) {
    use http_body_util::BodyExt;
    let mut body = body;
    let _ = tokio::time::timeout(READ_TIMEOUT, async {
        while let Some(Ok(_)) = body.frame().await {}
    })
    .await;
}

/// 413 for a request whose declared `Content-Length` is over [`MAX_BODY`], without handing
/// it on (its body read and dropped first up to [`super::DRAIN_MAX`], so that a client
/// uploading it all before reading gets the answer; at once for a larger one); else the
/// whole body read within [`READ_TIMEOUT`] in all (408 if not: a client trickling a byte
/// every few seconds is not held for ever, as `RequestBodyTimeoutLayer`'s timer starts again
/// at each piece), and handed on. A body sent with a `Content-Encoding` (gzip, ...) is a 415.
pub(crate) async fn declared_body_cap(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if let Some(n) = declared.filter(|&n| n > MAX_BODY as u64) {
        // A client that sends its whole body before it reads (Python's urllib, curl without
        // `Expect`) would see a broken pipe, not the 413, when the connection closes under
        // its upload: a body of a sane size is read and dropped first.
        if n <= super::DRAIN_MAX {
            drain(req.into_body()).await;
        }
        return err(HttpError::new(
            413,
            format!("a request body of {n} bytes is over the cap of {MAX_BODY} bytes"),
        ));
    }
    if let Some(refused) = content_coding(&req) {
        return refused;
    }
    let (parts, body) = req.into_parts();
    let read = tokio::time::timeout(READ_TIMEOUT, axum::body::to_bytes(body, MAX_BODY)).await;
    let refused = |status: u16, message: String| err(HttpError::new(status, message));
    match read {
        Ok(Ok(bytes)) => {
            let req = axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes));
            next.run(req).await
        }
        Ok(Err(e)) if has_cause::<tower_http::timeout::TimeoutError>(&e) => refused(
            408,
            format!(
                "bad request body: the body stalled (timeout after {} s)",
                READ_TIMEOUT.as_secs()
            ),
        ),
        Ok(Err(e)) if has_cause::<http_body_util::LengthLimitError>(&e) => refused(
            413,
            format!("bad request body: over the cap of {MAX_BODY} bytes"),
        ),
        Ok(Err(e)) => refused(400, format!("bad request body: {e}")),
        Err(_) => refused(
            408,
            format!(
                "bad request body: not all sent within {} s (timeout)",
                READ_TIMEOUT.as_secs()
            ),
        ),
    }
}

/// The 415 of a body sent with a content coding (a compressed body would be read as JSON
/// text and refused for its bytes): no content coding is taken.
fn content_coding(req: &axum::extract::Request) -> Option<Response> {
    let coding = req.headers().get(header::CONTENT_ENCODING).map(|v| {
        String::from_utf8_lossy(v.as_bytes())
            .trim()
            .to_ascii_lowercase()
    });
    let c = coding.filter(|c| !c.is_empty() && c != "identity")?;
    Some(err(HttpError::new(
        415,
        fcauto_deals::text::short_echoes(&format!(
            "Content-Encoding `{c}` is not taken: send the JSON body uncompressed"
        )),
    )))
}

/// True when an error of type `E` is somewhere in `e`'s chain of causes.
fn has_cause<E: std::error::Error + 'static>(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(e);
    while let Some(c) = cause {
        if c.is::<E>() {
            return true;
        }
        cause = c.source();
    }
    false
}

/// A request body as axum hands it over: a JSON object read as `T`, or why not.
pub(super) type Body<T> = Result<Json<Object<T>>, JsonRejection>;

/// `T` read from a JSON object only. Serde's derived structs also read a JSON array as
/// their fields in order (`[1]` would be `{"deal": 1}`); every body is an object, so any
/// other JSON value is refused ("expected a JSON object").
pub(super) struct Object<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Fields<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Fields<T> {
            type Value = T;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
            }
        }
        d.deserialize_map(Fields(std::marker::PhantomData))
            .map(Object)
    }
}

/// The JSON body, or a 400/408/413/415 error that says what is wrong with it (408: the
/// client stopped sending it for [`READ_TIMEOUT`]).
pub(super) fn body<T>(b: Body<T>) -> Result<T, HttpError> {
    b.map(|Json(Object(t))| t).map_err(|r| {
        let status = match r.status().as_u16() {
            _ if stalled(&r) => 408,
            413 => 413,
            415 => 415,
            _ => 400,
        };
        HttpError::new(status, format!("bad request body: {}", body_problem(&r)))
    })
}

/// What is wrong with a body, in the field's own words where serde gives them: a value
/// refused (`deal: deal number -5 is out of range…`) without axum's preamble ("Failed to
/// deserialize the JSON body into the target type") and serde's line and column, so that a
/// value is refused in one wording whichever way it came; the rest as axum says.
fn body_problem(r: &JsonRejection) -> String {
    let text = r.body_text();
    if !matches!(r, JsonRejection::JsonDataError(_)) {
        return text;
    }
    let text = text
        .strip_prefix("Failed to deserialize the JSON body into the target type: ")
        .unwrap_or(&text);
    match text.rfind(" at line ") {
        Some(i) if text[i..].contains(" column ") => text[..i].to_string(),
        _ => text.to_string(),
    }
}

/// True when reading the body failed because it stalled: the body timeout
/// (`RequestBodyTimeoutLayer`) is somewhere in the rejection's chain of causes.
fn stalled(r: &JsonRejection) -> bool {
    has_cause::<tower_http::timeout::TimeoutError>(r)
}

/// A boolean, null read as false.
pub(super) fn false_if_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(Option::<bool>::deserialize(d)?.unwrap_or(false))
}
