import { spawnSync } from "node:child_process";
import { appendFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { OPENSSL, OpenSslDir } from "../../../tests/support/openssl";
import { parsePem } from "./pem";
import { type ChainPurpose, verifyChain } from "./x509-create";

/*
 * Every verdict of the chain checker against `openssl verify -CAfile trusted.pem -untrusted chain.pem
 * leaf.pem` on the same certificates, at the machine's time and with `-attime`. The certificates are
 * issued by `openssl ca` with fixed validity periods (2020 to 2040 for the roots), so the verdicts do
 * not depend on the day the test runs (until 2031, when the leaf expires).
 */

const o = new OpenSslDir();
afterAll(() => o.cleanup());

o.write(
  "ca.cnf",
  [
    "[ca]",
    "default_ca = CA_default",
    "[CA_default]",
    "database = index.txt",
    "new_certs_dir = .",
    "serial = serial",
    "default_md = sha256",
    "policy = policy_any",
    "unique_subject = no",
    "[policy_any]",
    "commonName = supplied",
    "",
  ].join("\n"),
);
o.write("index.txt", "");
o.write("serial", "1000\n");

const CA = "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n";
const IDS = "subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n";
const SERVER = `${IDS}keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n`;

const keyOf: Record<string, string> = {};
function key(name: string, rsa = false): void {
  const args = rsa
    ? ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]
    : ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"];
  o.write(`${name}.key`, o.run(["genpkey", ...args]));
}

/** A certificate `name` for `/CN=cn` with `key`'s key, signed by `issuer` (or by itself), valid from..to. */
function issue(
  name: string,
  cn: string,
  k: string,
  issuer: string | null,
  from: string,
  to: string,
  ext: string,
): void {
  o.run(["req", "-new", "-key", `${k}.key`, "-subj", `/CN=${cn}`, "-out", `${name}.csr`]);
  o.write(`${name}.ext`, ext);
  const signer = issuer
    ? ["-cert", `${issuer}.pem`, "-keyfile", `${keyOf[issuer]}.key`]
    : ["-selfsign", "-keyfile", `${k}.key`];
  o.run([
    "ca",
    "-batch",
    "-config",
    "ca.cnf",
    "-notext",
    ...signer,
    "-in",
    `${name}.csr`,
    "-out",
    `${name}.pem`,
    "-startdate",
    from,
    "-enddate",
    to,
    "-extfile",
    `${name}.ext`,
  ]);
  keyOf[name] = k;
}

for (const k of ["int", "leaf", "other", "forgedInt", "forgedLeaf", "sub"]) key(k);
key("root", true);
key("forgedRoot", true);

