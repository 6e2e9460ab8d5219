// What the sign-in page says for `?error=<code>`: fixed sentences only, never text from the URL,
// which anyone can link to (README.md).
const TRY_AGAIN = "Sign-in did not complete. Try again.";
const RETRY_GOOGLE = "Google's answer could not be checked, so sign-in did not complete. Try again.";
const OTHER_ACCOUNT =
  "This email address is already linked to another sign-in. Sign in with the Google account you used the first time.";

// A Map, not an object: `?error=constructor` must not find Object.prototype's.
const MESSAGES = new Map<string, string>([
  ["Configuration", "Sign-in is not working on our side at the moment. Try again in a few minutes."],
  ["AccessDenied", "Google did not let you sign in. If you cancelled on Google's screen, try again."],
  // Ours (lib/auth/sign-in-cancel.ts): Cancel on Google's sign-in screen.
  [
    "Cancelled",
    "Sign-in was cancelled on Google's screen; nothing was changed. Continue with Google when you are ready.",
  ],
  ["Verification", "This sign-in link has expired or was already used. Start again."],
  ["MissingCSRF", "The sign-in form had expired. Try again."],
  ["OAuthSignin", "Sign-in with Google could not be started. Try again."],
  ["Signin", "Sign-in with Google could not be started. Try again."],
  ["OAuthSignInError", "Sign-in with Google could not be started. Try again."],
  ["OAuthCallback", RETRY_GOOGLE],
  ["OAuthCallbackError", RETRY_GOOGLE],
  ["Callback", RETRY_GOOGLE],
  ["OAuthCreateAccount", "Your account could not be created. Try again."],
  ["OAuthAccountNotLinked", OTHER_ACCOUNT],
  ["AccountNotLinked", OTHER_ACCOUNT],
  ["SessionRequired", "Sign in to see that page."],
  ["Default", TRY_AGAIN],
]);

/** The sentence for next-auth's `error` query value; a generic one for anything unknown; none without one. */
export function signInErrorMessage(code: unknown): string | undefined {
  if (typeof code !== "string" || code === "") return undefined;
  return MESSAGES.get(code) ?? TRY_AGAIN;
}
