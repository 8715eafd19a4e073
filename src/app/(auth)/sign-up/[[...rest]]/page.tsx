import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { safeRedirectPath } from "@/core/auth/redirect";
import { AuthCard } from "@/features/auth/auth-card";
import { SignUpForm } from "@/features/auth/sign-up-form";
import { InvalidInvitation, InvitationBanner } from "@/features/onboarding/invitation-notice";
import { invitationIdIn, previewInvitation } from "@/features/onboarding/invitation-preview";
import { getViewer } from "@/server/authz";

export const metadata: Metadata = {
  title: "Create your account",
  description:
    "Create a free Abacus account: exact decimals, every currency and signed receipts for your team.",
};

// Every sub-path (/sign-up/anything) reaches this screen.
export default async function SignUpPage({
  searchParams,
}: {
  searchParams: Promise<{ redirect_url?: string }>;
}) {
  const { redirect_url } = await searchParams;
  const target = safeRedirectPath(redirect_url, "/onboarding");
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
          <Link
            href={`/sign-in${keep}${invitation ? "&have_account=1" : ""}`}
            className="font-medium text-primary underline-offset-4 hover:underline"
          >
            Sign in
          </Link>
        </>
      }
    >
      <SignUpForm redirectUrl={target} email={invitation?.email} />
    </AuthCard>
  );
}
