import "server-only";
import nodemailer from "nodemailer";
import type { MailMessage } from "./templates";

/** Sends over SMTP (SMTP_URL), plain text with an HTML alternative. */
export function createSmtpSender(smtpUrl: string, from: string) {
  const transport = nodemailer.createTransport(smtpUrl);
  return async (to: string, message: MailMessage) => {
    await transport.sendMail({ from, to, subject: message.subject, text: message.text, html: message.html });
  };
}
