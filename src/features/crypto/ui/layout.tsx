"use client";

import type * as React from "react";
import { cn } from "@/lib/utils";

export function ToolHeading({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <div className="mb-3">
      <h3 id={id} className="text-xl font-semibold tracking-tight">
        {title}
      </h3>
      <p className="mt-1 text-sm text-muted-foreground">{children}</p>
    </div>
  );
}

export function SectionHeading({ children }: { children: React.ReactNode }) {
  return <h4 className="text-base font-semibold">{children}</h4>;
}

export function FormGrid({ className, ...props }: React.ComponentProps<"div">) {
  return <div className={cn("grid gap-x-4 gap-y-1 sm:grid-cols-2", className)} {...props} />;
}
