import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { safeRedirectPath } from "@/core/auth/redirect";
import { AuthCard } from "@/features/auth/auth-card";
import { ConfirmCodeForm, ConfirmLinkCard } from "@/features/auth/confirm-email";
import { currentAttempt, linkTarget, mailHint } from "@/features/auth/server";
import { SignUpForm } from "@/features/auth/sign-up-form";
import { InvalidInvitation, InvitationBanner } from "@/features/onboarding/invitation-notice";
import { invitationIdIn, previewInvitation } from "@/features/onboarding/server";
import { getViewer } from "@/server/authz";

export const metadata: Metadata = {
  title: "Create your account",
  description:
    "Create a free Abacus account: exact decimals, every currency and signed receipts for your team.",
};

const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

/** /sign-up/confirm: the code screen after signing up, or (with ?token=) the page an emailed link opens. */
async function ConfirmScreen({ token, target }: { token?: string; target: string }) {
  const viewer = await getViewer();
  if (token) {
    const link = await linkTarget(token);
    return (
      <ConfirmLinkCard token={token} email={link?.email ?? null} signedInAs={viewer?.user.email ?? null} />
    );
  }
  if (viewer) redirect(target);
  const attempt = await currentAttempt();
  return (
    <AuthCard
      title="Check your email"
      description={
        attempt ? "One last step: confirm that the address is yours." : "This confirmation has ended."
      }
      footer={
        <>
          Already confirmed?{" "}
          <Link href={`/sign-in?redirect_url=${encodeURIComponent(target)}`} className={linkClass}>
            Sign in
          </Link>
        </>
      }
    >
      {attempt ? (
        <ConfirmCodeForm email={attempt.email} redirectUrl={target} hint={mailHint()} />
      ) : (
        <p className="text-sm text-muted-foreground">
          It is older than 24 hours or was opened in another browser. Open the link from the email, or{" "}
          <Link href="/sign-up" className={linkClass}>
            sign up again
          </Link>{" "}
          for a new code.
        </p>
      )}
    </AuthCard>
  );
}

// Every sub-path (/sign-up/anything) reaches this screen; /sign-up/confirm confirms the address.
export default async function SignUpPage({
  params,
  searchParams,
}: {
  params: Promise<{ rest?: string[] }>;
  searchParams: Promise<{ redirect_url?: string; token?: string }>;
}) {
  const [{ rest }, { redirect_url, token }] = await Promise.all([params, searchParams]);
  const target = safeRedirectPath(redirect_url, "/onboarding");
  if (rest?.[0] === "confirm") return <ConfirmScreen token={token} target={target} />;
  if (await getViewer()) redirect(safeRedirectPath(redirect_url));
  const keep = redirect_url ? `?redirect_url=${encodeURIComponent(target)}` : "";
  const invitationId = invitationIdIn(target);
  const invitation = invitationId ? await previewInvitation(invitationId) : null;
  if (invitation?.status === "invalid") return <InvalidInvitation />;
  return (
    <AuthCard
      notice={invitation ? <InvitationBanner preview={invitation} /> : null}
      title="Create your account"
      description="Free to start. No card needed."
      footer={
        <>
          Already have an account?{" "}
          <Link href={`/sign-in${keep}${invitation ? "&have_account=1" : ""}`} className={linkClass}>
            Sign in
          </Link>
        </>
      }
    >
      <SignUpForm redirectUrl={target} email={invitation?.email} />
    </AuthCard>
  );
}
