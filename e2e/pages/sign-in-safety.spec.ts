// Sign-in from the outside: it never sends the browser to another site, deep links survive it,
// the session endpoint gives pages what they need and nothing secret, its errors are the page's
// own sentences, and dashboard actions posted from another origin are refused with 403 (more in
// e2e/api/cross-origin-posts.spec.ts). Every page answer carries an X-Request-Id.
import { connect } from "node:net";
import { expect, test } from "@playwright/test";
import { registerSheet } from "../support/dashboard";
import { createSpreadsheet } from "../support/emulator-admin";
import { E2E } from "../support/env";
import { approveGoogleConsent, signIn } from "../support/google-consent";

test("a callbackUrl to another site lands on the dashboard instead", async ({ page }) => {
  for (const target of ["/\\evil.example", "//evil.example", "https://evil.example/"]) {
    await page.context().clearCookies();
    await page.goto(`/signin?callbackUrl=${encodeURIComponent(target)}`);
    await page.getByTestId("sign-in-google").click();
    await approveGoogleConsent(page, "redirect@example.com");
    await page.waitForURL((url) => url.origin === E2E.baseUrl && url.pathname === "/dashboard");
    // Signed in already: the sign-in page sends it straight on, to the dashboard too.
    const again = await page.request.get(`/signin?callbackUrl=${encodeURIComponent(target)}`, { maxRedirects: 0 });
    expect(new URL(again.headers()["location"] ?? "", E2E.baseUrl).origin).toBe(E2E.baseUrl);
  }
  // Nor back to the sign-in page itself, which would send a signed-in visitor round for ever.
  for (const target of ["/signin", "/signin?callbackUrl=/signin"]) {
    await page.goto(`/signin?callbackUrl=${encodeURIComponent(target)}`);
    await page.waitForURL((url) => url.pathname === "/dashboard");
  }
  // A plain visit, signed in, goes to the dashboard whatever the last sign-in was started for.
  await page.goto("/signin");
  await page.waitForURL((url) => url.pathname === "/dashboard");
});

test("a signed-out visit to a sheet page returns to it after sign-in", async ({ page }) => {
  const sheetId = await createSpreadsheet("Deep link");
  await signIn(page, "deeplink@example.com");
  await registerSheet(page, sheetId);
  await page.context().clearCookies();

  await page.goto(`/dashboard/sheets/${sheetId}`);
  await page.waitForURL(/\/signin\?/);
  await page.getByTestId("sign-in-google").click();
  await approveGoogleConsent(page, "deeplink@example.com");
  await page.waitForURL(`${E2E.baseUrl}/dashboard/sheets/${sheetId}`);
  await expect(page.getByTestId("sheet-name")).toHaveText("Deep link");
});

test("the session endpoint answers the user's id, email and name, never the session token or account data", async ({
  page,
}) => {
  await signIn(page, "session@example.com");
  const token = (await page.context().cookies()).find((c) => c.name.endsWith("authjs.session-token"))!.value;
  const res = await page.request.get("/api/auth/session");
  const text = await res.text();
  expect(text).not.toContain(token);
  const body = JSON.parse(text);
  expect(Object.keys(body).sort()).toEqual(["expires", "user"]);
  expect(Object.keys(body.user).sort()).toEqual(["email", "id", "name"]);
  expect(body.user.email).toBe("session@example.com");
});

test("a dashboard action posted from another origin is refused with 403", async ({ page }) => {
  await signIn(page, "origin@example.com");
  const res = await page.request.post("/dashboard", {
    headers: {
      Origin: "https://evil.example",
      "Next-Action": "0".repeat(42),
      "Content-Type": "text/plain;charset=UTF-8",
    },
    data: "[]",
    maxRedirects: 0,
  });
  expect(res.status()).toBe(403);
  expect(await res.json()).toMatchObject({ success: false, error: "forbidden" });
});

