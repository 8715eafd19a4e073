// Toasts without putting sonner in a page's first load: the module is fetched on first use (the
// Toaster itself is loaded the same way, see components/shell/providers.tsx, so both share it).
//
// One outcome, one toast: a new toast dismisses the error toasts still on screen, so an old red
// "Please correct…" never lingers behind the green one that followed it.
type Kind = "success" | "error" | "info";

const openErrors = new Set<string | number>();

/** A button in the toast (sonner's action), e.g. a link to where the result went. */
export type ToastAction = { label: string; onClick: () => void };

function show(kind: Kind, message: string, action?: ToastAction) {
  void import("sonner").then(({ toast }) => {
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
