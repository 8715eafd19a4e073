"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";

// Exists only in the end-to-end test build (next.config.ts adds the `e2e.tsx` page extension when
// ABACUS_E2E_PAGES=1): a real render-time exception, to prove the error fallback and its retry.
export default function ClientErrorProbe() {
  const [broken, setBroken] = useState(false);
  if (broken) throw new Error("E2E probe: a render-time exception");
  return (
    <div className="mx-auto max-w-xl px-4 py-16">
      <h1 className="text-2xl font-semibold">Client error probe</h1>
      <Button className="mt-6" onClick={() => setBroken(true)}>
        Break this page
      </Button>
    </div>
  );
}
