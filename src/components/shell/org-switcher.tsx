"use client";

import { Building2, Check, ChevronsUpDown, Plus } from "lucide-react";
import Link from "next/link";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { cn } from "@/lib/utils";
import { useSwitchOrganization } from "./org-switch-list";
import type { MeSummary } from "./viewer-store";

const trigger =
  "inline-flex h-9 items-center gap-2 rounded-md border border-border px-2.5 text-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring";

/**
 * The organization switcher: lists the user's organizations, switches the active one, and links to
 * creating and managing one. Used by the header (from 640 px) and the app shell on phones.
 */
export function OrgSwitcher({
  me,
  className,
  nameClassName = "hidden max-w-36 truncate lg:inline",
  testId,
}: {
  me: MeSummary;
  className?: string;
  nameClassName?: string;
  testId?: string;
}) {
  const { pending, switchTo } = useSwitchOrganization();
  const active = me.organizations.find((org) => org.id === me.activeOrganizationId);

  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className={cn(trigger, className)}
        aria-label={`Organization: ${active?.name ?? "none"}`}
        disabled={pending}
      >
        <Building2 className="size-4 shrink-0 text-muted-foreground" aria-hidden />
        <span className={nameClassName} data-testid={testId}>
          {active?.name ?? "No organization"}
        </span>
        <ChevronsUpDown className="size-3.5 shrink-0 text-muted-foreground" aria-hidden />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuLabel>Organizations</DropdownMenuLabel>
        {me.organizations.map((org) => (
          <DropdownMenuItem
            key={org.id}
            onSelect={() => (org.id === me.activeOrganizationId ? undefined : switchTo(org.id, org.name))}
          >
            <span className="flex-1 truncate">{org.name}</span>
            <span className="text-xs text-muted-foreground">{org.role}</span>
            {org.id === me.activeOrganizationId ? <Check aria-label="Active" /> : null}
          </DropdownMenuItem>
        ))}
        {me.organizations.length === 0 ? (
          <p className="px-2 py-1.5 text-sm text-muted-foreground">You are not in any organization yet.</p>
        ) : null}
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link href="/organization-profile?create=1">
            <Plus aria-hidden /> Create organization
          </Link>
        </DropdownMenuItem>
        {active ? (
          <DropdownMenuItem asChild>
            <Link href="/organization-profile">
              <Building2 aria-hidden /> Manage {active.name}
            </Link>
          </DropdownMenuItem>
        ) : null}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
