// Toasts without putting sonner in a page's first load: the module is fetched on first use (the
// Toaster itself is loaded the same way, see components/shell/providers.tsx, so both share it).
type Kind = "success" | "error" | "info";

function show(kind: Kind, message: string) {
  void import("sonner").then(({ toast }) => toast[kind](message));
}

export const notify = {
  success: (message: string) => show("success", message),
  error: (message: string) => show("error", message),
  info: (message: string) => show("info", message),
};
