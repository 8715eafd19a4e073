"use client";

import { ThemeProvider, useTheme } from "next-themes";
import type * as React from "react";
import { Toaster } from "sonner";

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
    </ThemeProvider>
  );
}
