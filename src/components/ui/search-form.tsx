"use client";

import { usePathname, useRouter } from "next/navigation";
import type * as React from "react";
import { useTransition } from "react";

/**
 * A GET form (search, filters) that moves to its results without reloading the page: the query
 * goes into the URL with the client router, the page keeps its scroll position, and the field the
 * person typed in keeps focus. Empty fields are left out of the URL. Without JavaScript it is the
 * plain GET form it renders.
 */
export function SearchForm({
  action,
  hash,
  children,
  ...props
}: Omit<React.ComponentProps<"form">, "action" | "method" | "onSubmit"> & {
  /** The path the query applies to (default: this page). */
  action?: string;
  /** A fragment added to the URL (e.g. "history"), for links and the back button. */
  hash?: string;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const [pending, startTransition] = useTransition();
  const path = action ?? pathname;
  return (
    <form
      {...props}
      action={path}
      method="get"
      aria-busy={pending || undefined}
      onSubmit={(event) => {
        event.preventDefault();
        const query = new URLSearchParams();
        for (const [key, value] of new FormData(event.currentTarget)) {
          if (typeof value === "string" && value.trim() !== "") query.set(key, value);
        }
        const search = query.toString();
        const url = `${path}${search ? `?${search}` : ""}${hash ? `#${hash}` : ""}`;
        startTransition(() => router.replace(url, { scroll: false }));
      }}
    >
      {children}
    </form>
  );
}
