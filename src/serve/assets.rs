//! The page's files, embedded in the binary: nothing is fetched from the internet.

use axum::http::header;
use axum::routing::get;
use axum::Router;

/// (path, content type, bytes)
const FILES: &[(&str, &str, &[u8])] = &[
    ("/", "text/html; charset=utf-8", include_bytes!("web/index.html")),
    ("/style.css", "text/css; charset=utf-8", include_bytes!("web/style.css")),
    ("/app.js", "text/javascript; charset=utf-8", include_bytes!("web/app.js")),
    ("/board.js", "text/javascript; charset=utf-8", include_bytes!("web/board.js")),
    ("/pieces.js", "text/javascript; charset=utf-8", include_bytes!("web/pieces.js")),
    ("/words.js", "text/javascript; charset=utf-8", include_bytes!("web/words.js")),
    ("/howto.js", "text/javascript; charset=utf-8", include_bytes!("web/howto.js")),
    ("/explore.js", "text/javascript; charset=utf-8", include_bytes!("web/explore.js")),
    ("/records.js", "text/javascript; charset=utf-8", include_bytes!("web/records.js")),
    ("/clock.js", "text/javascript; charset=utf-8", include_bytes!("web/clock.js")),
    ("/report.js", "text/javascript; charset=utf-8", include_bytes!("web/report.js")),
    ("/browse.js", "text/javascript; charset=utf-8", include_bytes!("web/browse.js")),
    ("/favicon.svg", "image/svg+xml", include_bytes!("web/favicon.svg")),
];

pub(crate) fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let mut router = Router::new();
    for &(path, kind, body) in FILES {
        router = router.route(
            path,
            get(move || async move { ([(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "no-cache")], body) }),
        );
    }
    router.route(
        "/howto.json",
        get(|| async {
            ([(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, "no-cache")], super::howto::json())
        }),
    )
}
