import { execFileSync, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { blake3 } from "@noble/hashes/blake3.js";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { chooseOption } from "./pickers";

// The Crypto mode of /calculator, used as a person would: fill, click, read. Reference values are
// RFC/FIPS vectors or come from the `openssl` command line.

const tmp = mkdtempSync(path.join(tmpdir(), "abacus-crypto-e2e-"));
test.afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const openssl = (args: string[], input?: Buffer | string) =>
  execFileSync("openssl", args, { input, stdio: ["pipe", "pipe", "pipe"] });

async function openTool(page: Page, tool: string) {
  await page.goto(`/calculator?mode=crypto&tool=${tool}`);
  await expect(page.locator(`[data-tool="${tool}"]`)).toBeVisible();
}

/** openssl pkeyutl options for what the workbench's RSA tool does: OAEP with SHA-256 and MGF1-SHA-256. */
const OAEP_SHA256 = [
  "-pkeyopt",
  "rsa_padding_mode:oaep",
  "-pkeyopt",
  "rsa_oaep_md:sha256",
  "-pkeyopt",
  "rsa_mgf1_md:sha256",
];
/** Key generation's algorithms by value, as its select shows them. */
const KEY_LABELS: Record<string, string> = {
  "RSA-2048": "RSA 2048",
  "EC-P-256": "EC P-256",
  Ed25519: "Ed25519 (signatures)",
  Ed448: "Ed448 (signatures)",
  X25519: "X25519 (key agreement)",
  X448: "X448 (key agreement)",
};
const SELF_SIGNED = "Self-signed certificate (openssl req -x509)";

const result = (page: Page | Locator, name: string) => page.getByRole("status", { name, exact: true });

/** The inline error a control points at with aria-describedby. */
async function errorOf(control: Locator) {
  await expect(control).toHaveAttribute("aria-invalid", "true");
  const ids = ((await control.getAttribute("aria-describedby")) ?? "").split(" ");
  const id = ids.find((i) => i.endsWith("-error"));
  expect(id, "aria-describedby names an error").toBeTruthy();
  return control.page().locator(`[id="${id}"]`);
}

async function generateKey(page: Page, algorithm: string, passphrase = "") {
  await openTool(page, "keys");
  await chooseOption(page.getByLabel("Algorithm"), KEY_LABELS[algorithm] ?? algorithm);
  if (passphrase) await page.getByLabel("Passphrase (optional)").fill(passphrase);
  await page.getByRole("button", { name: "Generate key pair" }).click();
  const priv = result(page, passphrase ? "Encrypted private key (PEM)" : "Private key (PEM)");
  await expect(priv).toContainText("-----END", { timeout: 20_000 });
  const publicPem = (await result(page, "Public key (PEM)").textContent()) ?? "";
  return { privatePem: (await priv.textContent()) ?? "", publicPem };
}

test("tools are listed, the chosen one is kept in the URL without a server round trip", async ({ page }) => {
  const navigations: string[] = [];
  page.on("request", (r) => {
    // Next prefetches the header's links as they scroll into view (`next-router-prefetch`), whenever
    // the page gets round to it: those are not a round trip of the tool switch.
    const prefetch = r.headers()["next-router-prefetch"] !== undefined;
    if (r.isNavigationRequest() || (r.url().includes("_rsc=") && !prefetch)) navigations.push(r.url());
  });
  await page.goto("/calculator?mode=crypto");
  await expect(page.getByText("Nothing you type, paste or open is sent to a server")).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Crypto tools" });
  for (const name of [
    "Hash",
    "HMAC",
    "PBKDF2",
    "HKDF",
    "Random bytes",
    "Key generation",
    "Key conversion",
    "Symmetric encryption",
    "RSA encryption",
    "Sign and verify",
    "Key agreement",
    "Certificates",
    "PEM/ASN.1 inspector",
    "JWT and JOSE",
    "OpenSSH keys",
    "PKCS#12 / PFX",
    "One-time passwords",
    "Recipes",
    "Verify receipt",
  ]) {
    await expect(nav.getByRole("link", { name })).toBeVisible();
  }
  await expect(page.getByRole("heading", { name: "Hash", level: 3 })).toBeVisible();
  navigations.length = 0;
  await nav.getByRole("link", { name: "HMAC" }).click();
  await expect(page.getByRole("heading", { name: "HMAC", level: 3 })).toBeVisible();
  await expect(page).toHaveURL(/[?&]tool=hmac/);
  await expect(nav.getByRole("link", { name: "HMAC" })).toHaveAttribute("aria-current", "page");
  expect(navigations).toEqual([]);

  // What was typed survives switching tools.
  await page.getByLabel("Message", { exact: true }).fill("kept");
  await nav.getByRole("link", { name: "Hash" }).click();
  await nav.getByRole("link", { name: "HMAC" }).click();
  await expect(page.getByLabel("Message", { exact: true })).toHaveValue("kept");

  await page.reload();
  await expect(page.getByRole("heading", { name: "HMAC", level: 3 })).toBeVisible();

  // Phones get a select instead of the list.
  await page.setViewportSize({ width: 375, height: 740 });
  await expect(nav).toBeHidden();
  await chooseOption(page.getByLabel("Tool", { exact: true }), "Key agreement");
  await expect(page.getByRole("heading", { name: "Key agreement", level: 3 })).toBeVisible();
  await expect(page).toHaveURL(/[?&]tool=agree/);

  await chooseOption(page.getByLabel("Tool", { exact: true }), "Verify receipt");
  await expect(page.getByRole("heading", { name: "Verify receipt", level: 3 })).toBeVisible();
  await expect(page.getByLabel("Receipt (receipt.json)")).toBeVisible();
});

test("hash: SHA-256 and SHA3-256 of abc, base64 output, and a specific error for bad hex", async ({
  page,
}) => {
  await openTool(page, "hash");
  await page.getByLabel("Input", { exact: true }).fill("abc");
  await page.getByRole("button", { name: "Hash", exact: true }).click();
  await expect(result(page, "Digest")).toHaveText(
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
  await expect(page.getByText("SHA-256 of 3 bytes: 32 bytes (256 bits)")).toBeVisible();

  await chooseOption(page.getByLabel("Algorithm"), "SHA3-256");
  await page.getByRole("button", { name: "Hash", exact: true }).click();
  await expect(result(page, "Digest")).toHaveText(
    "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532",
  );

  await chooseOption(page.getByLabel("Algorithm"), "RIPEMD-160");
  await chooseOption(page.getByLabel("Output"), "Base64");
  await page.getByRole("button", { name: "Hash", exact: true }).click();
  await expect(result(page, "Digest")).toHaveText(
    Buffer.from("8eb208f7e05d987a9b044a8e98c6b087f15a0bfc", "hex").toString("base64"),
  );

  await chooseOption(page.getByLabel("Input as"), "Hex");
  const input = page.getByLabel("Input", { exact: true });
  await input.fill("61 62 6z");
  await page.getByRole("button", { name: "Hash", exact: true }).click();
  await expect(await errorOf(input)).toHaveText('Invalid hex at position 8: unexpected "z"');
  await expect(input).toHaveValue("61 62 6z");

  await input.fill("61 62 63");
  await page.getByRole("button", { name: "Hash", exact: true }).click();
  await expect(result(page, "Digest")).toHaveText(
    Buffer.from("8eb208f7e05d987a9b044a8e98c6b087f15a0bfc", "hex").toString("base64"),
  );
  await expect(input).not.toHaveAttribute("aria-invalid", "true");
});

test("hash: a 3 MB file shows progress and matches openssl dgst", async ({ page }) => {
  const file = path.join(tmp, "three-megabytes.bin");
  writeFileSync(file, randomBytes(3 * 1024 * 1024));
  const expected = /= ([0-9a-f]{64})/.exec(openssl(["dgst", "-sha256", file]).toString())?.[1];
  expect(expected).toMatch(/^[0-9a-f]{64}$/);

  await openTool(page, "hash");
  // Remember every progress bar the page shows (it may be up for only a moment on a fast machine).
  await page.evaluate(() => {
    const w = window as unknown as { progressSeen: number[] };
    w.progressSeen = [];
    new MutationObserver(() => {
      const bar = document.querySelector<HTMLProgressElement>("progress");
      if (bar) w.progressSeen.push(bar.value / bar.max);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await chooseOption(page.getByLabel("Input as"), "File");
  await page.getByLabel("Input", { exact: true }).setInputFiles(file);
  await expect(page.getByText("three-megabytes.bin: 3 MiB")).toBeVisible();
  await page.getByRole("button", { name: "Hash", exact: true }).click();
  await expect(result(page, "Digest")).toHaveText(expected ?? "", { timeout: 15_000 });
  const seen = await page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
  expect(seen.length).toBeGreaterThan(0);
  expect(Math.max(...seen)).toBeGreaterThan(0);
  await expect(page.getByText("SHA-256 of 3 MiB")).toBeVisible();
});

test("hash: a file changed on disk after it was chosen is refused with a way out, not digested", async ({
  page,
}) => {
  const file = path.join(tmp, "changes-after-choosing.bin");
  writeFileSync(file, randomBytes(1024 * 1024));
  await openTool(page, "hash");
  await chooseOption(page.getByLabel("Input as"), "File");
  await page.getByLabel("Input", { exact: true }).setInputFiles(file);
  await expect(page.getByText("changes-after-choosing.bin: 1 MiB")).toBeVisible();
  appendFileSync(file, "one more line");
  await page.getByRole("button", { name: "Hash", exact: true }).click();
  await expect(await errorOf(page.getByLabel("Input", { exact: true }))).toContainText(
    "could not be read (changed, moved or deleted since it was chosen): choose it again",
  );
  await expect(result(page, "Digest")).not.toHaveText(/[0-9a-f]{64}/);
  // Chosen again, it is read as it is now.
  await page.getByLabel("Input", { exact: true }).setInputFiles(file);
  await page.getByRole("button", { name: "Hash", exact: true }).click();
  const expected = /= ([0-9a-f]{64})/.exec(openssl(["dgst", "-sha256", file]).toString())?.[1];
  await expect(result(page, "Digest")).toHaveText(expected ?? "-", { timeout: 15_000 });
});

test("HMAC: RFC 4231 test case 2", async ({ page }) => {
  await openTool(page, "hmac");
  await chooseOption(page.getByLabel("Input as").first(), "Text (UTF-8)");
  await page.getByLabel("Key", { exact: true }).fill("Jefe");
  await page.getByLabel("Message", { exact: true }).fill("what do ya want for nothing?");
  await page.getByRole("button", { name: "Compute HMAC" }).click();
  await expect(result(page, "MAC")).toHaveText(
    "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
  );
  await chooseOption(page.getByLabel("Hash", { exact: true }), "SHA-512");
  await page.getByRole("button", { name: "Compute HMAC" }).click();
  await expect(result(page, "MAC")).toHaveText(
    "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
  );
});

test("PBKDF2: RFC 6070 vectors, and a slow derivation can be cancelled", async ({ page }) => {
  await openTool(page, "pbkdf2");
  await page.getByLabel("Password (UTF-8)").fill("password");
  await page.getByLabel("Salt", { exact: true }).fill("salt");
  await page.getByLabel("Iterations").fill("2");
  await page.getByLabel("Length (bytes)").fill("20");
  await chooseOption(page.getByLabel("Hash", { exact: true }), "SHA-1 (legacy)");
  await page.getByRole("button", { name: "Derive", exact: true }).click();
  await expect(result(page, "Derived key")).toHaveText("ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957");

  await page.getByLabel("Iterations").fill("4096");
  await page.getByRole("button", { name: "Derive", exact: true }).click();
  await expect(result(page, "Derived key")).toHaveText("4b007901b765489abead49d926f721d065a429c1");

  await page.getByLabel("Iterations").fill("0");
  await page.getByRole("button", { name: "Derive", exact: true }).click();
  await expect(await errorOf(page.getByLabel("Iterations"))).toHaveText(
    "Iterations must be a whole number of at least 1",
  );

  // SHA3-512 PBKDF2 runs in JavaScript in the worker: ten million iterations take minutes.
  await page.getByLabel("Iterations").fill("10000000");
  await chooseOption(page.getByLabel("Hash", { exact: true }), "SHA3-512");
  await page.getByRole("button", { name: "Derive", exact: true }).click();
  await expect(page.getByText(/Working… \d/)).toBeVisible();
  // The page stays responsive while the worker grinds.
  await page.getByLabel("Password (UTF-8)").fill("still typing");
  await expect(page.getByLabel("Password (UTF-8)")).toHaveValue("still typing");
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByText("Cancelled. Your inputs are as you left them.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Derive", exact: true })).toBeEnabled();
  await expect(page.getByLabel("Iterations")).toHaveValue("10000000");
});

test("random bytes: the asked length, different every time", async ({ page }) => {
  await openTool(page, "random");
  await page.getByLabel("Length (bytes)").fill("16");
  await page.getByRole("button", { name: "Generate" }).click();
  await expect(result(page, "Random bytes")).toHaveText(/^[0-9a-f]{32}$/);
  const first = await result(page, "Random bytes").textContent();
  await page.getByRole("button", { name: "Generate" }).click();
  await expect(result(page, "Random bytes")).not.toHaveText(first ?? "");
  await expect(result(page, "Random bytes")).toHaveText(/^[0-9a-f]{32}$/);
  await page.getByLabel("Length (bytes)").fill("2000000");
  await page.getByRole("button", { name: "Generate" }).click();
  await expect(await errorOf(page.getByLabel("Length (bytes)"))).toHaveText(
    "Length must be a whole number of bytes from 1 to 1,048,576",
  );
});

test("keys: Ed25519 key pair, PEM that openssl reads, a .pem download, then sign and verify", async ({
  page,
}) => {
  const { privatePem, publicPem } = await generateKey(page, "Ed25519");
  expect(privatePem).toMatch(/^-----BEGIN PRIVATE KEY-----\n[\s\S]+-----END PRIVATE KEY-----\n?$/);
  await expect(result(page, "Public key (JWK)")).toContainText('"crv": "Ed25519"');
  const privFile = path.join(tmp, "ed-priv.pem");
  const pubFile = path.join(tmp, "ed-pub.pem");
  writeFileSync(privFile, privatePem);
  writeFileSync(pubFile, publicPem);
  expect(openssl(["pkey", "-in", privFile, "-pubout"]).toString()).toBe(`${publicPem.trimEnd()}\n`);

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download public key (pem) as ed25519-public.pem" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("ed25519-public.pem");
  expect(readFileSync((await file.path()) ?? "").toString()).toBe(publicPem);

  await openTool(page, "sign");
  const signForm = page.getByRole("form", { name: "Sign" });
  await signForm.getByLabel("Private key", { exact: true }).fill(privatePem);
  await signForm.getByLabel("Message", { exact: true }).fill("Pay 100.00 EUR to Ada");
  await signForm.getByRole("button", { name: "Sign", exact: true }).click();
  await expect(signForm.getByText("Ed25519 (pure)")).toBeVisible();
  const signature = (await result(page, "Signature").textContent()) ?? "";
  expect(Buffer.from(signature, "base64")).toHaveLength(64);

  // OpenSSL accepts it.
  writeFileSync(path.join(tmp, "msg.txt"), "Pay 100.00 EUR to Ada");
  writeFileSync(path.join(tmp, "sig.bin"), Buffer.from(signature, "base64"));
  const ok = openssl([
    "pkeyutl",
    "-verify",
    "-pubin",
    "-inkey",
    pubFile,
    "-rawin",
    "-in",
    path.join(tmp, "msg.txt"),
    "-sigfile",
    path.join(tmp, "sig.bin"),
  ]).toString();
  expect(ok).toContain("Signature Verified Successfully");

  await signForm.getByRole("button", { name: "Check it with Verify" }).click();
  const verifyForm = page.getByRole("form", { name: "Verify" });
  await expect(verifyForm.getByLabel("Public key or certificate")).toHaveValue(publicPem);
  await verifyForm.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(verifyForm.getByText("✓ Valid signature")).toBeVisible();

  await verifyForm.getByLabel("Message", { exact: true }).fill("Pay 900.00 EUR to Ada");
  await verifyForm.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(verifyForm.getByText("✗ Invalid signature")).toBeVisible();

  // A signature made by openssl verifies here: ECDSA P-256 over SHA-256, DER.
  const ecKey = path.join(tmp, "ec.pem");
  openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", ecKey]);
  const ecPub = openssl(["pkey", "-in", ecKey, "-pubout"]).toString();
  const ecSig = openssl(["dgst", "-sha256", "-sign", ecKey, path.join(tmp, "msg.txt")]);
  await verifyForm.getByLabel("Public key or certificate").fill(ecPub);
  await verifyForm.getByLabel("Message", { exact: true }).fill("Pay 100.00 EUR to Ada");
  await verifyForm.getByLabel("Signature", { exact: true }).fill(ecSig.toString("base64"));
  await chooseOption(verifyForm.getByLabel("Scheme"), "From the key");
  await verifyForm.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(verifyForm.getByText("✓ Valid signature")).toBeVisible();
  await expect(verifyForm.getByText("ECDSA with SHA-256, DER")).toBeVisible();
});

test("keys: a passphrase-protected key needs the right passphrase; wrong key types are named", async ({
  page,
}) => {
  const { privatePem } = await generateKey(page, "EC-P-256", "correct horse");
  expect(privatePem).toContain("-----BEGIN ENCRYPTED PRIVATE KEY-----");
  const keyFile = path.join(tmp, "enc.pem");
  writeFileSync(keyFile, privatePem);
  expect(
    openssl(["pkey", "-in", keyFile, "-passin", "pass:correct horse", "-noout", "-text"]).toString(),
  ).toContain("NIST CURVE: P-256");

  await openTool(page, "sign");
  const form = page.getByRole("form", { name: "Sign" });
  await form.getByLabel("Private key", { exact: true }).fill(privatePem);
  await form.getByLabel("Message", { exact: true }).fill("hello");
  await form.getByRole("button", { name: "Sign", exact: true }).click();
  await expect(form.getByText("This private key is encrypted: enter its passphrase")).toBeVisible();

  const pass = form.getByLabel("Passphrase (if the key is encrypted)");
  await pass.fill("battery staple");
  await form.getByRole("button", { name: "Sign", exact: true }).click();
  await expect(form.getByText("Wrong passphrase: the key could not be decrypted")).toBeVisible();
  await expect(pass).toHaveAttribute("aria-invalid", "true");
  await expect(pass).toHaveValue("battery staple");
  await expect(form.getByLabel("Private key", { exact: true })).toHaveValue(privatePem);

  await pass.fill("correct horse");
  await form.getByRole("button", { name: "Sign", exact: true }).click();
  await expect(form.getByText("ECDSA with SHA-256, DER")).toBeVisible();

  // Malformed PEM and a key that cannot sign each get their own message.
  await form.getByLabel("Private key", { exact: true }).fill("-----BEGIN PRIVATE KEY-----\nnot base64!\n");
  await form.getByRole("button", { name: "Sign", exact: true }).click();
  await expect(form.getByText(/Malformed PEM/)).toBeVisible();

  const x = await generateKey(page, "X25519");
  await openTool(page, "sign");
  await form.getByLabel("Private key", { exact: true }).fill(x.privatePem);
  await form.getByLabel("Message", { exact: true }).fill("hello");
  await form.getByRole("button", { name: "Sign", exact: true }).click();
  await expect(form.getByText(/Wrong key type: X25519 keys cannot sign/)).toBeVisible();
});

test("RSA: OAEP encrypt then decrypt round trip, and openssl decrypts our ciphertext", async ({ page }) => {
  test.setTimeout(60_000);
  const { privatePem, publicPem } = await generateKey(page, "RSA-2048");
  await openTool(page, "rsa");
  const enc = page.getByRole("form", { name: "Encrypt" });
  await enc.getByLabel("Public key", { exact: true }).fill(publicPem);
  await enc.getByLabel("Message", { exact: true }).fill("The vault code is 4711");
  await enc.getByRole("button", { name: "Encrypt", exact: true }).click();
  await expect(enc.getByText("This key and padding take messages of up to 190 bytes.")).toBeVisible();
  const ciphertext = (await result(page, "Ciphertext").textContent()) ?? "";
  expect(Buffer.from(ciphertext, "base64")).toHaveLength(256);

  const keyFile = path.join(tmp, "rsa.pem");
  writeFileSync(keyFile, privatePem);
  const plain = openssl(
    ["pkeyutl", "-decrypt", "-inkey", keyFile, ...OAEP_SHA256],
    Buffer.from(ciphertext, "base64"),
  ).toString();
  expect(plain).toBe("The vault code is 4711");

  const dec = page.getByRole("form", { name: "Decrypt" });
  await dec.getByLabel("Private key", { exact: true }).fill(privatePem);
  await dec.getByLabel("Ciphertext", { exact: true }).fill(ciphertext);
  await dec.getByRole("button", { name: "Decrypt", exact: true }).click();
  await expect(result(page, "Plaintext")).toHaveText("The vault code is 4711");

  // The wrong padding fails with a specific message next to the ciphertext.
  await chooseOption(dec.getByLabel("Padding"), "OAEP with SHA-1");
  await dec.getByRole("button", { name: "Decrypt", exact: true }).click();
  await expect(dec.getByText(/Decryption failed/)).toBeVisible();

  // Too long a message for the key.
  await enc.getByLabel("Message", { exact: true }).fill("x".repeat(300));
  await enc.getByRole("button", { name: "Encrypt", exact: true }).click();
  await expect(enc.getByText(/too long/i)).toBeVisible();
});

test("key agreement: X25519 and ECDH P-256 between two generated keys give equal secrets", async ({
  page,
}) => {
  test.setTimeout(60_000); // six key pairs and four derivations
  for (const [algorithm, bytes] of [
    ["X25519", 32],
    ["EC-P-256", 32],
  ] as const) {
    const a = await generateKey(page, algorithm);
    const b = await generateKey(page, algorithm);
    expect(a.privatePem).not.toBe(b.privatePem);

    await openTool(page, "agree");
    const derive = async (priv: string, pub: string) => {
      await page.getByLabel("Your private key").fill(priv);
      await page.getByLabel("Their public key").fill(pub);
      await page.getByRole("button", { name: "Derive shared secret" }).click();
      await expect(page.getByText(`${bytes} bytes`, { exact: true })).toBeVisible();
      const s = (await result(page, "Shared secret").textContent()) ?? "";
      return s;
    };
    const ab = await derive(a.privatePem, b.publicPem);
    await page.getByLabel("Your private key").fill("");
    const ba = await derive(b.privatePem, a.publicPem);
    expect(ab).toMatch(new RegExp(`^[0-9a-f]{${bytes * 2}}$`));
    expect(ba).toBe(ab);

    // OpenSSL derives the same secret.
    writeFileSync(path.join(tmp, "a.pem"), a.privatePem);
    writeFileSync(path.join(tmp, "b.pub"), b.publicPem);
    const fromOpenssl = openssl([
      "pkeyutl",
      "-derive",
      "-inkey",
      path.join(tmp, "a.pem"),
      "-peerkey",
      path.join(tmp, "b.pub"),
    ]).toString("hex");
    expect(fromOpenssl).toBe(ab);
  }

  // Mismatched key types are named.
  const x = await generateKey(page, "X25519");
  const e = await generateKey(page, "EC-P-256");
  await openTool(page, "agree");
  await page.getByLabel("Your private key").fill(x.privatePem);
  await page.getByLabel("Their public key").fill(e.publicPem);
  await page.getByRole("button", { name: "Derive shared secret" }).click();
  await expect(await errorOf(page.getByLabel("Their public key"))).toHaveText(
    /^Wrong key type: the peer key is EC, the private key X25519/,
  );
});

test("inspector: a certificate made by openssl shows its subject, SANs and fingerprints", async ({
  page,
}) => {
  const keyFile = path.join(tmp, "cert-key.pem");
  const certFile = path.join(tmp, "cert.pem");
  openssl([
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    keyFile,
    "-out",
    certFile,
    "-days",
    "30",
    "-subj",
    "/C=DE/O=Abacus Test/CN=receipts.abacus.test",
    "-addext",
    "subjectAltName=DNS:receipts.abacus.test,DNS:www.abacus.test,IP:127.0.0.1",
  ]);
  const pem = readFileSync(certFile, "utf8");
  const fp = openssl(["x509", "-in", certFile, "-noout", "-fingerprint", "-sha256"])
    .toString()
    .trim()
    .split("=")[1];

  await openTool(page, "inspect");
  await page.getByLabel("PEM, base64 or hex DER").fill(pem);
  await page.getByRole("button", { name: "Inspect" }).click();
  const card = page.getByRole("region", { name: "X.509 certificate" });
  await expect(card).toBeVisible();
  await expect(card.getByText(/CN=receipts\.abacus\.test/).first()).toBeVisible();
  const fields = card.locator("dl");
  await expect(fields.getByText("receipts.abacus.test", { exact: true })).toBeVisible();
  await expect(fields.getByText("www.abacus.test", { exact: true })).toBeVisible();
  await expect(fields.getByText("127.0.0.1", { exact: true })).toBeVisible();
  await expect(card.getByText(fp ?? "missing", { exact: true })).toBeVisible();
  await expect(card.getByText("EC, 256 bits, P-256")).toBeVisible();

  // The ASN.1 tree is a list of disclosure widgets.
  const tree = card.getByRole("list", { name: "ASN.1 tree" });
  await expect(tree.getByText("SEQUENCE").first()).toBeVisible();
  await expect(tree.getByText(/prime256v1|P-256/).first()).toBeAttached();

  // A key in hex DER (OpenSSL writes an EC key's DER as SEC1): the format and parameters.
  const der = openssl(["pkey", "-in", keyFile, "-outform", "DER"]).toString("hex");
  await page.getByLabel("PEM, base64 or hex DER").fill(der);
  await page.getByRole("button", { name: "Inspect" }).click();
  const keyCard = page.getByRole("region", { name: "SEC1" });
  await expect(keyCard.getByText("EC private key, 256 bits")).toBeVisible();
  await expect(keyCard.getByText("curve P-256")).toBeVisible();

  await page
    .getByLabel("PEM, base64 or hex DER")
    .fill("-----BEGIN CERTIFICATE-----\n@@@\n-----END CERTIFICATE-----");
  await page.getByRole("button", { name: "Inspect" }).click();
  await expect(await errorOf(page.getByLabel("PEM, base64 or hex DER"))).toHaveText(
    /Malformed PEM|Invalid base64/,
  );
});

test("no request carries what is typed into the tools", async ({ page }) => {
  // Nineteen tools, two of them bcrypt- or PBKDF2-bound by design.
  test.setTimeout(240_000);
  const secrets = {
    hash: "zqx-hash-input-5521",
    hmacKey: "zqx-hmac-key-8830",
    pbkdf2: "zqx-pbkdf2-password-1177",
    message: "zqx-sign-message-4402",
    inspect: "7a71782d696e73706563742d3933",
    encPlain: "zqx-enc-plain-6610",
    encPassword: "zqx-enc-pass-3391",
    hkdf: "7a71782d686b64662d31",
    certCn: "zqx-cert-cn-2280.example",
    blake3: "zqx-blake3-input-7093",
    message448: "zqx-ed448-message-6157",
    chainCn: "zqx-chain-cn-4460.example",
    otpSecret: "ZQXOTPSECRETFOURFOURTWO2",
    joseClaim: "zqx-jose-claim-3318",
    joseSecret: "zqx-jose-secret-9051",
    sshComment: "zqx-ssh-comment-7702",
    p12Password: "zqx-p12-password-5830",
    recipeInput: "zqx-recipe-input-4471",
    recipePassword: "zqx-recipe-password-2209",
  };
  const seen: string[] = [];
  const violations: string[] = [];
  page.on("request", (r) => {
    seen.push(`${r.method()} ${r.url()}\n${r.postData() ?? ""}\n${JSON.stringify(r.headers())}`);
  });
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });

  const tool = (id: string) => page.locator(`[data-tool="${id}"]`);
  const open = async (name: string, id: string) => {
    await page.getByRole("navigation", { name: "Crypto tools" }).getByRole("link", { name }).click();
    await expect(tool(id)).toBeVisible();
    return tool(id);
  };

  await openTool(page, "hash");
  let t = tool("hash");
  await t.getByLabel("Input", { exact: true }).fill(secrets.hash);
  await t.getByRole("button", { name: "Hash", exact: true }).click();
  await expect(result(t, "Digest")).toHaveText(createHash("sha256").update(secrets.hash).digest("hex"));
  await t.getByLabel("Input", { exact: true }).fill(secrets.blake3);
  await chooseOption(t.getByLabel("Algorithm"), "BLAKE3");
  await t.getByRole("button", { name: "Hash", exact: true }).click();
  const blake3Digest = Buffer.from(blake3(new TextEncoder().encode(secrets.blake3))).toString("hex");
  await expect(result(t, "Digest")).toHaveText(blake3Digest);

  t = await open("HMAC", "hmac");
  await chooseOption(t.getByLabel("Input as").first(), "Text (UTF-8)");
  await t.getByLabel("Key", { exact: true }).fill(secrets.hmacKey);
  await t.getByLabel("Message", { exact: true }).fill(secrets.hash);
  await t.getByRole("button", { name: "Compute HMAC" }).click();
  await expect(result(t, "MAC")).toHaveText(/^[0-9a-f]{64}$/);

  t = await open("PBKDF2", "pbkdf2");
  await t.getByLabel("Password (UTF-8)").fill(secrets.pbkdf2);
  await t.getByLabel("Salt", { exact: true }).fill("salt");
  await t.getByLabel("Iterations").fill("1000");
  await t.getByRole("button", { name: "Derive", exact: true }).click();
  await expect(result(t, "Derived key")).toHaveText(/^[0-9a-f]{64}$/);

  t = await open("Key generation", "keys");
  await chooseOption(t.getByLabel("Algorithm"), "Ed25519 (signatures)");
  await t.getByLabel("Passphrase (optional)").fill(secrets.hmacKey);
  await t.getByRole("button", { name: "Generate key pair" }).click();
  await expect(result(t, "Encrypted private key (PEM)")).toContainText("-----END", { timeout: 15_000 });
  const privatePem = (await result(t, "Encrypted private key (PEM)").textContent()) ?? "";

  t = await open("Sign and verify", "sign");
  const form = t.getByRole("form", { name: "Sign" });
  await form.getByLabel("Private key", { exact: true }).fill(privatePem);
  await form.getByLabel("Passphrase (if the key is encrypted)").fill(secrets.hmacKey);
  await form.getByLabel("Message", { exact: true }).fill(secrets.message);
  await form.getByRole("button", { name: "Sign", exact: true }).click();
  await expect(form.getByText("Ed25519 (pure)")).toBeVisible();
  const signature = (await result(t, "Signature").textContent()) ?? "";

  t = await open("Key generation", "keys");
  await chooseOption(t.getByLabel("Algorithm"), "Ed448 (signatures)");
  await t.getByLabel("Passphrase (optional)").fill("");
  await t.getByRole("button", { name: "Generate key pair" }).click();
  await expect(result(t, "Private key (PEM)")).toContainText("-----END", { timeout: 15_000 });
  const ed448Pem = (await result(t, "Private key (PEM)").textContent()) ?? "";
  t = await open("Sign and verify", "sign");
  const form448 = t.getByRole("form", { name: "Sign" });
  await form448.getByLabel("Private key", { exact: true }).fill(ed448Pem);
  await form448.getByLabel("Passphrase (if the key is encrypted)").fill("");
  await form448.getByLabel("Message", { exact: true }).fill(secrets.message448);
  await form448.getByRole("button", { name: "Sign", exact: true }).click();
  await expect(form448.getByText("Ed448 (pure)")).toBeVisible();
  const signature448 = (await result(t, "Signature").textContent()) ?? "";
  expect(Buffer.from(signature448, "base64")).toHaveLength(114);

  t = await open("PEM/ASN.1 inspector", "inspect");
  await t.getByLabel("PEM, base64 or hex DER").fill(`04 0e ${secrets.inspect}`);
  await t.getByRole("button", { name: "Inspect" }).click();
  await expect(t.getByRole("region", { name: "Unrecognised DER" })).toBeVisible();

  t = await open("Symmetric encryption", "encrypt");
  await t.getByLabel("Plaintext", { exact: true }).fill(secrets.encPlain);
  await t.getByLabel("Password", { exact: true }).fill(secrets.encPassword);
  await t.getByRole("button", { name: "Encrypt", exact: true }).click();
  await expect(result(t, "Encrypted output")).toHaveText(/^U2FsdGVkX1/);
  const ciphertext = ((await result(t, "Encrypted output").textContent()) ?? "").split("\n")[0] ?? "";

  t = await open("HKDF", "hkdf");
  await t.getByLabel("Input key material").fill(secrets.hkdf);
  await t.getByRole("button", { name: "Derive", exact: true }).click();
  await expect(result(t, "Output key material")).toHaveText(/^[0-9a-f]{64}$/);
  const okm = (await result(t, "Output key material").textContent()) ?? "";

  t = await open("Key conversion", "convert");
  await t.getByLabel("Key", { exact: true }).fill(privatePem);
  await t.getByLabel("Passphrase (if the key is encrypted)").fill(secrets.hmacKey);
  await chooseOption(t.getByLabel("Convert to"), "Private key, PKCS#8 (openssl pkey)");
  await t.getByRole("button", { name: "Convert", exact: true }).click();
  await expect(result(t, "Converted key")).toContainText("-----BEGIN PRIVATE KEY-----");
  const plainKey = ((await result(t, "Converted key").textContent()) ?? "").split("\n")[1] ?? "";

  t = await open("Certificates", "certs");
  await t.getByLabel("Private key", { exact: true }).fill(privatePem);
  await t.getByLabel("Passphrase (if the key is encrypted)").fill(secrets.hmacKey);
  await t.getByLabel("Subject").fill(`/CN=${secrets.certCn}`);
  await t.getByRole("button", { name: "Create", exact: true }).click();
  await expect(result(t, "Certificate request (PEM)")).toContainText("-----END CERTIFICATE REQUEST-----");
  await chooseOption(t.getByLabel("Make"), SELF_SIGNED);
  await t.getByLabel("Subject").fill(`/CN=${secrets.chainCn}`);
  await t.getByRole("button", { name: "Create", exact: true }).click();
  await expect(result(t, "Certificate (PEM)")).toContainText("-----END CERTIFICATE-----");
  const certPem = (await result(t, "Certificate (PEM)").textContent()) ?? "";
  await t.getByLabel("Certificates, leaf first").fill(certPem);
  await t.getByLabel("Trusted root certificates").fill(certPem);
  await t.getByRole("button", { name: "Verify chain" }).click();
  await expect(t.getByText("✓ The chain verifies to a trusted root")).toBeVisible();
  await expect(result(t, "Chain verification")).toContainText(`CN=${secrets.chainCn}`);

  t = await open("One-time passwords", "otp");
  await t.getByLabel("Secret", { exact: true }).fill(secrets.otpSecret);
  await t.getByRole("button", { name: "Compute codes" }).click();
  await expect(t.getByRole("status", { name: "Current code" })).toHaveText(/^\d{6}$/);
  const otpCode = (await t.getByRole("status", { name: "Current code" }).textContent()) ?? "";

  t = await open("JWT and JOSE", "jose");
  await chooseOption(t.getByLabel("What"), "Sign (JWS/JWT)");
  await t.getByLabel("Payload (claims)").fill(`{"sub":"${secrets.joseClaim}"}`);
  await chooseOption(t.getByLabel("Algorithm (alg)"), "HS256");
  await t.getByLabel("Key", { exact: true }).fill(secrets.joseSecret);
  await t.getByRole("button", { name: "Sign", exact: true }).click();
  await expect(result(t, "Signed token (JWS)")).toHaveText(/^eyJ/);
  const jws = (await result(t, "Signed token (JWS)").textContent()) ?? "";

  t = await open("OpenSSH keys", "ssh");
  await t.getByLabel("Key", { exact: true }).fill(privatePem);
  await t.getByLabel("Passphrase (if the key is encrypted)").fill(secrets.hmacKey);
  await chooseOption(t.getByLabel("Write as"), "OpenSSH private key (ssh-keygen's format)");
  await t.getByLabel("Comment (optional)").fill(secrets.sshComment);
  await t.getByRole("button", { name: "Convert", exact: true }).click();
  await expect(result(t, "OpenSSH private key")).toContainText("-----BEGIN OPENSSH PRIVATE KEY-----", {
    timeout: 30_000,
  });
  const sshKey = ((await result(t, "OpenSSH private key").textContent()) ?? "").split("\n")[1] ?? "";

  t = await open("PKCS#12 / PFX", "pkcs12");
  await t.getByLabel("Private key", { exact: true }).fill(privatePem);
  await t.getByLabel("Passphrase (if the key is encrypted)").fill(secrets.hmacKey);
  await t.getByLabel("Certificates, leaf first").fill(certPem);
  await t.getByLabel("Password for the file").fill(secrets.p12Password);
  await t.getByRole("button", { name: "Make file", exact: true }).click();
  await expect(t.getByRole("button", { name: /Download pkcs#12 file/i })).toBeVisible();

  t = await open("Recipes", "recipe");
  await t.getByLabel("Input", { exact: true }).fill(secrets.recipeInput);
  await chooseOption(t.getByLabel("Add a step"), "Encrypt (openssl enc -pbkdf2)");
  await t.getByRole("button", { name: "Add step" }).click();
  await t.getByLabel("Password", { exact: true }).fill(secrets.recipePassword);
  await t.getByLabel("Salt (8 bytes hex, -S)").fill("0011223344556677");
  await t.getByRole("button", { name: "Run recipe" }).click();
  await expect(result(t, "Recipe output (hex)")).toHaveText(/^[0-9a-f]{32,}$/);
  const recipeOut = (await result(t, "Recipe output (hex)").textContent()) ?? "";
  await t.getByRole("button", { name: "Copy link" }).click();
  await expect(page).toHaveURL(/#recipe=/);
  // Without the switch, the link holds the steps but not the input.
  expect(decodeURIComponent(page.url())).not.toContain(secrets.recipeInput);

  const needles = [
    ...Object.values(secrets),
    recipeOut,
    sshKey,
    otpCode,
    jws,
    jws.split(".")[1] ?? "",
    privatePem.split("\n")[1] ?? "",
    ed448Pem.split("\n")[1] ?? "",
    certPem.split("\n")[2] ?? "",
    signature,
    signature448,
    blake3Digest,
    ciphertext,
    okm,
    plainKey,
  ].filter(Boolean);
  for (const s of needles) {
    const hits = seen.filter((r) => r.includes(s) || r.includes(encodeURIComponent(s)));
    expect(hits, `requests containing ${s}`).toEqual([]);
  }
  expect(seen.length).toBeGreaterThan(0);
  expect(violations).toEqual([]);
});

test("the Decimal mode does not load the crypto workbench chunk", async ({ browser }) => {
  const scriptsOf = async (url: string) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const scripts = new Map<string, string>();
    page.on("response", async (r) => {
      if (r.request().resourceType() === "script" || r.url().endsWith(".js")) {
        scripts.set(new URL(r.url()).pathname, await r.text().catch(() => ""));
      }
    });
    await page.goto(url);
    if (url.includes("mode=crypto")) {
      // Run something so the worker and its chunks load too.
      await page.getByLabel("Input", { exact: true }).fill("abc");
      await page.getByRole("button", { name: "Hash", exact: true }).click();
      await expect(result(page, "Digest")).toHaveText(/^ba7816bf/);
    } else {
      await expect(page.getByRole("heading", { name: "Calculator", level: 1 })).toBeVisible();
    }
    await page.waitForLoadState("networkidle");
    await context.close();
    return scripts;
  };

  const crypto = await scriptsOf("/calculator?mode=crypto");
  const plain = await scriptsOf("/calculator");
  const decimal = await scriptsOf("/calculator?mode=decimal");

  const cryptoOnly = [...crypto.keys()].filter((p) => !plain.has(p));
  expect(cryptoOnly.length).toBeGreaterThan(0);
  // The workbench UI and the library (asn1js is a distinctive part of it) are among them.
  const bodies = cryptoOnly.map((p) => crypto.get(p) ?? "");
  expect(bodies.some((b) => b.includes("PEM/ASN.1 inspector"))).toBe(true);
  expect(bodies.some((b) => b.includes("Wrong passphrase"))).toBe(true);

  for (const scripts of [plain, decimal]) {
    for (const p of cryptoOnly) expect(scripts.has(p), p).toBe(false);
    for (const [p, body] of scripts) {
      expect(body.includes("PEM/ASN.1 inspector"), p).toBe(false);
      expect(body.includes("Wrong passphrase"), p).toBe(false);
    }
  }
});

test("each tool added later is its own chunk: the hash tool loads none of their code", async ({
  browser,
}) => {
  // Strings only each tool's own module has (its UI text), found in the scripts the page fetched.
  const markers = {
    encrypt: "openssl enc has no AEAD ciphers",
    hkdf: "use PBKDF2 for those",
    convert: "or its public key alone",
    certs: "Verify a certificate chain",
  } as const;
  const scriptsOf = async (tool: string, run: (page: Page) => Promise<void>) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const scripts = new Map<string, string>();
    page.on("response", async (r) => {
      if (r.request().resourceType() === "script" || r.url().endsWith(".js")) {
        scripts.set(new URL(r.url()).pathname, await r.text().catch(() => ""));
      }
    });
    await openTool(page, tool);
    await run(page);
    await page.waitForLoadState("networkidle");
    await context.close();
    return scripts;
  };
  const has = (scripts: Map<string, string>, marker: string) =>
    [...scripts].filter(([, body]) => body.includes(marker)).map(([p]) => p);

  const hash = await scriptsOf("hash", async (page) => {
    // Run a hash so the worker and everything it imports load too.
    await page.getByLabel("Input", { exact: true }).fill("abc");
    await page.getByRole("button", { name: "Hash", exact: true }).click();
    await expect(result(page, "Digest")).toHaveText(/^ba7816bf/);
  });
  const encrypt = await scriptsOf("encrypt", async (page) => {
    const tool = page.locator('[data-tool="encrypt"]');
    await tool.getByLabel("Plaintext", { exact: true }).fill("abc");
    await tool.getByLabel("Password", { exact: true }).fill("pw");
    await tool.getByRole("button", { name: "Encrypt", exact: true }).click();
    await expect(result(tool, "Encrypted output")).toHaveText(/^U2FsdGVkX1/);
  });

  // The marker is where it should be (so its absence below means something) ...
  const encryptChunks = has(encrypt, markers.encrypt);
  expect(encryptChunks.length).toBeGreaterThan(0);
  // ... in a chunk the hash tool never fetched, and no script the hash tool fetched holds any new tool.
  for (const p of encryptChunks) expect(hash.has(p), p).toBe(false);
  for (const [tool, marker] of Object.entries(markers)) expect(has(hash, marker), tool).toEqual([]);
  // The chunks the two pages fetched differ by the encrypt tool's own.
  expect([...encrypt.keys()].filter((p) => !hash.has(p)).length).toBeGreaterThan(0);
});

for (const scheme of ["light", "dark"] as const) {
  test(`crypto tools with results and errors have no serious axe violations (${scheme})`, async ({
    page,
  }) => {
    test.setTimeout(120_000); // fourteen tools, each opened and checked
    await page.emulateMedia({ colorScheme: scheme });
    const axe = async (what: string) => {
      const r = await new AxeBuilder({ page })
        .include("main")
        .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
        .analyze();
      const blocking = r.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(
        blocking.map((v) => `${what}: ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      ).toEqual([]);
    };

    await openTool(page, "hash");
    await chooseOption(page.getByLabel("Input as"), "Hex");
    await page.getByLabel("Input", { exact: true }).fill("zz");
    await page.getByRole("button", { name: "Hash", exact: true }).click();
    await expect(await errorOf(page.getByLabel("Input", { exact: true }))).toContainText("Invalid hex");
    await axe("hash with an error");

    const { privatePem } = await generateKey(page, "EC-P-256");
    await axe("key generation with keys");

    await openTool(page, "sign");
    const form = page.getByRole("form", { name: "Sign" });
    await form.getByLabel("Private key", { exact: true }).fill(privatePem);
    await form.getByLabel("Message", { exact: true }).fill("hello");
    await form.getByRole("button", { name: "Sign", exact: true }).click();
    await form.getByRole("button", { name: "Check it with Verify" }).click();
    await page
      .getByRole("form", { name: "Verify" })
      .getByRole("button", { name: "Verify", exact: true })
      .click();
    await expect(page.getByText("✓ Valid signature")).toBeVisible();
    await axe("sign and verify");

    await openTool(page, "inspect");
    await page.getByLabel("PEM, base64 or hex DER").fill(privatePem);
    await page.getByRole("button", { name: "Inspect" }).click();
    await expect(page.getByRole("list", { name: "ASN.1 tree" })).toBeVisible();
    await axe("inspector");

    for (const tool of [
      "hmac",
      "pbkdf2",
      "hkdf",
      "random",
      "convert",
      "encrypt",
      "rsa",
      "agree",
      "certs",
      "receipt",
    ]) {
      await openTool(page, tool);
      await axe(tool);
    }
  });
}

// ---- binary files, the inspector, encryption, HKDF, conversion and certificates ----------------------

test("binary files: an OpenSSL .bin decrypts from a file, a .sig downloads that openssl verifies", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const keyFile = path.join(tmp, "rsa16.pem");
  openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", keyFile]);
  const privatePem = readFileSync(keyFile, "utf8");
  const bin = path.join(tmp, "secret.bin");
  writeFileSync(path.join(tmp, "secret.txt"), "from a .bin file");
  openssl([
    "pkeyutl",
    "-encrypt",
    "-inkey",
    keyFile,
    ...OAEP_SHA256,
    "-in",
    path.join(tmp, "secret.txt"),
    "-out",
    bin,
  ]);
  await openTool(page, "rsa");
  const dec = page.getByRole("form", { name: "Decrypt" });
  await dec.getByLabel("Private key", { exact: true }).fill(privatePem);
  await chooseOption(dec.getByLabel("Input as"), "File");
  await dec.getByLabel("Ciphertext", { exact: true }).setInputFiles(bin);
  await dec.getByRole("button", { name: "Decrypt", exact: true }).click();
  await expect(result(page, "Plaintext")).toHaveText("from a .bin file");

  await openTool(page, "sign");
  const form = page.getByRole("form", { name: "Sign" });
  await form.getByLabel("Private key", { exact: true }).fill(privatePem);
  await form.getByLabel("Message", { exact: true }).fill("signed as a file");
  await form.getByRole("button", { name: "Sign", exact: true }).click();
  await expect(form.getByText("RSA PKCS#1 v1.5 with SHA-256")).toBeVisible();
  const download = page.waitForEvent("download");
  await form.getByRole("button", { name: "Download signature as signature.sig" }).click();
  const sigPath = path.join(tmp, "dl.sig");
  await (await download).saveAs(sigPath);
  writeFileSync(path.join(tmp, "signed.txt"), "signed as a file");
  const pub = path.join(tmp, "rsa16.pub");
  writeFileSync(pub, openssl(["pkey", "-in", keyFile, "-pubout"]));
  expect(
    openssl([
      "dgst",
      "-sha256",
      "-verify",
      pub,
      "-signature",
      sigPath,
      path.join(tmp, "signed.txt"),
    ]).toString(),
  ).toContain("Verified OK");

  // A PSS signature checked with "From the key" is not valid as PKCS#1 v1.5, and the page says it is PSS.
  const pss = openssl([
    "dgst",
    "-sha256",
    "-sign",
    keyFile,
    "-sigopt",
    "rsa_padding_mode:pss",
    path.join(tmp, "signed.txt"),
  ]);
  const verify = page.getByRole("form", { name: "Verify" });
  await verify.getByLabel("Public key or certificate").fill(readFileSync(pub, "utf8"));
  await verify.getByLabel("Message", { exact: true }).fill("signed as a file");
  await verify.getByLabel("Signature", { exact: true }).fill(pss.toString("base64"));
  await verify.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(verify.getByText("✗ Invalid signature")).toBeVisible();
  await expect(verify.getByText(/It is a valid RSA-PSS signature with SHA-256/)).toBeVisible();
});

test("downloads: RSA's ciphertext.bin and symmetric encryption's encrypted.bin decrypt with openssl", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const keyFile = path.join(tmp, "rsa-dl.pem");
  openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", keyFile]);
  await openTool(page, "rsa");
  const enc = page.getByRole("form", { name: "Encrypt" });
  await enc
    .getByLabel("Public key", { exact: true })
    .fill(openssl(["pkey", "-in", keyFile, "-pubout"]).toString());
  await enc.getByLabel("Message", { exact: true }).fill("downloaded as a .bin");
  await enc.getByRole("button", { name: "Encrypt", exact: true }).click();
  await expect(enc.getByText("This key and padding take messages of up to 190 bytes.")).toBeVisible();
  let download = page.waitForEvent("download");
  await enc.getByRole("button", { name: "Download ciphertext as ciphertext.bin" }).click();
  const rsaBin = path.join(tmp, "ciphertext.bin");
  await (await download).saveAs(rsaBin);
  expect(readFileSync(rsaBin)).toHaveLength(256);
  expect(openssl(["pkeyutl", "-decrypt", "-inkey", keyFile, ...OAEP_SHA256, "-in", rsaBin]).toString()).toBe(
    "downloaded as a .bin",
  );

  await openTool(page, "encrypt");
  const tool = page.locator('[data-tool="encrypt"]');
  await tool.getByLabel("Plaintext", { exact: true }).fill("saved as encrypted.bin ✓");
  await tool.getByLabel("Password", { exact: true }).fill("dl pass");
  await tool.getByRole("button", { name: "Encrypt", exact: true }).click();
  await expect(result(tool, "Encrypted output")).toHaveText(/^U2FsdGVkX1/);
  // "Base64 in lines (openssl enc -a)" downloads that text, which the command shown decrypts.
  await expect(tool.getByText(/openssl enc -aes-256-cbc -pbkdf2 -a -in/)).toBeVisible();
  download = page.waitForEvent("download");
  await tool.getByRole("button", { name: "Download encrypted output as encrypted.b64" }).click();
  const encB64 = path.join(tmp, "encrypted.b64");
  await (await download).saveAs(encB64);
  expect(readFileSync(encB64, "utf8")).toBe(
    `${(await result(tool, "Encrypted output").textContent()) ?? ""}\n`,
  );
  expect(
    openssl([
      "enc",
      "-d",
      "-aes-256-cbc",
      "-pbkdf2",
      "-a",
      "-pass",
      "pass:dl pass",
      "-in",
      encB64,
    ]).toString(),
  ).toBe("saved as encrypted.bin ✓");
  // Hex is not an openssl enc form: that output downloads as the bytes (Salted__, salt, ciphertext).
  await chooseOption(tool.getByRole("combobox", { name: "Output" }), "Hex");
  await tool.getByRole("button", { name: "Encrypt", exact: true }).click();
  await expect(result(tool, "Encrypted output")).toHaveText(/^53616c7465645f5f/);
  download = page.waitForEvent("download");
  await tool.getByRole("button", { name: "Download encrypted output as encrypted.bin" }).click();
  const encBin = path.join(tmp, "encrypted.bin");
  await (await download).saveAs(encBin);
  expect(readFileSync(encBin).subarray(0, 8).toString("latin1")).toBe("Salted__");
  expect(
    openssl(["enc", "-d", "-aes-256-cbc", "-pbkdf2", "-pass", "pass:dl pass", "-in", encBin]).toString(),
  ).toBe("saved as encrypted.bin ✓");
  // An openssl enc -a file opens as a file too (it is read as Base64), and decrypting shows the salt,
  // key and IV that openssl enc -P prints.
  await chooseOption(tool.getByLabel("Direction"), "Decrypt");
  await chooseOption(tool.getByLabel("Input as").first(), "File");
  await tool.getByLabel("Ciphertext", { exact: true }).setInputFiles(encB64);
  await tool.getByLabel("Password", { exact: true }).fill("dl pass");
  await tool.getByRole("button", { name: "Decrypt", exact: true }).click();
  await expect(result(tool, "Decrypted plaintext")).toHaveText("saved as encrypted.bin ✓");
  const printed = openssl([
    "enc",
    "-d",
    "-aes-256-cbc",
    "-pbkdf2",
    "-a",
    "-pass",
    "pass:dl pass",
    "-in",
    encB64,
    "-P",
  ]).toString();
  const note = tool;
  await expect(note).toContainText("The file is Base64 text (openssl enc -a): decoded first.");
  for (const name of ["salt", "key", "iv"]) {
    const value = new RegExp(`^${name}\\s*=\\s*([0-9A-F]+)$`, "m").exec(printed)?.[1] ?? "missing";
    await expect(note).toContainText(`${name}=${value}`);
  }
});

test("inspector: a DER request opened from a file, legacy encrypted PEM, and plain text", async ({
  page,
}) => {
  const key = path.join(tmp, "insp-ec.pem");
  openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key]);
  const csrDer = path.join(tmp, "req.der");
  openssl(["req", "-new", "-key", key, "-subj", "/CN=file.example", "-outform", "DER", "-out", csrDer]);
  await openTool(page, "inspect");
  await page.locator("#inspect-input-file").setInputFiles(csrDer);
  await page.getByRole("button", { name: "Inspect" }).click();
  const card = page.getByRole("region", { name: "PKCS#10 certificate request" });
  await expect(card).toBeVisible();
  await expect(card.getByText("CN=file.example")).toBeVisible();
  // Its self-signature is checked, as openssl req -verify does.
  await expect(card.getByText(/✓ signed by its own key \(openssl req -verify\)/)).toBeVisible();

  const legacy = openssl(["ec", "-in", key, "-aes256", "-passout", "pass:old"]).toString();
  await page.getByLabel("PEM, base64 or hex DER").fill(legacy);
  await page.getByRole("button", { name: "Inspect" }).click();
  await expect(page.getByRole("region", { name: "Legacy encrypted PEM" })).toBeVisible();
  await page.getByLabel("Passphrase (to open an encrypted private key)").fill("old");
  await page.getByRole("button", { name: "Inspect" }).click();
  await expect(page.getByText("EC private key, 256 bits")).toBeVisible();

  await page.getByLabel("PEM, base64 or hex DER").fill("hello world");
  await page.getByRole("button", { name: "Inspect" }).click();
  await expect(await errorOf(page.getByLabel("PEM, base64 or hex DER"))).toHaveText(
    /^Not PEM, base64 or hex/,
  );
  // A word that is valid base64 is said to be neither PEM nor DER, not shown as unrecognised DER.
  await page.getByLabel("PEM, base64 or hex DER").fill("test");
  await page.getByRole("button", { name: "Inspect" }).click();
  await expect(await errorOf(page.getByLabel("PEM, base64 or hex DER"))).toHaveText(
    /^Not PEM, and as base64 it is not DER/,
  );
  await expect(page.getByRole("region", { name: "Unrecognised DER" })).toHaveCount(0);

  // A text file that starts with "0" (hex DER written as 0x…) is read as text, not taken for DER.
  const hexFile = path.join(tmp, "req-hex.txt");
  const hex = `0x${readFileSync(csrDer).toString("hex")}\n`;
  writeFileSync(hexFile, hex);
  await page.locator("#inspect-input-file").setInputFiles(hexFile);
  await expect(page.getByLabel("PEM, base64 or hex DER")).toHaveValue(hex);
  await page.getByRole("button", { name: "Inspect" }).click();
  await expect(page.getByRole("region", { name: "PKCS#10 certificate request" })).toBeVisible();

  // The key-file limit is 4 MiB and says so (it said "4.19 MB").
  const big = path.join(tmp, "big.pem");
  writeFileSync(big, Buffer.alloc(4 * 1024 * 1024 + 1, 0x41));
  await page.locator("#inspect-input-file").setInputFiles(big);
  await expect(page.getByText("big.pem is larger than 4 MiB")).toBeVisible();
});

test("symmetric encryption: openssl enc -pbkdf2 both ways", async ({ page }) => {
  await openTool(page, "encrypt");
  const tool = page.locator('[data-tool="encrypt"]');
  await tool.getByLabel("Plaintext", { exact: true }).fill("Meet at the old mill ✓");
  await tool.getByLabel("Password", { exact: true }).fill("s3cret pass");
  await tool.getByRole("button", { name: "Encrypt", exact: true }).click();
  const out = result(tool, "Encrypted output");
  await expect(out).toHaveText(/^U2FsdGVkX1/);
  const encFile = path.join(tmp, "page.enc");
  writeFileSync(encFile, `${await out.textContent()}\n`);
  expect(
    openssl([
      "enc",
      "-d",
      "-aes-256-cbc",
      "-pbkdf2",
      "-a",
      "-pass",
      "pass:s3cret pass",
      "-in",
      encFile,
    ]).toString(),
  ).toBe("Meet at the old mill ✓");

  const plain = path.join(tmp, "plain.txt");
  writeFileSync(plain, "from openssl enc");
  const theirs = path.join(tmp, "theirs.bin");
  openssl([
    "enc",
    "-aes-128-ctr",
    "-pbkdf2",
    "-iter",
    "5000",
    "-pass",
    "pass:pw",
    "-in",
    plain,
    "-out",
    theirs,
  ]);
  await chooseOption(tool.getByLabel("Direction"), "Decrypt");
  await chooseOption(tool.getByLabel("Cipher", { exact: true }), "AES-128-CTR");
  await chooseOption(tool.getByLabel("Input as").first(), "File");
  await tool.getByLabel("Ciphertext", { exact: true }).setInputFiles(theirs);
  await tool.getByLabel("Password", { exact: true }).fill("pw");
  await tool.getByLabel("Iterations (-iter)").fill("5000");
  await tool.getByRole("button", { name: "Decrypt", exact: true }).click();
  await expect(result(tool, "Decrypted plaintext")).toHaveText("from openssl enc");
});

test("HKDF (RFC 5869 case 1), key conversion and a self-signed certificate openssl verifies", async ({
  page,
}) => {
  await openTool(page, "hkdf");
  let tool = page.locator('[data-tool="hkdf"]');
  await tool.getByLabel("Input key material").fill("0b".repeat(22));
  await tool.getByLabel("Salt (optional)").fill("000102030405060708090a0b0c");
  // Info is hex by default, as the key material and the salt.
  await expect(tool.locator("#hkdf-info-kind")).toHaveText("Hex");
  await tool.getByLabel("Info (optional context)").fill("f0f1f2f3f4f5f6f7f8f9");
  await tool.getByLabel("Length (bytes)").fill("42");
  await tool.getByRole("button", { name: "Derive", exact: true }).click();
  await expect(result(tool, "Output key material")).toHaveText(
    "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865",
  );

  const keyFile = path.join(tmp, "conv.pem");
  openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", keyFile]);
  const pem = readFileSync(keyFile, "utf8");
  await openTool(page, "convert");
  tool = page.locator('[data-tool="convert"]');
  await tool.getByLabel("Key", { exact: true }).fill(pem);
  await tool.getByRole("button", { name: "Convert", exact: true }).click();
  await expect(result(tool, "Converted key")).toHaveText(
    openssl(["pkey", "-in", keyFile, "-pubout"]).toString().trimEnd(),
  );
  await chooseOption(tool.getByLabel("Convert to"), "EC private key, SEC1 (openssl ec)");
  await tool.getByRole("button", { name: "Convert", exact: true }).click();
  await expect(result(tool, "Converted key")).toHaveText(
    openssl(["ec", "-in", keyFile]).toString().trimEnd(),
  );

  await openTool(page, "certs");
  tool = page.locator('[data-tool="certs"]');
  await tool.getByLabel("Private key", { exact: true }).fill(pem);
  await chooseOption(tool.getByLabel("Make"), SELF_SIGNED);
  await tool.getByLabel("Subject").fill("/CN=page.example/O=Abacus");
  await tool.getByLabel("Alternative names (optional)").fill("DNS:page.example");
  await tool.getByRole("button", { name: "Create", exact: true }).click();
  const cert = result(tool, "Certificate (PEM)");
  await expect(cert).toContainText("-----END CERTIFICATE-----");
  const certFile = path.join(tmp, "page-cert.pem");
  writeFileSync(certFile, `${(await cert.textContent())?.trimEnd()}\n`);
  expect(openssl(["verify", "-CAfile", certFile, certFile]).toString()).toContain(": OK");

  // Without a trusted root nothing is verified, whatever the chain ends in (openssl verify: error 18).
  await tool.getByLabel("Certificates, leaf first").fill(readFileSync(certFile, "utf8"));
  await tool.getByRole("button", { name: "Verify chain" }).click();
  const verdict = result(tool, "Chain verification");
  await expect(verdict).toContainText("Unverified: no trust anchor");
  await expect(verdict).toContainText("error 18 at depth 0, self-signed certificate");
  await expect(tool.getByText("✓ The chain verifies")).toHaveCount(0);

  // Trusted as itself: verified now; at a time before it was made it is not yet valid, as
  // openssl verify -attime says.
  await tool.getByLabel("Trusted root certificates").fill(readFileSync(certFile, "utf8"));
  await tool.getByRole("button", { name: "Verify chain" }).click();
  await expect(verdict).toContainText("✓ The chain verifies to a trusted root");
  await expect(verdict).toContainText("(now)");
  await tool.getByLabel("Verify at (your local time)").fill("2020-06-01T12:00:00");
  await tool.getByRole("button", { name: "Verify chain" }).click();
  await expect(verdict).toContainText("✗ The chain does not verify");
  await expect(verdict).toContainText("error 9 at depth 0, certificate is not yet valid");
  const attime = /-attime (\d+)/.exec((await verdict.textContent()) ?? "")?.[1] ?? "";
  expect(attime).not.toBe("");
  const theirs = spawnSync(
    "openssl",
    ["verify", "-no-CApath", "-no-CAstore", "-CAfile", certFile, "-attime", attime, certFile],
    { encoding: "utf8" },
  );
  expect(`${theirs.stdout}${theirs.stderr}`).toContain(
    "error 9 at 0 depth lookup: certificate is not yet valid",
  );
  await tool.getByLabel("Verify at (your local time)").fill("");

  // "Add files" takes several certificate files at once, PEM or DER, after what is there.
  const derFile = path.join(tmp, "page-cert.der");
  openssl(["x509", "-in", certFile, "-outform", "DER", "-out", derFile]);
  const chainField = tool.getByLabel("Certificates, leaf first");
  await chainField.fill("");
  await tool.locator("#chain-certs-file").setInputFiles([certFile, derFile]);
  await expect(chainField).toHaveValue(
    /^(-----BEGIN CERTIFICATE-----\n[^-]+-----END CERTIFICATE-----\n){2}$/,
  );
  await tool.locator("#chain-certs-file").setInputFiles(certFile);
  await expect(chainField).toHaveValue(
    /^(-----BEGIN CERTIFICATE-----\n[^-]+-----END CERTIFICATE-----\n){3}$/,
  );
  await tool.getByRole("button", { name: "Verify chain" }).click();
  await expect(verdict).toContainText("✓ The chain verifies to a trusted root");

  // A label that merely ends in CERTIFICATE is not a certificate.
  await tool
    .getByLabel("Certificates, leaf first")
    .fill(
      readFileSync(certFile, "utf8").replace(
        /-----(BEGIN|END) CERTIFICATE-----/g,
        "-----$1 FOO CERTIFICATE-----",
      ),
    );
  await tool.getByRole("button", { name: "Verify chain" }).click();
  await expect(await errorOf(tool.getByLabel("Certificates, leaf first"))).toHaveText(
    /^The block is "-----BEGIN FOO CERTIFICATE-----", not a certificate/,
  );
});

test("hash: BLAKE3, SM3 and SHAKE256 of abc", async ({ page }) => {
  await openTool(page, "hash");
  await page.getByLabel("Input", { exact: true }).fill("abc");
  await chooseOption(page.getByLabel("Algorithm"), "BLAKE3");
  await page.getByRole("button", { name: "Hash", exact: true }).click();
  await expect(result(page, "Digest")).toHaveText(
    "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85",
  );
  await chooseOption(page.getByLabel("Algorithm"), "SM3");
  await page.getByRole("button", { name: "Hash", exact: true }).click();
  const sm3 = openssl(["dgst", "-sm3", "-r"], "abc").toString().split(" ")[0];
  await expect(result(page, "Digest")).toHaveText(sm3 ?? "");
  await chooseOption(page.getByLabel("Algorithm"), "SHAKE256");
  await page.getByLabel("XOF length (bytes)").fill("64");
  await page.getByRole("button", { name: "Hash", exact: true }).click();
  const expected = openssl(["dgst", "-shake256", "-xoflen", "64", "-r"], "abc").toString().split(" ")[0];
  await expect(result(page, "Digest")).toHaveText(expected ?? "");
});

test("Ed448 signs what openssl verifies; X448 agrees with an openssl key", async ({ page }) => {
  const ed = await generateKey(page, "Ed448");
  await expect(result(page, "Public key (JWK)")).toContainText('"crv": "Ed448"');
  const pubFile = path.join(tmp, "ed448-pub.pem");
  writeFileSync(pubFile, ed.publicPem);
  await openTool(page, "sign");
  const signForm = page.getByRole("form", { name: "Sign" });
  await signForm.getByLabel("Private key", { exact: true }).fill(ed.privatePem);
  await signForm.getByLabel("Message", { exact: true }).fill("Pay 448.00 EUR to Ada");
  // A hash chosen before the scheme does not stay in the Hash select the Ed448 scheme disables.
  await chooseOption(signForm.getByLabel("Hash"), "MD5 (legacy)");
  await chooseOption(signForm.getByLabel("Scheme"), "Ed448");
  await expect(signForm.getByLabel("Hash")).toBeDisabled();
  await expect(signForm.getByLabel("Hash")).toHaveText("Default for the key");
  await signForm.getByRole("button", { name: "Sign", exact: true }).click();
  await expect(signForm.getByText("Ed448 (pure)")).toBeVisible();
  const signature = (await result(page, "Signature").textContent()) ?? "";
  expect(Buffer.from(signature, "base64")).toHaveLength(114);
  writeFileSync(path.join(tmp, "msg448.txt"), "Pay 448.00 EUR to Ada");
  writeFileSync(path.join(tmp, "sig448.bin"), Buffer.from(signature, "base64"));
  const verified = openssl([
    "pkeyutl",
    "-verify",
    "-pubin",
    "-inkey",
    pubFile,
    "-rawin",
    "-in",
    path.join(tmp, "msg448.txt"),
    "-sigfile",
    path.join(tmp, "sig448.bin"),
  ]).toString();
  expect(verified).toContain("Signature Verified Successfully");

  const ours = await generateKey(page, "X448");
  const theirKey = path.join(tmp, "x448.pem");
  openssl(["genpkey", "-algorithm", "X448", "-out", theirKey]);
  const theirPub = openssl(["pkey", "-in", theirKey, "-pubout"]).toString();
  writeFileSync(path.join(tmp, "x448-ours.pub"), ours.publicPem);
  const expected = openssl([
    "pkeyutl",
    "-derive",
    "-inkey",
    theirKey,
    "-peerkey",
    path.join(tmp, "x448-ours.pub"),
  ]).toString("hex");
  await openTool(page, "agree");
  await page.getByLabel("Your private key").fill(ours.privatePem);
  await page.getByLabel("Their public key").fill(theirPub);
  await page.getByRole("button", { name: "Derive shared secret" }).click();
  await expect(result(page, "Shared secret")).toHaveText(expected);
  await expect(page.getByText("56 bytes", { exact: true })).toBeVisible();
  await expect(page.getByText("ECDH, X25519 and X448 are always full length.")).toBeVisible();
});

test("hash: the digest follows the typing, without pressing Hash or a toast", async ({ page }) => {
  await openTool(page, "hash");
  const input = page.getByLabel("Input", { exact: true });
  await input.pressSequentially("ab", { delay: 30 });
  await expect(result(page, "Digest")).toHaveText(createHash("sha256").update("ab").digest("hex"));
  await input.pressSequentially("c", { delay: 30 });
  await expect(result(page, "Digest")).toHaveText(
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
  // A new algorithm or output encoding recomputes it too.
  await chooseOption(page.getByLabel("Algorithm"), "SHA-512");
  await expect(result(page, "Digest")).toHaveText(createHash("sha512").update("abc").digest("hex"));
  await chooseOption(page.getByLabel("Output"), "Base64");
  await expect(result(page, "Digest")).toHaveText(createHash("sha512").update("abc").digest("base64"));
  // Bad input is named at the field, quietly (no toast for every key).
  await chooseOption(page.getByLabel("Input as"), "Hex");
  await input.fill("61 62 6z");
  await expect(await errorOf(input)).toHaveText('Invalid hex at position 8: unexpected "z"');
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
  await input.fill("");
  await expect(result(page, "Digest")).toHaveText(/^Type some input/);
});

test("keys: “Use this key to sign” hands the new key to Sign, and openssl verifies what it signs", async ({
  page,
}) => {
  const { publicPem } = await generateKey(page, "EC-P-256", "correct horse");
  await page.getByRole("button", { name: "Use this key to sign" }).click();
  await expect(page).toHaveURL(/[?&]tool=sign/);
  const form = page.getByRole("form", { name: "Sign" });
  await expect(form.getByLabel("Private key", { exact: true })).toHaveValue(
    /-----BEGIN ENCRYPTED PRIVATE KEY-----/,
  );
  await expect(form.getByLabel("Passphrase (if the key is encrypted)")).toHaveValue("correct horse");
  await expect(form.getByLabel("Message", { exact: true })).toBeFocused();
  await page.keyboard.type("Pay 10.00 EUR to Ada");
  await form.getByRole("button", { name: "Sign", exact: true }).click();
  const signature = result(page, "Signature");
  await expect(signature).toHaveText(/^[A-Za-z0-9+/=]{40,}$/);
  const pub = path.join(tmp, "handoff-pub.pem");
  const msg = path.join(tmp, "handoff-msg.txt");
  const sig = path.join(tmp, "handoff.sig");
  writeFileSync(pub, publicPem);
  writeFileSync(msg, "Pay 10.00 EUR to Ada");
  writeFileSync(sig, Buffer.from((await signature.textContent()) ?? "", "base64"));
  expect(openssl(["dgst", "-sha256", "-verify", pub, "-signature", sig, msg]).toString()).toContain(
    "Verified OK",
  );
  // Key agreement keys cannot sign: no hand-off offered.
  await generateKey(page, "X25519");
  await expect(page.getByRole("button", { name: "Use this key to sign" })).toHaveCount(0);
});

test("sign: at 1280 px the four scheme selects sit in two aligned rows, none cut short", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openTool(page, "sign");
  const form = page.getByRole("form", { name: "Sign" });
  const labels = ["Scheme", "Hash", "ECDSA/DSA signature format", "RSA-PSS salt length"];
  const triggers = labels.map((l) => form.getByLabel(l, { exact: true }));
  const boxes = await Promise.all(triggers.map((t) => t.boundingBox()));
  const [a, b, c, d] = boxes.map((x) => x?.y ?? -1);
  expect(a).toBe(b);
  expect(c).toBe(d);
  expect(c).toBeGreaterThan(a ?? 0);
  for (const t of triggers) {
    // The chosen option's text fits its control.
    const cut = await t.evaluate((el) => {
      const span = el.querySelector("span");
      return span ? span.scrollWidth > span.clientWidth : true;
    });
    expect(cut, (await t.textContent()) ?? "").toBe(false);
  }
  // Our picker, not the browser's: a button that opens a listbox.
  await expect(page.locator('[data-tool="sign"] select')).toHaveCount(0);
  await expect(page.locator('[data-tool="sign"] input[type="file"]:not(.sr-only):not([hidden])')).toHaveCount(
    0,
  );
});

test("one-time passwords: the codes oathtool prints, and oathtool accepts the tool's", async ({ page }) => {
  await openTool(page, "otp");
  const tool = page.locator('[data-tool="otp"]');
  const secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA";
  // datetime-local is the device's local time; Node reads the same string in the same zone.
  const local = "2031-05-06T07:08:09";
  const epoch = Math.floor(new Date(local).getTime() / 1000);
  await tool.getByLabel("Secret", { exact: true }).fill(secret);
  await chooseOption(tool.getByLabel("Hash"), "SHA-256");
  await tool.getByLabel("Digits").fill("8");
  await tool.getByLabel("At (your local time)").fill(local);
  await tool.getByRole("button", { name: "Compute codes" }).click();
  const code = tool.getByRole("status", { name: "Current code" });
  const theirs = execFileSync("oathtool", ["--totp=SHA256", "-d", "8", "-N", `@${epoch}`, "-b", secret], {
    encoding: "utf8",
  }).trim();
  await expect(code).toHaveText(theirs);
  const next =
    (await tool.getByRole("row").filter({ hasText: "+1" }).locator("td").last().textContent()) ?? "";
  expect(
    execFileSync("oathtool", ["--totp=SHA256", "-d", "8", "-N", `@${epoch}`, "-b", "-w", "1", secret, next], {
      encoding: "utf8",
    }).trim(),
  ).toBe("1");

  // A code oathtool made for the previous step is found at offset -1; a wrong one is not found.
  const previous = execFileSync(
    "oathtool",
    ["--totp=SHA256", "-d", "8", "-N", `@${epoch - 30}`, "-b", secret],
    {
      encoding: "utf8",
    },
  ).trim();
  await tool.getByLabel("Check a code (optional)").fill(previous);
  await tool.getByRole("button", { name: "Compute codes" }).click();
  await expect(tool.getByText(`✓ ${previous} is the code at offset -1`)).toBeVisible();
  await tool.getByLabel("Check a code (optional)").fill("12345678");
  await tool.getByRole("button", { name: "Compute codes" }).click();
  await expect(tool.getByText("✗ 12345678 is not among the codes shown")).toBeVisible();

  // A bad secret is named at the field, and what was typed stays.
  await tool.getByLabel("Secret", { exact: true }).fill("not base32!");
  await tool.getByRole("button", { name: "Compute codes" }).click();
  await expect(await errorOf(tool.getByLabel("Secret", { exact: true }))).toContainText("not valid Base32");
  await expect(tool.getByLabel("Secret", { exact: true })).toHaveValue("not base32!");
});

test("JOSE: a token jwcrypto signed verifies only under the pinned alg; one signed here verifies in jwcrypto", async ({
  page,
}) => {
  const keyFile = path.join(tmp, "jose-p256.pem");
  openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", keyFile]);
  const privatePem = readFileSync(keyFile, "utf8");
  const publicPem = openssl(["pkey", "-in", keyFile, "-pubout"]).toString();
  const py = (script: string, input: string) =>
    execFileSync("/usr/bin/python3", ["-c", script], { input, encoding: "utf8" }).trim();
  const claims = '{"sub":"ada","exp":4000000000}';
  const theirToken = py(
    `import sys; from jwcrypto import jwk, jws; from jwcrypto.common import json_encode
k = jwk.JWK.from_pem(sys.stdin.read().encode())
s = jws.JWS(${JSON.stringify(claims)}.encode()); s.add_signature(k, None, json_encode({"alg": "ES256"}), None)
print(s.serialize(compact=True))`,
    privatePem,
  );

  await openTool(page, "jose");
  const tool = page.locator('[data-tool="jose"]');
  await chooseOption(tool.getByLabel("What"), "Verify a JWS/JWT");
  await tool.getByLabel("Token", { exact: true }).fill(theirToken);
  await tool.getByLabel("Key", { exact: true }).fill(publicPem);
  await tool.getByRole("button", { name: "Verify", exact: true }).click();
  const verdict = result(tool, "JOSE result");
  await expect(verdict).toContainText('The token says alg "ES256"; you pinned RS256');
  await chooseOption(tool.getByLabel("Algorithm (alg)"), "ES256");
  await tool.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(verdict).toContainText("✓ The signature is valid");
  await expect(verdict).toContainText('"sub": "ada"');
  await expect(verdict).toContainText("exp:");

  await chooseOption(tool.getByLabel("What"), "Sign (JWS/JWT)");
  await tool.getByLabel("Payload (claims)").fill(claims);
  await chooseOption(tool.getByLabel("Algorithm (alg)"), "ES256");
  await tool.getByLabel("Key", { exact: true }).fill(privatePem);
  await tool.getByRole("button", { name: "Sign", exact: true }).click();
  const ours = (await result(tool, "Signed token (JWS)").textContent()) ?? "";
  expect(ours).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
  expect(
    py(
      `import sys; from jwcrypto import jwk, jws
k = jwk.JWK.from_pem(${JSON.stringify(publicPem)}.encode())
s = jws.JWS(); s.deserialize(sys.stdin.read().strip()); s.verify(k, alg="ES256"); print(s.payload.decode())`,
      ours,
    ),
  ).toBe(claims);
});

test("OpenSSH keys: ssh-keygen's encrypted key gives its fingerprints; the key written here opens in ssh-keygen", async ({
  page,
}) => {
  const file = path.join(tmp, "e2e_ed25519");
  execFileSync("ssh-keygen", ["-t", "ed25519", "-f", file, "-N", "pass phrase", "-C", "ada@example", "-q"]);
  const keygen = (args: string[]) => execFileSync("ssh-keygen", args, { encoding: "utf8" }).trim();
  await openTool(page, "ssh");
  const tool = page.locator('[data-tool="ssh"]');
  await tool.getByLabel("Key", { exact: true }).fill(readFileSync(file, "utf8"));
  await tool.getByRole("button", { name: "Read key", exact: true }).click();
  await expect(await errorOf(tool.getByLabel("Passphrase (if the key is encrypted)"))).toContainText(
    "Passphrase required",
  );
  await tool.getByLabel("Passphrase (if the key is encrypted)").fill("pass phrase");
  await tool.getByRole("button", { name: "Read key", exact: true }).click();
  const out = result(tool, "SSH key");
  await expect(out).toContainText(keygen(["-l", "-E", "sha256", "-f", `${file}.pub`]));
  await expect(out).toContainText(keygen(["-l", "-E", "md5", "-f", `${file}.pub`]).split(" ")[1] ?? "MD5:");

  await chooseOption(tool.getByLabel("Write as"), "OpenSSH private key (ssh-keygen's format)");
  await tool.getByLabel("New passphrase (optional)").fill("other");
  await tool.getByRole("button", { name: "Convert", exact: true }).click();
  const written = result(tool, "OpenSSH private key (encrypted)");
  // Opening and re-encrypting each run bcrypt_pbkdf (16 rounds, slow by design).
  await expect(written).toContainText("-----END OPENSSH PRIVATE KEY-----", { timeout: 30_000 });
  const ours = path.join(tmp, "e2e_ours");
  writeFileSync(ours, `${(await written.textContent()) ?? ""}`, { mode: 0o600 });
  expect(keygen(["-y", "-P", "other", "-f", ours])).toBe(readFileSync(`${file}.pub`, "utf8").trim());
});

test("PKCS#12: an openssl -legacy file opens with its password; the file made here opens in openssl", async ({
  page,
}) => {
  const key = path.join(tmp, "p12-e2e.key");
  const cert = path.join(tmp, "p12-e2e.pem");
  openssl([
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    key,
    "-subj",
    "/CN=p12 e2e",
    "-days",
    "5",
    "-out",
    cert,
  ]);
  const legacy = path.join(tmp, "legacy.p12");
  openssl([
    "pkcs12",
    "-export",
    "-legacy",
    "-inkey",
    key,
    "-in",
    cert,
    "-name",
    "e2e key",
    "-passout",
    "pass:old pw",
    "-out",
    legacy,
  ]);

  await openTool(page, "pkcs12");
  const tool = page.locator('[data-tool="pkcs12"]');
  const open = tool.getByRole("form", { name: "Open a PKCS#12 file" });
  await open.getByLabel("PKCS#12 file (.p12, .pfx)").setInputFiles(legacy);
  await open.getByLabel("Password", { exact: true }).fill("wrong");
  await open.getByRole("button", { name: "Open", exact: true }).click();
  await expect(await errorOf(open.getByLabel("Password", { exact: true }))).toContainText("Wrong password");
  await open.getByLabel("Password", { exact: true }).fill("old pw");
  await open.getByRole("button", { name: "Open", exact: true }).click();
  const contents = result(open, "PKCS#12 contents");
  await expect(contents).toContainText("openssl pkcs12 -legacy");
  await expect(contents).toContainText(readFileSync(cert, "utf8").split("\n")[1] ?? "");
  await expect(contents).toContainText("Certificate 1: CN=p12 e2e");

  const make = tool.getByRole("form", { name: "Make a PKCS#12 file" });
  await make.getByLabel("Private key", { exact: true }).fill(readFileSync(key, "utf8"));
  await make.getByLabel("Certificates, leaf first").fill(readFileSync(cert, "utf8"));
  await make.getByLabel("Password for the file").fill("new pw");
  await make.getByRole("button", { name: "Make file", exact: true }).click();
  const download = page.waitForEvent("download");
  await make.getByRole("button", { name: /Download pkcs#12 file/i }).click();
  const saved = path.join(tmp, "made.p12");
  await (await download).saveAs(saved);
  const out = openssl(["pkcs12", "-in", saved, "-passin", "pass:new pw", "-nodes"]).toString();
  expect(out).toContain(readFileSync(cert, "utf8").trim());
  expect(out).toContain("-----BEGIN PRIVATE KEY-----");
});

test("recipes: hash then Base64 is what openssl gives; the link reopens the recipe, the input only if asked", async ({
  page,
}) => {
  await openTool(page, "recipe");
  const tool = page.locator('[data-tool="recipe"]');
  await tool.getByLabel("Input", { exact: true }).fill("Ada Lovelace");
  await tool.getByRole("button", { name: "Run recipe" }).click();
  const expected = execFileSync("bash", [
    "-c",
    "printf 'Ada Lovelace' | openssl dgst -sha256 -binary | basenc --base64 -w0",
  ]).toString();
  await expect(result(tool, "Recipe output (hex)")).toHaveText(Buffer.from(expected).toString("hex"));
  // The shell line shown is the one that gives it.
  await tool.getByLabel("Put the input in the link and the shell line too").check();
  const shell = (await tool.locator("pre").textContent()) ?? "";
  expect(execFileSync("bash", ["-o", "pipefail", "-c", shell]).toString()).toBe(expected);

  await tool.getByRole("button", { name: "Copy link" }).click();
  await expect(page).toHaveURL(/#recipe=/);
  const withInput = page.url();
  await tool.getByLabel("Put the input in the link and the shell line too").uncheck();
  await tool.getByRole("button", { name: "Copy link" }).click();
  const withoutInput = page.url();
  expect(withoutInput).not.toBe(withInput);

  await page.goto(withoutInput);
  await page.reload();
  await expect(page.locator('[data-tool="recipe"]').getByLabel("Input", { exact: true })).toHaveValue("");
  await expect(page.locator('[data-tool="recipe"]').getByText("2. To Base64")).toBeVisible();
  await page.goto(withInput);
  await page.reload();
  await expect(page.locator('[data-tool="recipe"]').getByLabel("Input", { exact: true })).toHaveValue(
    "Ada Lovelace",
  );
});
