import type * as React from "react";

/** A titled settings section: a heading and description on the left, its content on the right. */
export function SettingsSection({
  id,
  title,
  description,
  children,
  tone = "default",
}: {
  id: string;
  title: string;
  description?: string;
  children: React.ReactNode;
  tone?: "default" | "danger";
}) {
  return (
    <section
      aria-labelledby={`${id}-title`}
      className={`grid gap-6 rounded-lg border bg-card p-6 md:grid-cols-[16rem_1fr] ${tone === "danger" ? "border-destructive/50" : "border-border"}`}
    >
      <div>
        <h2 id={`${id}-title`} className="font-semibold">
          {title}
        </h2>
        {description ? <p className="mt-1 text-sm text-muted-foreground">{description}</p> : null}
      </div>
      <div className="min-w-0">{children}</div>
    </section>
  );
}
