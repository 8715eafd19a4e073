import type { Metadata } from "next";
import Link from "next/link";
import { Button } from "@/components/ui/button";

export const metadata: Metadata = {
  title: "Page not found",
  description:
    "There is no page at this address. The calculator, pricing and documentation are a click away.",
};

export default function NotFound() {
  return (
    <div className="mx-auto grid max-w-xl gap-6 px-4 py-24 text-center sm:px-6">
      <p className="font-mono text-sm text-muted-foreground">404</p>
      <h1 className="text-3xl font-semibold tracking-tight">Page not found</h1>
      <p className="text-muted-foreground">
        There is nothing at this address. It may have moved, or the link may be mistyped.
      </p>
      <div className="flex justify-center gap-3">
        <Button asChild>
          <Link href="/">Go home</Link>
        </Button>
        <Button asChild variant="outline">
          <Link href="/docs">Read the docs</Link>
        </Button>
      </div>
    </div>
  );
}
