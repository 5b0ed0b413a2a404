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
//! The pages share their `<head>` and the pieces of their top bar:
//! written once in `partials/NAME.html`, each page names the ones it has
//! with a line `<!-- include: NAME … -->`, and the server puts them in
//! at start, with the indentation of that line. A page keeps what is
//! its own (its title, its script, its body) where a reader looks for it,
//! and a new link in the top bar is one edit, not nine. Only the pages'
//! markers pick partials, from that folder's files, and a page is only
//! ever served assembled: the partials themselves are not pages and
//! answer 404.
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
    /// Reads and hashes the web folder. A file that cannot be read is
    /// left out; a folder that is not the client's (missing, or without
    /// `index.html`) never gets here: the server refuses to start on it
    /// (`Config::checked_web_dir`), rather than serve a site whose every
    /// page is 404 while `/healthz` says all is well.
    pub fn load(dir: &Path) -> Pages {
        let mut files = Vec::new();
        collect(dir, dir, &mut files);
        files.sort();
        let mut hash = Sha256::new();
        let mut html = HashMap::new();
        let mut partials = HashMap::new();
        for rel in &files {
            let Ok(bytes) = std::fs::read(dir.join(rel)) else {
                continue;
            };
            hash.update(rel.as_bytes());
            hash.update((bytes.len() as u64).to_le_bytes());
            hash.update(&bytes);
            let text = || String::from_utf8_lossy(&bytes).into_owned();
            if let Some(name) = partial_name(rel) {
                partials.insert(name.to_string(), text());
            } else if !rel.contains('/') && rel.ends_with(".html") {
                html.insert(rel.clone(), text());
            }
        }
        let digest = hash.finalize();
        let version: String = digest.iter().take(6).map(|b| format!("{b:02x}")).collect();
        let html = html
            .into_iter()
            .map(|(name, text)| {
                let page = assembled(&text, &partials).unwrap_or_else(|missing| {
                    tracing::error!(page = %name, partial = %missing, "no such partial");
                    text
                });
                (name, versioned(&page, &version).into())
            })
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
        let fresh = none_match(req.headers(), self.etag.to_str().unwrap_or_default());
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
        // The path as sent must begin with the version as read: one sent
        // percent-encoded (`/v/%34f…/`) names no file.
        let Some(rest) = parts
            .uri
            .path_and_query()
            .and_then(|pq| pq.as_str().strip_prefix(&prefix))
        else {
            return StatusCode::NOT_FOUND.into_response();
        };
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

    /// File `req`'s path of the web folder; a page there is the
    /// assembled page, and a partial is no file of the site.
    async fn serve(&self, req: Request) -> Response {
        let path = req.uri().path().trim_start_matches('/');
        if self.html.contains_key(path) {
            return self.page(path, &req);
        }
        if path.starts_with(PARTIALS) {
            return StatusCode::NOT_FOUND.into_response();
        }
        // A folder is no file of the site: 404, never ServeDir's redirect
        // to its path with a `/` (`//js` → `Location: //js/`, another host).
        let files = ServeDir::new(&self.dir).append_index_html_on_directories(false);
        match files.oneshot(req).await {
            Ok(res) => res.map(Body::new),
            Err(never) => match never {},
        }
    }
}

/// The folder of the pieces pages share.
const PARTIALS: &str = "partials/";

/// `NAME` of `partials/NAME.html`.
fn partial_name(rel: &str) -> Option<&str> {
    rel.strip_prefix(PARTIALS)?
        .strip_suffix(".html")
        .filter(|name| !name.contains('/'))
}

