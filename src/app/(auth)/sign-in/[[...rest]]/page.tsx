import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { safeRedirectPath } from "@/core/auth/redirect";
import { AuthCard } from "@/features/auth/auth-card";
import { SignInForm } from "@/features/auth/sign-in-form";
import { getViewer } from "@/server/authz";

export const metadata: Metadata = { title: "Sign in" };

// Every sub-path (/sign-in/anything) reaches this screen.
export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ redirect_url?: string }>;
}) {
  const { redirect_url } = await searchParams;
  const target = safeRedirectPath(redirect_url);
  if (await getViewer()) redirect(target);
  const keep = redirect_url && target !== "/dashboard" ? `?redirect_url=${encodeURIComponent(target)}` : "";
  return (
    <AuthCard
      title="Sign in"
      description="Welcome back. Sign in to your Abacus account."
      footer={
        <>
          New to Abacus?{" "}
          <Link
            href={`/sign-up${keep}`}
            className="font-medium text-primary underline-offset-4 hover:underline"
          >
            Create an account
          </Link>
        </>
      }
    >
      <SignInForm redirectUrl={target} />
    </AuthCard>
  );
}
