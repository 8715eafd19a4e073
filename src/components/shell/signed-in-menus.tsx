"use client";

import { LayoutDashboard, LogOut, Shield, User } from "lucide-react";
import Link from "next/link";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { OrgSwitcher } from "./org-switcher";
import { signOutAndLeave } from "./sign-out";
import { initials } from "./viewer-hint-client";
import type { MeSummary } from "./viewer-store";

const trigger =
  "inline-flex h-9 items-center gap-2 rounded-md border border-border px-2.5 text-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring";

export function SignedInMenus({ me }: { me: MeSummary }) {
  return (
    <>
      <OrgSwitcher me={me} testId="active-organization" />

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
