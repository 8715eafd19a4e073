import type * as React from "react";

export function AuthCard({
  title,
  description,
  children,
  footer,
  notice,
}: {
  title: string;
  description: string;
  children: React.ReactNode;
  footer: React.ReactNode;
  /** Shown above the card (an invitation the visitor is signing in for). */
  notice?: React.ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12 sm:py-20">
      {notice ? <div className="mb-4">{notice}</div> : null}
      <div className="rounded-lg border border-border bg-card p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        <p className="mt-2 text-sm text-muted-foreground">{description}</p>
        <div className="mt-6">{children}</div>
      </div>
      <p className="mt-6 text-center text-sm text-muted-foreground">{footer}</p>
    </div>
  );
}
