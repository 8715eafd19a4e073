import { existsSync, readFileSync } from "node:fs";
import { serverLog } from "../../playwright.config";
import { gatherSecrets, scanServerLog } from "./log-hygiene";

/**
 * After every spec: the whole run's server log (the Playwright webServer's output, see
 * playwright.config.ts) holds only JSON lines (and a local instance's plain `[mail]` lines) and none
 * of the run's secrets. A finding fails the run.
 */
export default async function logHygiene() {
  if (!existsSync(serverLog)) throw new Error(`log hygiene: no server log at ${serverLog}`);
  const text = readFileSync(serverLog, "utf8");
  const secrets = await gatherSecrets();
  const findings = scanServerLog(text, secrets);
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  const mailLines = lines.filter((line) => line.startsWith("[mail] ")).length;
  if (findings.length > 0) {
    throw new Error(
      `log hygiene: ${findings.length} finding(s) in ${serverLog}:\n` +
        findings.map((f) => `  line ${f.line}: ${f.what}: ${f.text}`).join("\n"),
    );
  }
  console.log(
    `log hygiene: ${lines.length} lines of ${serverLog}, JSON but for ${mailLines} [mail] lines; ` +
      `none of ${secrets.always.size + secrets.mailed.size} secrets (${secrets.mailed.size} mailed tokens) found`,
  );
}
