"use client";

import { Building2, Check, Plus } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import { switchOrganizationAction } from "@/server/auth/session-actions";
import { type MeSummary, refreshViewer } from "./viewer-store";

// Kept apart from `./org-switcher` (Radix dropdown): the phone menu is on every page, and importing
// the dropdown module from it put Radix Menu and its layers into every page's first load.

/** Switches the active organization, announces it, and refreshes what is on screen. */
export function useSwitchOrganization() {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  function switchTo(organizationId: string, name: string, after?: () => void) {
    startTransition(async () => {
      const result = await callAction(() => switchOrganizationAction({ organizationId }));
      if (!result) return;
      if (!result.ok) {
        notify.error(result.error);
        return;
      }
      notify.success(`Switched to ${name}.`);
      after?.();
      await refreshViewer();
      router.refresh();
    });
  }
  return { pending, switchTo };
}

/**
 * The switcher inside the phone menu (a native modal dialog, where a dropdown's portal would sit
 * behind it): the organizations as a list of buttons, the active one marked, then create/manage.
 */
export function OrgSwitchList({ me, onDone }: { me: MeSummary; onDone: () => void }) {
  const { pending, switchTo } = useSwitchOrganization();
  const active = me.organizations.find((org) => org.id === me.activeOrganizationId);
  return (
    <section aria-labelledby="mobile-org-heading" className="grid gap-1 border-t border-border pt-3">
      <h3 id="mobile-org-heading" className="px-3 text-xs font-medium text-muted-foreground">
        Organization
      </h3>
      {me.organizations.length === 0 ? (
        <p className="px-3 py-2 text-sm text-muted-foreground">You are not in any organization yet.</p>
      ) : null}
      <ul className="grid gap-1">
        {me.organizations.map((org) => {
          const current = org.id === me.activeOrganizationId;
          return (
            <li key={org.id}>
              <button
                type="button"
                aria-pressed={current}
                disabled={pending}
                onClick={() => (current ? onDone() : switchTo(org.id, org.name, onDone))}
                className="flex w-full items-center gap-2 rounded-md px-3 py-3 text-left text-base hover:bg-muted aria-pressed:bg-muted aria-pressed:font-medium disabled:opacity-50"
              >
                <Building2 className="size-4 shrink-0 text-muted-foreground" aria-hidden />
                <span className="min-w-0 flex-1 truncate">{org.name}</span>
                <span className="text-xs text-muted-foreground">{org.role}</span>
                {current ? <Check className="size-4" aria-hidden /> : null}
              </button>
            </li>
          );
        })}
      </ul>
      <Link
        href="/organization-profile?create=1"
        onClick={onDone}
        className="flex items-center gap-2 rounded-md px-3 py-3 text-base hover:bg-muted"
      >
        <Plus className="size-4 text-muted-foreground" aria-hidden /> Create organization
      </Link>
      {active ? (
        <Link
          href="/organization-profile"
          onClick={onDone}
          className="flex items-center gap-2 rounded-md px-3 py-3 text-base hover:bg-muted"
        >
          <Building2 className="size-4 text-muted-foreground" aria-hidden />
          <span className="min-w-0 truncate">Manage {active.name}</span>
        </Link>
      ) : null}
    </section>
  );
}
