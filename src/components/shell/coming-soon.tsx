import { Construction } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";

/** An honest placeholder for a screen whose feature has not been built yet. No invented data. */
export function ComingSoon({ title, description }: { title: string; description: string }) {
  return (
    <div className="mx-auto max-w-2xl px-4 py-16 sm:px-6 sm:py-24">
      <h1 className="text-3xl font-semibold tracking-tight">{title}</h1>
      <div className="mt-8 rounded-lg border border-dashed border-border bg-muted/40 p-6 sm:p-8">
        <div className="flex items-start gap-4">
          <Construction className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />
          <div className="grid gap-3">
            <p className="font-medium">Coming soon</p>
            <p className="text-sm leading-6 text-muted-foreground">{description}</p>
            <div>
              <Button asChild variant="outline" size="sm">
                <Link href="/">Back to home</Link>
              </Button>
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}