test("the sign-in page says what went wrong in its own words, never in text from the URL", async ({ page }) => {
  const alert = page.getByTestId("sign-in-error");
  for (const text of ["Your account was suspended. Call support at evil.example", "constructor", "accessdenied"]) {
    await page.goto(`/signin?error=${encodeURIComponent(text)}`);
    await expect(alert).toHaveText("Sign-in did not complete. Try again.");
  }
  await expect(page.getByText("suspended")).toHaveCount(0);
  await page.goto("/signin?error=AccessDenied");
  await expect(alert).toHaveText("Google did not let you sign in. If you cancelled on Google's screen, try again.");
  await page.goto("/signin");
  await expect(alert).toHaveCount(0);

  // Codes next-auth itself sends: cancelling on Google's screen, and a callback it did not start.
  await page.getByTestId("sign-in-google").click();
  await page.waitForURL((url) => url.href.startsWith(`${E2E.googleUrl}/o/oauth2/v2/auth`));
  await page.getByRole("button", { name: "Cancel" }).click();
  await page.waitForURL(/\/signin\?.*error=Cancelled/);
  await expect(alert).toHaveText(
    "Sign-in was cancelled on Google's screen; nothing was changed. Continue with Google when you are ready.",
  );
  await page.goto("/api/auth/callback/google?code=forged&state=forged");
  await page.waitForURL(/\/signin\?.*error=/);
  await expect(alert).not.toHaveText("Sign-in did not complete. Try again.");
});

test("cancelled on Google's screen, sign-in says so and still goes on to the page asked for", async ({ page }) => {
  await page.goto("/dashboard/usage");
  await page.waitForURL(/\/signin\?callbackUrl=/);
  await page.getByTestId("sign-in-google").click();
  await page.waitForURL((url) => url.href.startsWith(`${E2E.googleUrl}/o/oauth2/v2/auth`));
  await page.getByRole("button", { name: "Cancel" }).click();
  await page.waitForURL(/\/signin\?error=Cancelled&callbackUrl=%2Fdashboard%2Fusage$/);
  await expect(page.getByTestId("sign-in-error")).toContainText("Sign-in was cancelled");
  await page.getByTestId("sign-in-google").click();
  await approveGoogleConsent(page, "cancelled-once@example.com");
  await page.waitForURL(/\/dashboard\/usage$/);
});

test("pages answer with an X-Request-Id", async ({ request }) => {
  const sheetId = await createSpreadsheet("Request ids");
  for (const path of [
    "/",
    "/signin",
    "/docs",
    `/docs/${sheetId}`,
    "/docs/1NoSuchSheet00000000000000000000000000000000",
  ]) {
    const res = await request.get(path);
    expect(res.headers()["x-request-id"], path).toMatch(/^req_[0-9a-f]{32}$/);
  }
});

test("a chunked body over 1 MB gets 413 and Connection: close", async ({ page }) => {
  const sheetId = await createSpreadsheet("Big bodies");
  await signIn(page, "big-body@example.com");
  const key = await registerSheet(page, sheetId);
  // A raw socket: the server may answer 413 and close while the body is still being written, and
  // what it sent must be read whatever the writes meet then (EPIPE, a reset).
  const { status, connection } = await new Promise<{ status: number; connection: string | undefined }>(
    (resolve, reject) => {
      const { hostname, port } = new URL(E2E.baseUrl.replace("localhost", "127.0.0.1"));
      const socket = connect(Number(port), hostname);
      let received = "";
      const settle = () => {
        const head = received.split("\r\n\r\n")[0]!;
        const code = /^HTTP\/1\.1 (\d{3})/.exec(head);
        if (!code) return reject(new Error(`no answer read: ${JSON.stringify(received.slice(0, 200))}`));
        resolve({
          status: Number(code[1]),
          connection: /^connection:\s*(.+)$/im.exec(head)?.[1]?.trim().toLowerCase(),
        });
      };
      socket.setEncoding("latin1");
      socket.on("data", (data: string) => {
        received += data;
        if (received.includes("\r\n\r\n")) socket.destroy(); // The answer's head is all the test reads.
      });
      socket.on("error", () => {}); // Writes after the server closed: what it answered is read on close.
      socket.on("close", settle);
      socket.on("connect", () => {
        socket.write(
          `POST /api/v1/${sheetId}/Items HTTP/1.1\r\nHost: ${hostname}:${port}\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        );
        const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
        const piece = chunk(`"${"x".repeat(64 * 1024)}",`);
        socket.write(chunk("["));
        // Up to 2 MB, stopping as soon as the server closed.
        let sent = 0;
        const pump = () => {
          while (sent < 32 && !socket.destroyed && socket.write(piece)) sent++;
          if (socket.destroyed) return;
          if (sent < 32)
            socket.once("drain", () => {
              sent++;
              pump();
            });
          else socket.write(`${chunk('""]')}0\r\n\r\n`);
        };
        pump();
      });
    },
  );
  expect(status).toBe(413);
  expect(connection).toBe("close");
});
