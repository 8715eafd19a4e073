import type * as React from "react";

/**
 * Account screens (sign-in, sign-up, onboarding): focused, without the app shell's navigation.
 * The site header and footer come from the root layout. Each page calls its own guard.
 */
export default function AuthLayout({ children }: { children: React.ReactNode }) {
  return children;
}
