import type { Metadata } from "next";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { Brand } from "@/app/components/brand";
import { SubmitButton } from "@/app/components/submit-button";
import { signIn } from "@/lib/auth/auth";
import { refuseMalformedInput } from "@/lib/auth/actions";
import { safeReturn, withFragment } from "@/lib/auth/return-to";
import { pendingReturn } from "@/lib/auth/sign-in-cancel";
import { signInErrorMessage } from "@/lib/auth/sign-in-errors";
import { currentUser } from "@/lib/auth/session";
import { config } from "@/lib/env";
import { FragmentField } from "./fragment-field";

export const metadata: Metadata = { title: "Sign in · SheetAPI" };

export const dynamic = "force-dynamic";

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string; error?: string | string[] }>;
}) {
  const { callbackUrl, error: code } = await searchParams;
  // A fixed sentence per next-auth code: never the URL's own text.
  const error = signInErrorMessage(code);
  // Only pages of this site: a sign-in link must not bounce the user to another host. Without one
  // in the address, after a failed sign-in (next-auth's error redirects drop it): where that
  // sign-in was started for.
  const user = await currentUser();
  const jar = await cookies();
  const pending =
    callbackUrl === undefined && error && !user ? pendingReturn((name) => jar.get(name)?.value) : undefined;
  const returnTo = pending ?? safeReturn(callbackUrl, config().appUrl);
  if (user) redirect(returnTo);

  async function signInWithGoogle(form: FormData) {
    "use server";
    if (!(form instanceof FormData)) refuseMalformedInput("sign in", form);
    await signIn("google", { redirectTo: withFragment(returnTo, String(form.get("fragment") ?? "")) });
  }

  return (
    <main id="main" className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-6">
      <Brand />
      <h1 className="mt-8 text-2xl font-bold">Sign in</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        Sign in with the Google account that owns your spreadsheets. New accounts start on the Free Trial plan.
      </p>
      {error && (
        <p
          role="alert"
          data-testid="sign-in-error"
          className="mt-4 rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {error}
        </p>
      )}
      <form action={signInWithGoogle} className="mt-6">
        <FragmentField />
        <SubmitButton
          testId="sign-in-google"
          pendingText="Opening Google…"
          className="w-full rounded-md bg-emerald-700 px-4 py-2.5 font-medium text-white hover:bg-emerald-800"
        >
          Continue with Google
        </SubmitButton>
      </form>
    </main>
  );
}
