import type { mailKinds } from "../db/schema";

export type MailKind = (typeof mailKinds)[number];
export type MailMessage = {
  kind: MailKind;
  subject: string;
  text: string;
  html: string;
  /** A confirmation code the message carries (printed with its link on a local instance). */
  code?: string;
};

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export type Block = { p: string } | { link: string; label: string } | { small: string };

/** One message in two forms: plain text and a simple, accessible HTML version of the same words. */
export function compose(kind: MailKind, origin: string, subject: string, blocks: Block[]): MailMessage {
  const text = [
    ...blocks.map((b) => ("p" in b ? b.p : "link" in b ? `${b.label}: ${b.link}` : b.small)),
    "",
    `Abacus · ${origin}`,
  ].join("\n\n");
  const body = blocks
    .map((b) =>
      "p" in b
        ? `<p style="margin:0 0 16px">${escapeHtml(b.p)}</p>`
        : "link" in b
          ? `<p style="margin:0 0 16px"><a href="${escapeHtml(b.link)}" style="display:inline-block;padding:10px 16px;border-radius:6px;background:#18181b;color:#ffffff;text-decoration:none;font-weight:600">${escapeHtml(b.label)}</a></p><p style="margin:0 0 16px;font-size:13px;color:#52525b;word-break:break-all">${escapeHtml(b.link)}</p>`
          : `<p style="margin:0 0 16px;font-size:13px;color:#52525b">${escapeHtml(b.small)}</p>`,
    )
    .join("\n");
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#fafafa;font-family:system-ui,-apple-system,'Segoe UI',sans-serif;color:#18181b;line-height:1.5">
<div style="max-width:520px;margin:0 auto;background:#ffffff;border:1px solid #e4e4e7;border-radius:8px;padding:24px">
<p style="margin:0 0 20px;font-weight:700;letter-spacing:-0.01em">Abacus</p>
${body}
<p style="margin:24px 0 0;font-size:12px;color:#71717a">Sent by <a href="${escapeHtml(origin)}" style="color:#71717a">${escapeHtml(origin)}</a></p>
</div></body></html>`;
  return { kind, subject, text: text.trim(), html };
}

export const mailTemplates = {
  verifyEmail(origin: string, link: string, code: string): MailMessage {
    return {
      ...compose("verify-email", origin, "Confirm your email address", [
        { p: "Welcome to Abacus. Confirm that this is your email address to finish creating your account." },
        { p: `Your confirmation code: ${code}` },
        { p: "Type it on the screen where you signed up, or open this link:" },
        { link, label: "Confirm email address" },
        {
          small:
            "The code and the link work for 24 hours. If you did not sign up for Abacus, ignore this email: nobody can use the address without them.",
        },
      ]),
      code,
    };
  },
  accountExists(origin: string): MailMessage {
    return compose("account-exists", origin, "You already have an Abacus account", [
      { p: "Someone tried to create an Abacus account with this email address, but you already have one." },
      { link: new URL("/sign-in", origin).toString(), label: "Sign in" },
      { p: "Forgotten your password? You can set a new one:" },
      { link: new URL("/sign-in/forgot-password", origin).toString(), label: "Reset password" },
      { small: "If this was not you, no action is needed: nothing has changed." },
    ]);
  },
  resetPassword(origin: string, link: string): MailMessage {
    return compose("reset-password", origin, "Reset your Abacus password", [
      { p: "We received a request to reset the password of your Abacus account." },
      { link, label: "Choose a new password" },
      {
        small:
          "The link works once, for 1 hour. Setting a new password signs out every device. If you did not ask for this, ignore this email: your password stays as it is.",
      },
    ]);
  },
  changeEmail(origin: string, link: string, newEmail: string): MailMessage {
    return compose("change-email", origin, "Confirm your new email address", [
      { p: `Confirm ${newEmail} as the email address of your Abacus account.` },
      { link, label: "Confirm new address" },
      { small: "The link works for 24 hours. Until you confirm, your account keeps its current address." },
    ]);
  },
  invitation(
    origin: string,
    invite: { inviterName: string; organizationName: string; link: string },
  ): MailMessage {
    return compose(
      "invitation",
      origin,
      `${invite.inviterName} invited you to ${invite.organizationName} on Abacus`,
      [
        { p: `${invite.inviterName} invited you to join ${invite.organizationName} on Abacus.` },
        { link: invite.link, label: "Accept the invitation" },
        {
          small:
            "The link works for 7 days. You will need to confirm this email address first. If you did not expect this, you can ignore this email.",
        },
      ],
    );
  },
  security(origin: string, event: { title: string; detail: string; when: string }): MailMessage {
    return compose("security", origin, `Security notice: ${event.title.toLowerCase()}`, [
      { p: `${event.title} on ${event.when}.` },
      { p: event.detail },
      {
        p: "If this was you, there is nothing to do. If it was not, reset your password now and review your sessions.",
      },
      { link: new URL("/user-profile#security", origin).toString(), label: "Review account security" },
    ]);
  },
};
