"use client";

import { Button } from "@/components/ui/button";

export const CLIENT_ERROR_MESSAGE = "Application error: a client-side exception has occurred";

export function ErrorFallback({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
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
        <Button onClick={reset}>Try again</Button>
      </div>
    </div>
  );
}
