import type { Metadata } from "next";
import { SettingsSection } from "@/components/ui/section";
import { memberRoleOf } from "@/core/auth/roles";
import { CreateOrganizationForm } from "@/features/organizations/create-organization-form";
import { DeleteOrganizationForm } from "@/features/organizations/delete-organization-form";
import { InviteForm } from "@/features/organizations/invite-form";
import { LeaveOrganization } from "@/features/organizations/leave-organization";
import { MembersTable } from "@/features/organizations/members-table";
import { OrganizationDetailsForm } from "@/features/organizations/organization-details-form";
import { PendingInvitations } from "@/features/organizations/pending-invitations";
import { PreferencesForm } from "@/features/organizations/preferences-form";
import {
  organizationMembers,
  organizationPreferences,
  pendingInvitations,
} from "@/features/organizations/server";
import { appOrigin } from "@/server/auth";
import { invitationLink } from "@/server/auth/auth";
import { loadMembership, requireUser } from "@/server/authz";
import { getDb } from "@/server/db/client";

export const metadata: Metadata = { title: "Organization" };

const day = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

// Every sub-path (/organization-profile/members, …) reaches this screen.
export default async function OrganizationProfilePage({
  searchParams,
}: {
  searchParams: Promise<{ create?: string }>;
}) {
  const viewer = await requireUser("/organization-profile");
  const { create } = await searchParams;
  const db = getDb();
  const membership = await loadMembership(db, viewer.user.id, viewer.activeOrganizationId);

  if (!membership || create) {
    return (
      <div className="mx-auto grid max-w-5xl gap-6 px-4 py-12 sm:px-6">
        <div>
          <h1 className="text-3xl font-semibold tracking-tight">
            {membership ? "Create an organization" : "You are not in an organization"}
          </h1>
          <p className="mt-2 text-muted-foreground">
            An organization holds a plan, calculation history, receipts and API keys, shared by its members.
          </p>
        </div>
        <SettingsSection id="create" title="New organization" description="You will be its owner.">
          <CreateOrganizationForm />
        </SettingsSection>
      </div>
    );
  }

  const { org, memberRole } = membership;
  const canManage = memberRole !== "member";
  const [members, invitations, preferences] = await Promise.all([
    organizationMembers(db, org.id),
    canManage ? pendingInvitations(db, org.id) : Promise.resolve([]),
    organizationPreferences(db, org.id),
  ]);
  const origin = appOrigin();
  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-12 sm:px-6">
      <div>
        <h1 className="text-3xl font-semibold tracking-tight">{org.name}</h1>
        <p className="mt-2 text-muted-foreground">
          You are {memberRole === "admin" ? "an admin" : `the ${memberRole === "owner" ? "owner" : "member"}`}{" "}
          of this organization.
        </p>
      </div>
      <SettingsSection id="details" title="Details" description="The organization's name and slug.">
        <OrganizationDetailsForm name={org.name} slug={org.slug} canEdit={canManage} />
      </SettingsSection>
      {preferences ? (
        <SettingsSection
          id="preferences"
          title="Preferences"
          description="Defaults for everyone's calculator: currency, rounding and precision."
        >
          <PreferencesForm {...preferences} canEdit={canManage} />
        </SettingsSection>
      ) : null}
      <SettingsSection id="members" title="Members" description={`${members.length} in ${org.name}.`}>
        <MembersTable
          viewerRole={memberRole}
          members={members.map((m) => ({
            id: m.id,
            name: m.name,
            email: m.email,
            role: memberRoleOf(m.role),
            joined: day.format(m.joined),
            isYou: m.userId === viewer.user.id,
          }))}
        />
      </SettingsSection>
      {canManage ? (
        <SettingsSection
          id="invitations"
          title="Invitations"
          description="Invite by email. Copy the link and send it; with a mail server configured it is also emailed."
        >
          <div className="grid gap-6">
            <InviteForm viewerRole={memberRole} />
            <PendingInvitations
              canManage={canManage}
              invitations={invitations.map((inv) => ({
                id: inv.id,
                email: inv.email,
                role: inv.role ?? "member",
                expires: day.format(inv.expiresAt),
                link: invitationLink(origin, inv.id),
              }))}
            />
          </div>
        </SettingsSection>
      ) : null}
      <SettingsSection id="leave" title="Leave organization">
        <LeaveOrganization
          name={org.name}
          soleOwner={
            memberRole === "owner" && members.filter((m) => memberRoleOf(m.role) === "owner").length === 1
          }
        />
      </SettingsSection>
      {memberRole === "owner" ? (
        <SettingsSection id="delete" title="Delete organization" tone="danger">
          <DeleteOrganizationForm slug={org.slug} />
        </SettingsSection>
      ) : null}
    </div>
  );
}