const Y2020 = "20200101000000Z";
const Y2040 = "20400101000000Z";
issue("root", "Test Root", "root", null, Y2020, Y2040, `${CA}${IDS}`);
issue("other", "Other Root", "other", null, Y2020, Y2040, `${CA}${IDS}`);
issue("int", "Test Intermediate", "int", "root", Y2020, "20350101000000Z", `${CA}${IDS}`);
issue("leaf", "leaf.example", "leaf", "int", "20210101000000Z", "20310101000000Z", SERVER);
issue("leafOld", "old.example", "leaf", "int", "20210101000000Z", "20220101000000Z", SERVER);
issue("leafNew", "new.example", "leaf", "int", "20300101000000Z", "20320101000000Z", SERVER);
issue(
  "leafClient",
  "client.example",
  "leaf",
  "int",
  Y2020,
  "20310101000000Z",
  `${IDS}extendedKeyUsage=clientAuth\n`,
);
// An attacker's look-alikes: the same names, keys of their own.
issue("forgedRoot", "Test Root", "forgedRoot", null, Y2020, Y2040, `${CA}${IDS}`);
issue("forgedInt", "Test Intermediate", "forgedInt", "forgedRoot", Y2020, Y2040, `${CA}${IDS}`);
issue("forgedLeaf", "leaf.example", "forgedLeaf", "forgedInt", Y2020, Y2040, SERVER);
// Or names of their own.
issue("evilRoot", "Evil Root", "forgedRoot", null, Y2020, Y2040, `${CA}${IDS}`);
issue("evilInt", "Evil Intermediate", "forgedInt", "evilRoot", Y2020, Y2040, `${CA}${IDS}`);
issue("evilLeaf", "leaf.example", "forgedLeaf", "evilInt", Y2020, Y2040, SERVER);
// The same without key identifiers, so that the real root's name (and key type) alone matches the
// forged intermediate: openssl then finds the real root as its issuer, and its signature fails.
const NO_IDS = "subjectKeyIdentifier=none\nauthorityKeyIdentifier=none\n";
issue("forgedInt2", "Test Intermediate", "forgedInt", "forgedRoot", Y2020, Y2040, `${CA}${NO_IDS}`);
issue("forgedLeaf2", "leaf.example", "forgedLeaf", "forgedInt2", Y2020, Y2040, NO_IDS);
// Issuers that may not issue.
issue("intNotCa", "Not A CA", "int", "root", Y2020, Y2040, `${IDS}basicConstraints=CA:FALSE\n`);
issue("leafNotCa", "below-not-ca.example", "leaf", "intNotCa", Y2020, Y2040, SERVER);
issue(
  "intNoCertSign",
  "No CertSign",
  "int",
  "root",
  Y2020,
  Y2040,
  `${IDS}basicConstraints=critical,CA:TRUE\nkeyUsage=critical,digitalSignature\n`,
);
issue("leafNoCertSign", "below-ku.example", "leaf", "intNoCertSign", Y2020, Y2040, SERVER);
issue(
  "intPath0",
  "Path Zero",
  "int",
  "root",
  Y2020,
  Y2040,
  `${IDS}basicConstraints=critical,CA:TRUE,pathlen:0\n`,
);
issue("subCa", "Sub CA", "sub", "intPath0", Y2020, Y2040, `${CA}${IDS}`);
issue("leafDeep", "deep.example", "leaf", "subCa", Y2020, Y2040, SERVER);
// A self-signed leaf, and another with its name and a key of its own.
issue("selfLeaf", "self.example", "leaf", null, Y2020, Y2040, `${IDS}basicConstraints=CA:FALSE\n`);
issue("selfLookAlike", "self.example", "other", null, Y2020, Y2040, `${IDS}basicConstraints=CA:FALSE\n`);

const der = (name: string) => parsePem(o.readText(`${name}.pem`)).der;

interface Case {
  name: string;
  leaf: string;
  untrusted: string[];
  /** Empty: no trusted certificate at all (openssl verify -no-CAfile). */
  trusted: string[];
  purpose?: Exclude<ChainPurpose, "any">;
  /** Each time to check at ("now" = the machine's clock, no -attime) and the expected openssl outcome. */
  at: [string, "OK" | number][];
}

