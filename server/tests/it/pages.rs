//! The static client through the real router: compressed answers, the
//! cache headers, the versioned script and style URLs that make a new
//! client reach browsers at once, the pages put together from their
//! shared head and top bar, the favicon and the manifest, and the
//! answers to a room that does not exist.

use crate::common;

use std::io::Read;

use common::TestServer;
use reqwest::header;

fn client() -> reqwest::Client {
    reqwest::Client::new()
}

fn web_file(path: &str) -> Vec<u8> {
    std::fs::read(format!("{}/../web/{path}", env!("CARGO_MANIFEST_DIR"))).expect("web file")
}

/// The version prefix a page's scripts are served under.
fn script_prefix(html: &str, script: &str) -> String {
    let end = html
        .find(&format!("/js/{script}\""))
        .expect("the page loads the script");
    let start = html[..end].rfind("src=\"").expect("a src attribute") + 5;
    html[start..=end].to_string()
}

#[tokio::test]
async fn pages_are_revalidated_and_name_their_scripts_and_styles_by_version() {
    let server = TestServer::start().await;
    let res = client()
        .get(format!("{}/r/ABCDEF", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let h = res.headers().clone();
    assert_eq!(h[header::CACHE_CONTROL], "no-cache");
    assert!(h[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let etag = h[header::ETAG].clone();
    let html = res.text().await.unwrap();
    let prefix = script_prefix(&html, "room.js");
    let version = prefix
        .strip_prefix("/v/")
        .and_then(|v| v.strip_suffix('/'))
        .expect("/v/VERSION/");
    assert_eq!(version.len(), 12, "{prefix}");
    assert!(html.contains(&format!("href=\"/v/{version}/css/site.css\"")));
    assert!(
        !html.contains("\"/js/") && !html.contains("\"/css/"),
        "nothing unversioned"
    );
    // Every page is the same version.
    for page in [
        "/",
        "/games",
        "/account",
        "/reset",
        "/g/1",
        "/import",
        "/rules",
        "/rules/jungle",
        "/leaderboard",
        "/u/someone",
    ] {
        let (status, body) = server.get(page).await;
        assert_eq!(status, 200, "{page}");
        assert!(body.contains(&format!("/v/{version}/")), "{page}");
        assert!(
            body.contains("<link rel=\"icon\" href=\"/favicon.svg\""),
            "{page}"
        );
        assert!(
            body.contains("<link rel=\"manifest\" href=\"/manifest.webmanifest\">"),
            "{page}"
        );
    }
    // The same version again: 304, no body.
    let again = client()
        .get(format!("{}/r/ABCDEF", server.base))
        .header(header::IF_NONE_MATCH, etag.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
    assert_eq!(again.headers()[header::ETAG], etag);
    // A list, a weak tag and `*` match too (RFC 9110's weak comparison).
    let tag = etag.to_str().unwrap();
    for asked in [format!("\"x\", {tag}"), format!("W/{tag}"), "*".to_string()] {
        let again = client()
            .get(format!("{}/r/ABCDEF", server.base))
            .header(header::IF_NONE_MATCH, asked.as_str())
            .send()
            .await
            .unwrap();
        assert_eq!(again.status(), 304, "{asked}");
    }
    // Another version: the whole page.
    let other = client()
        .get(format!("{}/r/ABCDEF", server.base))
        .header(header::IF_NONE_MATCH, "\"000000000000\"")
        .send()
        .await
        .unwrap();
    assert_eq!(other.status(), 200);

    // The scripts of this version are kept for a year; their modules'
    // relative imports stay under the prefix.
    for path in [
        "js/room.js",
        "js/i18n.js",
        "js/quoridor/board.js",
        "css/site.css",
    ] {
        let res = client()
            .get(format!("{}/v/{version}/{path}", server.base))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200, "{path}");
        assert_eq!(
            res.headers()[header::CACHE_CONTROL],
            "public, max-age=31536000, immutable",
            "{path}"
        );
        assert_eq!(res.bytes().await.unwrap(), web_file(path), "{path}");
    }
    // A page from before a restart asks for its old version: it gets
    // today's file, revalidated rather than kept.
    let old = client()
        .get(format!("{}/v/000000000000/js/room.js", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(old.status(), 200);
    assert_eq!(old.headers()[header::CACHE_CONTROL], "no-cache");
    // Unversioned files are revalidated too; a missing one is a 404.
    let plain = client()
        .get(format!("{}/js/room.js", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(plain.status(), 200);
    assert_eq!(plain.headers()[header::CACHE_CONTROL], "no-cache");
    let (status, _) = server.get(&format!("/v/{version}/js/nothing.js")).await;
    assert_eq!(status, 404);
    let (status, _) = server.get(&format!("/v/{version}/../Cargo.toml")).await;
    assert_eq!(status, 404);
    // The version percent-encoded names no file (it once served the page
    // template, cached for a year).
    let encoded = format!("%{:02X}{}", version.as_bytes()[0], &version[1..]);
    let (status, body) = server.get(&format!("/v/{encoded}/js/room.js")).await;
    assert_eq!(status, 404, "{}", &body[..body.len().min(200)]);
    let (status, _) = server.get("/v/%00/js/room.js").await;
    assert_eq!(status, 404);
    server.stop().await;
}

/// The `data-testid`s of a page's top bar, in order.
fn topbar_testids(html: &str) -> Vec<&str> {
    let start = html.find("<header class=\"topbar\"").expect("a top bar");
    let end = start + html[start..].find("</header>").expect("a closed top bar");
    html[start..end]
        .split("data-testid=\"")
        .skip(1)
        .map(|rest| &rest[..rest.find('"').expect("a closed attribute")])
        .collect()
}

#[tokio::test]
async fn every_page_is_served_whole_with_its_shared_head_and_top_bar() {
    let server = TestServer::start().await;
    let full = [
        "games-link",
        "leaderboard-link",
        "rules-link",
        "coins",
        "lang",
    ];
    let pages: [(&str, &[&str]); 11] = [
        ("/", &full),
        ("/games", &full),
        ("/account", &full),
        ("/u/someone", &full),
        (
            "/leaderboard",
            &["games-link", "rules-link", "coins", "lang"],
        ),
        ("/g/1", &["games-link", "rules-link", "coins", "lang"]),
        ("/import", &["games-link", "rules-link", "coins", "lang"]),
        ("/reset", &["coins", "lang"]),
        (
            "/r/ABCDEF",
            &[
                "room-code",
                "conn-status",
                "games-link",
                "rules-link",
                "mute",
                "notify",
                "coins",
                "lang",
            ],
        ),
        ("/rules", &["games-link", "rules-link", "coins", "lang"]),
        (
            "/rules/jungle",
            &["games-link", "rules-link", "coins", "lang"],
        ),
    ];
    for (page, testids) in pages {
        let (status, html) = server.get(page).await;
        assert_eq!(status, 200, "{page}");
        assert!(
            !html.contains("<!-- include:"),
            "{page}: every marker replaced"
        );
        assert_eq!(topbar_testids(&html), testids, "{page}");
        assert!(html.contains("<a class=\"brand\" href=\"/\""), "{page}");
        assert!(
            html.contains("<select id=\"lang\" data-testid=\"lang\"></select>"),
            "{page}"
        );
        let head = &html[..html.find("</head>").expect("a head")];
        for one in [
            "<meta charset=\"utf-8\">",
            "<title",
            "<script type=\"module\"",
            "css/site.css",
        ] {
            assert_eq!(head.matches(one).count(), 1, "{page}: {one}");
        }
    }
    // A page asked for by its file name is the same page; the partials
    // are pieces of pages, not pages.
    assert_eq!(
        server.get("/room.html").await,
        server.get("/r/ABCDEF").await
    );
    assert_eq!(server.get("/partials/head.html").await.0, 404);
    let html = server.get("/").await.1;
    let prefix = script_prefix(&html, "home.js");
    assert_eq!(
        server.get(&format!("{prefix}partials/lang.html")).await.0,
        404
    );
    assert_eq!(
        server.get(&format!("{prefix}index.html")).await,
        server.get("/").await
    );
    server.stop().await;
}

#[tokio::test]
async fn answers_are_compressed_with_brotli_or_gzip_as_the_browser_accepts() {
    let server = TestServer::start().await;
    let html = server.get("/r/ABCDEF").await.1;
    let prefix = script_prefix(&html, "room.js");
    // The site's style sheet: the largest file under the version (the
    // room's script is a small module now).
    let url = format!("{}{prefix}css/site.css", server.base);
    let original = web_file("css/site.css");

    let br = client()
        .get(&url)
        .header(header::ACCEPT_ENCODING, "gzip, deflate, br")
        .send()
        .await
        .unwrap();
    assert_eq!(br.headers()[header::CONTENT_ENCODING], "br");
    assert!(br.headers()[header::VARY]
        .to_str()
        .unwrap()
        .to_ascii_lowercase()
        .contains("accept-encoding"));
    assert_eq!(
        br.headers()[header::CACHE_CONTROL],
        "public, max-age=31536000, immutable"
    );
    let packed = br.bytes().await.unwrap();
    assert!(
        packed.len() * 3 < original.len(),
        "{} of {}",
        packed.len(),
        original.len()
    );
    let mut unpacked = Vec::new();
    brotli::Decompressor::new(&packed[..], 4096)
        .read_to_end(&mut unpacked)
        .unwrap();
    assert_eq!(unpacked, original);

    let gz = client()
        .get(&url)
        .header(header::ACCEPT_ENCODING, "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(gz.headers()[header::CONTENT_ENCODING], "gzip");
    let packed = gz.bytes().await.unwrap();
    let mut unpacked = Vec::new();
    flate2::read::GzDecoder::new(&packed[..])
        .read_to_end(&mut unpacked)
        .unwrap();
    assert_eq!(unpacked, original);

    // Without Accept-Encoding: as it is.
    let plain = client().get(&url).send().await.unwrap();
    assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
    assert_eq!(plain.bytes().await.unwrap(), original);

    // Pages and the JSON API too.
    let page = client()
        .get(format!("{}/", server.base))
        .header(header::ACCEPT_ENCODING, "br")
        .send()
        .await
        .unwrap();
    assert_eq!(page.headers()[header::CONTENT_ENCODING], "br");
    let (status, room) = server
        .create_room(serde_json::json!({"game": "jungle"}))
        .await;
    assert_eq!(status, 201, "{room}");
    let api = client()
        .get(format!(
            "{}/api/rooms/{}",
            server.base,
            room["code"].as_str().unwrap()
        ))
        .header(header::ACCEPT_ENCODING, "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(api.status(), 200);
    assert_eq!(api.headers()[header::CONTENT_ENCODING], "gzip");

    // A WebSocket still opens through the compression layer.
    let (_ws, _token, snapshot) = server
        .join(room["code"].as_str().unwrap(), None, None)
        .await;
    assert_eq!(snapshot["type"], "snapshot");
    server.stop().await;
}

#[tokio::test]
async fn the_favicon_and_the_manifest() {
    let server = TestServer::start().await;
    let icon = client()
        .get(format!("{}/favicon.svg", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(icon.status(), 200);
    assert_eq!(icon.headers()[header::CONTENT_TYPE], "image/svg+xml");
    assert_eq!(icon.headers()[header::CACHE_CONTROL], "no-cache");
    assert!(icon.text().await.unwrap().starts_with("<svg"));
    let manifest = client()
        .get(format!("{}/manifest.webmanifest", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(manifest.status(), 200);
    assert_eq!(
        manifest.headers()[header::CONTENT_TYPE],
        "application/manifest+json"
    );
    let manifest: serde_json::Value = manifest.json().await.unwrap();
    assert_eq!(manifest["start_url"], "/");
    let icon = manifest["icons"][0]["src"].as_str().unwrap();
    assert_eq!(
        server.get(icon).await.0,
        200,
        "the manifest's icon is served"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_room_that_does_not_exist_is_a_404_no_room_over_http_and_websocket() {
    let server = TestServer::start().await;
    let res = client()
        .get(format!("{}/api/rooms/ABCDEF", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(body["error"], "no_room");
    // The socket is refused before the upgrade, with the same answer.
    let url = format!("{}/ws/ABCDEF", server.base.replace("http://", "ws://"));
    match tokio_tungstenite::connect_async(url).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(res)) => {
            assert_eq!(res.status(), 404);
            let body: serde_json::Value =
                serde_json::from_slice(res.body().as_deref().unwrap_or_default()).unwrap();
            assert_eq!(body["error"], "no_room");
        }
        other => panic!("a socket to no room must be refused: {other:?}"),
    }
    server.stop().await;
}

/// The header's "Rules" link (`/rules`) opens the illustrated rules pages'
/// index, a page like the others (revalidated, with the security headers),
/// and every game's page; the developers' text (docs/RULES.md) moved to
/// `/rules.md`.
#[tokio::test]
async fn rules_is_the_rules_pages_index_and_the_developers_text_is_rules_md() {
    let server = TestServer::start().await;
    let get = |path: &str| client().get(format!("{}{path}", server.base)).send();
    for path in [
        "/rules",
        "/rules/crossyray",
        "/rules/quoridor",
        "/rules/jungle",
    ] {
        let res = get(path).await.unwrap();
        assert_eq!(res.status(), 200, "{path}");
        let h = res.headers().clone();
        assert!(
            h[header::CONTENT_TYPE]
                .to_str()
                .unwrap()
                .starts_with("text/html"),
            "{path}"
        );
        assert_eq!(h[header::CACHE_CONTROL], "no-cache", "{path}");
        assert!(h.contains_key(header::ETAG), "{path}");
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["x-frame-options"], "SAMEORIGIN", "{path}");
        assert!(h.contains_key("content-security-policy"), "{path}");
        let html = res.text().await.unwrap();
        assert!(
            html.contains("/js/rules-page.js\""),
            "{path}: the rules page"
        );
        assert!(
            html.contains("data-testid=\"rules-index\""),
            "{path}: with its index"
        );
        assert!(!html.starts_with('#'), "{path}: not the Markdown");
    }
    // The header link everywhere points at the index.
    let (_, home) = server.get("/").await;
    assert!(home
        .contains("href=\"/rules\" target=\"_blank\" rel=\"noopener\" data-testid=\"rules-link\""));

    let res = get("/rules.md").await.unwrap();
    assert_eq!(res.status(), 200);
    let h = res.headers().clone();
    assert_eq!(h[header::CONTENT_TYPE], "text/plain; charset=utf-8");
    assert_eq!(h["x-content-type-options"], "nosniff");
    let text = res.text().await.unwrap();
    assert_eq!(
        text,
        String::from_utf8(
            std::fs::read(format!("{}/../docs/RULES.md", env!("CARGO_MANIFEST_DIR"))).unwrap()
        )
        .unwrap()
    );
}

/// A folder of the web client is no page: `//js` was redirected to
/// `Location: //js/`, which a browser reads as the host `js` (an outside
/// check): every folder path is a 404, with no `Location`.
#[tokio::test]
async fn a_folder_is_a_404_never_a_redirect_to_another_host() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = TestServer::start().await;
    let addr = server.base.trim_start_matches("http://").to_string();
    for path in ["//js", "/js", "//css", "/js/i18n", "//partials"] {
        let mut tcp = tokio::net::TcpStream::connect(&addr).await.unwrap();
        let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
        tcp.write_all(request.as_bytes()).await.unwrap();
        let mut answer = String::new();
        tcp.read_to_string(&mut answer).await.unwrap();
        assert!(answer.starts_with("HTTP/1.1 404"), "{path}: {answer}");
        assert!(
            !answer.to_ascii_lowercase().contains("\r\nlocation:"),
            "{path}: {answer}"
        );
    }
    server.stop().await;
}
