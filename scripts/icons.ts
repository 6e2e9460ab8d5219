// Renders the app's icons and social preview image from public/favicon.svg with the Chromium the
// browser tests use, so no image tool is needed: `npx tsx scripts/icons.ts` (commit the output).
//   public/favicon.ico         16 and 32 px PNGs in an ICO container (every browser reads PNG ICOs)
//   public/icon-192.png, icon-512.png, apple-touch-icon.png (180 px)
//   public/og.png              1200 x 630 social preview
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium } from "@playwright/test";

const pub = resolve(import.meta.dirname, "..", "public");
const svg = readFileSync(join(pub, "favicon.svg"), "utf8");
const dataUrl = `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;

/** An ICO whose images are PNGs (Vista and later, and every current browser). */
function ico(pngs: { size: number; data: Buffer }[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(pngs.length, 4);
  let offset = 6 + 16 * pngs.length;
  const entries = pngs.map(({ size, data }) => {
    const e = Buffer.alloc(16);
    e.writeUInt8(size >= 256 ? 0 : size, 0);
    e.writeUInt8(size >= 256 ? 0 : size, 1);
    e.writeUInt16LE(1, 4);
    e.writeUInt16LE(32, 6);
    e.writeUInt32LE(data.length, 8);
    e.writeUInt32LE(offset, 12);
    offset += data.length;
    return e;
  });
  return Buffer.concat([header, ...entries, ...pngs.map((p) => p.data)]);
}

const OG = `<!doctype html><html><body style="margin:0;width:1200px;height:630px;background:#020617;color:#f1f5f9;font-family:system-ui,sans-serif;display:flex;flex-direction:column;justify-content:center;padding:0 90px;box-sizing:border-box">
<div style="display:flex;align-items:center;gap:24px"><img src="${dataUrl}" width="96" height="96"><span style="font-size:56px;font-weight:700">SheetAPI</span></div>
<div style="font-size:64px;font-weight:700;line-height:1.15;margin-top:48px">Your Google Sheet,<br>as a real REST API.</div>
<div style="margin-top:48px;font:28px ui-monospace,monospace;color:#6ee7b7;background:#0f172a;border-radius:12px;padding:20px 28px">GET /api/v1/{sheetId}/Products?sort=price</div>
</body></html>`;

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox"],
  });
  const page = await browser.newPage();
  const icon = async (size: number) => {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<html><body style="margin:0;background:transparent"><img src="${dataUrl}" width="${size}" height="${size}" style="display:block"></body></html>`,
    );
    return page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
  };
  writeFileSync(
    join(pub, "favicon.ico"),
    ico([
      { size: 16, data: await icon(16) },
      { size: 32, data: await icon(32) },
    ]),
  );
  for (const [name, size] of [
    ["icon-192.png", 192],
    ["icon-512.png", 512],
    ["apple-touch-icon.png", 180],
  ] as const) {
    writeFileSync(join(pub, name), await icon(size));
  }
  await page.setViewportSize({ width: 1200, height: 630 });
  await page.setContent(OG);
  writeFileSync(join(pub, "og.png"), await page.screenshot({ clip: { x: 0, y: 0, width: 1200, height: 630 } }));
  await browser.close();
}

void main();
