"use client";

import { Building2, Check, ChevronsUpDown, LayoutDashboard, LogOut, Plus, Shield, User } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { switchOrganizationAction } from "@/server/auth/session-actions";
import { signOutAndLeave } from "./sign-out";
import { type MeSummary, refreshViewer } from "./viewer-store";

const trigger =
  "inline-flex h-9 items-center gap-2 rounded-md border border-border px-2.5 text-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring";

function initials(name: string) {
  const parts = name.trim().split(/\s+/);
  return ((parts[0]?.[0] ?? "") + (parts.length > 1 ? (parts.at(-1)?.[0] ?? "") : "")).toUpperCase() || "?";
}

export function SignedInMenus({ me }: { me: MeSummary }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const active = me.organizations.find((org) => org.id === me.activeOrganizationId);

  function switchTo(organizationId: string, name: string) {
    startTransition(async () => {
      const result = await callAction(() => switchOrganizationAction({ organizationId }));
      if (!result) return;
      if (!result.ok) {
        notify.error(result.error);
        return;
      }
      notify.success(`Switched to ${name}.`);
      await refreshViewer();
      router.refresh();
    });
  }

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger
          className={trigger}
          aria-label={`Organization: ${active?.name ?? "none"}`}
          disabled={pending}
        >
          <Building2 className="size-4 text-muted-foreground" aria-hidden />
          <span className="hidden max-w-36 truncate lg:inline" data-testid="active-organization">
            {active?.name ?? "No organization"}
          </span>
          <ChevronsUpDown className="size-3.5 text-muted-foreground" aria-hidden />
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

      <DropdownMenu>
        <DropdownMenuTrigger className={`${trigger} px-1.5`} aria-label="Account menu">
          <span className="grid size-6 place-items-center rounded-full bg-accent text-[11px] font-semibold text-accent-foreground">
            {initials(me.user.name)}
          </span>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-60">
          <DropdownMenuLabel className="grid gap-0.5">
            <span className="truncate text-sm font-medium text-foreground">{me.user.name}</span>
            <span className="truncate">{me.user.email}</span>
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuItem asChild>
            <Link href="/dashboard">
              <LayoutDashboard aria-hidden /> Dashboard
            </Link>
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <Link href="/user-profile">
              <User aria-hidden /> Profile
            </Link>
          </DropdownMenuItem>
          {me.user.isAdmin ? (
            <DropdownMenuItem asChild>
              <Link href="/admin">
                <Shield aria-hidden /> Admin
              </Link>
            </DropdownMenuItem>
          ) : null}
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => void signOutAndLeave()}>
            <LogOut aria-hidden /> Sign out
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </>
  );
}
