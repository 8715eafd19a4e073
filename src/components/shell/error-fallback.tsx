"use client";

import { useEffect, useState } from "react";
import { buttonVariants } from "@/components/ui/button-variants";
import {
  SERVICE_UNAVAILABLE_DIGEST,
  SERVICE_UNAVAILABLE_TEXT,
  SERVICE_UNAVAILABLE_TITLE,
} from "@/core/service-unavailable";

export const CLIENT_ERROR_MESSAGE = "Application error: a client-side exception has occurred";

/** True when the server marked the error as an outage, or `/api/health` says the database is down. */
function useOutage(digest: string | undefined): boolean {
  const marked = digest === SERVICE_UNAVAILABLE_DIGEST;
  const [down, setDown] = useState(marked);
  useEffect(() => {
    if (marked) return;
    const controller = new AbortController();
    fetch("/api/health", { cache: "no-store", signal: controller.signal })
      .then((response) => setDown(response.status === 503))
      .catch(() => {});
    return () => controller.abort();
  }, [marked]);
  return down;
}

/**
 * A plain button with the default button's look: this boundary is loaded on every page, and `Button`
 * would bring tailwind-merge and Radix Slot with it.
 */
function TryAgain({ reset }: { reset: () => void }) {
  return (
    <button type="button" className={buttonVariants()} onClick={reset}>
      Try again
    </button>
  );
}

export function ErrorFallback({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const outage = useOutage(error.digest);
  if (outage) {
    return (
      <div role="alert" className="mx-auto grid max-w-xl gap-5 px-4 py-24 text-center sm:px-6">
        <h1 className="text-2xl font-semibold tracking-tight">{SERVICE_UNAVAILABLE_TITLE}</h1>
        <p className="text-muted-foreground">{SERVICE_UNAVAILABLE_TEXT}</p>
        <div className="flex justify-center">
          <TryAgain reset={reset} />
        </div>
      </div>
    );
  }
  return (
    <div role="alert" className="mx-auto grid max-w-xl gap-5 px-4 py-24 text-center sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight">{CLIENT_ERROR_MESSAGE}</h1>
      <p className="text-muted-foreground">
        Something went wrong while showing this page. Nothing you saved is lost. Try again, or reload the
        page.
      </p>
      {error.digest ? (
        <p className="font-mono text-xs text-muted-foreground">Reference: {error.digest}</p>
      ) : null}
      <div className="flex justify-center">
        <TryAgain reset={reset} />
      </div>
    </div>
  );
}
