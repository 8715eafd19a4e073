/**
 * Clicks on a server-rendered control before React has hydrated it are lost: the button is there,
 * its handler is not. A few bytes of inline script (`earlyClickScript`, run by the root layout before
 * any control is parsed) mark such a click on an element carrying `data-early-click`; the control's
 * first commit (`useEarlyClick` in ./deferred-picker) reads the mark and does what the click asked
 * (opens the picker). Once hydrated the element carries `data-awake` and the script ignores it.
 *
 * Not a client module: the root layout (a server component) inlines the script's text.
 */
export const EARLY_CLICK = "data-early-click";
export const EARLY_CLICKED = "data-early-clicked";
export const AWAKE = "data-awake";

export const earlyClickScript = `document.addEventListener("click",function(e){var t=e.target;t=t&&t.closest?t.closest("[${EARLY_CLICK}]"):null;if(t&&!t.hasAttribute("${AWAKE}"))t.setAttribute("${EARLY_CLICKED}","")},true)`;
