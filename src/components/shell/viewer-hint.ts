/**
 * Static pages cannot know who is signed in, yet the header must not draw "Sign in" and then swap
 * in a signed-in visitor's controls. The browser remembers what the header showed last (a cookie of
 * ours, readable by script: the active organization's name and the visitor's initials, nothing
 * secret), and a few bytes of inline script, run before the header is parsed, mark the page so the
 * header's stand-in controls are drawn with the page, with those names. /api/me still decides: when
 * it answers, the real menus take the stand-in's place at the same size, and the hint is updated.
 *
 * Not a client module: the root layout (a server component) inlines the script's text.
 */
export const VIEWER_HINT_COOKIE = "abacus_viewer";
/** On <html> while the hint says someone is signed in. */
export const VIEWER_HINT_ATTRIBUTE = "data-viewer";
export const VIEWER_ORG_VAR = "--viewer-org";
export const VIEWER_INITIALS_VAR = "--viewer-initials";

export const viewerHintScript = `(function(d){var m=d.cookie.match(/(?:^|; )${VIEWER_HINT_COOKIE}=([^;]*)/);if(!m)return;try{var v=JSON.parse(decodeURIComponent(m[1])),r=d.documentElement;r.setAttribute("${VIEWER_HINT_ATTRIBUTE}","in");r.style.setProperty("${VIEWER_ORG_VAR}",JSON.stringify(String(v.o)));r.style.setProperty("${VIEWER_INITIALS_VAR}",JSON.stringify(String(v.i)))}catch(e){}})(document)`;
