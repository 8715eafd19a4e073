"use client";

// Placeholder until the workbench lands (issue 4).
export default function CryptoWorkbench() {
  return <p className="py-8 text-sm text-muted-foreground">The crypto workbench is being built.</p>;
}