const AT = (iso: string) => new Date(iso);
const CASES: Case[] = [
  {
    name: "valid: leaf + intermediate + root",
    leaf: "leaf",
    untrusted: ["int", "root"],
    trusted: ["root"],
    at: [
      ["now", "OK"],
      ["2025-06-01T00:00:00Z", "OK"],
    ],
  },
  {
    name: "valid: root only as trusted",
    leaf: "leaf",
    untrusted: ["int"],
    trusted: ["root"],
    at: [
      ["now", "OK"],
      ["2025-06-01T00:00:00Z", "OK"],
    ],
  },
  {
    name: "valid: chain out of order",
    leaf: "leaf",
    untrusted: ["root", "int"],
    trusted: ["root"],
    at: [
      ["now", "OK"],
      ["2025-06-01T00:00:00Z", "OK"],
    ],
  },
  {
    name: "expired leaf (valid at a time in its period)",
    leaf: "leafOld",
    untrusted: ["int"],
    trusted: ["root"],
    at: [
      ["now", 10],
      ["2021-06-01T00:00:00Z", "OK"],
    ],
  },
  {
    name: "leaf checked after its period",
    leaf: "leaf",
    untrusted: ["int"],
    trusted: ["root"],
    at: [["2032-06-01T00:00:00Z", 10]],
  },
  {
    name: "not yet valid leaf (valid at a later time)",
    leaf: "leafNew",
    untrusted: ["int"],
    trusted: ["root"],
    at: [
      ["now", 9],
      ["2031-01-01T00:00:00Z", "OK"],
    ],
  },
  {
    name: "leaf checked before its period",
    leaf: "leaf",
    untrusted: ["int"],
    trusted: ["root"],
    at: [["2020-06-01T00:00:00Z", 9]],
  },
  {
    name: "unknown issuer (intermediate missing)",
    leaf: "leaf",
    untrusted: [],
    trusted: ["root"],
    at: [
      ["now", 20],
      ["2025-06-01T00:00:00Z", 20],
    ],
  },
  {
    name: "foreign root: real chain with its root, another root trusted",
    leaf: "leaf",
    untrusted: ["int", "root"],
    trusted: ["other"],
    at: [
      ["now", 19],
      ["2025-06-01T00:00:00Z", 19],
    ],
  },
  {
    name: "foreign root: real chain without its root",
    leaf: "leaf",
    untrusted: ["int"],
    trusted: ["other"],
    at: [
      ["now", 20],
      ["2025-06-01T00:00:00Z", 20],
    ],
  },
  {
    name: "forged leaf + intermediate + self-signed root, real root trusted",
    leaf: "forgedLeaf",
    untrusted: ["forgedInt", "forgedRoot"],
    trusted: ["root"],
    at: [
      ["now", 19],
      ["2025-06-01T00:00:00Z", 19],
    ],
  },
  {
    name: "an attacker's own chain (its own self-signed root), real root trusted",
    leaf: "evilLeaf",
    untrusted: ["evilInt", "evilRoot"],
    trusted: ["root"],
    at: [
      ["now", 19],
      ["2025-06-01T00:00:00Z", 19],
    ],
  },
  {
    name: "forged chain without key identifiers, real root trusted",
    leaf: "forgedLeaf2",
    untrusted: ["forgedInt2", "forgedRoot"],
    trusted: ["root"],
    at: [
      ["now", 7],
      ["2025-06-01T00:00:00Z", 7],
    ],
  },
  {
    name: "forged root given as trusted, real root in the chain",
    leaf: "leaf",
    untrusted: ["int", "root"],
    trusted: ["forgedRoot"],
    at: [
      ["now", 19],
      ["2025-06-01T00:00:00Z", 19],
    ],
  },
  {
    name: "no trusted root given: full chain",
    leaf: "leaf",
    untrusted: ["int", "root"],
    trusted: [],
    at: [
      ["now", 19],
      ["2025-06-01T00:00:00Z", 19],
    ],
  },
  {
    name: "no trusted root given: a self-signed certificate alone",
    leaf: "selfLeaf",
    untrusted: [],
    trusted: [],
    at: [
      ["now", 18],
      ["2025-06-01T00:00:00Z", 18],
    ],
  },
  {
    name: "self-signed certificate trusted as itself",
    leaf: "selfLeaf",
    untrusted: [],
    trusted: ["selfLeaf"],
    at: [
      ["now", "OK"],
      ["2025-06-01T00:00:00Z", "OK"],
    ],
  },
  {
    name: "self-signed look-alike of a trusted certificate",
    leaf: "selfLookAlike",
    untrusted: [],
    trusted: ["selfLeaf"],
    at: [
      ["now", 18],
      ["2025-06-01T00:00:00Z", 18],
    ],
  },
  {
    name: "trusted intermediate that is not self-signed",
    leaf: "leaf",
    untrusted: [],
    trusted: ["int"],
    at: [
      ["now", 2],
      ["2025-06-01T00:00:00Z", 2],
    ],
  },
  {
    name: "issuer not a CA (CA:FALSE)",
    leaf: "leafNotCa",
    untrusted: ["intNotCa"],
    trusted: ["root"],
    at: [
      ["now", 79],
      ["2025-06-01T00:00:00Z", 79],
    ],
  },
  {
    name: "issuer keyUsage without keyCertSign",
    leaf: "leafNoCertSign",
    untrusted: ["intNoCertSign"],
    trusted: ["root"],
    at: [
      ["now", 79],
      ["2025-06-01T00:00:00Z", 79],
    ],
  },
  {
    name: "path length exceeded (pathlen:0 above another CA)",
    leaf: "leafDeep",
    untrusted: ["subCa", "intPath0"],
    trusted: ["root"],
    at: [
      ["now", 25],
      ["2025-06-01T00:00:00Z", 25],
    ],
  },
  {
    name: "purpose sslserver, leaf for clientAuth only",
    leaf: "leafClient",
    untrusted: ["int"],
    trusted: ["root"],
    purpose: "sslserver",
    at: [
      ["now", 26],
      ["2025-06-01T00:00:00Z", 26],
    ],
  },
  {
    name: "purpose sslclient, leaf for clientAuth",
    leaf: "leafClient",
    untrusted: ["int"],
    trusted: ["root"],
    purpose: "sslclient",
    at: [
      ["now", "OK"],
      ["2025-06-01T00:00:00Z", "OK"],
    ],
  },
  {
    name: "purpose sslserver, leaf for serverAuth",
    leaf: "leaf",
    untrusted: ["int"],
    trusted: ["root"],
    purpose: "sslserver",
    at: [
      ["now", "OK"],
      ["2025-06-01T00:00:00Z", "OK"],
    ],
  },
];