/// `page` with each line `<!-- include: A B -->` replaced by partials
/// A and B, each of their lines at the marker's indentation; the name
/// of a partial that does not exist is the error.
fn assembled(page: &str, partials: &HashMap<String, String>) -> Result<String, String> {
    let mut out = String::with_capacity(page.len() * 2);
    for line in page.split_inclusive('\n') {
        let body = line.trim_start();
        let Some(names) = body
            .trim_end()
            .strip_prefix("<!-- include:")
            .and_then(|rest| rest.strip_suffix("-->"))
        else {
            out.push_str(line);
            continue;
        };
        let indent = &line[..line.len() - body.len()];
        for name in names.split_whitespace() {
            let partial = partials.get(name).ok_or_else(|| name.to_string())?;
            for piece in partial.lines() {
                if !piece.is_empty() {
                    out.push_str(indent);
                    out.push_str(piece);
                }
                out.push('\n');
            }
        }
    }
    Ok(out)
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

/// Whether a request's `If-None-Match` matches `etag` (a quoted tag), as
/// RFC 9110 §13.1.2 reads it: `*`, or a comma-separated list whose tags
/// are compared weakly (a `W/` prefix ignored). The same for every answer
/// that sends an `ETag` of its own (pages, the challenges list); the
/// static files' `ServeDir` does it for them.
pub fn none_match(headers: &axum::http::HeaderMap, etag: &str) -> bool {
    let Some(value) = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let value = value.trim();
    value == "*"
        || value.split(',').any(|tag| {
            let tag = tag.trim();
            tag.strip_prefix("W/").unwrap_or(tag) == etag
        })
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

    fn partials(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(name, text)| (name.to_string(), text.to_string()))
            .collect()
    }

    #[test]
    fn a_marker_line_becomes_its_partials_at_its_indentation() {
        let shared = partials(&[
            ("brand", "<a class=\"brand\" href=\"/\">Home</a>\n"),
            (
                "lang",
                "<label>\n  <select id=\"lang\"></select>\n</label>\n",
            ),
        ]);
        let page = "<header>\n    <!-- include: brand lang -->\n  <b>own</b>\n</header>\n";
        assert_eq!(
            assembled(page, &shared).unwrap(),
            "<header>\n    <a class=\"brand\" href=\"/\">Home</a>\n    <label>\n      <select id=\"lang\"></select>\n    </label>\n  <b>own</b>\n</header>\n"
        );
    }

    #[test]
    fn only_a_whole_line_is_a_marker_and_other_comments_stay() {
        let shared = partials(&[("brand", "B")]);
        let page = "<p><!-- include: brand --></p>\n<!-- a note -->\n<!-- include: brand -->";
        assert_eq!(
            assembled(page, &shared).unwrap(),
            "<p><!-- include: brand --></p>\n<!-- a note -->\nB\n"
        );
    }

    #[test]
    fn a_partial_that_does_not_exist_is_named() {
        let shared = partials(&[("brand", "B")]);
        assert_eq!(
            assembled("<!-- include: brand nav -->\n", &shared),
            Err("nav".to_string())
        );
    }

    #[test]
    fn partials_are_put_in_at_start_and_are_no_pages() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("partials")).unwrap();
        std::fs::write(
            dir.path().join("partials/head.html"),
            "<link rel=\"stylesheet\" href=\"/css/site.css\">\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("index.html"),
            "<head>\n  <!-- include: head -->\n</head>\n",
        )
        .unwrap();
        let before = Pages::load(dir.path());
        assert_eq!(before.html.len(), 1, "a partial is not a page");
        assert_eq!(
            &*before.html["index.html"],
            format!(
                "<head>\n  <link rel=\"stylesheet\" href=\"/v/{}/css/site.css\">\n</head>\n",
                before.version()
            )
        );
        std::fs::write(dir.path().join("partials/head.html"), "<meta>\n").unwrap();
        let after = Pages::load(dir.path());
        assert_ne!(after.version(), before.version(), "a partial is hashed");
        assert_eq!(&*after.html["index.html"], "<head>\n  <meta>\n</head>\n");
    }

    #[test]
    fn partial_names_are_the_files_of_the_partials_folder() {
        assert_eq!(partial_name("partials/head.html"), Some("head"));
        assert_eq!(partial_name("partials/a/b.html"), None);
        assert_eq!(partial_name("partials/head.css"), None);
        assert_eq!(partial_name("head.html"), None);
    }
}
