import type { Metadata } from "next";
import { SettingsSection } from "@/components/ui/section";
import {
  DeleteAccountForm,
  EmailForm,
  NameForm,
  PasswordForm,
  SessionList,
} from "@/features/account/profile-forms";
import { activeSessions, describeDevice } from "@/features/account/sessions";
import { requireUser } from "@/server/authz";
import { getDb } from "@/server/db/client";

export const metadata: Metadata = { title: "Your profile" };

const when = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

// Every sub-path (/user-profile/security, …) reaches this screen.
export default async function UserProfilePage() {
  const viewer = await requireUser("/user-profile", { allowOnboarding: true });
  const sessions = await activeSessions(getDb(), viewer.user.id);
  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-12 sm:px-6">
      <div>
        <h1 className="text-3xl font-semibold tracking-tight">Your profile</h1>
        <p className="mt-2 text-muted-foreground">Signed in as {viewer.user.email}</p>
      </div>
      <SettingsSection
        id="profile"
        title="Profile"
        description="Your name and the email address you sign in with."
      >
        <div className="grid gap-6">
          <NameForm name={viewer.user.name} />
          <EmailForm email={viewer.user.email} />
        </div>
      </SettingsSection>
      <SettingsSection
        id="password"
        title="Password"
        description="Changing it signs out your other sessions."
      >
        <PasswordForm />
      </SettingsSection>
      <SettingsSection id="sessions" title="Active sessions" description="Devices signed in to your account.">
        <SessionList
          sessions={sessions.map((s) => ({
            id: s.id,
            current: s.id === viewer.sessionId,
            device: describeDevice(s.userAgent),
            ip: s.ip,
            lastActive: `${when.format(s.updatedAt)} UTC`,
          }))}
        />
      </SettingsSection>
      <SettingsSection id="delete" title="Delete account" tone="danger">
        <DeleteAccountForm />
      </SettingsSection>
    </div>
  );
}
