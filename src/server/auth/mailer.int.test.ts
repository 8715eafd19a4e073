import { once } from "node:events";
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInvitationMailer } from "./mailer";

// A minimal SMTP server on loopback that records what it is sent.
let server: Server;
let port = 0;
const received: string[] = [];

beforeAll(async () => {
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
afterAll(() => {
  server.close();
});

describe("createInvitationMailer", () => {
  it("emails the invitation link over SMTP", async () => {
    const send = createInvitationMailer(`smtp://127.0.0.1:${port}`, "Abacus <no-reply@abacus.test>");
    await send({
      email: "new.member@example.com",
      organizationName: "Acme",
      inviterName: "Olive",
      link: "https://abacus.test/onboarding?invitation=abc123",
    });
    expect(received).toHaveLength(1);
    // The body is quoted-printable: undo soft line breaks and =XX escapes.
    const mail = (received[0] ?? "")
      .replace(/=\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    expect(mail).toMatch(/^To: new\.member@example\.com$/m);
    expect(mail).toMatch(/^Subject: Olive invited you to Acme on Abacus$/m);
    expect(mail).toContain("https://abacus.test/onboarding?invitation=abc123");
  });
});
