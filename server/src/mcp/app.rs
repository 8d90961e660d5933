//! The MCP Apps view (the UI extension `io.modelcontextprotocol/ui`): one self-contained
//! page, [`VIEW_URI`], served by `resources/list` and `resources/read` as
//! [`MIME`], with a content security policy that allows no outside domain (the page loads
//! nothing and fetches nothing: it talks to its host over postMessage only). The tools that
//! answer a board (`new_game`, `apply_move`, `render_game`) name it in their `_meta`
//! ([`tool_meta`]), so a host that renders MCP Apps shows the board with their answers.

use rmcp::model::{
    ExtensionCapabilities, ListResourcesResult, MetaObject, ReadResourceResult, Resource,
    ResourceContents,
};
use rmcp::ErrorData;
use serde_json::{json, Map, Value};

/// The view's address.
pub(super) const VIEW_URI: &str = "ui://fcauto/board-v1.html";
/// The MIME type of an MCP Apps page.
pub(super) const MIME: &str = "text/html;profile=mcp-app";
/// The UI extension's name in the capabilities.
pub(super) const EXTENSION_ID: &str = "io.modelcontextprotocol/ui";
/// The page: the board, the legal moves and a new-game control, over the MCP Apps bridge.
const PAGE: &str = include_str!("view.html");

/// An object of `v` (empty for anything else).
fn object(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// The `_meta` of a tool that answers a board: the view's address as MCP Apps names it
/// (`ui.resourceUri`, and the older flat key `ui/resourceUri`), and as ChatGPT's Apps SDK
/// names it (`openai/outputTemplate`).
pub(super) fn tool_meta() -> MetaObject {
    MetaObject(object(json!({
        "ui": {"resourceUri": VIEW_URI},
        "ui/resourceUri": VIEW_URI,
        "openai/outputTemplate": VIEW_URI,
    })))
}

/// The resource's `_meta`: `ui.csp` with no domain in any list (no network, no outside
/// script, style, picture or frame), a border asked for; and the same for ChatGPT's hosts
/// (`openai/widgetCSP`).
fn resource_meta() -> MetaObject {
    MetaObject(object(json!({
        "ui": {
            "csp": {"connectDomains": [], "resourceDomains": [], "frameDomains": [],
                    "baseUriDomains": []},
            "prefersBorder": true,
        },
        "openai/widgetCSP": {"connect_domains": [], "resource_domains": []},
        "openai/widgetPrefersBorder": true,
    })))
}

/// The server's `extensions` capability: the UI extension with the one MIME type it serves.
pub(super) fn extensions() -> ExtensionCapabilities {
    let mut e = ExtensionCapabilities::new();
    e.insert(EXTENSION_ID.into(), object(json!({"mimeTypes": [MIME]})));
    e
}

/// `resources/list`: the view.
pub(super) fn list() -> ListResourcesResult {
    let view = Resource::new(VIEW_URI, "board")
        .with_title("FreeCell board")
        .with_description(
            "The board of the position a tool answered, its legal moves as buttons (played \
             through apply_move: a card moves only when the move was legal) and a new game.",
        )
        .with_mime_type(MIME)
        .with_size(PAGE.len() as u64)
        .with_meta(resource_meta());
    ListResourcesResult {
        resources: vec![view],
        ..Default::default()
    }
}

/// `resources/read` of `uri`: the page, or -32002 (resource not found) for any other.
pub(super) fn read(uri: &str) -> Result<ReadResourceResult, ErrorData> {
    if uri != VIEW_URI {
        return Err(ErrorData::resource_not_found(
            format!("no resource {uri:?}: this server has one, {VIEW_URI}"),
            Some(json!({"uri": uri})),
        ));
    }
    Ok(ReadResourceResult::new(vec![
        ResourceContents::TextResourceContents {
            uri: VIEW_URI.into(),
            mime_type: Some(MIME.into()),
            text: PAGE.into(),
            meta: Some(resource_meta()),
        },
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page is self-contained: no address outside it (no http(s) URL but the SVG
    /// namespace, no `src=`), and it speaks the bridge's methods.
    #[test]
    fn the_page_loads_nothing_from_outside_and_speaks_the_bridge() {
        assert!(!PAGE.contains("src="), "the page loads a file");
        for url in PAGE.match_indices("http") {
            let rest = &PAGE[url.0..];
            assert!(rest.starts_with("http://www.w3.org/"), "{}", &rest[..40]);
        }
        for method in [
            "ui/initialize",
            "ui/notifications/initialized",
            "tools/call",
        ] {
            assert!(PAGE.contains(method), "{method}");
        }
        let listed = serde_json::to_value(list()).unwrap();
        assert_eq!(listed["resources"][0]["mimeType"], MIME);
        assert_eq!(
            listed["resources"][0]["_meta"]["ui"]["csp"]["connectDomains"],
            json!([])
        );
        assert!(read("ui://fcauto/other").is_err());
    }

    /// The view's game list (it cannot ask the server for one) holds every game the service
    /// deals.
    #[test]
    fn the_page_lists_every_game() {
        for g in fcauto_deals::GAMES {
            let option = format!("<option value=\"{}\">", g.name);
            assert!(PAGE.contains(&option), "{option}");
        }
    }
}
