//! How the HTTP API says no: `{"error": code, "message": text}` with a
//! status, for every handler ([`json_error`]), a JSON body that could not
//! be read ([`ApiJson`], through [`body_error`]) and a room that could not
//! be reached ([`registry_error`]).

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use crate::room::RegistryError;

/// Largest HTTP request body we read (room creation is a few hundred
/// bytes); a larger one is answered `413 too_large`.
pub const MAX_BODY: usize = 16 * 1024;

/// `{"error": code, "message": text}` with `status`.
pub fn json_error(status: StatusCode, code: &str, message: impl Into<String>) -> Response {
    (
        status,
        Json(json!({"error": code, "message": message.into()})),
    )
        .into_response()
}

/// `413 too_large`: a body over [`MAX_BODY`] (announced or sent).
pub fn body_too_large() -> Response {
    json_error(
        StatusCode::PAYLOAD_TOO_LARGE,
        "too_large",
        format!("A request body can have at most {} KiB.", MAX_BODY / 1024),
    )
}

/// The answer to a JSON body that could not be read: `413 too_large` for
/// one over [`MAX_BODY`], `400 bad_message` for anything else.
fn body_error(e: JsonRejection) -> Response {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        body_too_large()
    } else {
        json_error(StatusCode::BAD_REQUEST, "bad_message", e.body_text())
    }
}

/// A handler's path parameters: axum's [`axum::extract::Path`], whose
/// refusal (a part that is not UTF-8 once decoded, a number that does not
/// read) is `400 bad_message` in the API's own shape, not axum's plain
/// text.
pub struct ApiPath<T>(pub T);

impl<T, S> axum::extract::FromRequestParts<S> for ApiPath<T>
where
    T: serde::de::DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = Response;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, Response> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(ApiPath(value)),
            Err(e) => Err(json_error(
                StatusCode::BAD_REQUEST,
                "bad_message",
                format!("The path does not read: {}", e.body_text()),
            )),
        }
    }
}

/// A handler's query string as keys and values (percent-decoded, a `+`
/// a space), each key at most once: a key given twice (`?page=1&page=2`)
/// is `400 bad_query` rather than one of its values picked in silence.
/// Never fails otherwise, as axum's `Query<HashMap<…>>` never did.
pub struct ApiQuery(pub std::collections::HashMap<String, String>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for ApiQuery {
    type Rejection = Response;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _state: &S,
    ) -> Result<Self, Response> {
        let query = parts.uri.query().unwrap_or_default();
        let mut params = std::collections::HashMap::new();
        for (key, value) in form_urlencoded::parse(query.as_bytes()) {
            if params.contains_key(key.as_ref()) {
                return Err(json_error(
                    StatusCode::BAD_REQUEST,
                    "bad_query",
                    format!("{key} is given more than once"),
                ));
            }
            params.insert(key.into_owned(), value.into_owned());
        }
        Ok(ApiQuery(params))
    }
}

/// A handler's JSON body: axum's [`Json`] extractor, whose refusals are
/// answered in the API's own shape ([`body_error`]) before the handler
/// runs. Every JSON endpoint takes its body through this one type, so a
/// bad body reads the same everywhere.
pub struct ApiJson<T>(pub T);

impl<T, S> FromRequest<S> for ApiJson<T>
where
    Json<T>: FromRequest<S, Rejection = JsonRejection>,
    S: Send + Sync,
{
    type Rejection = Response;

    async fn from_request(req: Request, state: &S) -> Result<Self, Response> {
        // Only an object is a body: serde reads a struct from an array
        // too (`[]` as a struct whose fields are all left out), which
        // would let `[]` pass for `{}`.
        let (parts, body) = req.into_parts();
        let bytes = match axum::body::to_bytes(body, MAX_BODY).await {
            Ok(bytes) => bytes,
            Err(e) => return Err(read_error(&e)),
        };
        if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
            // The content type is still checked first, as `Json` does.
            let req = Request::from_parts(parts, axum::body::Body::from(bytes));
            return Err(
                match Json::<serde_json::Value>::from_request(req, &()).await {
                    Err(e) => body_error(e),
                    Ok(_) => json_error(
                        StatusCode::BAD_REQUEST,
                        "bad_message",
                        "The body must be a JSON object.",
                    ),
                },
            );
        }
        let req = Request::from_parts(parts, axum::body::Body::from(bytes));
        match Json::<T>::from_request(req, state).await {
            Ok(Json(body)) => Ok(ApiJson(body)),
            Err(e) => Err(body_error(e)),
        }
    }
}

/// A body that could not be read whole: `413 too_large` past
/// [`MAX_BODY`], `400 bad_message` otherwise (it came too late, or the
/// connection broke).
pub fn read_error(e: &axum::Error) -> Response {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = source {
        if err.is::<http_body_util::LengthLimitError>() {
            return body_too_large();
        }
        source = err.source();
    }
    json_error(
        StatusCode::BAD_REQUEST,
        "bad_message",
        format!("The request body could not be read: {e}"),
    )
}

pub fn registry_error(e: RegistryError) -> Response {
    match e {
        RegistryError::NoRoom(_) => json_error(StatusCode::NOT_FOUND, "no_room", e.to_string()),
        RegistryError::Full => json_error(StatusCode::SERVICE_UNAVAILABLE, "full", e.to_string()),
        RegistryError::Moving => {
            json_error(StatusCode::SERVICE_UNAVAILABLE, "moving", e.to_string())
        }
        RegistryError::BadOptions(m) => json_error(StatusCode::BAD_REQUEST, "bad_options", m),
        RegistryError::SoloRoom(m) => json_error(StatusCode::BAD_REQUEST, "solo_room", m),
        RegistryError::Store(e) => {
            tracing::error!(error = %e, "database error");
            json_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                "Something went wrong on our side.",
            )
        }
    }
}

/// Any field of a JSON body whose `null` reads as its empty value (`""`,
/// `false`), as a field left out does (PROTOCOL.md, "HTTP"):
/// `#[serde(default, deserialize_with = "default_if_null")]`.
pub fn default_if_null<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de> + Default,
{
    Ok(<Option<T> as serde::Deserialize>::deserialize(d)?.unwrap_or_default())
}
