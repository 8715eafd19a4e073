"use client";

import { ThemeProvider, useTheme } from "next-themes";
import type * as React from "react";
import { useEffect, useState, useSyncExternalStore } from "react";
import { toasterStore, wantToaster } from "@/components/hooks/notify";
import { FlashToast } from "./flash";

// The toaster is loaded when the page is idle after loading (or at the first toast) rather than with
// it: it has nothing to show before the first action, and loading sonner inserts a style sheet, which
// restyles the whole page (components/hooks/notify.ts).
type Sonner = typeof import("sonner");

export const TOAST_DURATION_MS = 5000;

function LoadedToaster() {
  const [sonner, setSonner] = useState<Sonner | null>(null);
  useEffect(() => {
    let live = true;
    void import("sonner").then((module) => {
      if (live) setSonner(module);
    });
    return () => {
      live = false;
    };
  }, []);
  return sonner ? <MountedToaster Toaster={sonner.Toaster} /> : null;
}

function MountedToaster({ Toaster }: { Toaster: Sonner["Toaster"] }) {
  const { resolvedTheme } = useTheme();
  // The Toaster's own effect (it starts listening for toasts) runs before this one, its parent's.
  useEffect(() => toasterStore.mounted(), []);
  return (
    <Toaster
      theme={resolvedTheme === "dark" ? "dark" : "light"}
      duration={TOAST_DURATION_MS}
      closeButton
      richColors
      position="bottom-right"
      containerAriaLabel="Notifications"
    />
  );
}

function ThemedToaster() {
  const wanted = useSyncExternalStore(toasterStore.subscribe, toasterStore.wanted, () => false);
  useEffect(() => {
    if (toasterStore.wanted()) return;
    let idle = 0;
    const whenIdle = () => {
      idle =
        typeof window.requestIdleCallback === "function"
          ? window.requestIdleCallback(wantToaster, { timeout: 5000 })
          : window.setTimeout(wantToaster, 2000);
    };
    if (document.readyState === "complete") whenIdle();
    else window.addEventListener("load", whenIdle, { once: true });
    return () => {
      window.removeEventListener("load", whenIdle);
      if (typeof window.cancelIdleCallback === "function") window.cancelIdleCallback(idle);
      else window.clearTimeout(idle);
    };
  }, []);
  return wanted ? <LoadedToaster /> : null;
}

export function Providers({ children }: { children: React.ReactNode }) {
  return (
    <ThemeProvider
      attribute="class"
      storageKey="theme"
      defaultTheme="system"
      enableSystem
      themes={["light", "dark"]}
      disableTransitionOnChange
    >
      {children}
      <ThemedToaster />
      <FlashToast />
    </ThemeProvider>
  );
}
