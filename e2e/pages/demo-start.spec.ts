// `npm start` on embedded defaults with the demo. Its own instance on the embedded stores: on the
// suite's shared Postgres and Redis the demo account would own the sheet other tests register.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { E2E } from "../support/env";
import { approveGoogleConsent } from "../support/google-consent";

const PORT = E2E.port + 5;
const DATA_DIR = ".data/e2e-demo";

function rssMb(pid: number): number {
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024);
}

let launcher: ChildProcess | undefined;
test.afterAll(() => {
  if (launcher?.pid && launcher.exitCode === null) process.kill(-launcher.pid, "SIGTERM");
});

test("npm start prints how to see the demo in the dashboard, and that way works", async ({ page }, testInfo) => {
  test.setTimeout(420_000);
  rmSync(DATA_DIR, { recursive: true, force: true });
  const embedded = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(DATABASE_URL|UPSTASH_REDIS_REST_)/.test(name)),
  ) as NodeJS.ProcessEnv;
  launcher = spawn(process.execPath, ["lib/cli/start.mjs"], {
    env: {
      ...embedded,
      PORT: String(PORT),
      DATA_DIR,
      GOOGLE_EMULATOR_PORT: String(E2E.googlePort),
      APP_URL: `http://localhost:${PORT}`,
      DEMO_MODE: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  launcher.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  launcher.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await expect.poll(() => output, { timeout: 360_000, intervals: [500] }).toContain("Dashboard:");
  await new Promise((r) => setTimeout(r, 1500));
  await testInfo.attach("npm start output", { body: output, contentType: "text/plain" });

  // The banner is last: nothing (no request log) after it once the server is ready.
  const lines = output.trimEnd().split("\n");
  expect(lines.at(-1)).toMatch(
    /^\s+\(first answer [\d.]+ s and healthy [\d.]+ s after the server started; [\d.]+ s after npm start\)$/,
  );
  expect(output).not.toMatch(/"msg":"request"/);
  const dashboard =
    /Dashboard: +open (\S+), Continue with Google, and on the emulator's Google screen sign in as (\S+)/.exec(output);
  expect(dashboard, output).not.toBeNull();
  const [, signInUrl, email] = dashboard!;
  expect(signInUrl).toBe(`http://localhost:${PORT}/signin`);

  // What stays beside the server is a small launcher (issue 17: it held 0.17-0.88 GB).
  expect(rssMb(launcher.pid!)).toBeLessThan(60);

  await page.goto(signInUrl!);
  await page.getByTestId("sign-in-google").click();
  await approveGoogleConsent(page, email);
  await page.waitForURL(`http://localhost:${PORT}/dashboard`);
  await expect(page.getByTestId("account-email")).toHaveText(email!);
  await expect(page.getByTestId("sheet-list")).toContainText("Acme Store");
  await page.getByRole("link", { name: "Acme Store" }).click();
  await expect(page.getByTestId("tab-name")).toHaveText(["Products", "Team Members", "Orders"]);
  await expect(page.locator('[data-testid="key-row"][data-key-name="Demo key"]')).toBeVisible();
});
