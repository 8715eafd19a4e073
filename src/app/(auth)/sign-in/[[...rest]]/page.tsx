import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { safeRedirectPath } from "@/core/auth/redirect";
import { AuthCard } from "@/features/auth/auth-card";
import { FactorTwoForm } from "@/features/auth/factor-two-form";
import { ForgotPasswordForm } from "@/features/auth/forgot-password-form";
import { PasskeySignIn } from "@/features/auth/passkey-sign-in";
import { ResetPasswordForm } from "@/features/auth/reset-password-form";
import { SignInForm } from "@/features/auth/sign-in-form";
import { InvalidInvitation, InvitationBanner } from "@/features/onboarding/invitation-notice";
import { invitationIdIn, previewInvitation } from "@/features/onboarding/server";
import { getViewer } from "@/server/authz";

const TITLES: Record<string, string> = {
  "forgot-password": "Forgot your password?",
  "reset-password": "Choose a new password",
  "factor-two": "Two-factor authentication",
};

export async function generateMetadata({
  params,
}: {
  params: Promise<{ rest?: string[] }>;
}): Promise<Metadata> {
  const { rest } = await params;
  return {
    title: TITLES[rest?.[0] ?? ""] ?? "Sign in",
    description: "Sign in to Abacus with your password or a passkey.",
  };
}

const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

// Every sub-path (/sign-in/anything) reaches this screen; a few name steps of signing in.
export default async function SignInPage({
  params,
  searchParams,
}: {
  params: Promise<{ rest?: string[] }>;
  searchParams: Promise<{ redirect_url?: string; token?: string; error?: string; have_account?: string }>;
}) {
  const [{ rest }, { redirect_url, token, error, have_account }] = await Promise.all([params, searchParams]);
  const screen = rest?.[0] ?? "";
  const target = safeRedirectPath(redirect_url);
  const backToSignIn = (
    <>
      Remembered it?{" "}
      <Link href="/sign-in" className={linkClass}>
        Back to sign in
      </Link>
    </>
  );

  if (screen === "reset-password") {
    const usable = token && !error;
    return (
      <AuthCard
        title={TITLES[screen] ?? ""}
        description={
          usable
            ? "Setting a new password signs out every device, this one included."
            : "This reset link has expired or was already used."
        }
        footer={backToSignIn}
      >
        {usable ? (
          <ResetPasswordForm token={token} />
        ) : (
          <Link href="/sign-in/forgot-password" className={linkClass}>
            Ask for a new link
          </Link>
        )}
      </AuthCard>
    );
  }

  if (screen === "factor-two") {
    return (
      <AuthCard
        title={TITLES[screen] ?? ""}
        description="Your account is protected by a second step."
        footer={
          <>
            Lost your device and your backup codes? Contact the instance's administrators.{" "}
            <Link href="/sign-in" className={linkClass}>
              Start over
            </Link>
          </>
        }
      >
        <FactorTwoForm redirectUrl={target} />
      </AuthCard>
    );
  }

  if (await getViewer()) redirect(target);

  if (screen === "forgot-password") {
    return (
      <AuthCard
        title={TITLES[screen] ?? ""}
        description="Enter the email address of your account and we will send you a link to choose a new password."
        footer={backToSignIn}
      >
        <ForgotPasswordForm />
      </AuthCard>
    );
  }

  const keep = redirect_url && target !== "/dashboard" ? `?redirect_url=${encodeURIComponent(target)}` : "";
  // Arrived from an invitation link: say who invited them to what (or that the link is dead).
  const invitationId = invitationIdIn(target);
  const invitation = invitationId ? await previewInvitation(invitationId) : null;
  if (invitation?.status === "invalid") return <InvalidInvitation />;
  // An invitation to an address with no account yet: sign-up, with the address filled in (unless
  // the person came from sign-up saying they have an account).
  if (invitation && !invitation.hasAccount && !have_account) redirect(`/sign-up${keep}`);
  return (
    <AuthCard
      notice={invitation ? <InvitationBanner preview={invitation} /> : null}
      title="Sign in"
      description="Welcome back. Sign in to your Abacus account."
      footer={
        <>
          New to Abacus?{" "}
          <Link href={`/sign-up${keep}`} className={linkClass}>
            Create an account
          </Link>
        </>
      }
    >
      <SignInForm redirectUrl={target} email={invitation?.email} />
      <div className="my-4 flex items-center gap-3 text-xs text-muted-foreground">
        <span className="h-px flex-1 bg-border" />
        or
        <span className="h-px flex-1 bg-border" />
      </div>
      <PasskeySignIn redirectUrl={target} />
    </AuthCard>
  );
}
