import { asc, eq } from "drizzle-orm";
import type { Metadata } from "next";
import { SettingsSection } from "@/components/ui/section";
import { PasskeySettings } from "@/features/account/passkey-settings";
import {
  DeleteAccountForm,
  EmailForm,
  NameForm,
  PasswordForm,
  SessionList,
} from "@/features/account/profile-forms";
import { SecurityEventList, TwoFactorSettings, VerifyEmailNotice } from "@/features/account/security-forms";
import { activeSessions, describeDevice } from "@/features/account/server";
import { listSecurityEvents, SECURITY_EVENT_TITLES } from "@/server/auth/security-events";
import { requireUser } from "@/server/authz";
import { getDb } from "@/server/db/client";
import { passkey, user } from "@/server/db/schema";

export const metadata: Metadata = { title: "Your profile" };

const when = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

// Every sub-path (/user-profile/security, …) reaches this screen.
export default async function UserProfilePage({ params }: { params: Promise<{ rest?: string[] }> }) {
  const { rest } = await params;
  const viewer = await requireUser("/user-profile", { allowOnboarding: true });
  const db = getDb();
  const [sessions, events, [flags], passkeys] = await Promise.all([
    activeSessions(db, viewer.user.id),
    listSecurityEvents(db, viewer.user.id),
    db.select({ twoFactorEnabled: user.twoFactorEnabled }).from(user).where(eq(user.id, viewer.user.id)),
    db
      .select({
        id: passkey.id,
        name: passkey.name,
        createdAt: passkey.createdAt,
        backedUp: passkey.backedUp,
      })
      .from(passkey)
      .where(eq(passkey.userId, viewer.user.id))
      .orderBy(asc(passkey.createdAt)),
  ]);
  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-12 sm:px-6">
      <div>
        <h1 className="text-3xl font-semibold tracking-tight">Your profile</h1>
        <p className="mt-2 text-muted-foreground">Signed in as {viewer.user.email}</p>
      </div>
      {viewer.user.emailVerified ? null : (
        <VerifyEmailNotice
          email={viewer.user.email}
          reason={
            rest?.[0] === "verify-email"
              ? "That page needs a confirmed email address. Open the link we sent you, then try again."
              : undefined
          }
        />
      )}
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
        <PasswordForm userInputs={[viewer.user.name, viewer.user.email]} />
      </SettingsSection>
      <SettingsSection
        id="two-factor"
        title="Two-factor authentication"
        description="A code from an authenticator app at each sign-in, with backup codes in case you lose it."
      >
        <TwoFactorSettings enabled={flags?.twoFactorEnabled ?? false} />
      </SettingsSection>
      <SettingsSection
        id="passkeys"
        title="Passkeys"
        description="Sign in without a password, with your device's screen lock or a security key."
      >
        <PasskeySettings
          passkeys={passkeys.map((p, i) => ({
            id: p.id,
            name: p.name || `Passkey ${i + 1}`,
            added: p.createdAt ? `${when.format(p.createdAt)} UTC` : "",
            synced: p.backedUp,
          }))}
        />
      </SettingsSection>
      <SettingsSection
        id="security"
        title="Security events"
        description="Recent sign-ins from new devices and changes to how you sign in."
      >
        <SecurityEventList
          events={events.map((e) => ({
            id: e.id,
            title: SECURITY_EVENT_TITLES[e.kind],
            when: `${when.format(e.createdAt)} UTC`,
            detail: e.kind === "new-device-sign-in" && e.userAgent ? describeDevice(e.userAgent) : e.detail,
          }))}
        />
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
