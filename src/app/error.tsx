"use client";

import { useEffect } from "react";
import { ErrorFallback } from "@/components/shell/error-fallback";
import { captureError } from "@/features/monitoring";

export default function RouteError(props: { error: Error & { digest?: string }; reset: () => void }) {
  // Render errors stop at this boundary and never reach window.onerror: report them here.
  useEffect(() => captureError(props.error), [props.error]);
  return <ErrorFallback {...props} />;
}
