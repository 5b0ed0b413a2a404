//! The static client: its pages, scripts and styles, cached by browsers
//! for as long as they are right and not one request longer.
//!
//! The client has no build step, so the cache-busting is done here, at
//! start: the server hashes every file of the web folder into a version,
//! and serves each page (`index.html`, `room.html`, …) with its
//! `src="/js/…"` and `href="/css/…"` turned into `/v/VERSION/js/…` and
//! `/v/VERSION/css/…`. The modules import one another by relative paths,
//! so every module a page loads comes from under the same `/v/VERSION/`
//! prefix. Files under the current version are cached for a year as
//! `immutable`; a new version of any file is a new version of all, under
//! new URLs. The pages themselves are `no-cache` (asked again each time,
//! answered `304` when the version has not changed), and so is any other
//! file (the favicon, the manifest, or a script asked for without the
//! prefix, or under another version, as a page from before a restart
//! does).
//!
//! The web folder is read once at start: restart the server after
//! changing the client.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use tower::ServiceExt;
use tower_http::services::ServeDir;

/// `Cache-Control` of a versioned file of the current version.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// `Cache-Control` of a page and of any unversioned file.
pub const REVALIDATE: &str = "no-cache";

/// The pages and the version of the client, read at start.
pub struct Pages {
    dir: PathBuf,
    version: String,
    etag: HeaderValue,
    /// Each `*.html` of the web folder, with its script and style URLs
    /// versioned, by file name.
    html: HashMap<String, Arc<str>>,
}

impl Pages {
    /// Reads and hashes the web folder. A missing or unreadable folder
    /// gives an empty client (every page answers 404) rather than a
    /// server that does not start, as before.
    pub fn load(dir: &Path) -> Pages {
        let mut files = Vec::new();
        collect(dir, dir, &mut files);
        files.sort();
        let mut hash = Sha256::new();
        let mut html = HashMap::new();
        for rel in &files {
            let Ok(bytes) = std::fs::read(dir.join(rel)) else {
                continue;
            };
            hash.update(rel.as_bytes());
            hash.update((bytes.len() as u64).to_le_bytes());
            hash.update(&bytes);
            if !rel.contains('/') && rel.ends_with(".html") {
                html.insert(rel.clone(), String::from_utf8_lossy(&bytes).into_owned());
            }
        }
        let digest = hash.finalize();
        let version: String = digest.iter().take(6).map(|b| format!("{b:02x}")).collect();
        let html = html
            .into_iter()
            .map(|(name, text)| (name, versioned(&text, &version).into()))
            .collect();
        let etag = HeaderValue::from_str(&format!("\"{version}\"")).expect("hex is a valid header");
        tracing::info!(%version, files = files.len(), "client loaded");
        Pages {
            dir: dir.to_path_buf(),
            version,
            etag,
            html,
        }
    }

    /// The version of the client: the prefix of its script and style URLs.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// Page `name` (`room.html`), or `304` when the browser's copy is of
    /// this version.
    pub fn page(&self, name: &str, req: &Request) -> Response {
        let Some(text) = self.html.get(name) else {
            return StatusCode::NOT_FOUND.into_response();
        };
        let fresh = req
            .headers()
            .get(header::IF_NONE_MATCH)
            .is_some_and(|tag| tag.as_bytes() == self.etag.as_bytes());
        let cache = [
            (header::CACHE_CONTROL, HeaderValue::from_static(REVALIDATE)),
            (header::ETAG, self.etag.clone()),
        ];
        if fresh {
            return (StatusCode::NOT_MODIFIED, cache).into_response();
        }
        (
            cache,
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            text.to_string(),
        )
            .into_response()
    }

    /// `/v/VERSION/PATH`: file PATH of the web folder, cached for a year
    /// when VERSION is this one.
    pub async fn asset(&self, version: &str, req: Request) -> Response {
        let (mut parts, body) = req.into_parts();
        let prefix = format!("/v/{version}");
        let rest = parts
            .uri
            .path_and_query()
            .map(|pq| pq.as_str())
            .unwrap_or("/")
            .strip_prefix(&prefix)
            .unwrap_or("/");
        let Ok(uri) = rest.parse::<Uri>() else {
            return StatusCode::NOT_FOUND.into_response();
        };
        parts.uri = uri;
        let current = version == self.version;
        let mut res = self.serve(Request::from_parts(parts, body)).await;
        if res.status().is_success() || res.status() == StatusCode::NOT_MODIFIED {
            let cache = if current { IMMUTABLE } else { REVALIDATE };
            res.headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
        }
        res
    }

    /// Any other file of the web folder, revalidated on every use.
    pub async fn file(&self, req: Request) -> Response {
        let mut res = self.serve(req).await;
        res.headers_mut()
            .entry(header::CACHE_CONTROL)
            .or_insert(HeaderValue::from_static(REVALIDATE));
        res
    }

    async fn serve(&self, req: Request) -> Response {
        match ServeDir::new(&self.dir).oneshot(req).await {
            Ok(res) => res.map(Body::new),
            Err(never) => match never {},
        }
    }
}

/// `text` with its `src="/js/…"` and `href="/css/…"` under `/v/VERSION/`.
fn versioned(text: &str, version: &str) -> String {
    text.replace("src=\"/js/", &format!("src=\"/v/{version}/js/"))
        .replace("href=\"/css/", &format!("href=\"/v/{version}/css/"))
}

/// Every file under `dir`, as paths relative to `root` with `/`.
fn collect(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        match entry.file_type() {
            Ok(t) if t.is_dir() => collect(root, &path, out),
            Ok(t) if t.is_file() => {
                if let Ok(rel) = path.strip_prefix(root) {
                    let rel = rel.to_string_lossy().replace('\\', "/");
                    out.push(rel);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_and_styles_are_versioned_and_nothing_else() {
        let page = r#"<link rel="icon" href="/favicon.svg"><link rel="stylesheet" href="/css/site.css"><script type="module" src="/js/room.js"></script><a href="/games">"#;
        assert_eq!(
            versioned(page, "abc123"),
            r#"<link rel="icon" href="/favicon.svg"><link rel="stylesheet" href="/v/abc123/css/site.css"><script type="module" src="/v/abc123/js/room.js"></script><a href="/games">"#
        );
    }

    #[test]
    fn a_changed_file_changes_the_version() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("js")).unwrap();
        std::fs::write(dir.path().join("index.html"), "<script src=\"/js/a.js\">").unwrap();
        std::fs::write(dir.path().join("js/a.js"), "1").unwrap();
        let before = Pages::load(dir.path());
        assert_eq!(before.version().len(), 12);
        assert_eq!(Pages::load(dir.path()).version(), before.version());
        std::fs::write(dir.path().join("js/a.js"), "2").unwrap();
        let after = Pages::load(dir.path());
        assert_ne!(after.version(), before.version());
        assert_eq!(
            &*after.html["index.html"],
            format!("<script src=\"/v/{}/js/a.js\">", after.version())
        );
    }
}
