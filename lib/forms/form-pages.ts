// The pages a browser sees after a form post: the hosted thank-you page (the owner's message and
// a link back) and a readable error page (what went wrong and a way back). No script, no styles
// from elsewhere: they work with JavaScript off.
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string, status: number): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#1e293b;background:#fff}a{color:#1d4ed8}h1{font-size:1.5rem}</style></head>
<body><main><h1>${escape(title)}</h1>${body}</main></body></html>`;
  return new Response(html, {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy":
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; frame-ancestors 'none'",
      "Referrer-Policy": "no-referrer",
    },
  });
}

const back = (href: string | undefined, label: string) =>
  href
    ? `<p><a href="${escape(href)}">${escape(label)}</a></p>`
    : `<p>Use your browser's Back button to return to the form.</p>`;

export function thankYouPage({ message, back: href }: { message?: string; back?: string }): Response {
  return page(
    "Thank you",
    `<p>${escape(message ?? "Your submission was received.")}</p>${back(href, "Back to the site")}`,
    200,
  );
}

export function errorPage({
  status,
  message,
  back: href,
}: {
  status: number;
  message: string;
  back?: string;
}): Response {
  const title =
    status === 429
      ? "Too many submissions"
      : status === 403
        ? "This form cannot be sent from here"
        : "The form was not sent";
  return page(title, `<p>${escape(message)}</p><p>Nothing was saved.</p>${back(href, "Back to the form")}`, status);
}
