"use client";

import { type Ref, type RefCallback, useCallback, useLayoutEffect, useRef } from "react";

type TextControl = HTMLInputElement | HTMLTextAreaElement;

/** Puts `el` in `node` and in the caller's own ref. */
function useBothRefs<T extends HTMLElement>(node: { current: T | null }, ref?: Ref<T>): RefCallback<T> {
  return useCallback(
    (el: T | null) => {
      node.current = el;
      if (typeof ref === "function") return ref(el);
      if (ref) ref.current = el;
    },
    [node, ref],
  );
}

/**
 * Keeps what a person typed into a server-rendered text control before React hydrated it.
 *
 * React leaves the typed text in the DOM during hydration but does not tell the component, so its
 * state keeps the server's value: the field shows "120" while the page computes with "100", and
 * the next render silently puts "100" back. (React has a fix behind `enableHydrationChangeEvent`,
 * not in the release Next.js ships.) On the control's first commit, if the DOM holds something else
 * than the value React rendered, this replays the typing as a real `input` event, so the
 * component's own `onChange` takes it up like any keystroke.
 *
 * Pass the rendered `value` (`undefined` for an uncontrolled control, which React leaves alone)
 * and the caller's own ref, if any; put the returned ref on the element.
 */
export function useEarlyInput<T extends TextControl>(value: unknown, ref?: Ref<T>): RefCallback<T> {
  const node = useRef<T | null>(null);
  const rendered = useRef(value);
  useLayoutEffect(() => {
    const el = node.current;
    const first = rendered.current;
    if (el && first !== undefined && first !== null && el.value !== String(first)) {
      replayTyping(el, String(first));
    }
  }, []);
  return useBothRefs(node, ref);
}

/**
 * The same for a radio button or checkbox clicked before hydration: its DOM state differs from the
 * `checked` React rendered, and since a second click on a checked radio fires nothing, the control
 * would stay stuck. Pass the rendered `checked` (`undefined` when uncontrolled).
 */
export function useEarlyCheck(checked: boolean | undefined, ref?: Ref<HTMLInputElement>) {
  const node = useRef<HTMLInputElement | null>(null);
  const rendered = useRef(checked);
  useLayoutEffect(() => {
    const el = node.current;
    const first = rendered.current;
    if (!el || first === undefined || el.checked === first) return;
    // A radio another one in its group displaced has nothing to report; the chosen one does.
    if (el.type === "radio" && !el.checked) return;
    // Through the element's own setter React records the rendered state; the click (a real event,
    // which checks a radio and toggles a checkbox) brings back what the person chose, and React,
    // seeing it differ, calls `onChange`.
    el.checked = first;
    el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
  }, []);
  return useBothRefs(node, ref);
}

/**
 * React notices a change only when the element's value differs from the one it last saw (it tracks
 * assignments through the element's own `value` setter). Assign the rendered value through that
 * setter, put the typed text back through the prototype's, and dispatch `input`.
 */
function replayTyping(el: TextControl, rendered: string) {
  const typed = el.value;
  const proto = Object.getPrototypeOf(el) as typeof HTMLInputElement.prototype;
  const setValue = Object.getOwnPropertyDescriptor(proto, "value")?.set;
  if (!setValue) return;
  el.value = rendered;
  setValue.call(el, typed);
  el.dispatchEvent(new Event("input", { bubbles: true }));
}
