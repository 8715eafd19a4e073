"use client";

import dynamic from "next/dynamic";
import { ThemeProvider, useTheme } from "next-themes";
import type * as React from "react";
import { FlashToast } from "./flash";

// The toaster is loaded right after the page becomes interactive rather than with it: it has
// nothing to show before the first action, and it keeps sonner out of the first load.
const Toaster = dynamic(() => import("sonner").then((m) => m.Toaster), { ssr: false });

export const TOAST_DURATION_MS = 5000;

function ThemedToaster() {
  const { resolvedTheme } = useTheme();
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
