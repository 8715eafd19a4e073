// Toasts without putting sonner in a page's first load: the module is fetched on first use, and the
// Toaster (components/shell/providers.tsx) is mounted only when the page is idle after loading, or
// at the first toast, whichever comes first. sonner inserts its style sheet when it loads, which
// makes the browser recompute the style of the whole page: not a cost for the page's start-up.
//
// One outcome, one toast: a new toast dismisses the error toasts still on screen, so an old red
// "Please correct…" never lingers behind the green one that followed it.
type Kind = "success" | "error" | "info";

const openErrors = new Set<string | number>();

/** A button in the toast (sonner's action), e.g. a link to where the result went. */
export type ToastAction = { label: string; onClick: () => void };

// ---- When the Toaster is mounted ------------------------------------------------------------------
let toasterWanted = false;
const wantedListeners = new Set<() => void>();
let markMounted: () => void = () => {};
const mounted = new Promise<void>((resolve) => {
  markMounted = resolve;
});
/** How long a toast waits for the Toaster to mount before it is sent anyway. */
const MOUNT_WAIT_MS = 5000;

/** Asks for the Toaster to be mounted (now or soon). */
export function wantToaster() {
  if (toasterWanted) return;
  toasterWanted = true;
  for (const listener of wantedListeners) listener();
}

/** For the Toaster's host: whether it should be mounted, and a way to hear when it should be. */
export const toasterStore = {
  subscribe(listener: () => void) {
    wantedListeners.add(listener);
    return () => wantedListeners.delete(listener);
  },
  wanted: () => toasterWanted,
  /** The Toaster has mounted and listens for toasts (sonner drops toasts sent before that). */
  mounted: () => markMounted(),
};
// --------------------------------------------------------------------------------------------------

function show(kind: Kind, message: string, action?: ToastAction) {
  wantToaster();
  const ready = Promise.race([mounted, new Promise((resolve) => setTimeout(resolve, MOUNT_WAIT_MS))]);
  void Promise.all([import("sonner"), ready]).then(([{ toast }]) => {
    for (const id of openErrors) toast.dismiss(id);
    openErrors.clear();
    const id = toast[kind](message, action ? { action } : undefined);
    if (kind === "error") openErrors.add(id);
  });
}

export const notify = {
  success: (message: string, action?: ToastAction) => show("success", message, action),
  error: (message: string) => show("error", message),
  info: (message: string, action?: ToastAction) => show("info", message, action),
};
