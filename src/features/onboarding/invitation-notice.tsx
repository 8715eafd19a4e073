import Link from "next/link";
import type { InvitationPreview } from "./invitation-preview";

const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

/** "You've been invited to … by …", above the sign-in or sign-up form an invitation link led to. */
export function InvitationBanner({ preview }: { preview: Extract<InvitationPreview, { status: "valid" }> }) {
  return (
    <div
      className="rounded-lg border border-primary/40 bg-primary/5 p-4 text-sm"
      data-testid="invitation-banner"
    >
      <p className="font-medium">
        You've been invited to {preview.organizationName} by {preview.inviterName}.
      </p>
      <p className="mt-1 text-muted-foreground">
        It was sent to <span className="font-medium break-all text-foreground">{preview.email}</span>.{" "}
        {preview.hasAccount ? "Sign in" : "Create your account"} with that address; you will come back here to
        accept it.
      </p>
    </div>
  );
}

/** An invitation link that no longer works: say so plainly, and offer the way forward. */
export function InvalidInvitation() {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12 sm:py-20">
      <div className="rounded-lg border border-border bg-card p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-semibold tracking-tight">This invitation can't be used</h1>
        <p className="mt-2 text-sm text-muted-foreground">
          It has expired, was cancelled, or was already accepted. Ask the person who invited you for a new
          link.
        </p>
        <p className="mt-6 text-sm">
          Already have an account?{" "}
          <Link href="/sign-in" className={linkClass}>
            Sign in
          </Link>{" "}
          or{" "}
          <Link href="/" className={linkClass}>
            go to the home page
          </Link>
          .
        </p>
      </div>
    </div>
  );
}