const pemFile = (file: string, names: string[]) =>
  o.write(file, names.map((n) => o.readText(`${n}.pem`)).join(""));

/** Runs openssl verify; its verdict and each "error N at D depth lookup" it prints, in order. */
function opensslVerify(c: Case, at: Date | undefined): { ok: boolean; errors: string[] } {
  const args = ["verify", "-no-CApath", "-no-CAstore"];
  if (c.trusted.length) args.push("-CAfile", pemFile("trusted.pem", c.trusted));
  else args.push("-no-CAfile");
  if (c.untrusted.length) args.push("-untrusted", pemFile("untrusted.pem", c.untrusted));
  if (at) args.push("-attime", String(Math.floor(at.getTime() / 1000)));
  if (c.purpose) args.push("-purpose", c.purpose);
  args.push(o.path(`${c.leaf}.pem`));
  const r = spawnSync(OPENSSL, args, { encoding: "utf8" });
  const out = `${r.stdout}${r.stderr}`;
  const errors = [...out.matchAll(/error (\d+) at (\d+) depth lookup/g)].map((m) => `${m[1]}@${m[2]}`);
  return { ok: r.status === 0 && /: OK$/m.test(out), errors };
}

const table: string[] = [];
afterAll(() => {
  // CHAIN_VERDICTS=path writes the table of verdicts (for a report); the test does not need it.
  const file = process.env.CHAIN_VERDICTS;
  if (file) appendFileSync(file, `${table.join("\n")}\n`);
});

describe("the chain checker decides as openssl verify does", () => {
  for (const c of CASES) {
    for (const [when, expected] of c.at) {
      const label = `${c.name}${when === "now" ? "" : ` -attime ${when}`}${c.purpose ? ` -purpose ${c.purpose}` : ""}`;
      it(label, async () => {
        const at = when === "now" ? undefined : AT(when);
        const theirs = opensslVerify(c, at);
        // The fixtures give the outcome named in the case, to openssl first.
        expect(theirs.ok ? "OK" : Number(theirs.errors[0]?.split("@")[0])).toBe(expected);

        const mine = await verifyChain(
          [der(c.leaf), ...c.untrusted.map(der)],
          at ?? new Date(),
          c.trusted.map(der),
          { purpose: c.purpose },
        );
        table.push(
          `| ${label} | ${theirs.ok ? "OK" : theirs.errors.map((e) => `error ${e.replace("@", " at depth ")}`).join(", ")} | ${mine.verdict}${mine.errors.length ? `: ${mine.errors.map((e) => `error ${e.code} at depth ${e.depth}`).join(", ")}` : ""} |`,
        );
        expect(mine.valid, mine.problems.join("\n")).toBe(theirs.ok);
        if (c.trusted.length === 0) expect(mine.verdict).toBe("no trust anchor");
        else expect(mine.verdict).toBe(theirs.ok ? "verified" : "failed");
        // The same errors, in openssl's order (openssl verify stops at some that we go past).
        const ours = mine.errors.map((e) => `${e.code}@${e.depth}`);
        expect(ours.slice(0, theirs.errors.length)).toEqual(theirs.errors);
        if (theirs.ok) expect(mine.problems).toEqual([]);
      });
    }
  }
});
