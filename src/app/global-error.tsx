"use client";

import { useEffect } from "react";
import { CLIENT_ERROR_MESSAGE } from "@/components/shell/error-fallback";
import { captureError } from "@/features/monitoring";

// Replaces the root layout when it fails, so it renders its own document and inline styles that
// work without the app's CSS.
export default function GlobalError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  useEffect(() => captureError(error), [error]);
  return (
    <html lang="en">
      <body
        style={{
          fontFamily: "system-ui, sans-serif",
          display: "grid",
          placeItems: "center",
          minHeight: "100vh",
          margin: 0,
          padding: "1rem",
        }}
      >
        <div role="alert" style={{ maxWidth: 480, textAlign: "center" }}>
          <h1 style={{ fontSize: "1.25rem" }}>{CLIENT_ERROR_MESSAGE}</h1>
          <p>Something went wrong while showing this page.</p>
          <button
            type="button"
            onClick={reset}
            style={{ padding: "0.5rem 1rem", borderRadius: 6, border: "1px solid #888", cursor: "pointer" }}
          >
            Try again
          </button>
        </div>
      </body>
    </html>
  );
}
