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
/**
 * On a searchable picker's stand-in, the characters typed at it before hydration are collected here
 * (and Enter marks `EARLY_ENTER`), so that the search starts with them instead of losing them.
 */
export const EARLY_TYPE = "data-early-type";
export const EARLY_TYPED = "data-early-typed";
export const EARLY_ENTER = "data-early-enter";

export const earlyClickScript = `(function(d){function f(e,s){var t=e.target;t=t&&t.closest?t.closest(s):null;return t&&!t.hasAttribute("${AWAKE}")?t:null}d.addEventListener("click",function(e){var t=f(e,"[${EARLY_CLICK}]");if(t)t.setAttribute("${EARLY_CLICKED}","")},true);d.addEventListener("keydown",function(e){var t=f(e,"[${EARLY_TYPE}]");if(!t||e.ctrlKey||e.metaKey||e.altKey||e.isComposing)return;if(e.key.length===1){t.setAttribute("${EARLY_TYPED}",(t.getAttribute("${EARLY_TYPED}")||"")+e.key);e.preventDefault()}else if(e.key==="Enter"&&t.hasAttribute("${EARLY_TYPED}")){t.setAttribute("${EARLY_ENTER}","");e.preventDefault()}},true)})(document)`;
