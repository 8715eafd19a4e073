"use client";

import dynamic from "next/dynamic";
import { type ComponentType, type MouseEvent, useEffect, useState } from "react";
import { Label } from "@/components/ui/input";
import { SimpleSelect } from "@/components/ui/select";
import { cn } from "@/lib/utils";
import { type Handoff, HandoffContext, type KeyHandoff } from "./handoff";
import { TOOLS, type ToolId } from "./tools/registry";

function ToolLoading() {
  return (
    <p className="py-12 text-center text-sm text-muted-foreground" role="status">
      Loading the tool…
    </p>
  );
}

// Each tool is a chunk of its own, fetched when it is first opened, so the workbench's own chunk
// (and the calculator's first load) does not grow with the tools.
const FORMS = Object.fromEntries(
  TOOLS.map((t) => [t.id, dynamic(t.form, { ssr: false, loading: ToolLoading })]),
) as Record<ToolId, ComponentType>;

const TOOL_OPTIONS = TOOLS.map((t) => ({ value: t.id, label: t.label }));

function toolFromUrl(): ToolId {
  const t = new URLSearchParams(window.location.search).get("tool");
  return TOOLS.find((x) => x.id === t)?.id ?? "hash";
}

function hrefFor(id: ToolId): string {
  const url = new URL(window.location.href);
  url.searchParams.set("mode", "crypto");
  url.searchParams.set("tool", id);
  return `${url.pathname}${url.search}`;
}

/**
 * The Crypto mode: one tool per capability. The tool is kept in the URL (`?tool=`) with
 * history.replaceState, so it can be linked to and survives a reload without a server round trip.
 * Tools stay mounted once opened, so switching away and back keeps what was typed and any running job.
 */
export default function CryptoWorkbench() {
  const [tool, setTool] = useState<ToolId>("hash");
  const [opened, setOpened] = useState<ReadonlySet<ToolId>>(() => new Set<ToolId>());

  useEffect(() => {
    const initial = toolFromUrl();
    setTool(initial);
    setOpened(new Set([initial]));
  }, []);

  function select(id: ToolId) {
    setTool(id);
    setOpened((o) => (o.has(id) ? o : new Set([...o, id])));
    window.history.replaceState(window.history.state, "", hrefFor(id));
  }

  const [signKey, setSignKey] = useState<KeyHandoff | null>(null);
  const handoff: Handoff = {
    signKey,
    sendToSign: (key) => {
      setSignKey((old) => ({ ...key, n: (old?.n ?? 0) + 1 }));
      select("sign");
    },
  };

  const onLink = (id: ToolId) => (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0) return;
    e.preventDefault();
    select(id);
  };

  return (
    <HandoffContext value={handoff}>
      <div className="grid gap-6 md:grid-cols-[13rem_minmax(0,1fr)] md:gap-10">
        <div className="md:hidden">
          <Label htmlFor="crypto-tool-select">Tool</Label>
          <SimpleSelect
            id="crypto-tool-select"
            className="mt-2"
            value={tool}
            onValueChange={select}
            options={TOOL_OPTIONS}
          />
        </div>
        <nav aria-label="Crypto tools" className="hidden md:block">
          <ul className="sticky top-20 grid gap-1">
            {TOOLS.map((t) => {
              const Icon = t.icon;
              return (
                <li key={t.id}>
                  <a
                    href={`/calculator?mode=crypto&tool=${t.id}`}
                    onClick={onLink(t.id)}
                    aria-current={t.id === tool ? "page" : undefined}
                    className={cn(
                      "flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring",
                      "aria-[current=page]:bg-muted aria-[current=page]:text-foreground",
                    )}
                  >
                    <Icon className="size-4 shrink-0" aria-hidden />
                    {t.label}
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className="min-w-0">
          {TOOLS.map(({ id }) => {
            const Component = FORMS[id];
            return opened.has(id) ? (
              <div key={id} hidden={id !== tool} data-tool={id}>
                <Component />
              </div>
            ) : null;
          })}
        </div>
      </div>
    </HandoffContext>
  );
}
