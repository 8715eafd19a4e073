import { once } from "node:events";
import { createServer, type Server } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../../tests/support/db";
import { mailOutbox } from "../db/schema";
import { createMailer } from "./outbox";
import { createSmtpSender } from "./smtp";
import { mailTemplates } from "./templates";

let t: Awaited<ReturnType<typeof createTestDatabase>>;

// A minimal SMTP server on loopback that records what it is sent.
let server: Server;
let port = 0;
const received: string[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  server = createServer((socket) => {
    let inData = false;
    let buffer = "";
    let message = "";
    socket.write("220 test ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      let index = buffer.indexOf("\r\n");
      while (index >= 0) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            received.push(message);
            message = "";
            socket.write("250 queued\r\n");
          } else message += `${line}\n`;
        } else if (/^(EHLO|HELO)/i.test(line)) socket.write("250 test\r\n");
        else if (/^DATA/i.test(line)) {
          inData = true;
          socket.write("354 go ahead\r\n");
        } else if (/^QUIT/i.test(line)) {
          socket.end("221 bye\r\n");
        } else socket.write("250 ok\r\n");
        index = buffer.indexOf("\r\n");
      }
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  port = typeof address === "object" && address ? address.port : 0;
});
afterAll(async () => {
  server.close();
  await t.drop();
});

describe("mail with SMTP_URL", () => {
  it("sends the invitation over SMTP and keeps it in the outbox as sent", async () => {
    const mailer = createMailer(t.db, {
      deliver: createSmtpSender(`smtp://127.0.0.1:${port}`, "Abacus <no-reply@abacus.test>"),
    });
    await mailer.send(
      "new.member@example.com",
      mailTemplates.invitation("https://abacus.test", {
        organizationName: "Acme",
        inviterName: "Olive",
        link: "https://abacus.test/onboarding?invitation=abc123",
      }),
    );
    await mailer.flush();
    expect(received).toHaveLength(1);
    // The body is quoted-printable: undo soft line breaks and =XX escapes.
    const mail = (received[0] ?? "")
      .replace(/=\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    expect(mail).toMatch(/^To: new\.member@example\.com$/m);
    expect(mail).toMatch(/^Subject: Olive invited you to Acme on Abacus$/m);
    expect(mail).toContain("https://abacus.test/onboarding?invitation=abc123");
    expect(mail).toMatch(/Content-Type: text\/html/);
    const rows = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, "new.member@example.com"));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "invitation", status: "sent" });
    expect(rows[0]?.sentAt).toBeInstanceOf(Date);
  });

  it("records a failed delivery on the outbox row", async () => {
    const mailer = createMailer(t.db, {
      deliver: async () => {
        throw new Error("connection refused");
      },
    });
    await mailer.send(
      "nobody@example.com",
      mailTemplates.verifyEmail("https://abacus.test", "https://abacus.test/v", "123456"),
    );
    await mailer.flush();
    const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, "nobody@example.com"));
    expect(row).toMatchObject({ status: "failed", error: "connection refused" });
  });

  it("without a mail server keeps the message (plain and HTML, with the instance URL)", async () => {
    const mailer = createMailer(t.db);
    await mailer.send(
      "kept@example.com",
      mailTemplates.resetPassword(
        "https://abacus.test",
        "https://abacus.test/sign-in/reset-password?token=t<1>",
      ),
    );
    const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, "kept@example.com"));
    expect(row).toMatchObject({
      status: "kept",
      kind: "reset-password",
      subject: "Reset your Abacus password",
    });
    expect(row?.text).toContain("https://abacus.test/sign-in/reset-password?token=t<1>");
    expect(row?.text).toContain("Abacus · https://abacus.test");
    // HTML escapes what it quotes.
    expect(row?.html).toContain("token=t&#60;1&#62;");
    expect(row?.html).not.toContain("t<1>");
  });
});
