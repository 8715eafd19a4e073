import "server-only";
import nodemailer from "nodemailer";

/** Invitation emails over SMTP (only when SMTP_URL is set; otherwise the inviter copies the link). */
export function createInvitationMailer(smtpUrl: string, from: string) {
  const transport = nodemailer.createTransport(smtpUrl);
  return async (invite: { email: string; organizationName: string; inviterName: string; link: string }) => {
    await transport.sendMail({
      from,
      to: invite.email,
      subject: `${invite.inviterName} invited you to ${invite.organizationName} on Abacus`,
      text: [
        `${invite.inviterName} invited you to join ${invite.organizationName} on Abacus.`,
        "",
        `Accept the invitation: ${invite.link}`,
        "",
        "The link works for 7 days. If you did not expect this, you can ignore this email.",
      ].join("\n"),
    });
  };
}
